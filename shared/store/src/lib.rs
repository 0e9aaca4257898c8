//! Missive's storage: each game is a head (the one mutable record, guarded by a revision)
//! and an append-only log of moves and events, behind the [`Store`] trait. The values are
//! the domain's (`missive-domain`); each store owns only its formats.
//!
//! Two implementations pass the same contract tests: [`SqliteStore`], one embedded file (the
//! default), and [`DynamoStore`], one DynamoDB table whose key layout is [`dynamo::keys`].
//! [`StoreSetting`] picks one from `sqlite:PATH` or `dynamodb:TABLE`, the form every command
//! takes with `--store` or the `MISSIVE_STORE` environment variable. The design is explained
//! in `docs/store.md`.
//!
//! Each backend is a cargo feature, `sqlite` and `dynamodb`, both on by default; the Lambda
//! functions build with `dynamodb` only.

mod cursor;
#[cfg(feature = "dynamodb")]
pub mod dynamo;
mod error;
mod setting;
#[cfg(feature = "sqlite")]
mod sqlite;
mod store;
#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "dynamodb")]
pub use dynamo::{DynamoStore, TableDefinition};
pub use error::StoreError;
pub use setting::{ENV_VAR, StoreSetting};
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteStore;
pub use store::{Membership, Store, Usage, Wake, WakeSubject};
