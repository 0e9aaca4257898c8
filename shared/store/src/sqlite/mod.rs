//! The embedded store: one SQLite file in WAL mode.
//!
//! One dedicated writer thread owns the only writing connection. Writes queue up for it and
//! it applies whatever has queued in one transaction (group commit), each write inside its
//! own savepoint so a write whose condition fails is rolled back alone. Callers get their
//! answer only after `COMMIT` returned, and with `synchronous=FULL` a WAL commit is on disk
//! by then: nothing acknowledged is lost, even by a power cut. One fsync serves the whole
//! group, which is what makes thousands of accepted moves per second possible on one file.
//! The writer never checkpoints: a thread of its own copies the log into the database file
//! ([`checkpoint`]).
//!
//! Reads use a small pool of read-only connections; WAL lets them run beside the writer,
//! each read seeing one committed snapshot. Lists page by keyset: a cursor holds the sort
//! values of the last row given, and the next page starts after them.

mod challenges;
mod checkpoint;
mod closed_log;
mod counters;
mod credentials;
mod feed;
mod game_lists;
mod games;
mod hooks;
mod mail;
pub mod migrations;
mod operator;
mod players;
mod ratings;
mod read;
mod sockets;
mod tournaments;
mod wakes;
mod write;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use missive_domain::Page;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};
use tokio::sync::oneshot;

use self::checkpoint::Checkpoints;
use self::read::Tally;
use self::write::{Write, apply_parts};
use crate::StoreError;
use crate::cursor::encode;

/// Most writes applied in one transaction.
const MAX_GROUP: usize = 256;

/// The SQLite store. Cheap to share behind an `Arc`; dropping the last one stops the writer.
pub struct SqliteStore {
    path: PathBuf,
    writer: Mutex<mpsc::Sender<Job>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    counters: Arc<Counters>,
}

#[derive(Default)]
struct Counters {
    reads: AtomicU64,
    writes: AtomicU64,
    rows: AtomicU64,
    bytes: AtomicU64,
}

/// A write waiting for the writer thread, and where its answers go: one per part of the
/// write (one game each for imports, one for any other write).
struct Job {
    write: Write,
    reply: oneshot::Sender<Answer>,
}

/// The answers of a write's parts, and the write itself, given back so that its memory is
/// freed on the caller's thread rather than the writer's (a batch of imported games holds
/// thousands of records: freeing them took a fifth of the writer's time).
struct Answer {
    results: Vec<Result<(), StoreError>>,
    spent: Write,
}

/// Prepared statements a connection keeps.
const STATEMENT_CACHE: usize = 64;

/// The writer's page cache, in KiB.
const WRITER_CACHE_KIB: u32 = 64 * 1024;

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, brings its schema up to date and
    /// starts the writer thread.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let mut conn = Connection::open(&path).map_err(backend)?;
        configure(&conn)?;
        migrations::migrate(&mut conn)?;
        conn.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(backend)?;
        let checkpoints = Checkpoints::start(&path)?;
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("missive-sqlite-writer".into())
            .spawn(move || write_loop(conn, receiver, checkpoints))
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(SqliteStore {
            path,
            writer: Mutex::new(sender),
            readers: Arc::new(Mutex::new(Vec::new())),
            counters: Arc::default(),
        })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        let conn = self.open_reader()?;
        migrations::version(&conn)
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.write_parts(write)
            .await?
            .pop()
            .unwrap_or_else(|| Err(StoreError::Backend("the writer gave no answer".into())))
    }

    /// Hands a conditional `write` to the writer: `true` if it was written, `false` if its
    /// condition failed.
    async fn write_if(&self, write: Write) -> Result<bool, StoreError> {
        match self.write(write).await {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// Hands `write` to the writer thread: the answer of each of its parts, once committed.
    async fn write_parts(&self, write: Write) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        self.counters.writes.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        self.writer
            .lock()
            .map_err(|_| StoreError::Backend("writer lock poisoned".into()))?
            .send(Job { write, reply })
            .map_err(|_| StoreError::Backend("the writer thread has stopped".into()))?;
        let Answer { results, spent } = answer
            .await
            .map_err(|_| StoreError::Backend("the writer thread dropped a write".into()))?;
        drop(spent);
        Ok(results)
    }

    /// Runs `read` on a pooled read connection on the blocking thread pool, counting what
    /// it read.
    async fn read<T, F>(&self, read: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, &mut Tally) -> Result<T, StoreError> + Send + 'static,
    {
        self.counters.reads.fetch_add(1, Ordering::Relaxed);
        let pooled = self.readers.lock().map_err(poisoned)?.pop();
        let mut conn = match pooled {
            Some(conn) => conn,
            None => self.open_reader()?,
        };
        let readers = Arc::clone(&self.readers);
        let counters = Arc::clone(&self.counters);
        tokio::task::spawn_blocking(move || {
            let mut tally = Tally::default();
            let result = read(&mut conn, &mut tally);
            counters.rows.fetch_add(tally.rows, Ordering::Relaxed);
            counters.bytes.fetch_add(tally.bytes, Ordering::Relaxed);
            if let Ok(mut pool) = readers.lock() {
                pool.push(conn);
            }
            result
        })
        .await
        .map_err(|e| StoreError::Backend(e.to_string()))?
    }

    /// The text in the first column of the row `sql` finds with `key` as `?1`, if any.
    async fn read_text(&self, sql: String, key: String) -> Result<Option<String>, StoreError> {
        self.read(move |conn, _| {
            conn.query_row(&sql, [&key], |row| row.get(0))
                .optional()
                .map_err(backend)
        })
        .await
    }

    fn open_reader(&self) -> Result<Connection, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&self.path, flags).map_err(backend)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(backend)?;
        Ok(conn)
    }
}

