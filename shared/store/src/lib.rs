//! Missive's storage: each game is a head (the one mutable record, guarded by a revision)
//! and an append-only log of moves, behind the [`Store`] trait.
//!
//! Two implementations pass the same contract tests: [`SqliteStore`], one embedded file (the
//! default), and [`DynamoStore`], one DynamoDB table. [`StoreSetting`] picks one from
//! `sqlite:PATH` or `dynamodb:TABLE`, the form every command takes with `--store` or the
//! `MISSIVE_STORE` environment variable. The design is explained in `docs/store.md`.
//!
//! Each backend is a cargo feature, `sqlite` and `dynamodb`, both on by default; the Lambda
//! functions build with `dynamodb` only.

#[cfg(feature = "dynamodb")]
mod dynamo;
mod error;
mod model;
mod notice;
#[cfg(feature = "sqlite")]
pub mod schema;
mod setting;
#[cfg(feature = "sqlite")]
mod sqlite;
mod store;
#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "dynamodb")]
pub use dynamo::{DynamoStore, TableDefinition};
pub use error::StoreError;
pub use model::{
    Commit, ConditionalLine, Ending, GameDoc, GameId, Head, MoveRecord, Period, Player, SeatDoc,
    Status, StoredGame, TimeControl, VacationRecord, Waiting,
};
pub use notice::{MailPreference, Notice};
pub use setting::{ENV_VAR, StoreSetting};
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteStore;
pub use store::Store;
