//! Import: games read from an archive stored as finished games, written whole, in batches.
//!
//! Only finished games are imported (a game without a result is refused with that reason).
//! Each game's seal is checked first ([`missive_archive::check_seal`]): a digest that does
//! not match refuses the game, naming the altered section and where it is; a signature must
//! be the server's own (checked with its archive key), and then the game is stored as
//! verified; a game without a seal is imported unverified.
//!
//! Each keeps the archive's player names: the seat whose name is the importer's handle
//! (compared without case, the first such seat) is the importer's; every other seat is a
//! name-only seat ([`SeatDoc::Named`]) that no registered player acts or is listed for.
//! Moves keep the times the archive gives (where it gives none, the latest time before the
//! move, else the game's first time, else the time of the import: so the log's times stay
//! in order and the game exports as a text that imports again), and
//! whether they were played from a conditional line; a draw offer right after its seat's
//! move at the move's time is the offer made with that move; every other event (an
//! organiser's act too) becomes the log event it records, and eliminations are those the
//! rules give after each move. The archive's tags are kept as they are for the game's
//! export, so a game exported here, imported and exported again is the same text.

use chrono::{DateTime, Duration, Utc};
use missive_archive::{
    Entry, Event, EventKind, GameRecord, ImportError, Imported, OrganiserAct, OrganiserEntry,
    Sealed, check_seal,
};
use missive_domain::{
    EndRule, Ending, EventRecord, GameDoc, GameEvent, GameId, Head, MoveRecord, Reason, Seat,
    SeatDoc, Status, StoredGame, TimeControl, clocks_of,
};
use missive_metrics::Metric;
use missive_rules::PlayedMove;
use missive_rules::registry::EDITION;
use serde::Serialize;

use crate::{GameService, ServiceError};

/// The time control of an imported game whose archive names none (it has no effect on a
/// finished game).
const UNKNOWN_TIME_CONTROL: TimeControl = TimeControl::DaysPerMove { days: 3 };

/// What became of one game of an archive: its new id, or why it was refused and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportOutcome {
    /// The game's number in the archive, from 1.
    pub game: usize,
    /// The line of the problem, or where the game starts.
    pub line: usize,
    /// The column of the problem (1 for a game refused as a whole).
    pub column: usize,
    /// The stored game, if it was imported.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api_schema::GameId>))]
    pub id: Option<GameId>,
    /// Whether the game carried this server's valid signature (it is then stored as
    /// verified).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub verified: bool,
    /// Why it was refused, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl std::fmt::Display for ImportOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}, line {}", self.game, self.line)?;
        match (&self.id, &self.error) {
            (_, Some(error)) => write!(f, ", column {}: {error}", self.column),
            (Some(id), None) if self.verified => write!(f, ": imported as {id}, verified"),
            (Some(id), None) => write!(f, ": imported as {id}"),
            (None, None) => Ok(()),
        }
    }
}

impl ImportOutcome {
    /// The outcome of a game refused where `error` says.
    fn refused(error: &ImportError) -> ImportOutcome {
        ImportOutcome {
            game: error.game,
            line: error.line,
            column: error.column,
            id: None,
            verified: false,
            error: Some(error.reason.to_string()),
        }
    }

    /// The outcome of `imported`, stored as `stored`.
    fn stored(imported: &Imported, (id, verified): (GameId, bool)) -> ImportOutcome {
        ImportOutcome {
            game: imported.number,
            line: imported.line,
            column: 1,
            id: Some(id),
            verified,
            error: None,
        }
    }

    /// The outcome of a game read and left unstored for `reason` (a game the reader refused
    /// keeps the reader's reason).
    pub fn unstored(
        read: &Result<Imported, ImportError>,
        reason: &impl std::fmt::Display,
    ) -> ImportOutcome {
        match read {
            Ok(imported) => ImportOutcome::failed(imported, reason),
            Err(error) => ImportOutcome::refused(error),
        }
    }

    /// The outcome of `imported`, refused for `error` as a whole.
    fn failed(imported: &Imported, error: &impl std::fmt::Display) -> ImportOutcome {
        ImportOutcome {
            game: imported.number,
            line: imported.line,
            column: 1,
            id: None,
            verified: false,
            error: Some(error.to_string()),
        }
    }
}

