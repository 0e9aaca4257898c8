//! Players' feeds: the items the changes of their games wrote, read in order.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::FeedPage;

use crate::StoreError;

/// Players' feeds: the items that commits, creations and challenges' starts write with their
/// change, read in order from a position the store gave out.
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
}
