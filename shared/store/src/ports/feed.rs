//! Players' feeds: the items the changes of their games wrote, read in order.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{FeedItem, FeedPage, GameId};

use crate::StoreError;

/// Players' feeds: the items that commits, creations and challenges' starts write with their
/// change, or that a reader of a change tells after it, read in order from a position the
/// store gave out.
#[async_trait]
pub trait FeedStore: Send + Sync {
    /// The items of `player`'s feed after `after` (a position this store gave out; from the
    /// oldest kept when `None`), written at `since` or later, oldest first, at most `limit`.
    /// Every item a commit, a creation or a challenge's start wrote is given once a reader
    /// goes on from the positions it was given (DynamoDB: provided no write lands more than
    /// a minute after its items' time); an item may be given again only to a reader whose
    /// position had to drop what it had seen (see the store's documentation). A position this
    /// store did not give out is [`StoreError::BadCursor`].
    async fn feed(
        &self,
        player: &str,
        after: Option<&str>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<FeedPage, StoreError>;

    /// Appends `feed`, the items of the change that took game `game` to `revision`, after
    /// that change was committed without them, at `now`: how the reader of a store's change
    /// stream writes what a commit left to it. Each item is given to a reader that goes on
    /// from the positions it was given, as if it had been written with its change, however
    /// late it is told: an item told after [`TOLD_ON_TIME`] from its time is placed where a
    /// reader already past that time still finds it (on DynamoDB, whose feed is in the
    /// order of the changes' times), with the id it has at its own time. Told again (a
    /// retry), an item already written adds nothing, but one told late may be given twice,
    /// with the same id.
    async fn tell(
        &self,
        game: &GameId,
        revision: u64,
        feed: &[FeedItem],
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;
}

/// How long after its time an item told later is still written where it belongs: within
/// the time a reader looks back for items landing late (a minute, on DynamoDB), less the
/// longest a write takes (its attempts, 12 s each).
pub const TOLD_ON_TIME: chrono::TimeDelta = chrono::TimeDelta::seconds(15);