/// Games of an archive ready for the store ([`GameService::prepare_imports`]): each one's
/// stored form, or the outcome that already refuses it.
pub struct PreparedImports {
    read: Vec<Result<Imported, ImportError>>,
    slots: Vec<Result<usize, ImportOutcome>>,
    stored: Vec<StoredGame>,
}

impl GameService {
    /// Stores one game of an archive (as the archive's reader gave it) for `importer` (the
    /// player importing it, if any): all of it or nothing.
    pub async fn import_game(
        &self,
        importer: Option<&str>,
        read: Result<Imported, ImportError>,
    ) -> ImportOutcome {
        let mut outcomes = self.import_games(importer, vec![read]).await;
        outcomes.pop().expect("one outcome per game")
    }

    /// Stores the games of an archive (as the archive's reader gave them) for `importer`,
    /// with one write of the store for all of them: each game all of it or nothing, and
    /// each on its own (one refused game leaves the others stored). One outcome per game,
    /// in order.
    pub async fn import_games(
        &self,
        importer: Option<&str>,
        read: Vec<Result<Imported, ImportError>>,
    ) -> Vec<ImportOutcome> {
        let prepared = self.prepare_imports(importer, read);
        self.store_imports(prepared).await
    }

    /// The first half of [`GameService::import_games`], the work of the processor alone:
    /// each game of `read` checked, replayed and made into its stored form for `importer`.
    /// A caller with many batches prepares the next while the store writes the last.
    pub fn prepare_imports(
        &self,
        importer: Option<&str>,
        read: Vec<Result<Imported, ImportError>>,
    ) -> PreparedImports {
        let mut stored = Vec::with_capacity(read.len());
        let slots = read
            .iter()
            .map(|game| {
                let prepared = self.prepared(importer, game)?;
                stored.push(prepared);
                Ok(stored.len() - 1)
            })
            .collect();
        PreparedImports {
            read,
            slots,
            stored,
        }
    }

    /// The second half of [`GameService::import_games`]: stores the games `prepared`, with
    /// one write of the store, each all of it or nothing. One outcome per game, in order.
    pub async fn store_imports(&self, prepared: PreparedImports) -> Vec<ImportOutcome> {
        let PreparedImports {
            read,
            slots,
            stored,
        } = prepared;
        let names: Vec<(GameId, bool)> = stored
            .iter()
            .map(|game| (game.head.id.clone(), game.head.doc.verified))
            .collect();
        let answers = self.store.import_games(stored).await;
        let imported = answers.iter().filter(|answer| answer.is_ok()).count();
        missive_metrics::count(Metric::ImportGames, imported);
        read.iter()
            .zip(slots)
            .map(|(game, slot)| match (game, slot) {
                (_, Err(refused)) => refused,
                (Ok(imported), Ok(index)) => match &answers[index] {
                    Ok(()) => ImportOutcome::stored(imported, names[index].clone()),
                    Err(error) => ImportOutcome::failed(imported, &error.to_string()),
                },
                (Err(error), Ok(_)) => ImportOutcome::refused(error),
            })
            .collect()
    }

    /// The stored form of a game read, or the outcome that refuses it.
    fn prepared(
        &self,
        importer: Option<&str>,
        read: &Result<Imported, ImportError>,
    ) -> Result<StoredGame, ImportOutcome> {
        let imported = read.as_ref().map_err(ImportOutcome::refused)?;
        let verified = self
            .sealed(imported)
            .map_err(|e| ImportOutcome::refused(&e))?;
        self.imported_game(importer, imported, verified)
            .map_err(|error| ImportOutcome::failed(imported, &error))
    }

    /// Whether `imported` carries this server's valid signature; refused when its seal
    /// does not hold (an altered game, another key's signature). Every key of the set is
    /// trusted, so archives signed before a rotation still import as verified.
    fn sealed(&self, imported: &Imported) -> Result<bool, ImportError> {
        Ok(check_seal(imported, &self.archive_public_keys())? == Sealed::Signed)
    }

