//! Missive's storage: each game is a head (the one mutable record, guarded by a revision)
//! and an append-only log of moves and events, behind the store's ports: one trait per
//! entity or concern ([`GameStore`], [`PlayerStore`], [`WakeStore`], ...), all of them
//! together the [`Store`] trait. The values are the domain's (`missive-domain`); each store
//! owns only its formats.
//!
//! Two adapters implement every port and pass the same contract tests: [`SqliteStore`], one
//! embedded file (the default), and [`DynamoDbStore`], one DynamoDB table whose key layout
//! is [`dynamodb::keys`]. [`StoreSetting`] picks one from `sqlite:PATH` or `dynamodb:TABLE`,
//! the form every command takes with `--store` or the `MISSIVE_STORE` environment variable.
//! The design is explained in `docs/store.md`.
//!
//! Each backend is a cargo feature, `sqlite` and `dynamodb`, both on by default; the Lambda
//! functions build with `dynamodb` only.

// Only the backends page lists.
#[cfg(any(feature = "sqlite", feature = "dynamodb"))]
mod cursor;
#[cfg(feature = "dynamodb")]
pub mod dynamodb;
mod error;
mod ports;
mod setting;
#[cfg(feature = "sqlite")]
mod sqlite;
#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "dynamodb")]
pub use dynamodb::{DynamoDbStore, TableDefinition};
pub use error::StoreError;
pub use ports::{
    ChallengeStore, CounterStore, CredentialStore, FeedStore, GameListStore, GameStore, HookStore,
    MailStore, Membership, OperatorStore, PlayerStore, RatingStore, SocketStore, Store,
    TOLD_ON_TIME, TournamentStore, Usage, Wake, WakeStore, WakeSubject,
};
pub use setting::{ENV_VAR, StoreSetting};
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteStore;

/// Every port and the [`Store`] trait, for code that calls a port's methods on a concrete
/// store (`use missive_store::prelude::*;`); through `dyn Store` they need only `Store`.
pub mod prelude {
    pub use crate::ports::{
        ChallengeStore, CounterStore, CredentialStore, FeedStore, GameListStore, GameStore,
        HookStore, MailStore, OperatorStore, PlayerStore, RatingStore, SocketStore, Store,
        TournamentStore, WakeStore,
    };
}
