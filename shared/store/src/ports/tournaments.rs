//! Tournaments, and the games their starts create.

use async_trait::async_trait;
use missive_domain::{Commit, Cursor, FeedItem, Page, Tournament, TournamentId};

use crate::StoreError;

/// Tournaments, each versioned and listed newest first, and the games their starts create.
#[async_trait]
pub trait TournamentStore: Send + Sync {
    /// Stores `tournament`: revision 1 only if no tournament has its id, revision `n` only
    /// over revision `n - 1`; a conflict otherwise, and nothing written.
    async fn put_tournament(&self, tournament: &Tournament) -> Result<(), StoreError> {
        self.put_tournament_telling(tournament, &[]).await
    }

    /// Stores `tournament` as [`TournamentStore::put_tournament`] does, with `feed`, the
    /// items that tell its players of the change, in the same atomic write: the tournament
    /// and its items together, or nothing (a conflict writes no item).
    async fn put_tournament_telling(
        &self,
        tournament: &Tournament,
        feed: &[FeedItem],
    ) -> Result<(), StoreError>;

    /// The tournament with this id, if any.
    async fn tournament(&self, id: &TournamentId) -> Result<Option<Tournament>, StoreError>;

    /// Every tournament, newest first.
    async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, StoreError>;

    /// Creates the games that `starts` begin (each a commit from revision 0 without
    /// entries, as [`crate::ChallengeStore::put_challenge`] takes): each game in one atomic
    /// write of its own (its head only if its id is new, its members' list items, its
    /// wake-up and feed items), a conflict for a game whose id is taken. One answer per
    /// game, in order.
    async fn create_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>>;
}
