//! Import: games read from an archive stored as finished games, written whole.
//!
//! Only finished games are imported (a game without a result is refused with that reason).
//! Each keeps the archive's player names: the seat whose name is the importer's handle
//! (compared without case, the first such seat) is the importer's; every other seat is a
//! name-only seat ([`SeatDoc::Named`]) that no registered player acts or is listed for.
//! Moves keep the times the archive gives (the import time where it gives none); a draw
//! offer recorded right after its seat's move is kept with that move. The archive's tags are
//! kept for the game's export (its `GameId` becomes the new one).

use chrono::{DateTime, Utc};
use missive_archive::{Entry, EventKind, GameRecord, ImportError, Imported};
use missive_domain::{
    Ending, GameDoc, GameId, Head, MoveRecord, Reason, Resume, SeatDoc, Status, StoredGame,
    TimeControl,
};
use missive_rules::AnyGame;
use missive_rules::registry::EDITION;
use serde::Serialize;

use crate::service::clocks_of;
use crate::{GameService, ServiceError};

/// The time control of an imported game whose archive names none (it has no effect on a
/// finished game).
const UNKNOWN_TIME_CONTROL: TimeControl = TimeControl::DaysPerMove { days: 3 };

/// The tag naming a game's id here: an imported game gets its new one.
const GAME_ID_TAG: &str = "GameId";

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
    pub id: Option<GameId>,
    /// Why it was refused, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl std::fmt::Display for ImportOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}, line {}", self.game, self.line)?;
        match (&self.id, &self.error) {
            (_, Some(error)) => write!(f, ", column {}: {error}", self.column),
            (Some(id), None) => write!(f, ": imported as {id}"),
            (None, None) => Ok(()),
        }
    }
}

impl GameService {
    /// Stores one game of an archive (as the archive's reader gave it) for `importer` (the
    /// player importing it, if any): all of it or nothing.
    pub async fn import_game(
        &self,
        importer: Option<&str>,
        read: Result<Imported, ImportError>,
    ) -> ImportOutcome {
        let imported = match read {
            Ok(imported) => imported,
            Err(error) => {
                return ImportOutcome {
                    game: error.game,
                    line: error.line,
                    column: error.column,
                    id: None,
                    error: Some(error.reason.to_string()),
                };
            }
        };
        let stored = self.imported_game(importer, &imported.record);
        let written = match stored {
            Ok(stored) => self
                .store
                .import_game(&stored)
                .await
                .map(|()| stored.head.id)
                .map_err(ServiceError::from),
            Err(error) => Err(error),
        };
        let (id, error) = match written {
            Ok(id) => (Some(id), None),
            Err(error) => (None, Some(error.to_string())),
        };
        ImportOutcome {
            game: imported.number,
            line: imported.line,
            column: 1,
            id,
            error,
        }
    }

    /// The stored form of `record`: replayed through the rules, finished, under a new id.
    fn imported_game(
        &self,
        importer: Option<&str>,
        record: &GameRecord,
    ) -> Result<StoredGame, ServiceError> {
        let result = record.result.as_ref().ok_or_else(|| {
            ServiceError::refused("the game has no result: only finished games are imported")
        })?;
        let now = self.now();
        let id = GameId(ulid::Ulid::new().to_string());
        let mut game =
            (self.catalog)(&record.variant)?.new_game(&record.options, record.start.as_deref())?;
        let moves = replay_entries(&id, game.as_mut(), &record.entries, now)?;
        if let Some(outcome) = game.outcome()
            && outcome.rule.as_str() != result.rule
        {
            return Err(ServiceError::refused(format!(
                "the result says {} but the rules say {}",
                result.rule,
                outcome.rule.as_str()
            )));
        }
        let started = moves.first().map_or(now, |mv| mv.at);
        let ended = moves.last().map_or(now, |mv| mv.at);
        let rule = Reason::parse(&result.rule).ok_or_else(|| {
            ServiceError::refused(format!("unknown end of a game `{}`", result.rule))
        })?;
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
                at: ended,
                rule,
                results: result.results.clone(),
                by: None,
            }),
            draw_offers: Vec::new(),
            conditional: Vec::new(),
            private: false,
            imported: true,
            archive_tags: record
                .tags
                .iter()
                .filter(|(name, _)| name != GAME_ID_TAG)
                .cloned()
                .collect(),
        };
        let resume = Resume {
            window: game.window(),
            clocks: clocks_of(doc.seats.len(), doc.started_at, &moves),
        };
        let head = Head {
            id,
            revision: 1,
            ply: moves.len() as u32,
            to_move: None,
            position: game.position_text(),
            last_hash: moves.last().map_or_else(String::new, |mv| mv.hash.clone()),
            events: 0,
            waiting: None,
            doc,
            resume: Some(resume),
        };
        Ok(StoredGame {
            head,
            moves,
            events: Vec::new(),
        })
    }
}

/// Plays the record's moves, giving the move log: each move at the time it was received
/// (`now` if unknown), with the draw offer its seat made right after it.
fn replay_entries(
    id: &GameId,
    game: &mut dyn AnyGame,
    entries: &[Entry],
    now: DateTime<Utc>,
) -> Result<Vec<MoveRecord>, ServiceError> {
    let mut moves: Vec<MoveRecord> = Vec::new();
    for entry in entries {
        match entry {
            Entry::Move(entry) => {
                let played = game.play(&entry.text)?;
                let prev_hash = moves.last().map_or_else(String::new, |mv| mv.hash.clone());
                moves.push(
                    MoveRecord {
                        ply: moves.len() as u32,
                        seat: played.seat,
                        long: played.long,
                        short: played.short,
                        at: entry.received.unwrap_or(now),
                        key: None,
                        draw_offer: false,
                        prev_hash,
                        hash: String::new(),
                    }
                    .sealed(id),
                );
            }
            Entry::Event(event) if event.kind == EventKind::DrawOffered => {
                if let Some(last) = moves.last_mut().filter(|mv| mv.seat == event.seat) {
                    last.draw_offer = true;
                    *last = last.clone().sealed(id);
                }
            }
            Entry::Event(_) => {}
        }
    }
    Ok(moves)
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

/// The archive's `TimeControl` tag as a time control: `1/D` is D days per move, `N/D` is
/// ICCF style.
fn time_control(record: &GameRecord) -> TimeControl {
    let parsed = record
        .tag("TimeControl")
        .and_then(missive_archive::TimeControl::parse);
    let Some(parsed) = parsed else {
        return UNKNOWN_TIME_CONTROL;
    };
    match (u16::try_from(parsed.moves), u16::try_from(parsed.days)) {
        (Ok(1), Ok(days)) => TimeControl::DaysPerMove { days },
        (Ok(moves), Ok(days)) => TimeControl::Iccf { moves, days },
        _ => UNKNOWN_TIME_CONTROL,
    }
}
