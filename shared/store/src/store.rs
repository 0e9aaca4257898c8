//! The store trait: what the game service needs from storage, and nothing else.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::{
    Commit, GameId, Head, MailPreference, Notice, Player, StoreError, StoredGame, VacationRecord,
};

/// Storage of games as heads with append-only move logs, plus the indexes the read models
/// need. Every implementation passes the same contract tests.
///
/// Writes are conditional: [`Store::create`] only if the game is new, [`Store::commit`] only
/// if the head is still at the revision and ply the writer read; otherwise
/// [`StoreError::Conflict`] and nothing is written. A successful return means the write is
/// durable.
#[async_trait]
pub trait Store: Send + Sync {
    /// Stores a new game's head; a conflict if the id is taken.
    async fn create(&self, head: &Head) -> Result<(), StoreError>;

    /// The game's head and every move, read consistently; `None` if there is no such game.
    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError>;

    /// Applies `commit` atomically: replaces the head and appends the moves, or nothing.
    async fn commit(&self, commit: &Commit) -> Result<(), StoreError>;

    /// Stores a whole game at once: its head (revision 1), every move, and the finished
    /// entries if it is finished. Readers see all of it or nothing: a game without its head
    /// does not exist. A conflict if the id is taken; invalid if the game is not well formed
    /// (see [`StoredGame::as_first_commit`]).
    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError>;

    /// Heads of the active games where `player` is to move, earliest deadline first.
    async fn waiting_for(&self, player: &str, limit: usize) -> Result<Vec<Head>, StoreError>;

    /// Heads of the games `player` finished, most recent first.
    async fn finished_by(&self, player: &str, limit: usize) -> Result<Vec<Head>, StoreError>;

    /// Every game id, in no particular order (for checks and exports).
    async fn game_ids(&self) -> Result<Vec<GameId>, StoreError>;

    /// The player's vacation record (a default one, revision 0, if there is none).
    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError>;

    /// Replaces the player's vacation record if its stored revision is still
    /// `record.revision - 1` (0 meaning no record yet); a conflict otherwise.
    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError>;

    /// Registers a player; a conflict if the handle or the e-mail address is taken.
    async fn create_player(&self, player: &Player) -> Result<(), StoreError>;

    /// The player with this handle, if any.
    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError>;

    /// The player with this e-mail address (compared lower-cased), if any.
    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError>;

    /// The player's mail preference ([`MailPreference::EachMove`] if they never chose).
    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError>;

    /// Sets the player's mail preference, replacing any earlier choice.
    async fn set_mail_preference(
        &self,
        player: &str,
        preference: MailPreference,
    ) -> Result<(), StoreError>;

    /// Writes the marker of `notice` (claimed at `at`) if there is none: `true` if this call
    /// wrote it and so must send the mail, `false` if it was claimed before.
    async fn claim_notice(&self, notice: &Notice, at: DateTime<Utc>) -> Result<bool, StoreError>;

    /// Removes the marker of `notice` (after its mail could not be sent), so a later event
    /// or sweep claims it again. Nothing happens if there is none.
    async fn release_notice(&self, notice: &Notice) -> Result<(), StoreError>;

    /// Heads of every active game someone is to move in whose stored deadline (before any
    /// vacation) is at or before `until`, earliest deadline first: what the sweeper walks.
    async fn waiting_games(&self, until: DateTime<Utc>) -> Result<Vec<Head>, StoreError>;

    /// Marks the single-use token `id` used at `at`, until `expires_at` (when the token
    /// itself expires; markers expired by `at` may be forgotten). A conflict if it was used
    /// already: of concurrent uses exactly one succeeds.
    async fn use_token(
        &self,
        id: &str,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// Requests sent to the backend so far: HTTP requests (retries included) for DynamoDB,
    /// reads and writes handed to the database threads for SQLite. Used to count round
    /// trips per move.
    fn round_trips(&self) -> u64;
}
