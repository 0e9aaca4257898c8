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
//! each read seeing one committed snapshot.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use tokio::sync::oneshot;

use crate::{
    Commit, GameId, Head, MailPreference, MoveRecord, Notice, Player, Store, StoreError,
    StoredGame, VacationRecord, schema,
};

/// Most writes applied in one transaction.
const MAX_GROUP: usize = 256;

/// The SQLite store. Cheap to share behind an `Arc`; dropping the last one stops the writer.
pub struct SqliteStore {
    path: PathBuf,
    writer: Mutex<mpsc::Sender<Job>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    round_trips: AtomicU64,
}

/// A write waiting for the writer thread.
struct Job {
    write: Write,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

enum Write {
    Create(Box<Head>),
    Commit(Box<Commit>),
    Import(Box<Commit>),
    Vacation(String, VacationRecord),
    Player(Player),
    Preference(String, MailPreference),
    ClaimNotice(Notice, i64),
    ReleaseNotice(Notice),
    UsedToken {
        id: String,
        at: i64,
        expires_at: i64,
    },
}

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
            round_trips: AtomicU64::new(0),
        })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        let conn = self.open_reader()?;
        schema::version(&conn)
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        self.writer
            .lock()
            .map_err(|_| StoreError::Backend("writer lock poisoned".into()))?
            .send(Job { write, reply })
            .map_err(|_| StoreError::Backend("the writer thread has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Backend("the writer thread dropped a write".into()))?
    }

    /// Runs `read` on a pooled read connection on the blocking thread pool.
    async fn read<T, F>(&self, read: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        let pooled = self.readers.lock().map_err(poisoned)?.pop();
        let mut conn = match pooled {
            Some(conn) => conn,
            None => self.open_reader()?,
        };
        let readers = Arc::clone(&self.readers);
        tokio::task::spawn_blocking(move || {
            let result = read(&mut conn);
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
        self.read(move |conn| {
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

fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(backend)?;
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
        .map_err(backend)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Backend(format!(
            "could not switch to WAL (journal mode is {mode})"
        )));
    }
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
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

/// Applies every write of `group` in one transaction, each in its own savepoint; if the
/// commit itself fails, every write fails.
fn apply_group(conn: &mut Connection, group: &[Job]) -> Vec<Result<(), StoreError>> {
    let outcome = (|| {
        let mut tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let mut results = Vec::with_capacity(group.len());
        for job in group {
            let savepoint = tx.savepoint().map_err(backend)?;
            let result = apply(&savepoint, &job.write);
            if result.is_ok() {
                savepoint.commit().map_err(backend)?;
            }
            results.push(result);
        }
        tx.commit().map_err(backend)?;
        Ok(results)
    })();
    outcome.unwrap_or_else(|error: StoreError| {
        let message = error.to_string();
        group
            .iter()
            .map(|_| Err(StoreError::Backend(message.clone())))
            .collect()
    })
}

fn apply(conn: &Connection, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Create(head) => insert_head(conn, head),
        Write::Commit(commit) => apply_commit(conn, commit),
        Write::Import(commit) => apply_import(conn, commit),
        Write::Vacation(player, record) => put_vacation(conn, player, record),
        Write::Player(player) => insert_player(conn, player),
        Write::Preference(player, preference) => conn
            .execute(
                "INSERT OR REPLACE INTO mail_preferences (player, preference) VALUES (?1, ?2)",
                params![player, preference.as_str()],
            )
            .map(drop)
            .map_err(backend),
        Write::ClaimNotice(notice, at) => {
            let (scope, name) = notice.key();
            conn.execute(
                "INSERT INTO notices (scope, name, at) VALUES (?1, ?2, ?3)",
                params![scope, name, at],
            )
            .map(drop)
            .map_err(conflict_or_backend)
        }
        Write::ReleaseNotice(notice) => {
            let (scope, name) = notice.key();
            conn.execute(
                "DELETE FROM notices WHERE scope = ?1 AND name = ?2",
                params![scope, name],
            )
            .map(drop)
            .map_err(backend)
        }
        Write::UsedToken { id, at, expires_at } => insert_used_token(conn, id, *at, *expires_at),
    }
}

fn insert_head(conn: &Connection, head: &Head) -> Result<(), StoreError> {
    let (player, deadline) = waiting_columns(head);
    conn.execute(
        "INSERT INTO games (id, revision, ply, wait_player, wait_deadline, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            head.id.0,
            head.revision as i64,
            head.ply,
            player,
            deadline,
            serde_json::to_string(head)?
        ],
    )
    .map_err(conflict_or_backend)?;
    Ok(())
}

fn apply_commit(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    commit.check()?;
    let head = &commit.head;
    let (player, deadline) = waiting_columns(head);
    let changed = conn
        .execute(
            "UPDATE games SET revision = ?2, ply = ?3, wait_player = ?4, wait_deadline = ?5,
                 body = ?6
             WHERE id = ?1 AND revision = ?7 AND ply = ?8",
            params![
                head.id.0,
                head.revision as i64,
                head.ply,
                player,
                deadline,
                serde_json::to_string(head)?,
                commit.expected_revision as i64,
                commit.expected_ply,
            ],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    append_moves(conn, commit)
}

/// Inserts a whole game: its head, then the rest as a commit's.
fn apply_import(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    insert_head(conn, &commit.head)?;
    append_moves(conn, commit)
}

/// Inserts the commit's moves and, if it finishes the game, the players' finished entries.
fn append_moves(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    let head = &commit.head;
    let mut insert = conn
        .prepare_cached(
            "INSERT INTO moves (game, ply, seat, long, short, at, key, draw_offer, prev_hash, hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )
        .map_err(backend)?;
    for mv in &commit.moves {
        insert
            .execute(params![
                head.id.0,
                mv.ply,
                mv.seat,
                mv.long,
                mv.short,
                mv.at.timestamp_millis(),
                mv.key,
                mv.draw_offer,
                mv.prev_hash,
                mv.hash,
            ])
            .map_err(conflict_or_backend)?;
    }
    if commit.finishes {
        let at = commit.finished_at()?.timestamp_millis();
        for player in head.doc.players() {
            conn.execute(
                "INSERT OR IGNORE INTO finished (player, at, game) VALUES (?1, ?2, ?3)",
                params![player, at, head.id.0],
            )
            .map_err(backend)?;
        }
    }
    Ok(())
}

fn put_vacation(
    conn: &Connection,
    player: &str,
    record: &VacationRecord,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(record)?;
    let changed = if record.revision == 1 {
        conn.execute(
            "INSERT OR IGNORE INTO vacations (player, revision, body) VALUES (?1, 1, ?2)",
            params![player, body],
        )
    } else {
        conn.execute(
            "UPDATE vacations SET revision = ?2, body = ?3 WHERE player = ?1 AND revision = ?4",
            params![
                player,
                record.revision as i64,
                body,
                record.revision as i64 - 1
            ],
        )
    }
    .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

fn insert_player(conn: &Connection, player: &Player) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO players (handle, email, body) VALUES (?1, ?2, ?3)",
        params![
            player.handle,
            Player::email_key(&player.email),
            serde_json::to_string(player)?
        ],
    )
    .map_err(conflict_or_backend)?;
    Ok(())
}

/// Records a token used at `at`, forgetting the markers of tokens expired by then.
fn insert_used_token(
    conn: &Connection,
    id: &str,
    at: i64,
    expires_at: i64,
) -> Result<(), StoreError> {
    conn.execute("DELETE FROM used_tokens WHERE expires_at < ?1", params![at])
        .map_err(backend)?;
    conn.execute(
        "INSERT INTO used_tokens (id, expires_at) VALUES (?1, ?2)",
        params![id, expires_at],
    )
    .map_err(conflict_or_backend)?;
    Ok(())
}

fn waiting_columns(head: &Head) -> (Option<&str>, Option<i64>) {
    match &head.waiting {
        Some(w) => (Some(w.player.as_str()), Some(w.deadline.timestamp_millis())),
        None => (None, None),
    }
}

fn load(conn: &mut Connection, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
    let tx = conn.transaction().map_err(backend)?;
    let Some(body) = tx
        .query_row("SELECT body FROM games WHERE id = ?1", [&id.0], |row| {
            row.get::<_, String>(0)
        })
        .optional()
        .map_err(backend)?
    else {
        return Ok(None);
    };
    let head: Head = serde_json::from_str(&body)?;
    let mut select = tx
        .prepare_cached(
            "SELECT ply, seat, long, short, at, key, draw_offer, prev_hash, hash
             FROM moves WHERE game = ?1 ORDER BY ply",
        )
        .map_err(backend)?;
    let moves = select
        .query_map([&id.0], |row| {
            Ok(MoveRecord {
                ply: row.get(0)?,
                seat: row.get(1)?,
                long: row.get(2)?,
                short: row.get(3)?,
                at: chrono::DateTime::from_timestamp_millis(row.get(4)?).unwrap_or_default(),
                key: row.get(5)?,
                draw_offer: row.get(6)?,
                prev_hash: row.get(7)?,
                hash: row.get(8)?,
            })
        })
        .map_err(backend)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(backend)?;
    Ok(Some(StoredGame { head, moves }))
}

/// The heads whose bodies `sql` selects with `params`.
fn heads(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<Head>, StoreError> {
    let mut select = conn.prepare_cached(sql).map_err(backend)?;
    let bodies = select
        .query_map(params, |row| row.get::<_, String>(0))
        .map_err(backend)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(backend)?;
    bodies
        .iter()
        .map(|body| serde_json::from_str(body).map_err(StoreError::from))
        .collect()
}

#[async_trait]
impl Store for SqliteStore {
    async fn create(&self, head: &Head) -> Result<(), StoreError> {
        self.write(Write::Create(Box::new(head.clone()))).await
    }

    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let id = id.clone();
        self.read(move |conn| load(conn, &id)).await
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        self.write(Write::Commit(Box::new(commit.clone()))).await
    }

    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let commit = game.as_first_commit()?;
        self.write(Write::Import(Box::new(commit))).await
    }

    async fn waiting_for(&self, player: &str, limit: usize) -> Result<Vec<Head>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| {
            heads(
                conn,
                "SELECT body FROM games WHERE wait_player = ?1
                 ORDER BY wait_deadline, id LIMIT ?2",
                params![player, limit as i64],
            )
        })
        .await
    }

    async fn finished_by(&self, player: &str, limit: usize) -> Result<Vec<Head>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| {
            heads(
                conn,
                "SELECT games.body FROM finished JOIN games ON games.id = finished.game
                 WHERE finished.player = ?1 ORDER BY finished.at DESC, finished.game DESC
                 LIMIT ?2",
                params![player, limit as i64],
            )
        })
        .await
    }

    async fn game_ids(&self) -> Result<Vec<GameId>, StoreError> {
        self.read(|conn| {
            let mut select = conn
                .prepare_cached("SELECT id FROM games ORDER BY id")
                .map_err(backend)?;
            select
                .query_map([], |row| row.get(0).map(GameId))
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)
        })
        .await
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

    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError> {
        let sql = "SELECT preference FROM mail_preferences WHERE player = ?1".to_string();
        let text = self.read_text(sql, player.to_string()).await?;
        text.map_or(Ok(MailPreference::default()), |text| {
            MailPreference::parse(&text)
                .ok_or_else(|| StoreError::Corrupt(format!("mail preference `{text}`")))
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

    async fn waiting_games(&self, until: DateTime<Utc>) -> Result<Vec<Head>, StoreError> {
        let until = until.timestamp_millis();
        self.read(move |conn| {
            heads(
                conn,
                "SELECT body FROM games WHERE wait_player IS NOT NULL AND wait_deadline <= ?1
                 ORDER BY wait_deadline, id",
                [until],
            )
        })
        .await
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

    fn round_trips(&self) -> u64 {
        self.round_trips.load(Ordering::Relaxed)
    }
}

fn backend(error: rusqlite::Error) -> StoreError {
    StoreError::Backend(error.to_string())
}

fn poisoned<T>(_: T) -> StoreError {
    StoreError::Backend("reader pool lock poisoned".into())
}

/// A uniqueness violation means the record exists already: a conflict.
fn conflict_or_backend(error: rusqlite::Error) -> StoreError {
    match error.sqlite_error_code() {
        Some(ErrorCode::ConstraintViolation) => StoreError::Conflict,
        _ => backend(error),
    }
}
