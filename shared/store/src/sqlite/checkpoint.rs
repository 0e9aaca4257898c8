//! Checkpoints of the write-ahead log, on a thread of their own.
//!
//! By default SQLite checkpoints on the connection that commits, once the log passes 1,000
//! pages: the writer thread would copy the log into the database file and sync it before
//! taking the next group of writes, and an import into SQLite is bound by the writer. Here
//! the writer's connection never checkpoints; after each commit it wakes the checkpointer,
//! which copies what it can (a passive checkpoint, which waits for no writer or reader) and
//! rests a moment, so that a stream of commits is checkpointed a few times a second rather
//! than after each. A commit is durable once it is in the log: checkpoints only move it.

use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

use rusqlite::Connection;

use super::backend;
use crate::StoreError;

/// How long the checkpointer rests after a checkpoint: commits in the meantime wait for the
/// next one.
const REST: Duration = Duration::from_millis(200);

/// The writer's handle on the checkpointer. Dropping it ends the checkpointer's thread.
pub(super) struct Checkpoints {
    wake: SyncSender<()>,
}

impl Checkpoints {
    /// Starts the checkpointer of the database at `path`, on a connection of its own.
    pub(super) fn start(path: &Path) -> Result<Checkpoints, StoreError> {
        let conn = Connection::open(path).map_err(backend)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(backend)?;
        let (wake, woken) = sync_channel(1);
        std::thread::Builder::new()
            .name("missive-sqlite-checkpointer".into())
            .spawn(move || checkpoint_loop(&conn, &woken))
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(Checkpoints { wake })
    }

    /// Asks for a checkpoint once a commit is done: returns at once, and a checkpoint asked
    /// for already and not yet begun covers this commit too.
    pub(super) fn ask(&self) {
        let _ = self.wake.try_send(());
    }
}

/// Checkpoints each time it is woken, resting between, until the writer goes away.
fn checkpoint_loop(conn: &Connection, woken: &Receiver<()>) {
    while woken.recv().is_ok() {
        // A checkpoint that fails (the database busy past the timeout) leaves the log's
        // frames to the next one.
        let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        std::thread::sleep(REST);
    }
}