    /// The stored form of `imported`'s record, finished, under a new id: its moves, its final
    /// position and the eliminations of a three-seat game taken from the reader's replay
    /// (nothing is played again).
    fn imported_game(
        &self,
        importer: Option<&str>,
        imported: &Imported,
        verified: bool,
    ) -> Result<StoredGame, ServiceError> {
        let record = &imported.record;
        let result = record.result.as_ref().ok_or_else(|| {
            ServiceError::refused("the game has no result: only finished games are imported")
        })?;
        let now = self.now();
        let id = GameId(ulid::Ulid::new().to_string());
        let game = imported.game.0.as_ref();
        let log = Log::of_played(&id, imported, now)?;
        if let Some(outcome) = game.outcome()
            && outcome.rule.as_str() != result.rule
        {
            return Err(ServiceError::refused(format!(
                "the result says {} but the rules say {}",
                result.rule,
                outcome.rule.as_str()
            )));
        }
        let rule = Reason::parse(&result.rule).ok_or_else(|| {
            ServiceError::refused(format!("unknown end of a game `{}`", result.rule))
        })?;
        let started = log.moves.first().map_or(now, |mv| mv.at);
        let doc = GameDoc {
            variant: game.variant().to_string(),
            options: game.options(),
            edition: EDITION,
            start_position: record.start.clone(),
            seats: seats(&record.players, importer),
            time_control: time_control(record),
            rated: false,
            status: Status::Finished,
            created_by: importer.unwrap_or_default().to_string(),
            created_at: started,
            started_at: Some(started),
            ending: Some(Ending {
                at: log.latest.unwrap_or(now),
                rule,
                results: result.results.clone(),
                by: log.ended_by(),
            }),
            draw_offers: Vec::new(),
            conditional: Vec::new(),
            private: false,
            imported: true,
            archive_tags: record.tags.clone(),
            verified,
            tournament: None,
            pauses: Vec::new(),
        };
        let clocks = clocks_of(doc.seats.len(), doc.started_at, &log.moves);
        let head = Head {
            revision: 1,
            last_hash: log.last_hash(),
            events: log.events.len() as u32,
            ..Head::new(id, doc, game, clocks)
        };
        Ok(StoredGame {
            head,
            moves: log.moves,
            events: log.events,
        })
    }
}

/// The log of an imported game, built entry by entry with its hash chain.
struct Log {
    id: GameId,
    moves: Vec<MoveRecord>,
    events: Vec<EventRecord>,
    /// The hash of the last entry, moves and events alike.
    chain: String,
    /// The latest time of a move or event (a vacation's start aside), if any.
    latest: Option<DateTime<Utc>>,
    /// The time of an entry without one when no entry before it has one: the record's first
    /// time, else the time of the import.
    untimed: DateTime<Utc>,
}

impl Log {
    /// The log of the record's entries as the reader's replay played them: each move as the
    /// rules wrote it, at the time it was received (if unknown, the latest time before it,
    /// else the record's first time, else `now`), with the draw offer
    /// its seat made with it and the eliminations it caused (the seats put out pass their
    /// army to the mover); each other event as the log event it records.
    fn of_played(
        id: &GameId,
        imported: &Imported,
        now: DateTime<Utc>,
    ) -> Result<Log, ServiceError> {
        let played = imported.game.0.played();
        let others = imported.record.entries.len().saturating_sub(played.len());
        let untimed = first_time(&imported.record).unwrap_or(now);
        let mut log = Log::empty(id, untimed, played.len(), others);
        let mut played = played.into_iter();
        let mut eliminations = imported.eliminations.iter().peekable();
        let mut entries = imported.record.entries.iter().peekable();
        while let Some(entry) = entries.next() {
            match entry {
                Entry::Move(mv) => {
                    let played = played.next().ok_or_else(|| {
                        ServiceError::refused("the record has more moves than its replay")
                    })?;
                    let received = log.time_of(mv.received);
                    let offer = entries
                        .next_if(|next| offered_with(next, Some(played.seat), received))
                        .is_some();
                    let (ply, mover) = (log.moves.len(), played.seat);
                    log.push_move(played, received, offer, mv.conditional);
                    while let Some((_, seat)) = eliminations.next_if(|(at, _)| *at == ply) {
                        let eliminated = GameEvent::Eliminated { heir: mover };
                        log.push_event(eliminated, Some(*seat), received);
                    }
                }
                Entry::Event(event) => log.record(event)?,
                Entry::Organiser(organiser) => log.record_organiser(organiser)?,
                Entry::Message(_) => {}
            }
        }
        Ok(log)
    }