/// The page of `rows` (read with one row more than `limit`) with the cursor of its last item.
fn paged<V, T: serde::Serialize>(
    list: &str,
    mut rows: Vec<(V, T)>,
    limit: usize,
) -> Result<Page<V>, StoreError> {
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next = match rows.last() {
        Some((_, position)) if more => Some(encode(list, position)?),
        _ => None,
    };
    Ok(Page {
        items: rows.into_iter().map(|(value, _)| value).collect(),
        next,
    })
}

/// The sort columns `(time, id)` at `first` and `first + 1`.
fn time_and_id(row: &rusqlite::Row, first: usize) -> Result<(i64, String), StoreError> {
    Ok((
        row.get(first).map_err(backend)?,
        row.get(first + 1).map_err(backend)?,
    ))
}

fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(backend)?;
    // Room for every statement the writer runs (rusqlite keeps 16 by default): a statement
    // pushed out is prepared again on its next use.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
        .map_err(backend)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Backend(format!(
            "could not switch to WAL (journal mode is {mode})"
        )));
    }
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        .map_err(backend)?;
    // The writer's page cache holds a whole group of writes (a batch of imported games is
    // a few megabytes): with SQLite's 2 MB a large transaction spills pages to the log
    // before it commits and writes them again. A savepoint's journal (one per game of an
    // import) is kept in memory rather than in a temporary file.
    conn.execute_batch(&format!(
        "PRAGMA cache_size = -{WRITER_CACHE_KIB}; PRAGMA temp_store = MEMORY;"
    ))
    .map_err(backend)
}

/// Applies the writes queued, a group at a time, asking for a checkpoint after each group's
/// commit (see [`checkpoint`]).
fn write_loop(mut conn: Connection, jobs: mpsc::Receiver<Job>, checkpoints: Checkpoints) {
    while let Ok(first) = jobs.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match jobs.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let results = apply_group(&mut conn, &group);
        checkpoints.ask();
        for (Job { write, reply }, results) in group.into_iter().zip(results) {
            // A caller that went away no longer needs the answer; the write stands.
            let _ = reply.send(Answer {
                results,
                spent: write,
            });
        }
    }
}

/// Applies every write of `group` in one transaction, each part in its own savepoint; if
/// the commit itself fails, every part of every write fails.
fn apply_group(conn: &mut Connection, group: &[Job]) -> Vec<Vec<Result<(), StoreError>>> {
    let outcome = (|| {
        let mut tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let mut results = Vec::with_capacity(group.len());
        for job in group {
            results.push(apply_parts(&mut tx, &job.write)?);
        }
        tx.commit().map_err(backend)?;
        Ok(results)
    })();
    outcome.unwrap_or_else(|error: StoreError| {
        let message = error.to_string();
        group
            .iter()
            .map(|job| {
                (0..job.write.parts())
                    .map(|_| Err(StoreError::Backend(message.clone())))
                    .collect()
            })
            .collect()
    })
}

pub(super) fn backend(error: rusqlite::Error) -> StoreError {
    StoreError::Backend(error.to_string())
}

fn poisoned<T>(_: T) -> StoreError {
    StoreError::Backend("reader pool lock poisoned".into())
}

/// A uniqueness violation means the record exists already: a conflict.
pub(super) fn conflict_or_backend(error: rusqlite::Error) -> StoreError {
    match error.sqlite_error_code() {
        Some(ErrorCode::ConstraintViolation) => StoreError::Conflict,
        _ => backend(error),
    }
}
