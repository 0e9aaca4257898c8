//! The writes the writer thread applies, each inside its own savepoint.

use missive_domain::{
    AppPassword, Challenge, ChallengeState, Commit, EventRecord, FeedItem, Head, Hook, HookState,
    MailPreference, MessageMail, MoveRecord, Notice, Player, RatingRecord, Status, StoredGame,
    Tournament, VacationRecord, WakeChange,
};
use rusqlite::{Connection, params};

use super::{backend, conflict_or_backend};
use crate::StoreError;

/// A write waiting for the writer thread.
pub(super) enum Write {
    Create(Box<Head>, Vec<FeedItem>),
    Commit(Box<Commit>),
    /// Whole games, each in a savepoint of its own (see [`apply_parts`]).
    Imports(Vec<Import>),
    MoveWake {
        game: String,
        from: i64,
        to: Option<i64>,
    },
    HastenWake {
        game: String,
        at: i64,
    },
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
    Challenge(Box<Challenge>, Option<Box<Commit>>),
    /// Games created started, each in a savepoint of its own (see [`apply_parts`]).
    Starts(Vec<Commit>),
    Tournament(Box<Tournament>),
    Rating(Box<RatingRecord>),
    MessageMail(String, MessageMail),
    Hook(Box<Hook>),
    DeleteHook {
        player: String,
        id: String,
    },
    CountUp {
        name: String,
        amount: u64,
        limit: u64,
        at: i64,
        expires_at: i64,
    },
    DropCounter {
        name: String,
        expires_at: i64,
    },
    AppPassword(Box<AppPassword>),
    TouchAppPassword {
        player: String,
        id: String,
        at: i64,
    },
    /// Answers a conflict when there was nothing to remove.
    RevokeAppPassword {
        player: String,
        id: String,
    },
}

/// A whole game to import: its first commit and, for a game that is over, its moves as
/// the one row of `closed_logs` (no move will ever follow, and one row costs the writer far
/// less than a row a move).
pub(super) struct Import {
    commit: Commit,
    closed_log: Option<String>,
}

impl Import {
    /// The import of `game`, refused when its log breaks the log's invariants.
    pub(super) fn of(game: StoredGame) -> Result<Import, StoreError> {
        let commit = game.into_first_commit()?;
        let over = matches!(commit.head.doc.status, Status::Finished | Status::Cancelled);
        let closed_log = match over && !commit.moves.is_empty() {
            true => Some(super::closed_log::encode(&commit.moves)?),
            false => None,
        };
        Ok(Import { commit, closed_log })
    }
}

impl Write {
    /// How many parts the write has, each answered on its own.
    pub(super) fn parts(&self) -> usize {
        match self {
            Write::Imports(commits) => commits.len(),
            Write::Starts(starts) => starts.len(),
            _ => 1,
        }
    }
}

/// Applies one write inside the writer's transaction, each of its parts in a savepoint of
/// its own (rolled back alone when it fails): one answer per part. Only imports have more
/// than one part, a game each, so one failed game leaves the others of its batch written.
pub(super) fn apply_parts(
    tx: &mut rusqlite::Transaction<'_>,
    write: &Write,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    match write {
        Write::Imports(commits) => commits
            .iter()
            .map(|import| in_savepoint(tx, |conn| apply_import(conn, import)))
            .collect(),
        Write::Starts(starts) => starts
            .iter()
            .map(|start| in_savepoint(tx, |conn| start_game(conn, start)))
            .collect(),
        write => Ok(vec![in_savepoint(tx, |conn| apply(conn, write))?]),
    }
}

/// Runs `write` in a savepoint of `tx`, kept if it succeeds and rolled back if not; the
/// outer error is the savepoint's own failure. The savepoint's statements are cached: an
/// import runs one per game.
fn in_savepoint(
    tx: &mut rusqlite::Transaction<'_>,
    write: impl FnOnce(&Connection) -> Result<(), StoreError>,
) -> Result<Result<(), StoreError>, StoreError> {
    let run = |sql: &str| {
        tx.prepare_cached(sql)
            .and_then(|mut statement| statement.execute([]))
            .map(drop)
            .map_err(backend)
    };
    run("SAVEPOINT part")?;
    let result = write(tx);
    if result.is_err() {
        run("ROLLBACK TO part")?;
    }
    run("RELEASE part")?;
    Ok(result)
}

