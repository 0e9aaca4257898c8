//! The SQLite schema and its migrations.
//!
//! `PRAGMA user_version` holds the number of migrations applied. Opening a database applies
//! the missing ones in order, each in its own transaction; migrations are only ever added,
//! never edited, so every file converges to the same schema.

use rusqlite::Connection;

use crate::StoreError;

/// The migrations, oldest first; the schema version is how many have been applied.
const MIGRATIONS: &[&str] = &[
    // 1: games, the append-only move log, the finished-games index, vacations.
    "CREATE TABLE games (
         id TEXT PRIMARY KEY,
         revision INTEGER NOT NULL,
         ply INTEGER NOT NULL,
         wait_player TEXT,
         wait_deadline INTEGER,
         body TEXT NOT NULL
     );
     CREATE INDEX games_waiting ON games (wait_player, wait_deadline)
         WHERE wait_player IS NOT NULL;
     CREATE TABLE moves (
         game TEXT NOT NULL REFERENCES games (id),
         ply INTEGER NOT NULL,
         seat INTEGER NOT NULL,
         long TEXT NOT NULL,
         short TEXT NOT NULL,
         at INTEGER NOT NULL,
         key TEXT,
         draw_offer INTEGER NOT NULL,
         prev_hash TEXT NOT NULL,
         hash TEXT NOT NULL,
         PRIMARY KEY (game, ply)
     ) WITHOUT ROWID;
     CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
         BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
     CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
         BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
     CREATE TABLE finished (
         player TEXT NOT NULL,
         at INTEGER NOT NULL,
         game TEXT NOT NULL REFERENCES games (id),
         PRIMARY KEY (player, at, game)
     ) WITHOUT ROWID;
     CREATE TABLE vacations (
         player TEXT PRIMARY KEY,
         revision INTEGER NOT NULL,
         body TEXT NOT NULL
     );",
    // 2: players, unique by handle and by lower-cased e-mail address.
    "CREATE TABLE players (
         handle TEXT PRIMARY KEY,
         email TEXT NOT NULL UNIQUE,
         body TEXT NOT NULL
     );",
    // 3: mail preferences, markers of mails sent once, active games by deadline.
    "CREATE TABLE mail_preferences (
         player TEXT PRIMARY KEY,
         preference TEXT NOT NULL
     );
     CREATE TABLE notices (
         scope TEXT NOT NULL,
         name TEXT NOT NULL,
         at INTEGER NOT NULL,
         PRIMARY KEY (scope, name)
     ) WITHOUT ROWID;
     CREATE INDEX games_deadlines ON games (wait_deadline)
         WHERE wait_player IS NOT NULL;",
    // 4: markers of single-use tokens already used, until the token expires.
    "CREATE TABLE used_tokens (
         id TEXT PRIMARY KEY,
         expires_at INTEGER NOT NULL
     );
     CREATE INDEX used_tokens_expiry ON used_tokens (expires_at);",
    // 5: events in the log beside the moves; the idempotency keys moves were made with (one
    // use per seat and game); each player's current games; every game's wake-up for the
    // sweep (games someone is to move in wake at the turn's start, so the first sweep looks
    // at each once).
    "CREATE TABLE events (
         game TEXT NOT NULL REFERENCES games (id),
         seq INTEGER NOT NULL,
         ply INTEGER NOT NULL,
         seat INTEGER,
         at INTEGER NOT NULL,
         event TEXT NOT NULL,
         prev_hash TEXT NOT NULL,
         hash TEXT NOT NULL,
         PRIMARY KEY (game, seq)
     ) WITHOUT ROWID;
     CREATE TRIGGER events_no_update BEFORE UPDATE ON events
         BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
     CREATE TRIGGER events_no_delete BEFORE DELETE ON events
         BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
     CREATE TABLE move_keys (
         game TEXT NOT NULL REFERENCES games (id),
         seat INTEGER NOT NULL,
         key TEXT NOT NULL,
         PRIMARY KEY (game, seat, key)
     ) WITHOUT ROWID;
     INSERT OR IGNORE INTO move_keys (game, seat, key)
         SELECT game, seat, key FROM moves WHERE key IS NOT NULL;
     ALTER TABLE games ADD COLUMN status TEXT;
     UPDATE games SET status = json_extract(body, '$.doc.status');
     CREATE TABLE members (
         player TEXT NOT NULL,
         game TEXT NOT NULL REFERENCES games (id),
         PRIMARY KEY (player, game)
     ) WITHOUT ROWID;
     INSERT OR IGNORE INTO members (player, game)
         SELECT json_extract(seat.value, '$.player'), games.id
         FROM games, json_each(games.body, '$.doc.seats') AS seat
         WHERE json_extract(seat.value, '$.player') IS NOT NULL
           AND games.status IN ('forming', 'active');
     ALTER TABLE games ADD COLUMN wake_at INTEGER;
     UPDATE games SET wake_at = json_extract(body, '$.waiting.since')
         WHERE wait_player IS NOT NULL;
     CREATE INDEX games_wake ON games (wake_at, id) WHERE wake_at IS NOT NULL;
     DROP INDEX games_deadlines;",
    // 6: handles unique without regard to case (of handles that already differ only in
    // case, the first keeps the key and the others stay as they are, without one); counters
    // of limits, each until it expires.
    "ALTER TABLE players ADD COLUMN handle_key TEXT;
     UPDATE players SET handle_key = lower(handle)
         WHERE rowid IN (SELECT min(rowid) FROM players GROUP BY lower(handle));
     CREATE UNIQUE INDEX players_handle_key ON players (handle_key);
     CREATE TABLE counters (
         name TEXT PRIMARY KEY,
         used INTEGER NOT NULL,
         expires_at INTEGER NOT NULL
     );
     CREATE INDEX counters_expiry ON counters (expires_at);",
    // 7: whether a move was played from its seat's conditional line.
    "ALTER TABLE moves ADD COLUMN conditional INTEGER NOT NULL DEFAULT 0;",
    // 8: open challenges (listed newest first while open) and when players want the
    // messages of their games mailed.
    "CREATE TABLE challenges (
         id TEXT PRIMARY KEY,
         revision INTEGER NOT NULL,
         open INTEGER NOT NULL,
         variant TEXT NOT NULL,
         time_control TEXT NOT NULL,
         created_at INTEGER NOT NULL,
         expires_at INTEGER NOT NULL,
         body TEXT NOT NULL
     );
     CREATE INDEX challenges_open ON challenges (created_at, id) WHERE open = 1;
     CREATE TABLE message_mail (
         player TEXT PRIMARY KEY,
         choice TEXT NOT NULL
     );",
    // 9: the moves of an imported game that is over (none will ever follow), all in one
    // row: a JSON array of the move records, in order. Append-only like the moves table.
    "CREATE TABLE closed_logs (
         game TEXT PRIMARY KEY REFERENCES games (id),
         moves TEXT NOT NULL
     );
     CREATE TRIGGER closed_logs_no_update BEFORE UPDATE ON closed_logs
         BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
     CREATE TRIGGER closed_logs_no_delete BEFORE DELETE ON closed_logs
         BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;",
    // 10: application passwords (their hashes), per player.
    "CREATE TABLE app_passwords (
         player TEXT NOT NULL,
         id TEXT NOT NULL,
         label TEXT NOT NULL,
         hash TEXT NOT NULL,
         created_at INTEGER NOT NULL,
         last_used INTEGER,
         PRIMARY KEY (player, id)
     ) WITHOUT ROWID;",
    // 11: players' event feeds, in the order written (`seq`), each item kept until
    // `expires_at`.
    "CREATE TABLE feed (
         seq INTEGER PRIMARY KEY AUTOINCREMENT,
         player TEXT NOT NULL,
         at INTEGER NOT NULL,
         expires_at INTEGER NOT NULL,
         body TEXT NOT NULL
     );
     CREATE INDEX feed_player ON feed (player, seq);
     CREATE INDEX feed_expiry ON feed (expires_at);",
    // 12: players' webhooks; `due` is set while a hook is active and has something due.
    "CREATE TABLE hooks (
         id TEXT PRIMARY KEY,
         player TEXT NOT NULL,
         revision INTEGER NOT NULL,
         created_at INTEGER NOT NULL,
         due INTEGER,
         body TEXT NOT NULL
     );
     CREATE INDEX hooks_player ON hooks (player, created_at);
     CREATE INDEX hooks_due ON hooks (due) WHERE due IS NOT NULL;",
    // 13: tournaments, and players' ratings per variant (`rating` for the leaderboard).
    "CREATE TABLE tournaments (
         id TEXT PRIMARY KEY,
         revision INTEGER NOT NULL,
         created_at INTEGER NOT NULL,
         body TEXT NOT NULL
     );
     CREATE INDEX tournaments_created ON tournaments (created_at, id);
     CREATE TABLE ratings (
         player TEXT NOT NULL,
         variant TEXT NOT NULL,
         revision INTEGER NOT NULL,
         rating REAL NOT NULL,
         body TEXT NOT NULL,
         PRIMARY KEY (player, variant)
     ) WITHOUT ROWID;
     CREATE INDEX ratings_board ON ratings (variant, rating);",
    // 14: when an open tournament is to start, if it has a start date.
    "ALTER TABLE tournaments ADD COLUMN starts_at INTEGER;
     CREATE INDEX tournaments_starts ON tournaments (starts_at) WHERE starts_at IS NOT NULL;",
    // 15: rating periods: how far each variant's have closed (`through`, the last closed
    // period's first day), and the rated games kept with the periods still to close.
    "CREATE TABLE rating_periods (
         variant TEXT PRIMARY KEY,
         through TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE TABLE rated_games (
         game TEXT PRIMARY KEY,
         variant TEXT NOT NULL,
         period TEXT NOT NULL,
         body TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE INDEX rated_games_period ON rated_games (variant, period, game);",
    // 16: the games called off (declined, aborted) per player seated or invited, by when
    // they ended; the games called off before are listed from their heads.
    "CREATE TABLE cancelled (
         player TEXT NOT NULL,
         at INTEGER NOT NULL,
         game TEXT NOT NULL REFERENCES games (id),
         PRIMARY KEY (player, at, game)
     ) WITHOUT ROWID;
     INSERT OR IGNORE INTO cancelled (player, at, game)
         SELECT json_extract(seat.value, '$.player'),
                coalesce(json_extract(games.body, '$.doc.ending.at'),
                         json_extract(games.body, '$.doc.created_at')),
                games.id
         FROM games, json_each(games.body, '$.doc.seats') AS seat
         WHERE games.status = 'cancelled'
           AND json_extract(seat.value, '$.state') IN ('taken', 'invited');",
    // 17: each challenge's creator, and the open ones by creator and expiry, which a
    // publication counts.
    "ALTER TABLE challenges ADD COLUMN creator TEXT;
     UPDATE challenges SET creator = json_extract(body, '$.creator');
     CREATE INDEX challenges_creator ON challenges (creator, expires_at) WHERE open = 1;",
    // 18: players' open WebSocket connections, forgotten after `expires_at`.
    "CREATE TABLE sockets (
         id TEXT PRIMARY KEY,
         player TEXT NOT NULL,
         revision INTEGER NOT NULL,
         opened_at INTEGER NOT NULL,
         expires_at INTEGER NOT NULL,
         body TEXT NOT NULL
     );
     CREATE INDEX sockets_player ON sockets (player, opened_at);
     CREATE INDEX sockets_expiry ON sockets (expires_at);",
    // 19: the events of an imported game that is over, in its `closed_logs` row beside its
    // moves (rows written before keep theirs in `events`).
    "ALTER TABLE closed_logs ADD COLUMN events TEXT;",
];

/// The schema version this code writes.
pub const CURRENT: u32 = MIGRATIONS.len() as u32;

/// The schema version of `conn`'s database.
pub fn version(conn: &Connection) -> Result<u32, StoreError> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|e| StoreError::Backend(e.to_string()))
}

/// Applies the migrations `conn`'s database lacks; refuses a database newer than this code.
pub fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let backend = |e: rusqlite::Error| StoreError::Backend(e.to_string());
    let found = version(conn)?;
    if found > CURRENT {
        return Err(StoreError::Backend(format!(
            "the database has schema version {found}, newer than this program's {CURRENT}"
        )));
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction().map_err(backend)?;
        tx.execute_batch(sql).map_err(backend)?;
        tx.pragma_update(None, "user_version", index as u32 + 1)
            .map_err(backend)?;
        tx.commit().map_err(backend)?;
    }
    Ok(())
}
