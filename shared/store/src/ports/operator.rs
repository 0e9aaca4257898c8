//! The operator's view of a store: every game, and the work done so far.

use async_trait::async_trait;
use missive_domain::{Cursor, GameId, Page};

use crate::StoreError;

/// The operator's view of a store: a scan of every game (for checks, exports and upgrades)
/// and the work it has done so far.
#[async_trait]
pub trait OperatorStore: Send + Sync {
    /// Every game id, in no particular order (for checks and exports).
    async fn game_ids(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError>;

    /// What the store has done so far (requests, items and bytes read), for benchmarks and
    /// for the tests that count the work of a move.
    fn usage(&self) -> Usage;
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