/// Applies one write of a single part.
fn apply(conn: &Connection, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Create(head, feed) => {
            insert_head(conn, head, None)?;
            append_feed(conn, feed)
        }
        Write::Commit(commit) => apply_commit(conn, commit),
        Write::Imports(_) | Write::Starts(_) => Err(StoreError::Invalid(
            "imports and started games are written game by game".into(),
        )),
        Write::MoveWake { game, from, to } => move_wake(conn, game, *from, *to),
        Write::HastenWake { game, at } => hasten_wake(conn, game, *at),
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
        Write::Challenge(challenge, start) => put_challenge(conn, challenge, start.as_deref()),
        Write::Hook(hook) => put_hook(conn, hook),
        Write::Tournament(tournament) => put_tournament(conn, tournament),
        Write::Rating(rating) => put_rating(conn, rating),

        Write::DeleteHook { player, id } => conn
            .execute(
                "DELETE FROM hooks WHERE id = ?1 AND player = ?2",
                params![id, player],
            )
            .map(drop)
            .map_err(backend),
        Write::MessageMail(player, choice) => conn
            .execute(
                "INSERT OR REPLACE INTO message_mail (player, choice) VALUES (?1, ?2)",
                params![player, choice.as_str()],
            )
            .map(drop)
            .map_err(backend),
        Write::CountUp {
            name,
            amount,
            limit,
            at,
            expires_at,
        } => count_up(conn, name, *amount, *limit, *at, *expires_at),
        Write::DropCounter { name, expires_at } => conn
            .execute(
                "DELETE FROM counters WHERE name = ?1 AND expires_at = ?2",
                params![name, expires_at],
            )
            .map(drop)
            .map_err(backend),
        Write::AppPassword(password) => insert_app_password(conn, password),
        Write::TouchAppPassword { player, id, at } => conn
            .execute(
                "UPDATE app_passwords SET last_used = ?3 WHERE player = ?1 AND id = ?2",
                params![player, id, at],
            )
            .map(drop)
            .map_err(backend),
        Write::RevokeAppPassword { player, id } => {
            let removed = conn
                .execute(
                    "DELETE FROM app_passwords WHERE player = ?1 AND id = ?2",
                    params![player, id],
                )
                .map_err(backend)?;
            match removed {
                0 => Err(StoreError::Conflict),
                _ => Ok(()),
            }
        }
    }
}

fn insert_app_password(conn: &Connection, password: &AppPassword) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO app_passwords (player, id, label, hash, created_at, last_used)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            password.player,
            password.id,
            password.label,
            password.hash,
            password.created_at.timestamp_millis(),
            password.last_used.map(|at| at.timestamp_millis()),
        ],
    )
    .map(drop)
    .map_err(conflict_or_backend)
}

fn insert_head(conn: &Connection, head: &Head, wake: Option<i64>) -> Result<(), StoreError> {
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
    keep_members(conn, head)
}

