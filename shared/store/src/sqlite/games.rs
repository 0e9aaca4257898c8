//! Games on SQLite: heads in `games`, their logs in `moves`, `events` and `closed_logs`,
//! written by the writer thread; the members' lists and the wake-up kept with each change.

use std::ops::Range;

use async_trait::async_trait;
use missive_domain::{
    Commit, EventRecord, FeedItem, GameId, Head, MoveRecord, Seat, Status, StoredGame, WakeChange,
};
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::read::{Tally, head_row, millis, rows, text};
use super::write::Write;
use super::{SqliteStore, backend, conflict_or_backend};
use crate::{GameStore, StoreError};

#[async_trait]
impl GameStore for SqliteStore {
    async fn create(&self, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError> {
        self.write(Write::Create(Box::new(head.clone()), feed.to_vec()))
            .await
    }

    async fn head(&self, id: &GameId) -> Result<Option<Head>, StoreError> {
        let id = id.clone();
        self.read(move |conn, tally| read_head(conn, &id, tally))
            .await
    }

    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let id = id.clone();
        self.read(move |conn, tally| read_game(conn, &id, tally))
            .await
    }

    async fn entries(
        &self,
        id: &GameId,
        plies: Range<u32>,
        events: Range<u32>,
    ) -> Result<(Vec<MoveRecord>, Vec<EventRecord>), StoreError> {
        let Some(game) = self.load(id).await? else {
            return Ok((Vec::new(), Vec::new()));
        };
        let moves = game.moves.into_iter().filter(|mv| plies.contains(&mv.ply));
        let logged = game.events.into_iter().filter(|e| events.contains(&e.seq));
        Ok((moves.collect(), logged.collect()))
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        self.write(Write::Commit(Box::new(commit.clone()))).await
    }

