//! The embedded store: one SQLite file in WAL mode.
//!
//! One dedicated writer thread owns the only writing connection. Writes queue up for it and
//! it applies whatever has queued in one transaction (group commit), each write inside its
//! own savepoint so a write whose condition fails is rolled back alone. Callers get their
//! answer only after `COMMIT` returned, and with `synchronous=FULL` a WAL commit is on disk
//! by then: nothing acknowledged is lost, even by a power cut. One fsync serves the whole
//! group, which is what makes thousands of accepted moves per second possible on one file.
//!
//! Reads use a small pool of read-only connections; WAL lets them run beside the writer,
//! each read seeing one committed snapshot. Lists page by keyset: a cursor holds the sort
//! values of the last row given, and the next page starts after them.

mod closed_log;
mod read;
pub mod schema;
mod write;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{
    AppPassword, Challenge, ChallengeFilter, ChallengeId, Commit, Cursor, FeedItem, FeedPage,
    GameId, Head, Hook, HookId, MailPreference, MessageMail, Notice, Page, Player, RatingRecord,
    StoredGame, Tournament, TournamentId, VacationRecord,
};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use tokio::sync::oneshot;

use self::read::{Tally, head_row, millis, rows};
use self::write::{Import, Write, apply_parts};
use crate::cursor::{decode, encode, page_size, position};
use crate::{Membership, Store, StoreError, Usage, Wake, WakeSubject};

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
    reply: oneshot::Sender<Vec<Result<(), StoreError>>>,
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
        schema::migrate(&mut conn)?;
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("missive-sqlite-writer".into())
            .spawn(move || write_loop(conn, receiver))
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
        schema::version(&conn)
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.write_parts(write)
            .await?
            .pop()
            .unwrap_or_else(|| Err(StoreError::Backend("the writer gave no answer".into())))
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
        answer
            .await
            .map_err(|_| StoreError::Backend("the writer thread dropped a write".into()))
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

    /// The player whose `column` (`handle` or `email`) is `value`.
    async fn player_where(
        &self,
        column: &'static str,
        value: String,
    ) -> Result<Option<Player>, StoreError> {
        let sql = format!("SELECT body FROM players WHERE {column} = ?1");
        let body = self.read_text(sql, value).await?;
        body.map(|body| serde_json::from_str(&body).map_err(StoreError::from))
            .transpose()
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

    /// A page of heads: `sql` selects the body then the sort values (`T`) of up to `?2 + 1`
    /// rows after the position `?1`-style parameters give; one more than asked tells that a
    /// next page exists.
    async fn head_page<T>(
        &self,
        list: &'static str,
        sql: &'static str,
        params: Vec<rusqlite::types::Value>,
        limit: usize,
        after: impl Fn(&rusqlite::Row) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<Page<Head>, StoreError>
    where
        T: serde::Serialize + Send + 'static,
    {
        let items = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    sql,
                    rusqlite::params_from_iter(params),
                    tally,
                    |row| {
                        let (head, size) = head_row(row)?;
                        Ok(((head, after(row)?), size))
                    },
                )
            })
            .await?;
        paged(list, items, limit)
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

