//! Players' ratings per variant, and each variant's leaderboard.

use async_trait::async_trait;
use missive_domain::{Cursor, Page, RatingRecord};

use crate::StoreError;

/// Players' ratings, one per variant, each versioned, and each variant's leaderboard.
#[async_trait]
pub trait RatingStore: Send + Sync {
    /// Stores `rating`: revision 1 only if the player has no rating in its variant,
    /// revision `n` only over revision `n - 1`; a conflict otherwise, and nothing written.
    async fn put_rating(&self, rating: &RatingRecord) -> Result<(), StoreError>;

    /// The player's rating in `variant`, if they have one.
    async fn rating(&self, player: &str, variant: &str)
    -> Result<Option<RatingRecord>, StoreError>;

    /// Every rating of the player, by variant.
    async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError>;

    /// A page of the ratings in `variant`, highest first, from `cursor` (the page before's
    /// `next`; [`StoreError::BadCursor`] for another list's), at most `limit`.
    async fn leaderboard(
        &self,
        variant: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<RatingRecord>, StoreError>;
}
