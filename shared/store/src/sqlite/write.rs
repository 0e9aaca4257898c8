//! The writes the writer thread applies, each inside its own savepoint; what each one
//! writes is its port's module's.

use missive_domain::{
    AppPassword, Challenge, Commit, FeedItem, Head, Hook, MailPreference, MessageMail, Notice,
    PeriodsClosed, Player, RatedGame, RatingRecord, Socket, Tournament, VacationRecord,
};
use rusqlite::Connection;

use super::games::Import;
use super::{
    backend, challenges, counters, credentials, feed, games, hooks, mail, players, ratings,
    sockets, tournaments, wakes,
};
use crate::StoreError;

/// A write waiting for the writer thread.
pub(super) enum Write {
    Create(Box<Head>, Vec<FeedItem>),
    Commit(Box<Commit>),
    /// Feed items told after their change (see [`crate::FeedStore::tell`]).
    Tell(Vec<FeedItem>),
    /// The cancelled entries of a game called off (its head).
    KeepCancelled(Box<Head>),
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
    /// A new challenge, unless its creator has this many open (a conflict then).
    Publish(Box<Challenge>, u64),
    /// Games created started, each in a savepoint of its own (see [`apply_parts`]).
    Starts(Vec<Commit>),
    Tournament(Box<Tournament>, Vec<FeedItem>),
    Rating(Box<RatingRecord>),
    /// Answers a conflict when the variant's rating periods are set up already.
    OpenRatingPeriods(PeriodsClosed),
    /// Answers a conflict when the variant's rating periods are no longer at `from`.
    MoveRatingPeriods {
        variant: String,
        from: String,
        to: String,
    },
    RatedGame(Box<RatedGame>),
    MessageMail(String, MessageMail),
    Hook(Box<Hook>),
    DeleteHook {
        player: String,
        id: String,
    },
    Socket(Box<Socket>),
    DeleteSocket {
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

/// Applies one write inside the writer's transaction, each of its parts all or nothing:
/// one answer per part. Only imports and started games have more than one part, a game
/// each, so one failed game leaves the others of its batch written.
pub(super) fn apply_parts(
    tx: &mut rusqlite::Transaction<'_>,
    write: &Write,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    match write {
        Write::Imports(imports) => each_part(tx, imports, games::apply_import),
        Write::Starts(starts) => each_part(tx, starts, games::start_game),
        write => Ok(vec![in_savepoint(tx, |conn| apply(conn, write))?]),
    }
}

/// Applies each of `parts` with `apply`, all or nothing each. The parts are first applied
/// together in one savepoint, which is all a batch takes when every part succeeds (parts
/// rarely fail: a game's id taken, a broken invariant); when one fails, that savepoint is
/// rolled back and each part is applied again in a savepoint of its own.
fn each_part<P>(
    tx: &mut rusqlite::Transaction<'_>,
    parts: &[P],
    apply: impl Fn(&Connection, &P) -> Result<(), StoreError>,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let together = in_savepoint(tx, |conn| {
        parts.iter().try_for_each(|part| apply(conn, part))
    })?;
    if together.is_ok() {
        return Ok(parts.iter().map(|_| Ok(())).collect());
    }
    parts
        .iter()
        .map(|part| in_savepoint(tx, |conn| apply(conn, part)))
        .collect()
}

/// Runs `write` in a savepoint of `tx`, kept if it succeeds and rolled back if not; the
/// outer error is the savepoint's own failure. The savepoint's statements are cached: a
/// batch whose parts fail runs one per part.
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
        Write::Create(head, feed) => games::create(conn, head, feed),
        Write::Commit(commit) => games::apply_commit(conn, commit),
        Write::Tell(told) => feed::tell(conn, told),
        Write::KeepCancelled(head) => games::keep_cancelled(conn, head),
        Write::Imports(_) | Write::Starts(_) => Err(StoreError::Invalid(
            "imports and started games are written game by game".into(),
        )),
        Write::MoveWake { game, from, to } => wakes::move_wake(conn, game, *from, *to),
        Write::HastenWake { game, at } => wakes::hasten_wake(conn, game, *at),
        Write::Vacation(player, record) => players::put_vacation(conn, player, record),
        Write::Player(player) => players::insert_player(conn, player),
        Write::Preference(player, preference) => mail::set_preference(conn, player, *preference),
        Write::ClaimNotice(notice, at) => mail::claim_notice(conn, notice, *at),
        Write::ReleaseNotice(notice) => mail::release_notice(conn, notice),
        Write::UsedToken { id, at, expires_at } => {
            credentials::insert_used_token(conn, id, *at, *expires_at)
        }
        Write::Challenge(challenge, start) => {
            challenges::put_challenge(conn, challenge, start.as_deref())
        }
        Write::Publish(challenge, most) => challenges::publish_challenge(conn, challenge, *most),
        Write::Hook(hook) => hooks::put_hook(conn, hook),
        Write::Tournament(tournament, feed) => tournaments::put_tournament(conn, tournament, feed),
        Write::Rating(rating) => ratings::put_rating(conn, rating),
        Write::OpenRatingPeriods(closed) => ratings::open_periods(conn, closed),
        Write::MoveRatingPeriods { variant, from, to } => {
            ratings::move_periods(conn, variant, from, to)
        }
        Write::RatedGame(game) => ratings::keep_rated_game(conn, game),
        Write::DeleteHook { player, id } => hooks::delete_hook(conn, player, id),
        Write::Socket(socket) => sockets::put_socket(conn, socket),
        Write::DeleteSocket { player, id } => sockets::delete_socket(conn, player, id),
        Write::MessageMail(player, choice) => mail::set_message_mail(conn, player, *choice),
        Write::CountUp {
            name,
            amount,
            limit,
            at,
            expires_at,
        } => counters::count_up(conn, name, *amount, *limit, *at, *expires_at),
        Write::DropCounter { name, expires_at } => counters::drop_counter(conn, name, *expires_at),
        Write::AppPassword(password) => credentials::insert_app_password(conn, password),
        Write::TouchAppPassword { player, id, at } => {
            credentials::touch_app_password(conn, player, id, *at)
        }
        Write::RevokeAppPassword { player, id } => {
            credentials::revoke_app_password(conn, player, id)
        }
    }
}

/// Writes a record guarded by its revision: `insert` for revision 1 (changing no row when
/// the record exists), `update` over the revision before for later ones. A conflict when
/// no row changed; revision 0 (of `what`) is invalid.
pub(super) fn versioned(
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
