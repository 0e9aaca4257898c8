//! Games: each a head with an append-only log, written whole or a commit at a time.

use std::ops::Range;

use async_trait::async_trait;
use missive_domain::{Commit, EventRecord, FeedItem, GameId, Head, MoveRecord, StoredGame};

use crate::StoreError;

/// Games: each a head (its one mutable record, guarded by a revision) with an append-only log of
/// moves and events, created, read, committed to and imported whole.
#[async_trait]
pub trait GameStore: Send + Sync {
    /// Stores a new game's head with the feed items that tell of it, atomically; a conflict
    /// if the id is taken.
    async fn create(&self, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError>;

    /// The game's head alone: one record whatever the game's length; `None` if there is no
    /// such game.
    async fn head(&self, id: &GameId) -> Result<Option<Head>, StoreError>;

    /// The game's head and its whole log, read consistently; `None` if there is no such
    /// game.
    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError>;

    /// The moves of game `id` at `plies` and its events numbered `events`, as stored, in
    /// order: the entries one commit appended, which a reader of that change later decides
    /// its feed items from ([`crate::FeedStore::tell`]); fewer where the log has none.
    async fn entries(
        &self,
        id: &GameId,
        plies: Range<u32>,
        events: Range<u32>,
    ) -> Result<(Vec<MoveRecord>, Vec<EventRecord>), StoreError>;

    /// Applies `commit` atomically: replaces the head, appends the entries, records each new
    /// move's idempotency key, keeps the players' lists and the game's wake-up, appends the
    /// feed items it carries (a commit may leave them to be told after it:
    /// [`crate::FeedStore::tell`]), or nothing.
    /// A conflict if the head moved on; [`StoreError::KeyUsed`] (and nothing written) if a
    /// new move's key was used before by the same seat.
    async fn commit(&self, commit: &Commit) -> Result<(), StoreError>;

    /// Writes the cancelled entries of the game called off at `head` (as stored) for its
    /// players and invitees, as the commit that called it off writes them (again, where
    /// they are); nothing for a game not cancelled. How an upgrade lists the games called
    /// off before their entries were kept.
    async fn keep_cancelled(&self, head: &Head) -> Result<(), StoreError>;

    /// The heads of `ids` that exist, in the order given.
    async fn heads(&self, ids: &[GameId]) -> Result<Vec<Head>, StoreError>;

    /// Stores a whole game at once: its head (revision 1), every entry, and the finished
    /// entries if it is finished. Readers see all of it or nothing: a game without its head
    /// does not exist. A conflict if the id is taken; invalid if the game is not well formed
    /// (see [`StoredGame::as_first_commit`]).
    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError>;

    /// Stores whole games at once, each exactly as [`GameStore::import_game`] stores one: all
    /// of a game or nothing of it, and each on its own, so a game that fails (its id taken,
    /// not well formed) leaves the others written. One answer per game, in order. SQLite
    /// writes the batch in one transaction; DynamoDB packs small games together into its
    /// transactions. The games are the store's to keep (SQLite moves them to its writer
    /// without a copy).
    async fn import_games(&self, games: Vec<StoredGame>) -> Vec<Result<(), StoreError>>;
}