fn apply_commit(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
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
fn append_feed(conn: &Connection, feed: &[FeedItem]) -> Result<(), StoreError> {
    let Some(now) = feed.iter().map(|item| item.at).max() else {
        return Ok(());
    };
    conn.prepare_cached("DELETE FROM feed WHERE expires_at < ?1")
        .map_err(backend)?
        .execute([now.timestamp_millis()])
        .map_err(backend)?;
    let mut insert = conn
        .prepare_cached("INSERT INTO feed (player, at, expires_at, body) VALUES (?1, ?2, ?3, ?4)")
        .map_err(backend)?;
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
fn apply_import(conn: &Connection, import: &Import) -> Result<(), StoreError> {
    let commit = &import.commit;
    insert_head(conn, &commit.head, None)?;
    let Some(moves) = &import.closed_log else {
        return append_log(conn, commit);
    };
    conn.prepare_cached("INSERT INTO closed_logs (game, moves) VALUES (?1, ?2)")
        .and_then(|mut insert| insert.execute(params![commit.head.id.0, moves]))
        .map_err(conflict_or_backend)?;
    append_events(conn, commit)
}

fn set_wake(conn: &Connection, game: &str, wake: WakeChange) -> Result<(), StoreError> {
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

fn move_wake(conn: &Connection, game: &str, from: i64, to: Option<i64>) -> Result<(), StoreError> {
    let changed = conn
        .execute(
            "UPDATE games SET wake_at = ?3 WHERE id = ?1 AND wake_at = ?2",
            params![game, from, to],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

fn hasten_wake(conn: &Connection, game: &str, at: i64) -> Result<(), StoreError> {
    let changed = conn
        .execute(
            "UPDATE games SET wake_at = ?2 WHERE id = ?1 AND wake_at > ?2",
            params![game, at],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

/// Lists the game among its members' current games while it is forming or active.
fn keep_members(conn: &Connection, head: &Head) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM members WHERE game = ?1")
        .and_then(|mut delete| delete.execute([&head.id.0]))
        .map_err(backend)?;
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

/// Inserts the commit's moves (with their keys) and events and, if it finishes the game,
/// the players' finished entries.
fn append_log(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    for mv in &commit.moves {
        insert_move(conn, &commit.head.id.0, mv)?;
    }
    append_events(conn, commit)
}

/// Inserts the commit's events and, if it finishes the game, the players' finished entries.
fn append_events(conn: &Connection, commit: &Commit) -> Result<(), StoreError> {
    let game = &commit.head.id.0;
    for event in &commit.events {
        insert_event(conn, game, event)?;
    }
    if commit.finishes {
        let at = commit.finished_at()?.timestamp_millis();
        let mut insert = conn
            .prepare_cached("INSERT OR IGNORE INTO finished (player, at, game) VALUES (?1, ?2, ?3)")
            .map_err(backend)?;
        for player in commit.head.doc.players() {
            insert.execute(params![player, at, game]).map_err(backend)?;
        }
    }
    Ok(())
}

fn insert_move(conn: &Connection, game: &str, mv: &MoveRecord) -> Result<(), StoreError> {
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

fn insert_event(conn: &Connection, game: &str, event: &EventRecord) -> Result<(), StoreError> {
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

fn put_vacation(
    conn: &Connection,
    player: &str,
    record: &VacationRecord,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(record)?;
    versioned(
        record.revision,
        "a vacation record",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO vacations (player, revision, body) VALUES (?1, 1, ?2)",
                params![player, body],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE vacations SET revision = ?2, body = ?3 WHERE player = ?1 AND revision = ?4",
                params![player, previous + 1, body, previous],
            )
        },
    )
}

/// Stores a challenge by its revision and, with `start`, creates the game it became.
fn put_challenge(
    conn: &Connection,
    challenge: &Challenge,
    start: Option<&Commit>,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(challenge)?;
    let open = challenge.state == ChallengeState::Open;
    versioned(
        challenge.revision,
        "a challenge",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO challenges
                     (id, revision, open, variant, time_control, created_at, expires_at, body)
                 VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    challenge.id.0,
                    open,
                    challenge.variant,
                    challenge.time_control.key(),
                    challenge.created_at.timestamp_millis(),
                    challenge.expires_at.timestamp_millis(),
                    body
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE challenges SET revision = ?2, open = ?3, body = ?4
                 WHERE id = ?1 AND revision = ?5",
                params![challenge.id.0, previous + 1, open, body, previous],
            )
        },
    )?;
    match start {
        Some(start) => start_game(conn, start),
        None => Ok(()),
    }
}

/// Creates the game `start` begins: its head (only if its id is new), wake-up and feed.
fn start_game(conn: &Connection, start: &Commit) -> Result<(), StoreError> {
    start.check_start()?;
    let wake = match start.wake {
        WakeChange::At(at) => Some(at.timestamp_millis()),
        WakeChange::Keep | WakeChange::Clear => None,
    };
    insert_head(conn, &start.head, wake)?;
    append_feed(conn, &start.feed)
}

/// Stores a tournament by its revision.
fn put_tournament(conn: &Connection, tournament: &Tournament) -> Result<(), StoreError> {
    let body = serde_json::to_string(tournament)?;
    let starts_at = tournament.wakes_at().map(|at| at.timestamp_millis());
    versioned(
        tournament.revision,
        "a tournament",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO tournaments (id, revision, created_at, starts_at, body)
                 VALUES (?1, 1, ?2, ?3, ?4)",
                params![
                    tournament.id.0,
                    tournament.created_at.timestamp_millis(),
                    starts_at,
                    body
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE tournaments SET revision = ?2, starts_at = ?3, body = ?4
                 WHERE id = ?1 AND revision = ?5",
                params![tournament.id.0, previous + 1, starts_at, body, previous],
            )
        },
    )
}

/// Stores a rating by its revision.
fn put_rating(conn: &Connection, rating: &RatingRecord) -> Result<(), StoreError> {
    let body = serde_json::to_string(rating)?;
    versioned(
        rating.revision,
        "a rating",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO ratings (player, variant, revision, rating, body)
                 VALUES (?1, ?2, 1, ?3, ?4)",
                params![rating.player, rating.variant, rating.rating, body],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE ratings SET revision = ?3, rating = ?4, body = ?5
                 WHERE player = ?1 AND variant = ?2 AND revision = ?6",
                params![
                    rating.player,
                    rating.variant,
                    previous + 1,
                    rating.rating,
                    body,
                    previous
                ],
            )
        },
    )
}

/// Stores a hook by its revision, due while active.
fn put_hook(conn: &Connection, hook: &Hook) -> Result<(), StoreError> {
    let body = serde_json::to_string(hook)?;
    let due = match hook.state {
        HookState::Active => hook.due.map(|at| at.timestamp_millis()),
        HookState::Disabled { .. } => None,
    };
    versioned(
        hook.revision,
        "a hook",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO hooks (id, player, revision, created_at, due, body)
                 VALUES (?1, ?2, 1, ?3, ?4, ?5)",
                params![
                    hook.id.0,
                    hook.player,
                    hook.created_at.timestamp_millis(),
                    due,
                    body
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE hooks SET revision = ?2, due = ?3, body = ?4
                 WHERE id = ?1 AND revision = ?5",
                params![hook.id.0, previous + 1, due, body, previous],
            )
        },
    )
}

/// Writes a record guarded by its revision: `insert` for revision 1 (changing no row when
/// the record exists), `update` over the revision before for later ones. A conflict when
/// no row changed; revision 0 (of `what`) is invalid.
fn versioned(
    revision: u64,
    what: &str,
    insert: impl FnOnce() -> rusqlite::Result<usize>,
    update: impl FnOnce(i64) -> rusqlite::Result<usize>,
) -> Result<(), StoreError> {
    let changed = match revision {
        0 => return Err(StoreError::Invalid(format!("{what} starts at revision 1"))),
        1 => insert(),
        revision => update(revision as i64 - 1),
    }
    .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

fn insert_player(conn: &Connection, player: &Player) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO players (handle, handle_key, email, body) VALUES (?1, ?2, ?3, ?4)",
        params![
            player.handle,
            Player::handle_key(&player.handle),
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

/// Adds `amount` to counter `name` if it stays within `limit` (a conflict otherwise),
/// forgetting every counter expired by `at` first.
fn count_up(
    conn: &Connection,
    name: &str,
    amount: u64,
    limit: u64,
    at: i64,
    expires_at: i64,
) -> Result<(), StoreError> {
    conn.execute("DELETE FROM counters WHERE expires_at <= ?1", params![at])
        .map_err(backend)?;
    let changed = conn
        .execute(
            "INSERT INTO counters (name, used, expires_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (name) DO UPDATE SET used = used + excluded.used
                 WHERE used + excluded.used <= ?4",
            params![name, sql_count(amount), expires_at, sql_count(limit)],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

/// A count as SQLite's integer (counts beyond `i64::MAX` are held at it).
fn sql_count(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

fn waiting_columns(head: &Head) -> (Option<&str>, Option<i64>) {
    match &head.waiting {
        Some(w) => (Some(w.player.as_str()), Some(w.deadline.timestamp_millis())),
        None => (None, None),
    }
}