/// SQL values for a query's parameters.
fn values<const N: usize>(values: [rusqlite::types::Value; N]) -> Vec<rusqlite::types::Value> {
    values.into()
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

fn write_loop(mut conn: Connection, jobs: mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match jobs.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let results = apply_group(&mut conn, &group);
        for (job, result) in group.into_iter().zip(results) {
            // A caller that went away no longer needs the answer; the write stands.
            let _ = job.reply.send(result);
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

#[async_trait]
impl Store for SqliteStore {
    async fn create(&self, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError> {
        self.write(Write::Create(Box::new(head.clone()), feed.to_vec()))
            .await
    }

    async fn head(&self, id: &GameId) -> Result<Option<Head>, StoreError> {
        let id = id.clone();
        self.read(move |conn, tally| read::head(conn, &id, tally))
            .await
    }

    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let id = id.clone();
        self.read(move |conn, tally| read::load(conn, &id, tally))
            .await
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        self.write(Write::Commit(Box::new(commit.clone()))).await
    }

    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        self.write(Write::Imports(vec![Import::of(game.clone())?]))
            .await
    }

    async fn import_games(&self, games: Vec<StoredGame>) -> Vec<Result<(), StoreError>> {
        let mut answers: Vec<Option<Result<(), StoreError>>> = Vec::with_capacity(games.len());
        let mut imports = Vec::with_capacity(games.len());
        for game in games {
            match Import::of(game) {
                Ok(import) => {
                    imports.push(import);
                    answers.push(None);
                }
                Err(invalid) => answers.push(Some(Err(invalid))),
            }
        }
        let count = imports.len();
        let mut written = match self.write_parts(Write::Imports(imports)).await {
            Ok(written) => written.into_iter(),
            Err(error) => {
                let message = error.to_string();
                (0..count)
                    .map(|_| Err(StoreError::Backend(message.clone())))
                    .collect::<Vec<_>>()
                    .into_iter()
            }
        };
        answers
            .into_iter()
            .map(|answer| {
                answer.unwrap_or_else(|| {
                    written
                        .next()
                        .unwrap_or_else(|| Err(StoreError::Backend("no answer".into())))
                })
            })
            .collect()
    }

    async fn waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let limit = page_size(limit);
        let (deadline, id) = position("waiting", cursor)?.unwrap_or((i64::MIN, String::new()));
        self.head_page(
            "waiting",
            "SELECT body, wait_deadline, id FROM games
             WHERE wait_player = ?1 AND (wait_deadline, id) > (?2, ?3)
             ORDER BY wait_deadline, id LIMIT ?4",
            values([
                player.to_string().into(),
                deadline.into(),
                id.into(),
                (limit as i64 + 1).into(),
            ]),
            limit,
            |row| time_and_id(row, 1),
        )
        .await
    }

    async fn finished_by(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let limit = page_size(limit);
        let (at, id) = position("finished", cursor)?.unwrap_or((i64::MAX, String::new()));
        let first = cursor.is_none();
        self.head_page(
            "finished",
            "SELECT games.body, finished.at, finished.game
             FROM finished JOIN games ON games.id = finished.game
             WHERE finished.player = ?1 AND (?5 OR (finished.at, finished.game) < (?2, ?3))
             ORDER BY finished.at DESC, finished.game DESC LIMIT ?4",
            values([
                player.to_string().into(),
                at.into(),
                id.into(),
                (limit as i64 + 1).into(),
                first.into(),
            ]),
            limit,
            |row| time_and_id(row, 1),
        )
        .await
    }

    async fn games_of(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError> {
        let limit = page_size(limit);
        let (list, status) = match membership {
            Membership::Forming => ("forming", "forming"),
            Membership::Active => ("active", "active"),
        };
        let (time, id) = position(list, cursor)?.unwrap_or((i64::MIN, String::new()));
        let player = player.to_string();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT games.id, CASE games.status WHEN 'active'
                         THEN coalesce(games.wait_deadline, 0) ELSE 0 END AS time
                     FROM members JOIN games ON games.id = members.game
                     WHERE members.player = ?1 AND games.status = ?2
                       AND (time, games.id) > (?3, ?4)
                     ORDER BY time, games.id LIMIT ?5",
                    params![player, status, time, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let id: String = row.get(0).map_err(backend)?;
                        let time: i64 = row.get(1).map_err(backend)?;
                        Ok(((GameId(id.clone()), (time, id)), 16))
                    },
                )
            })
            .await?;
        paged(list, found, limit)
    }

    async fn heads(&self, ids: &[GameId]) -> Result<Vec<Head>, StoreError> {
        let wanted: Vec<String> = ids.iter().map(|id| id.0.clone()).collect();
        let json = serde_json::to_string(&wanted)?;
        let mut found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT body FROM games WHERE id IN (SELECT value FROM json_each(?1))",
                    [json],
                    tally,
                    head_row,
                )
            })
            .await?;
        found.sort_by_key(|head| wanted.iter().position(|id| *id == head.id.0));
        Ok(found)
    }

    async fn game_ids(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError> {
        let limit = page_size(limit);
        let after: String = position("ids", cursor)?.unwrap_or_default();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT id FROM games WHERE id > ?1 ORDER BY id LIMIT ?2",
                    params![after, limit as i64 + 1],
                    tally,
                    |row| {
                        let id: String = row.get(0).map_err(backend)?;
                        Ok(((GameId(id.clone()), id), 16))
                    },
                )
            })
            .await?;
        paged("ids", found, limit)
    }

    fn wake_shards(&self) -> u32 {
        1
    }

    async fn due(
        &self,
        shard: u32,
        until: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Wake>, StoreError> {
        if shard != 0 {
            return Ok(Page::empty());
        }
        let limit = page_size(limit);
        let (time, id) = position("due", cursor)?.unwrap_or((i64::MIN, String::new()));
        let until = until.timestamp_millis();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    // One ordered merge of three partial indexes, each read from the
                    // cursor on: no row before it is read again.
                    "SELECT 'game' AS kind, id, wake_at AS at, NULL AS body FROM games
                     WHERE wake_at IS NOT NULL AND wake_at <= ?1 AND (wake_at, id) > (?2, ?3)
                     UNION ALL
                     SELECT 'tournament', id, starts_at, NULL FROM tournaments
                     WHERE starts_at IS NOT NULL AND starts_at <= ?1
                         AND (starts_at, id) > (?2, ?3)
                     UNION ALL
                     SELECT 'hook', id, due, body FROM hooks
                     WHERE due IS NOT NULL AND due <= ?1 AND (due, id) > (?2, ?3)
                     ORDER BY at, id LIMIT ?4",
                    params![until, time, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let kind: String = row.get(0).map_err(backend)?;
                        let id: String = row.get(1).map_err(backend)?;
                        let at: i64 = row.get(2).map_err(backend)?;
                        let body: Option<String> = row.get(3).map_err(backend)?;
                        let size = 24 + body.as_ref().map_or(0, String::len);
                        let subject = match (kind.as_str(), body) {
                            ("game", _) => WakeSubject::Game(GameId(id.clone())),
                            ("tournament", _) => WakeSubject::Tournament(TournamentId(id.clone())),
                            (_, body) => WakeSubject::Hook(Box::new(serde_json::from_str(
                                body.as_deref().unwrap_or_default(),
                            )?)),
                        };
                        let wake = Wake {
                            subject,
                            at: millis(at)?,
                        };
                        Ok(((wake, (at, id)), size))
                    },
                )
            })
            .await?;
        paged("due", found, limit)
    }

    async fn move_wake(
        &self,
        game: &GameId,
        from: DateTime<Utc>,
        to: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError> {
        let moved = self
            .write(Write::MoveWake {
                game: game.0.clone(),
                from: from.timestamp_millis(),
                to: to.map(|at| at.timestamp_millis()),
            })
            .await;
        match moved {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn hasten_wake(&self, game: &GameId, at: DateTime<Utc>) -> Result<bool, StoreError> {
        let hastened = self
            .write(Write::HastenWake {
                game: game.0.clone(),
                at: at.timestamp_millis(),
            })
            .await;
        match hastened {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError> {
        let sql = "SELECT body FROM vacations WHERE player = ?1".to_string();
        match self.read_text(sql, player.to_string()).await? {
            Some(body) => Ok(serde_json::from_str(&body)?),
            None => Ok(VacationRecord::default()),
        }
    }

    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError> {
        self.write(Write::Vacation(player.to_string(), record.clone()))
            .await
    }

    async fn create_player(&self, player: &Player) -> Result<(), StoreError> {
        self.write(Write::Player(player.clone())).await
    }

    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        self.player_where("handle", handle.to_string()).await
    }

    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError> {
        self.player_where("email", Player::email_key(email)).await
    }

    async fn player_by_handle_key(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        self.player_where("handle_key", Player::handle_key(handle))
            .await
    }

    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError> {
        let sql = "SELECT preference FROM mail_preferences WHERE player = ?1".to_string();
        let text = self.read_text(sql, player.to_string()).await?;
        text.map_or(Ok(MailPreference::default()), |text| {
            crate::error::stored_preference(&text)
        })
    }

    async fn set_mail_preference(
        &self,
        player: &str,
        preference: MailPreference,
    ) -> Result<(), StoreError> {
        self.write(Write::Preference(player.to_string(), preference))
            .await
    }

    async fn claim_notice(&self, notice: &Notice, at: DateTime<Utc>) -> Result<bool, StoreError> {
        let claimed = self
            .write(Write::ClaimNotice(notice.clone(), at.timestamp_millis()))
            .await;
        match claimed {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn release_notice(&self, notice: &Notice) -> Result<(), StoreError> {
        self.write(Write::ReleaseNotice(notice.clone())).await
    }

    async fn use_token(
        &self,
        id: &str,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write(Write::UsedToken {
            id: id.to_string(),
            at: at.timestamp(),
            expires_at: expires_at.timestamp(),
        })
        .await
    }

    async fn put_challenge(
        &self,
        challenge: &Challenge,
        start: Option<&Commit>,
    ) -> Result<(), StoreError> {
        let start = start.map(|commit| Box::new(commit.clone()));
        self.write(Write::Challenge(Box::new(challenge.clone()), start))
            .await
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<Challenge>, StoreError> {
        let sql = "SELECT body FROM challenges WHERE id = ?1".to_string();
        let body = self.read_text(sql, id.0.clone()).await?;
        body.map(|body| serde_json::from_str(&body).map_err(StoreError::from))
            .transpose()
    }

    async fn open_challenges(
        &self,
        filter: &ChallengeFilter,
        now: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Challenge>, StoreError> {
        let limit = page_size(limit);
        let variant = filter.variant.clone();
        let time_control = filter.time_control.map(|tc| tc.key());
        let list = format!(
            "challenges:{}:{}",
            variant.as_deref().unwrap_or("*"),
            time_control.as_deref().unwrap_or("*")
        );
        let first = cursor.is_none();
        let (at, id) = position(&list, cursor)?.unwrap_or((i64::MAX, String::new()));
        let now = now.timestamp_millis();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT body, created_at, id FROM challenges
                     WHERE open = 1 AND expires_at > ?1
                       AND (?2 IS NULL OR variant = ?2) AND (?3 IS NULL OR time_control = ?3)
                       AND (?4 OR (created_at, id) < (?5, ?6))
                     ORDER BY created_at DESC, id DESC LIMIT ?7",
                    params![now, variant, time_control, first, at, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let body: String = row.get(0).map_err(backend)?;
                        let challenge: Challenge = serde_json::from_str(&body)?;
                        Ok(((challenge, time_and_id(row, 1)?), body.len()))
                    },
                )
            })
            .await?;
        paged(&list, found, limit)
    }

    async fn message_mail(&self, player: &str) -> Result<MessageMail, StoreError> {
        let sql = "SELECT choice FROM message_mail WHERE player = ?1".to_string();
        let text = self.read_text(sql, player.to_string()).await?;
        text.map_or(Ok(MessageMail::default()), |text| {
            MessageMail::parse(&text)
                .ok_or_else(|| StoreError::Corrupt(format!("message mail choice `{text}`")))
        })
    }

    async fn set_message_mail(&self, player: &str, choice: MessageMail) -> Result<(), StoreError> {
        self.write(Write::MessageMail(player.to_string(), choice))
            .await
    }

    async fn put_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.write(Write::Hook(Box::new(hook.clone()))).await
    }

    async fn hooks_of(&self, player: &str) -> Result<Vec<Hook>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM hooks WHERE player = ?1 ORDER BY created_at, id",
                params![player],
                tally,
            )
        })
        .await
    }

    async fn delete_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError> {
        self.write(Write::DeleteHook {
            player: player.to_string(),
            id: id.0.clone(),
        })
        .await
    }

    async fn feed(
        &self,
        player: &str,
        after: Option<&str>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<FeedPage, StoreError> {
        let after = match after {
            Some(text) => decode::<i64>("feed", &Cursor(text.to_string()))?,
            None => 0,
        };
        let (player, limit) = (player.to_string(), page_size(limit));
        self.read(move |conn, tally| read::feed(conn, &player, after, since, limit, tally))
            .await
    }

    async fn count_up(
        &self,
        name: &str,
        amount: u64,
        limit: u64,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        if amount > limit {
            return Ok(false);
        }
        let counted = self
            .write(Write::CountUp {
                name: name.to_string(),
                amount,
                limit,
                at: at.timestamp(),
                expires_at: expires_at.timestamp(),
            })
            .await;
        match counted {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn drop_counter(&self, name: &str, expires_at: DateTime<Utc>) -> Result<(), StoreError> {
        self.write(Write::DropCounter {
            name: name.to_string(),
            expires_at: expires_at.timestamp(),
        })
        .await
    }

    fn usage(&self) -> Usage {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        let (reads, writes) = (get(&self.counters.reads), get(&self.counters.writes));
        Usage {
            round_trips: reads + writes,
            reads,
            writes,
            items_read: get(&self.counters.rows),
            bytes_read: get(&self.counters.bytes),
        }
    }

    async fn create_app_password(&self, password: &AppPassword) -> Result<(), StoreError> {
        self.write(Write::AppPassword(Box::new(password.clone())))
            .await
    }

    async fn app_password(
        &self,
        player: &str,
        id: &str,
    ) -> Result<Option<AppPassword>, StoreError> {
        let (player, id) = (player.to_string(), id.to_string());
        let found = self
            .read(move |conn, tally| read::app_passwords(conn, &player, Some(&id), tally))
            .await?;
        Ok(found.into_iter().next())
    }

    async fn app_passwords_of(&self, player: &str) -> Result<Vec<AppPassword>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| read::app_passwords(conn, &player, None, tally))
            .await
    }

    async fn touch_app_password(
        &self,
        player: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write(Write::TouchAppPassword {
            player: player.to_string(),
            id: id.to_string(),
            at: at.timestamp_millis(),
        })
        .await
    }

    async fn revoke_app_password(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        let revoked = self
            .write(Write::RevokeAppPassword {
                player: player.to_string(),
                id: id.to_string(),
            })
            .await;
        match revoked {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn put_tournament(&self, tournament: &Tournament) -> Result<(), StoreError> {
        self.write(Write::Tournament(Box::new(tournament.clone())))
            .await
    }

    async fn tournament(&self, id: &TournamentId) -> Result<Option<Tournament>, StoreError> {
        let sql = "SELECT body FROM tournaments WHERE id = ?1".to_string();
        let body = self.read_text(sql, id.0.clone()).await?;
        body.map(|body| serde_json::from_str(&body).map_err(StoreError::from))
            .transpose()
    }

    async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, StoreError> {
        let limit = page_size(limit);
        let first = cursor.is_none();
        let (at, id) = position("tournaments", cursor)?.unwrap_or((i64::MAX, String::new()));
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT body, created_at, id FROM tournaments
                     WHERE ?1 OR (created_at, id) < (?2, ?3)
                     ORDER BY created_at DESC, id DESC LIMIT ?4",
                    params![first, at, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let body: String = row.get(0).map_err(backend)?;
                        let tournament: Tournament = serde_json::from_str(&body)?;
                        Ok(((tournament, time_and_id(row, 1)?), body.len()))
                    },
                )
            })
            .await?;
        paged("tournaments", found, limit)
    }

    async fn create_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>> {
        match self.write_parts(Write::Starts(starts.to_vec())).await {
            Ok(answers) => answers,
            Err(error) => {
                let message = error.to_string();
                starts
                    .iter()
                    .map(|_| Err(StoreError::Backend(message.clone())))
                    .collect()
            }
        }
    }

    async fn put_rating(&self, rating: &RatingRecord) -> Result<(), StoreError> {
        self.write(Write::Rating(Box::new(rating.clone()))).await
    }

    async fn rating(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Option<RatingRecord>, StoreError> {
        let (player, variant) = (player.to_string(), variant.to_string());
        let found: Vec<RatingRecord> = self
            .read(move |conn, tally| {
                read::bodies(
                    conn,
                    "SELECT body FROM ratings WHERE player = ?1 AND variant = ?2",
                    params![player, variant],
                    tally,
                )
            })
            .await?;
        Ok(found.into_iter().next())
    }

    async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM ratings WHERE player = ?1 ORDER BY variant",
                params![player],
                tally,
            )
        })
        .await
    }

    async fn leaderboard(
        &self,
        variant: &str,
        limit: usize,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let variant = variant.to_string();
        let limit = page_size(limit) as i64;
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM ratings WHERE variant = ?1
                 ORDER BY rating DESC, player LIMIT ?2",
                params![variant, limit],
                tally,
            )
        })
        .await
    }
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
