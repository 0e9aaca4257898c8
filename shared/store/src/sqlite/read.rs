//! The reads, each in one read transaction on a pooled connection. Every function counts
//! the rows and bytes it read into a [`Tally`].

use chrono::{DateTime, Utc};
use missive_domain::{
    AppPassword, EventRecord, FeedEntry, FeedPage, GameId, Head, MoveRecord, Seat, StoredGame,
};
use rusqlite::{Connection, OptionalExtension, Params, Row, params};

use super::backend;
use crate::StoreError;

/// Rows and bytes read by one call.
#[derive(Default)]
pub(super) struct Tally {
    pub rows: u64,
    pub bytes: u64,
}

impl Tally {
    fn row(&mut self, bytes: usize) {
        self.rows += 1;
        self.bytes += bytes as u64;
    }
}

/// A stored time in milliseconds, or `Corrupt`.
pub(super) fn millis(value: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp_millis(value)
        .ok_or_else(|| StoreError::Corrupt(format!("time {value} out of range")))
}

/// The head of game `id`.
pub(super) fn head(
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
pub(super) fn load(
    conn: &mut Connection,
    id: &GameId,
    tally: &mut Tally,
) -> Result<Option<StoredGame>, StoreError> {
    let tx = conn.transaction().map_err(backend)?;
    let Some(head) = head(&tx, id, tally)? else {
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
        true => closed_log(&tx, id, &events, tally)?,
        false => None,
    };
    let moves = match closed {
        Some(moves) => moves,
        None => rows(
            &tx,
            "SELECT ply, seat, long, short, at, key, draw_offer, prev_hash, hash, conditional
             FROM moves WHERE game = ?1 ORDER BY ply",
            [&id.0],
            tally,
            read_move,
        )?,
    };
    Ok(Some(StoredGame {
        head,
        moves,
        events,
    }))
}

/// The moves of game `id` kept in one row (an imported game that is over), if they are,
/// their hashes chained through the game's `events`.
fn closed_log(
    conn: &Connection,
    id: &GameId,
    events: &[EventRecord],
    tally: &mut Tally,
) -> Result<Option<Vec<MoveRecord>>, StoreError> {
    let moves: Option<String> = conn
        .prepare_cached("SELECT moves FROM closed_logs WHERE game = ?1")
        .and_then(|mut select| select.query_row([&id.0], |row| row.get(0)).optional())
        .map_err(backend)?;
    moves
        .map(|moves| {
            tally.row(moves.len());
            super::closed_log::decode(id, &moves, events)
        })
        .transpose()
}

/// Every row `sql` selects with `params`, read by `read` (which gives the value and its size).
pub(super) fn rows<T>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    tally: &mut Tally,
    read: impl Fn(&Row) -> Result<(T, usize), StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut select = conn.prepare_cached(sql).map_err(backend)?;
    let mut found = select.query(params).map_err(backend)?;
    let mut values = Vec::new();
    while let Some(row) = found.next().map_err(backend)? {
        let (value, size) = read(row)?;
        tally.row(size);
        values.push(value);
    }
    Ok(values)
}

fn text(row: &Row, index: usize) -> Result<String, StoreError> {
    row.get(index).map_err(backend)
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

/// A head from the body in column 0, with the list position in the columns after it.
pub(super) fn head_row(row: &Row) -> Result<(Head, usize), StoreError> {
    let body = text(row, 0)?;
    Ok((serde_json::from_str(&body)?, body.len()))
}

/// The application passwords of `player` (only `id` if given), oldest first.
pub(super) fn app_passwords(
    conn: &Connection,
    player: &str,
    id: Option<&str>,
    tally: &mut Tally,
) -> Result<Vec<AppPassword>, StoreError> {
    rows(
        conn,
        "SELECT player, id, label, hash, created_at, last_used FROM app_passwords
         WHERE player = ?1 AND (?2 IS NULL OR id = ?2) ORDER BY created_at, id",
        rusqlite::params![player, id],
        tally,
        read_app_password,
    )
}

fn read_app_password(row: &Row) -> Result<(AppPassword, usize), StoreError> {
    let last_used: Option<i64> = row.get(5).map_err(backend)?;
    let password = AppPassword {
        player: text(row, 0)?,
        id: text(row, 1)?,
        label: text(row, 2)?,
        hash: text(row, 3)?,
        created_at: millis(row.get(4).map_err(backend)?)?,
        last_used: last_used.map(millis).transpose()?,
    };
    let size = [
        &password.player,
        &password.id,
        &password.label,
        &password.hash,
    ]
    .iter()
    .map(|text| text.len())
    .sum::<usize>();
    Ok((password, size + 16))
}

/// The items of `player`'s feed after `seq` `after`, written at `since` or later, oldest
/// first, at most `limit`; each item's position is its `seq`.
pub(super) fn feed(
    conn: &Connection,
    player: &str,
    after: i64,
    since: DateTime<Utc>,
    limit: usize,
    tally: &mut Tally,
) -> Result<FeedPage, StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT seq, body FROM feed WHERE player = ?1 AND seq > ?2 AND at >= ?3
             ORDER BY seq LIMIT ?4",
        )
        .map_err(backend)?;
    let rows = statement
        .query_map(
            params![player, after, since.timestamp_millis(), limit as i64],
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)),
        )
        .map_err(backend)?;
    let mut page = FeedPage {
        entries: Vec::new(),
        position: feed_position(after)?,
    };
    for row in rows {
        let (seq, body) = row.map_err(backend)?;
        tally.row(body.len());
        page.position = feed_position(seq)?;
        page.entries.push(FeedEntry {
            id: seq.to_string(),
            position: page.position.clone(),
            item: serde_json::from_str(&body)?,
        });
    }
    Ok(page)
}

/// The feed position after the item `seq`.
fn feed_position(seq: i64) -> Result<String, StoreError> {
    crate::cursor::encode("feed", &seq).map(|cursor| cursor.0)
}

/// The records whose JSON bodies `sql` selects (the first column), in its order.
pub(super) fn bodies<T: serde::de::DeserializeOwned>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    tally: &mut Tally,
) -> Result<Vec<T>, StoreError> {
    rows(conn, sql, params, tally, |row| {
        let body: String = row.get(0).map_err(backend)?;
        Ok((serde_json::from_str(&body)?, body.len()))
    })
}
