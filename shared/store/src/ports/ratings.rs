//! Players' ratings per variant, each variant's leaderboard, and its rating periods.

use async_trait::async_trait;
use chrono::NaiveDate;
use missive_domain::{Cursor, Page, PeriodsClosed, RatedGame, RatingRecord};

use crate::StoreError;

/// Players' ratings, one per variant, each versioned, each variant's leaderboard, and each
/// variant's rating periods: how far they have closed, and the rated games kept with the
/// periods still to close.
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

    /// Sets how far `closed.variant`'s rating periods have closed to `closed.through`, if
    /// nothing is set for the variant yet: whether it was set.
    async fn open_rating_periods(&self, closed: &PeriodsClosed) -> Result<bool, StoreError>;

    /// How far each variant's rating periods have closed, for every variant set up with
    /// [`RatingStore::open_rating_periods`].
    async fn rating_periods(&self) -> Result<Vec<PeriodsClosed>, StoreError>;

    /// Moves how far `variant`'s rating periods have closed from `from` to `to`: `false`,
    /// and nothing written, when it is no longer at `from`.
    async fn move_rating_periods(
        &self,
        variant: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<bool, StoreError>;

    /// Keeps `game` with its variant's rating period `game.period`; a game kept already
    /// (in any period) is left as it was.
    async fn keep_rated_game(&self, game: &RatedGame) -> Result<(), StoreError>;

    /// The rated games kept with `variant`'s rating period starting on `period`, by game id.
    async fn rated_games(
        &self,
        variant: &str,
        period: NaiveDate,
    ) -> Result<Vec<RatedGame>, StoreError>;
}
