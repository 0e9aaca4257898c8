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

    /// What the store has done so far (requests; items and bytes read and written; the
    /// capacity billed), for benchmarks and for the tests that count the work of a move.
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
    /// Records written: put, updated or deleted (DynamoDB; SQLite does not count them).
    pub items_written: u64,
    /// Bytes sent to be written: each record put whole, the keys and values of updates and
    /// deletes (DynamoDB's item size; SQLite does not count them).
    pub bytes_written: u64,
    /// Read capacity billed, in thousandths of a read request unit, as DynamoDB reports it
    /// (none on SQLite).
    pub read_milliunits: u64,
    /// Write capacity billed, in thousandths of a write request unit, as DynamoDB reports
    /// it: the table's and its indexes' (none on SQLite).
    pub write_milliunits: u64,
    /// The part of `write_milliunits` the indexes' copies took.
    pub index_write_milliunits: u64,
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
            items_written: self.items_written - before.items_written,
            bytes_written: self.bytes_written - before.bytes_written,
            read_milliunits: self.read_milliunits - before.read_milliunits,
            write_milliunits: self.write_milliunits - before.write_milliunits,
            index_write_milliunits: self.index_write_milliunits - before.index_write_milliunits,
        }
    }
}

impl std::ops::Add for Usage {
    type Output = Usage;

    /// The work of both.
    fn add(self, other: Usage) -> Usage {
        Usage {
            round_trips: self.round_trips + other.round_trips,
            reads: self.reads + other.reads,
            writes: self.writes + other.writes,
            items_read: self.items_read + other.items_read,
            bytes_read: self.bytes_read + other.bytes_read,
            items_written: self.items_written + other.items_written,
            bytes_written: self.bytes_written + other.bytes_written,
            read_milliunits: self.read_milliunits + other.read_milliunits,
            write_milliunits: self.write_milliunits + other.write_milliunits,
            index_write_milliunits: self.index_write_milliunits + other.index_write_milliunits,
        }
    }
}

impl std::iter::Sum for Usage {
    /// The work of them all.
    fn sum<I: Iterator<Item = Usage>>(work: I) -> Usage {
        work.fold(Usage::default(), std::ops::Add::add)
    }
}