    async fn keep_cancelled(&self, head: &Head) -> Result<(), StoreError> {
        self.write(Write::KeepCancelled(Box::new(head.clone())))
            .await
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
}

/// A whole game to import: its first commit and, for a game that is over, its moves and
/// events as the one row of `closed_logs` (no entry will ever follow, and one row costs the
/// writer far less than a row an entry).
pub(super) struct Import {
    commit: Commit,
    closed_log: Option<ClosedLog>,
}

/// The texts of the `closed_logs` row of an imported game that is over.
struct ClosedLog {
    moves: String,
    events: String,
}

impl Import {
    /// The import of `game`, refused when its log breaks the log's invariants.
    pub(super) fn of(game: StoredGame) -> Result<Import, StoreError> {
        let commit = game.into_first_commit()?;
        let over = matches!(commit.head.doc.status, Status::Finished | Status::Cancelled);
        let closed_log = match over && !commit.moves.is_empty() {
            true => Some(ClosedLog {
                moves: super::closed_log::encode(&commit.moves)?,
                events: super::closed_log::encode_events(&commit.events)?,
            }),
            false => None,
        };
        Ok(Import { commit, closed_log })
    }
}

pub(super) fn insert_head(
    conn: &Connection,
    head: &Head,
    wake: Option<i64>,
) -> Result<(), StoreError> {
    let (player, deadline) = waiting_columns(head);
    conn.prepare_cached(
        "INSERT INTO games (id, revision, ply, wait_player, wait_deadline, status, wake_at, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )
    .map_err(backend)?
    .execute(params![
        head.id.0,
        head.revision as i64,
        head.ply,
        player,
        deadline,
        head.doc.status.as_str(),
        wake,
        serde_json::to_string(head)?
    ])
    .map_err(conflict_or_backend)?;
    add_members(conn, head)
}

pub(super) fn apply_commit(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    commit.check()?;
    let head = &commit.head;
    let (player, deadline) = waiting_columns(head);
    let changed = conn
        .prepare_cached(
            "UPDATE games SET revision = ?2, ply = ?3, wait_player = ?4, wait_deadline = ?5,
                 status = ?6, body = ?7
             WHERE id = ?1 AND revision = ?8 AND ply = ?9",
        )
        .map_err(backend)?
        .execute(params![
            head.id.0,
            head.revision as i64,
            head.ply,
            player,
            deadline,
            head.doc.status.as_str(),
            serde_json::to_string(head)?,
            commit.expected_revision as i64,
            commit.expected_ply,
        ])
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    set_wake(conn, &head.id.0, commit.wake)?;
    keep_members(conn, head)?;
    append_log(conn, commit)?;
    append_feed(conn, &commit.feed)
}

/// Appends `feed`'s items to their players' feeds, first dropping every item whose time to
/// be kept is over by the newest one's time.
pub(super) fn append_feed(conn: &Connection, feed: &[FeedItem]) -> Result<(), StoreError> {
    let Some(now) = feed.iter().map(|item| item.at).max() else {
        return Ok(());
    };
    conn.prepare_cached("DELETE FROM feed WHERE expires_at < ?1")
        .map_err(backend)?
        .execute([now.timestamp_millis()])
        .map_err(backend)?;
    insert_feed(
        conn,
        "INSERT INTO feed (player, at, expires_at, body) VALUES (?1, ?2, ?3, ?4)",
        feed,
    )
}

/// Runs `insert`, a statement of the feed's player, time, expiry and body (`?1` to `?4`),
/// for each item of `feed`.
pub(super) fn insert_feed(
    conn: &Connection,
    insert: &str,
    feed: &[FeedItem],
) -> Result<(), StoreError> {
    let mut insert = conn.prepare_cached(insert).map_err(backend)?;
    for item in feed {
        insert
            .execute(params![
                item.recipient,
                item.at.timestamp_millis(),
                item.expires_at().timestamp_millis(),
                serde_json::to_string(item)?
            ])
            .map_err(backend)?;
    }
    Ok(())
}

/// Inserts a whole game: its head, then the rest as a commit's, the moves of a game that is
/// over in one row.
pub(super) fn apply_import(conn: &Connection, import: &Import) -> Result<(), StoreError> {
    let commit = &import.commit;
    insert_head(conn, &commit.head, None)?;
    let Some(closed) = &import.closed_log else {
        return append_log(conn, commit);
    };
    conn.prepare_cached("INSERT INTO closed_logs (game, moves, events) VALUES (?1, ?2, ?3)")
        .and_then(|mut insert| {
            insert.execute(params![commit.head.id.0, closed.moves, closed.events])
        })
        .map_err(conflict_or_backend)?;
    list_ending(conn, commit)
}

pub(super) fn set_wake(conn: &Connection, game: &str, wake: WakeChange) -> Result<(), StoreError> {
    let at = match wake {
        WakeChange::Keep => return Ok(()),
        WakeChange::At(at) => Some(at.timestamp_millis()),
        WakeChange::Clear => None,
    };
    conn.execute(
        "UPDATE games SET wake_at = ?2 WHERE id = ?1",
        params![game, at],
    )
    .map(drop)
    .map_err(backend)
}

/// Lists the game among its members' current games while it is forming or active, and
/// only then (the members it listed before are taken off first).
pub(super) fn keep_members(conn: &Connection, head: &Head) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM members WHERE game = ?1")
        .and_then(|mut delete| delete.execute([&head.id.0]))
        .map_err(backend)?;
    add_members(conn, head)
}

/// Lists the game among its members' current games if it is forming or active: all a game
/// just inserted needs (no member lists it yet; an imported game, over, needs nothing).
fn add_members(conn: &Connection, head: &Head) -> Result<(), StoreError> {
    if !matches!(head.doc.status, Status::Forming | Status::Active) {
        return Ok(());
    }
    let mut insert = conn
        .prepare_cached("INSERT OR IGNORE INTO members (player, game) VALUES (?1, ?2)")
        .map_err(backend)?;
    for player in head.doc.members() {
        insert
            .execute(params![player, head.id.0])
            .map_err(backend)?;
    }
    Ok(())
}

/// Inserts the commit's moves (with their keys) and events and, if it ends the game, the
/// entries of its players' lists of games over.
pub(super) fn append_log(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    for mv in &commit.moves {
        insert_move(conn, &commit.head.id.0, mv)?;
    }
    append_events(conn, commit)
}

/// Inserts the commit's events and, if it finishes the game, the players' finished entries;
/// if it calls the game off, the cancelled entries of its players and invitees.
pub(super) fn append_events(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    let game = &commit.head.id.0;
    for event in &commit.events {
        insert_event(conn, game, event)?;
    }
    list_ending(conn, commit)
}

/// If the commit finishes the game, inserts its players' finished entries; if it calls the
/// game off, the cancelled entries of its players and invitees.
fn list_ending(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    let game = &commit.head.id.0;
    match (commit.finishes, commit.cancels) {
        (true, _) => {
            let at = commit.finished_at()?.timestamp_millis();
            conn.prepare_cached(
                "INSERT OR IGNORE INTO finished (player, at, game) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut insert| {
                for player in commit.head.doc.players() {
                    insert.execute(params![player, at, game])?;
                }
                Ok(())
            })
            .map_err(backend)
        }
        (false, true) => keep_cancelled(conn, &commit.head),
        (false, false) => Ok(()),
    }
}

