//! The store trait: what the game service needs from storage, and nothing else.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{
    AppPassword, Challenge, ChallengeFilter, ChallengeId, Commit, Cursor, FeedItem, FeedPage,
    GameId, Head, Hook, HookId, MailPreference, MessageMail, Notice, Page, Player, RatingRecord,
    StoredGame, Tournament, TournamentId, VacationRecord,
};

use crate::StoreError;

/// When a game or a tournament next needs the notifier: an entry of the sweep's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wake {
    /// What is due.
    pub subject: WakeSubject,
    /// When it is due.
    pub at: DateTime<Utc>,
}

/// What a wake-up is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WakeSubject {
    /// A game: a mail, a deadline, a digest or its end (the game's head holds which).
    Game(GameId),
    /// An open tournament with a start date: its start, due at that date.
    Tournament(TournamentId),
    /// An active webhook with something due (a retry, its regular look), as stored.
    Hook(Box<Hook>),
}

impl std::fmt::Display for WakeSubject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WakeSubject::Game(id) => write!(f, "{id}"),
            WakeSubject::Tournament(id) => write!(f, "tournament {id}"),
            WakeSubject::Hook(hook) => write!(f, "webhook {}", hook.id),
        }
    }
}

/// Which of a player's current games a list shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Membership {
    /// Games still forming where the player sits or is invited, oldest first.
    Forming,
    /// Games being played where the player sits, earliest deadline (of whoever is to move)
    /// first.
    Active,
}