    /// A log of game `id` with nothing in it yet, and room for `moves` moves and `events`
    /// events; an entry without a time before any with one gets `untimed`.
    fn empty(id: &GameId, untimed: DateTime<Utc>, moves: usize, events: usize) -> Log {
        Log {
            id: id.clone(),
            moves: Vec::with_capacity(moves),
            events: Vec::with_capacity(events),
            chain: String::new(),
            latest: None,
            untimed,
        }
    }

    /// Appends `played`, received `at`, to the log.
    fn push_move(
        &mut self,
        played: PlayedMove,
        at: DateTime<Utc>,
        draw_offer: bool,
        conditional: bool,
    ) {
        let record = MoveRecord {
            ply: self.moves.len() as u32,
            seat: played.seat,
            long: played.long,
            short: played.short,
            at,
            key: None,
            draw_offer,
            conditional,
            prev_hash: std::mem::take(&mut self.chain),
            hash: String::new(),
        }
        .sealed(&self.id);
        self.chain = record.hash.clone();
        self.moves.push(record);
        self.note_time(at);
    }

    /// Records an archive event as its log event; eliminations are the rules' (recorded
    /// with the move that caused them), so the archive's own are read past.
    fn record(&mut self, event: &Event) -> Result<(), ServiceError> {
        let at = self.time_of(event.at);
        let recorded = match &event.kind {
            EventKind::Eliminated { .. } => return Ok(()),
            EventKind::Vacation { days } => GameEvent::VacationTaken {
                from: at,
                to: at + Duration::days((*days).into()),
            },
            kind => {
                self.note_time(at);
                log_event(kind)?
            }
        };
        self.push_event(recorded, Some(event.seat), at);
        Ok(())
    }

    /// Records an organiser's act as its log event, which concerns no seat.
    fn record_organiser(&mut self, organiser: &OrganiserEntry) -> Result<(), ServiceError> {
        let at = self.time_of(organiser.at);
        let event = match &organiser.act {
            OrganiserAct::Paused => GameEvent::Paused,
            OrganiserAct::Resumed => GameEvent::Resumed,
            OrganiserAct::DeadlineExtended { days, by } => GameEvent::DeadlineExtended {
                by: by.clone(),
                days: u16::try_from(*days).map_err(|_| {
                    ServiceError::refused(format!("an extension of {days} days is too long"))
                })?,
            },
            OrganiserAct::Adjudicated { by, reason } => GameEvent::Adjudicated {
                by: by.clone(),
                reason: reason.clone(),
            },
        };
        self.note_time(at);
        self.push_event(event, None, at);
        Ok(())
    }

    fn push_event(&mut self, event: GameEvent, seat: Option<Seat>, at: DateTime<Utc>) {
        let record = EventRecord {
            seq: self.events.len() as u32,
            ply: self.moves.len() as u32,
            seat,
            at,
            event,
            prev_hash: std::mem::take(&mut self.chain),
            hash: String::new(),
        }
        .sealed(&self.id);
        self.chain = record.hash.clone();
        self.events.push(record);
    }

    /// The time of the next entry, `given` by the archive or not: when not, the latest time
    /// before it (so times never go back), else [`Log::untimed`].
    fn time_of(&self, given: Option<DateTime<Utc>>) -> DateTime<Utc> {
        given.or(self.latest).unwrap_or(self.untimed)
    }

    fn note_time(&mut self, at: DateTime<Utc>) {
        self.latest = Some(self.latest.map_or(at, |latest| latest.max(at)));
    }

    /// The hash of the log's last entry.
    fn last_hash(&self) -> String {
        self.chain.clone()
    }