/// Inserts the cancelled entries of the game at `head` for its players and invitees, if it
/// was called off (where they are not already).
pub(super) fn keep_cancelled(conn: &Connection, head: &Head) -> Result<(), StoreError> {
    let (Status::Cancelled, Some(ending)) = (head.doc.status, head.doc.ending.as_ref()) else {
        return Ok(());
    };
    let at = ending.at.timestamp_millis();
    let mut insert = conn
        .prepare_cached("INSERT OR IGNORE INTO cancelled (player, at, game) VALUES (?1, ?2, ?3)")
        .map_err(backend)?;
    for player in head.doc.members() {
        insert
            .execute(params![player, at, head.id.0])
            .map_err(backend)?;
    }
    Ok(())
}

pub(super) fn insert_move(
    conn: &Connection,
    game: &str,
    mv: &MoveRecord,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO moves
             (game, ply, seat, long, short, at, key, draw_offer, prev_hash, hash, conditional)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )
    .map_err(backend)?
    .execute(params![
        game,
        mv.ply,
        mv.seat.0,
        mv.long,
        mv.short,
        mv.at.timestamp_millis(),
        mv.key,
        mv.draw_offer,
        mv.prev_hash,
        mv.hash,
        mv.conditional,
    ])
    .map_err(conflict_or_backend)?;
    let Some(key) = &mv.key else {
        return Ok(());
    };
    conn.prepare_cached("INSERT INTO move_keys (game, seat, key) VALUES (?1, ?2, ?3)")
        .map_err(backend)?
        .execute(params![game, mv.seat.0, key])
        .map_err(|error| match conflict_or_backend(error) {
            StoreError::Conflict => StoreError::KeyUsed,
            other => other,
        })?;
    Ok(())
}

pub(super) fn insert_event(
    conn: &Connection,
    game: &str,
    event: &EventRecord,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO events (game, seq, ply, seat, at, event, prev_hash, hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )
    .map_err(backend)?
    .execute(params![
        game,
        event.seq,
        event.ply,
        event.seat.map(|s| s.0),
        event.at.timestamp_millis(),
        serde_json::to_string(&event.event)?,
        event.prev_hash,
        event.hash,
    ])
    .map_err(conflict_or_backend)?;
    Ok(())
}

/// Creates the game `start` begins: its head (only if its id is new), wake-up and feed.
pub(super) fn start_game(conn: &Connection, start: &Commit) -> Result<(), StoreError> {
    start.check_start()?;
    let wake = match start.wake {
        WakeChange::At(at) => Some(at.timestamp_millis()),
        WakeChange::Keep | WakeChange::Clear => None,
    };
    insert_head(conn, &start.head, wake)?;
    append_feed(conn, &start.feed)
}

pub(super) fn waiting_columns(head: &Head) -> (Option<&str>, Option<i64>) {
    match &head.waiting {
        Some(w) => (Some(w.player.as_str()), Some(w.deadline.timestamp_millis())),
        None => (None, None),
    }
}

