//! The sweep's index: when each game, open tournament and webhook next needs the notifier.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, GameId, Hook, Page, TournamentId};

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

/// The sweep's index of wake-ups: when each game, each open tournament with a start date and
/// each active webhook with something due next needs the notifier, spread over shards.
#[async_trait]
pub trait WakeStore: Send + Sync {
    /// How many shards the sweep's index has: [`WakeStore::due`] is asked once per shard.
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

    /// Moves the wake-up of `game` from `from` (as [`WakeStore::due`] listed it) to `to`
    /// (`None`: nothing more to do), unless it changed meanwhile: `false` then, and nothing
    /// written.
    async fn move_wake(
        &self,
        game: &GameId,
        from: DateTime<Utc>,
        to: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError>;

    /// Makes the wake-up of `game` due at `at` if it is due later: `true` if it moved,
    /// `false` if it is due no later already or the game has none (nothing left to do).
    async fn hasten_wake(&self, game: &GameId, at: DateTime<Utc>) -> Result<bool, StoreError>;
}