    /// The seat whose act ended the game: the last to resign, run out of time or have a
    /// claim upheld.
    fn ended_by(&self) -> Option<Seat> {
        self.events
            .iter()
            .rev()
            .find_map(|record| match record.event {
                GameEvent::Resigned | GameEvent::TimedOut | GameEvent::DrawClaimed { .. } => {
                    record.seat
                }
                _ => None,
            })
    }
}

/// Whether `next` is the draw offer made with a move of `mover` received at `received`: an
/// offer by the same seat right after the move, at the move's time (to the second, as the
/// archive keeps it). Another seat's offer at that time is an offer of its own.
fn offered_with(next: &Entry, mover: Option<Seat>, received: DateTime<Utc>) -> bool {
    matches!(next, Entry::Event(Event { kind: EventKind::DrawOffered, seat, at: Some(at) })
        if Some(*seat) == mover && at.timestamp() == received.timestamp())
}

/// The first time `record` gives a move, an event or an organiser's act (a vacation's start
/// aside: it may lie ahead; messages are not imported).
fn first_time(record: &GameRecord) -> Option<DateTime<Utc>> {
    record
        .entries
        .iter()
        .filter(|entry| !matches!(entry, Entry::Message(_)))
        .find_map(Entry::ordered_time)
}

/// The log event an archive event (other than a vacation or an elimination) records.
fn log_event(kind: &EventKind) -> Result<GameEvent, ServiceError> {
    let rule = |name: &str| {
        EndRule::parse(name)
            .ok_or_else(|| ServiceError::refused(format!("unknown rule `{name}` in a claim")))
    };
    Ok(match kind {
        EventKind::DrawOffered => GameEvent::DrawOffered,
        EventKind::DrawWithdrawn => GameEvent::DrawWithdrawn,
        EventKind::DrawDeclined => GameEvent::DrawDeclined,
        EventKind::DrawAccepted => GameEvent::DrawAccepted,
        EventKind::Claimed(name) => GameEvent::DrawClaimed { rule: rule(name)? },
        EventKind::ClaimRefused(name) => GameEvent::ClaimRefused { rule: rule(name)? },
        EventKind::Resigned => GameEvent::Resigned,
        EventKind::TimedOut => GameEvent::TimedOut,
        EventKind::Aborted => GameEvent::Aborted,
        EventKind::InvitationDeclined => GameEvent::InvitationDeclined,
        EventKind::VacationEnded => GameEvent::VacationEnded,
        EventKind::Vacation { .. } | EventKind::Eliminated { .. } => {
            return Err(ServiceError::refused(
                "a vacation or elimination out of place",
            ));
        }
    })
}

/// The seats of an imported game: the importer's where the archive names them, name-only
/// seats for everyone else.
fn seats(players: &[String], importer: Option<&str>) -> Vec<SeatDoc> {
    let mine = importer.and_then(|me| players.iter().position(|p| p.eq_ignore_ascii_case(me)));
    players
        .iter()
        .enumerate()
        .map(|(index, name)| match importer {
            Some(me) if mine == Some(index) => SeatDoc::Taken {
                player: me.to_string(),
            },
            _ => SeatDoc::Named { name: name.clone() },
        })
        .collect()
}

/// The archive's `TimeControl` tag as a time control (see [`missive_archive::TimeControl`]).
fn time_control(record: &GameRecord) -> TimeControl {
    let parsed = record
        .tag("TimeControl")
        .and_then(missive_archive::TimeControl::parse);
    let days = |days: u32| u16::try_from(days).ok();
    let control = match parsed {
        Some(missive_archive::TimeControl::DaysPerMove { days: d }) => {
            days(d).map(|days| TimeControl::DaysPerMove { days })
        }
        Some(missive_archive::TimeControl::Iccf { moves, days: d }) => {
            match (u16::try_from(moves).ok(), days(d)) {
                (Some(moves), Some(days)) => Some(TimeControl::Iccf { moves, days }),
                _ => None,
            }
        }
        None => None,
    };
    control.unwrap_or(UNKNOWN_TIME_CONTROL)
}