/// Inserts a new game's head and the feed items that tell of it.
pub(super) fn create(conn: &Connection, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError> {
    insert_head(conn, head, None)?;
    append_feed(conn, feed)
}

/// The head of game `id`, read on `conn`.
fn read_head(
    conn: &Connection,
    id: &GameId,
    tally: &mut Tally,
) -> Result<Option<Head>, StoreError> {
    let body: Option<String> = conn
        .query_row("SELECT body FROM games WHERE id = ?1", [&id.0], |row| {
            row.get(0)
        })
        .optional()
        .map_err(backend)?;
    body.map(|body| {
        tally.row(body.len());
        serde_json::from_str(&body).map_err(StoreError::from)
    })
    .transpose()
}

/// The head and the whole log of game `id`, in one read transaction.
fn read_game(
    conn: &mut Connection,
    id: &GameId,
    tally: &mut Tally,
) -> Result<Option<StoredGame>, StoreError> {
    let tx = conn.transaction().map_err(backend)?;
    let Some(head) = read_head(&tx, id, tally)? else {
        return Ok(None);
    };
    let events = rows(
        &tx,
        "SELECT seq, ply, seat, at, event, prev_hash, hash
         FROM events WHERE game = ?1 ORDER BY seq",
        [&id.0],
        tally,
        read_event,
    )?;
    let closed = match head.doc.imported {
        true => closed_log(&tx, id, tally)?,
        false => None,
    };
    let (moves, events) = match closed {
        Some((moves, packed_events)) => {
            super::closed_log::decode(id, &moves, packed_events.as_deref(), events)?
        }
        None => {
            let moves = rows(
                &tx,
                "SELECT ply, seat, long, short, at, key, draw_offer, prev_hash, hash, conditional
                 FROM moves WHERE game = ?1 ORDER BY ply",
                [&id.0],
                tally,
                read_move,
            )?;
            (moves, events)
        }
    };
    Ok(Some(StoredGame {
        head,
        moves,
        events,
    }))
}

/// The texts of the `closed_logs` row of game `id` (an imported game that is over), if it
/// has one: its moves, and its events when the row keeps them.
fn closed_log(
    conn: &Connection,
    id: &GameId,
    tally: &mut Tally,
) -> Result<Option<(String, Option<String>)>, StoreError> {
    let row: Option<(String, Option<String>)> = conn
        .prepare_cached("SELECT moves, events FROM closed_logs WHERE game = ?1")
        .and_then(|mut select| {
            select
                .query_row([&id.0], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .map_err(backend)?;
    if let Some((moves, events)) = &row {
        tally.row(moves.len() + events.as_ref().map_or(0, String::len));
    }
    Ok(row)
}

fn read_move(row: &Row) -> Result<(MoveRecord, usize), StoreError> {
    let mv = MoveRecord {
        ply: row.get(0).map_err(backend)?,
        seat: Seat(row.get(1).map_err(backend)?),
        long: text(row, 2)?,
        short: text(row, 3)?,
        at: millis(row.get(4).map_err(backend)?)?,
        key: row.get(5).map_err(backend)?,
        draw_offer: row.get(6).map_err(backend)?,
        prev_hash: text(row, 7)?,
        hash: text(row, 8)?,
        conditional: row.get(9).map_err(backend)?,
    };
    let size = mv.long.len() + mv.short.len() + mv.hash.len() * 2 + 24;
    let size = size + mv.key.as_ref().map_or(0, String::len);
    Ok((mv, size))
}

fn read_event(row: &Row) -> Result<(EventRecord, usize), StoreError> {
    let body = text(row, 4)?;
    let event = EventRecord {
        seq: row.get(0).map_err(backend)?,
        ply: row.get(1).map_err(backend)?,
        seat: row.get::<_, Option<u8>>(2).map_err(backend)?.map(Seat),
        at: millis(row.get(3).map_err(backend)?)?,
        event: serde_json::from_str(&body)?,
        prev_hash: text(row, 5)?,
        hash: text(row, 6)?,
    };
    let size = body.len() + event.hash.len() * 2 + 16;
    Ok((event, size))
}
