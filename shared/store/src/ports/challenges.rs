//! Challenges: open invitations to a game, listed while open.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Challenge, ChallengeFilter, ChallengeId, Commit, Cursor, Page};

use crate::StoreError;

/// Challenges: invitations to a game, each versioned, listed while open, and the game the
/// last seat taken creates in the same write.
#[async_trait]
pub trait ChallengeStore: Send + Sync {
    /// Stores `challenge`: revision 1 only if no challenge has its id, revision `n` only
    /// over revision `n - 1`; it is listed among the open challenges while its state is
    /// open. With `start` (a commit from revision 0 without entries: a game that does not
    /// exist yet), creates that game in the same atomic write: its head only if the id is
    /// new, its members' list items and its wake-up. A conflict otherwise, and nothing
    /// written; invalid if `start` is not such a commit.
    async fn put_challenge(
        &self,
        challenge: &Challenge,
        start: Option<&Commit>,
    ) -> Result<(), StoreError>;

    /// Publishes `challenge`, new and open at revision 1, unless its creator has `most`
    /// challenges open and not expired at its publication (`created_at`) already: `true` if
    /// it was stored as [`ChallengeStore::put_challenge`] stores it, `false` (and nothing
    /// written) if not. Challenges withdrawn, accepted or expired do not count. Of
    /// publications by one creator at once, no more are stored than `most` allows: one
    /// that another got ahead of is a conflict (nothing written), to be tried again.
    /// Invalid if `challenge` is not open at revision 1, or its id is taken.
    async fn publish_challenge(&self, challenge: &Challenge, most: u64)
    -> Result<bool, StoreError>;

    /// The challenge with this id, if any (whatever its state).
    async fn challenge(&self, id: &ChallengeId) -> Result<Option<Challenge>, StoreError>;

    /// The challenges open and not expired at `now` that `filter` lets through, newest
    /// first. A cursor goes on only in the list of the same filter.
    async fn open_challenges(
        &self,
        filter: &ChallengeFilter,
        now: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Challenge>, StoreError>;
}