/// Storage of games as heads with append-only logs, plus the indexes the read models and
/// the notifier need. Every implementation passes the same contract tests.
///
/// Writes are conditional: [`Store::create`] only if the game is new, [`Store::commit`] only
/// if the head is still at the revision and ply the writer read; otherwise
/// [`StoreError::Conflict`] and nothing is written. A successful return means the write is
/// durable. Lists are read a page at a time: a page holds at most `limit` items (at least
/// one is always asked for) and, while more may follow, a [`Cursor`] that only this store
/// reads back; a cursor the store did not make is [`StoreError::BadCursor`].
#[async_trait]
pub trait Store: Send + Sync {
    /// Stores a new game's head with the feed items that tell of it, atomically; a conflict
    /// if the id is taken.
    async fn create(&self, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError>;

    /// The game's head alone: one record whatever the game's length; `None` if there is no
    /// such game.
    async fn head(&self, id: &GameId) -> Result<Option<Head>, StoreError>;

    /// The game's head and its whole log, read consistently; `None` if there is no such
    /// game.
    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError>;

    /// Applies `commit` atomically: replaces the head, appends the entries, records each new
    /// move's idempotency key, keeps the players' lists and the game's wake-up, appends the
    /// feed items, or nothing.
    /// A conflict if the head moved on; [`StoreError::KeyUsed`] (and nothing written) if a
    /// new move's key was used before by the same seat.
    async fn commit(&self, commit: &Commit) -> Result<(), StoreError>;

    /// Stores a whole game at once: its head (revision 1), every entry, and the finished
    /// entries if it is finished. Readers see all of it or nothing: a game without its head
    /// does not exist. A conflict if the id is taken; invalid if the game is not well formed
    /// (see [`StoredGame::as_first_commit`]).
    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError>;

    /// Stores whole games at once, each exactly as [`Store::import_game`] stores one: all
    /// of a game or nothing of it, and each on its own, so a game that fails (its id taken,
    /// not well formed) leaves the others written. One answer per game, in order. SQLite
    /// writes the batch in one transaction; DynamoDB packs small games together into its
    /// transactions. The games are the store's to keep (SQLite moves them to its writer
    /// without a copy).
    async fn import_games(&self, games: Vec<StoredGame>) -> Vec<Result<(), StoreError>>;

    /// Heads of the active games where `player` is to move, earliest stored deadline first.
    async fn waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError>;

    /// Heads of the games `player` finished, most recent first.
    async fn finished_by(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError>;

    /// Heads of `player`'s current games of one kind (see [`Membership`]).
    async fn games_of(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError>;

    /// The heads of `ids` that exist, in the order given.
    async fn heads(&self, ids: &[GameId]) -> Result<Vec<Head>, StoreError>;

    /// Every game id, in no particular order (for checks and exports).
    async fn game_ids(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError>;

    /// How many shards the sweep's index has: [`Store::due`] is asked once per shard.
    fn wake_shards(&self) -> u32;

    /// The wake-ups of `shard` due at or before `until`, earliest first: games, open
    /// tournaments whose start date has come and active webhooks with something due, each
    /// in the shard of its id.
    async fn due(
        &self,
        shard: u32,
        until: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Wake>, StoreError>;

    /// Moves the wake-up of `game` from `from` (as [`Store::due`] listed it) to `to` (`None`:
    /// nothing more to do), unless it changed meanwhile: `false` then, and nothing written.
    async fn move_wake(
        &self,
        game: &GameId,
        from: DateTime<Utc>,
        to: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError>;

    /// Makes the wake-up of `game` due at `at` if it is due later: `true` if it moved,
    /// `false` if it is due no later already or the game has none (nothing left to do).
    async fn hasten_wake(&self, game: &GameId, at: DateTime<Utc>) -> Result<bool, StoreError>;

    /// The player's vacation record (a default one, revision 0, if there is none).
    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError>;

    /// Stores the player's vacation record: revision 1 only if there is none, revision `n`
    /// only over revision `n - 1`; a conflict otherwise. Revision 0 is invalid.
    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError>;

    /// Registers a player; a conflict if the handle (without regard to case, see
    /// [`Player::handle_key`]) or the e-mail address (lower-cased) is taken.
    async fn create_player(&self, player: &Player) -> Result<(), StoreError>;

    /// The player with this handle, if any.
    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError>;

    /// The player whose handle is `handle` without regard to case, if any.
    async fn player_by_handle_key(&self, handle: &str) -> Result<Option<Player>, StoreError>;

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

    /// Marks the single-use token `id` used at `at`, until `expires_at` (when the token
    /// itself expires; markers expired by `at` may be forgotten). A conflict if it was used
    /// already: of concurrent uses exactly one succeeds.
    async fn use_token(
        &self,
        id: &str,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;

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

    /// When the player wants messages mailed ([`MessageMail::WithTurn`] if they never
    /// chose).
    async fn message_mail(&self, player: &str) -> Result<MessageMail, StoreError>;

    /// Sets when the player wants messages mailed, replacing any earlier choice.
    async fn set_message_mail(&self, player: &str, choice: MessageMail) -> Result<(), StoreError>;

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
    /// Stores `hook`: revision 1 only if no hook has its id, revision `n` only over revision
    /// `n - 1`; a conflict otherwise (a hook removed meanwhile included), and nothing
    /// written. An active hook with a `due` time is a wake-up in the sweep's index from then
    /// ([`Store::due`]).
    async fn put_hook(&self, hook: &Hook) -> Result<(), StoreError>;

    /// The hooks of `player`, oldest first.
    async fn hooks_of(&self, player: &str) -> Result<Vec<Hook>, StoreError>;

    /// Removes `player`'s hook `id`, if there is one.
    async fn delete_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError>;

    /// Adds `amount` to the counter `name` unless that would take it past `limit`: `true` if
    /// it was added, `false` (and nothing written) if not. Of concurrent additions exactly
    /// those that fit succeed. The write that starts a counter sets when it expires,
    /// `expires_at` (kept in whole seconds); once that has passed at `at`, the counter counts
    /// from zero again with the new `expires_at`. Counters of fixed windows put the window in
    /// their name; a lease is a counter of limit 1 that its holder drops.
    async fn count_up(
        &self,
        name: &str,
        amount: u64,
        limit: u64,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, StoreError>;

    /// Removes the counter `name` if it still expires at `expires_at` (the second it was
    /// started with), so a counter started again since is kept. Nothing happens otherwise.
    async fn drop_counter(&self, name: &str, expires_at: DateTime<Utc>) -> Result<(), StoreError>;

    /// What the store has done so far (requests, items and bytes read), for benchmarks and
    /// for the tests that count the work of a move.
    fn usage(&self) -> Usage;

    /// Stores a new application password; a conflict if its player has one with its id.
    async fn create_app_password(&self, password: &AppPassword) -> Result<(), StoreError>;

    /// The application password `id` of `player`, if any.
    async fn app_password(&self, player: &str, id: &str)
    -> Result<Option<AppPassword>, StoreError>;

    /// Every application password of `player`, oldest first.
    async fn app_passwords_of(&self, player: &str) -> Result<Vec<AppPassword>, StoreError>;

    /// Records that `player`'s application password `id` was last used at `at`; nothing
    /// happens if there is none (a revoked one stays revoked).
    async fn touch_app_password(
        &self,
        player: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// Removes `player`'s application password `id`: `true` if there was one.
    async fn revoke_app_password(&self, player: &str, id: &str) -> Result<bool, StoreError>;

    /// Stores `tournament`: revision 1 only if no tournament has its id, revision `n` only
    /// over revision `n - 1`; a conflict otherwise, and nothing written.
    async fn put_tournament(&self, tournament: &Tournament) -> Result<(), StoreError>;

    /// The tournament with this id, if any.
    async fn tournament(&self, id: &TournamentId) -> Result<Option<Tournament>, StoreError>;

    /// Every tournament, newest first.
    async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, StoreError>;

    /// Creates the games that `starts` begin (each a commit from revision 0 without
    /// entries, as [`Store::put_challenge`] takes): each game in one atomic write of its
    /// own (its head only if its id is new, its members' list items, its wake-up and feed
    /// items), a conflict for a game whose id is taken. One answer per game, in order.
    async fn create_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>>;

    /// Stores `rating`: revision 1 only if the player has no rating in its variant,
    /// revision `n` only over revision `n - 1`; a conflict otherwise, and nothing written.
    async fn put_rating(&self, rating: &RatingRecord) -> Result<(), StoreError>;

    /// The player's rating in `variant`, if they have one.
    async fn rating(&self, player: &str, variant: &str)
    -> Result<Option<RatingRecord>, StoreError>;

    /// Every rating of the player, by variant.
    async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError>;

    /// The highest ratings in `variant`, highest first, at most `limit`.
    async fn leaderboard(
        &self,
        variant: &str,
        limit: usize,
    ) -> Result<Vec<RatingRecord>, StoreError>;
}

/// Counters of a store's work since it was opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Requests sent to the backend: HTTP requests (retries included) for DynamoDB, reads
    /// and writes handed to the database threads for SQLite.
    pub round_trips: u64,
    /// Reads among them.
    pub reads: u64,
    /// Writes among them.
    pub writes: u64,
    /// Records read.
    pub items_read: u64,
    /// Bytes of the records read (DynamoDB's item size: names and values).
    pub bytes_read: u64,
}

impl Usage {
    /// The work done since `before` (counters read earlier from the same store).
    pub fn since(self, before: Usage) -> Usage {
        Usage {
            round_trips: self.round_trips - before.round_trips,
            reads: self.reads - before.reads,
            writes: self.writes - before.writes,
            items_read: self.items_read - before.items_read,
            bytes_read: self.bytes_read - before.bytes_read,
        }
    }
}
