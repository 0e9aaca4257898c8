//! A game's head: the document (variant, seats, time control, status, ending, offers,
//! conditional lines), who is to move until when, and what the next move needs.

use std::fmt;

use chrono::{DateTime, Utc};
use missive_rules::{AnyGame, EndRule, MoveNumber, MoveNumbering, Seat, SeatResult, Window};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::GameId;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum SeatDoc {
    /// Any player may take the seat.
    Open,
    /// Kept for one invited player until they join or decline.
    Invited {
        /// The invited player.
        player: String,
    },
    /// Taken by a player.
    Taken {
        /// The player sitting there.
        player: String,
    },
    /// Kept for a player invited by e-mail address who has not signed up yet: only the
    /// invitation mailed to that address takes it (the address is in the mail, not here).
    Reserved,
    /// In an imported game: the name the archive gives, which need not be a registered
    /// player's handle (nobody acts or is listed for it).
    Named {
        /// The name in the archive.
        name: String,
    },
}

impl SeatDoc {
    /// The player sitting in the seat, if it is taken.
    pub fn player(&self) -> Option<&str> {
        match self {
            SeatDoc::Taken { player } => Some(player),
            SeatDoc::Open | SeatDoc::Invited { .. } | SeatDoc::Reserved | SeatDoc::Named { .. } => {
                None
            }
        }
    }

    /// The player sitting in or invited to the seat, if any.
    pub fn member(&self) -> Option<&str> {
        match self {
            SeatDoc::Taken { player } | SeatDoc::Invited { player } => Some(player),
            SeatDoc::Open | SeatDoc::Reserved | SeatDoc::Named { .. } => None,
        }
    }

    /// The name to show for the seat: its player, the archive's name, or `?`.
    pub fn name(&self) -> &str {
        match self {
            SeatDoc::Taken { player } => player,
            SeatDoc::Named { name } => name,
            SeatDoc::Open | SeatDoc::Invited { .. } | SeatDoc::Reserved => "?",
        }
    }
}

/// How much time a player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TimeControl {
    /// A fixed number of days for every move.
    DaysPerMove {
        /// Days per move.
        days: u16,
    },
    /// ICCF style: `days` for every `moves` moves, unused time carried over.
    Iccf {
        /// Moves per period.
        moves: u16,
        /// Days per period.
        days: u16,
    },
}

impl TimeControl {
    /// The time control in one word, as lists are filtered by it: `days-per-move:3`, or
    /// `iccf:10/50` for ten moves in fifty days.
    pub fn key(&self) -> String {
        match self {
            TimeControl::DaysPerMove { days } => format!("days-per-move:{days}"),
            TimeControl::Iccf { moves, days } => format!("iccf:{moves}/{days}"),
        }
    }

    /// The time control [`TimeControl::key`] writes as `text`.
    pub fn parse_key(text: &str) -> Option<TimeControl> {
        let (kind, value) = text.split_once(':')?;
        match kind {
            "days-per-move" => Some(TimeControl::DaysPerMove {
                days: value.parse().ok()?,
            }),
            "iccf" => {
                let (moves, days) = value.split_once('/')?;
                Some(TimeControl::Iccf {
                    moves: moves.parse().ok()?,
                    days: days.parse().ok()?,
                })
            }
            _ => None,
        }
    }
}

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Waiting for seats to be taken.
    Forming,
    /// Being played.
    Active,
    /// Ended with a result.
    Finished,
    /// Ended without a result: aborted before the first move, or an invitation declined.
    Cancelled,
}

impl Status {
    /// The status in kebab case, as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Forming => "forming",
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }

    /// The status in words.
    pub fn words(self) -> &'static str {
        match self {
            Status::Forming => "waiting for players",
            Status::Active => "in play",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }
}

/// Why a game ended: a rule that decided it (with a result), or why it was called off
/// (without one). Written as the rule's kebab-case name, or `aborted`, `declined`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A rule ended it with a result: the board, an agreement, a resignation, the clock.
    Rule(EndRule),
    /// A seated player called the game off before its first move.
    Aborted,
    /// An invited player declined.
    Declined,
    /// An imported game's end as its archive names it, when it is none of the rules here
    /// (`adjudication`, `rules-infraction`): kept as written, a kebab-case name.
    Recorded(String),
}

impl Reason {
    /// The name as stored and shown.
    pub fn as_str(&self) -> &str {
        match self {
            Reason::Rule(rule) => rule.as_str(),
            Reason::Aborted => "aborted",
            Reason::Declined => "declined",
            Reason::Recorded(name) => name,
        }
    }

    /// The reason [`Reason::as_str`] names `text`: one of ours, else a name recorded as it
    /// is; `None` for text that is not a kebab-case name.
    pub fn parse(text: &str) -> Option<Reason> {
        let kebab = !text.is_empty()
            && text.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
        Some(match text {
            "aborted" => Reason::Aborted,
            "declined" => Reason::Declined,
            _ => match EndRule::parse(text) {
                Some(rule) => Reason::Rule(rule),
                None if kebab => Reason::Recorded(text.to_string()),
                None => return None,
            },
        })
    }

    /// The rule, when a rule of ours ended the game.
    pub fn rule(&self) -> Option<EndRule> {
        match self {
            Reason::Rule(rule) => Some(*rule),
            Reason::Aborted | Reason::Declined | Reason::Recorded(_) => None,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Reason, D::Error> {
        let text = String::deserialize(deserializer)?;
        Reason::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown end of a game `{text}`")))
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// When it ended.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub at: DateTime<Utc>,
    /// The rule in kebab case: a rules end (`checkmate`, `timeout`, ...) or `aborted`,
    /// `declined` for cancelled games.
    pub rule: Reason,
    /// Each seat's result (`win`, `shared-win`, `draw`, `loss`) in seat order; empty when
    /// the game was cancelled.
    pub results: Vec<SeatResult>,
    /// The seat whose act ended it (resigned, ran out of time, aborted, declined), if any.
    pub by: Option<Seat>,
}

impl Ending {
    /// The result of `seat`, if the game ended with results.
    pub fn result_of(&self, seat: Seat) -> Option<SeatResult> {
        self.results.get(seat.index()).copied()
    }
}

/// A conditional line: moves in turn order from ply `from`, where the owner's own moves are
/// played at once when every earlier move of the line was played. Never shown to others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionalLine {
    /// The seat that registered the line and whose moves it contains.
    pub owner: Seat,
    /// The ply of the line's first move.
    pub from: u32,
    /// The moves in long notation.
    pub moves: Vec<String>,
}

/// Everything about a game except its moves: the document kept in the head.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameDoc {
    /// The variant id in the rules registry.
    pub variant: String,
    /// Canonical option text.
    pub options: String,
    /// Which edition of the variant's rules the game is played under: 0 for games stored
    /// before editions were recorded (documents without the field), which keep the readings
    /// of their time (see `docs/rules/`).
    #[serde(default)]
    pub edition: u32,
    /// A start position other than the standard one, in the variant's position text.
    pub start_position: Option<String>,
    /// The seats in turn order.
    pub seats: Vec<SeatDoc>,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// Where the game is in its life.
    pub status: Status,
    /// The player who created the game.
    pub created_by: String,
    /// When it was created.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub created_at: DateTime<Utc>,
    /// When the last seat was taken and the clocks started.
    #[serde(with = "chrono::serde::ts_milliseconds_option")]
    pub started_at: Option<DateTime<Utc>>,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
    /// Seats that offer (or accepted) a draw; all seats together make it.
    pub draw_offers: Vec<Seat>,
    /// Conditional lines of every seat.
    pub conditional: Vec<ConditionalLine>,
    /// Whether only the game's players may see it (everyone else is told it does not exist).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// Whether the game was imported from an archive rather than played here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
    /// An imported game's archive tags (`Event`, `Site`, `Date`, ...), kept for its export;
    /// empty for games played here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub archive_tags: Vec<(String, String)>,
    /// Whether an imported game's archive carried this server's valid signature, so the
    /// game is known to be as the server recorded it (false for every other game).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verified: bool,
    /// The tournament the game is part of, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<crate::TournamentId>,
    /// Spans in which no clock of the game runs, in order, not overlapping: its
    /// tournament's pauses (one still going ends far ahead) and its organiser's extensions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pauses: Vec<crate::Period>,
}

impl GameDoc {
    /// Every player sitting in the game, in seat order.
    pub fn players(&self) -> Vec<&str> {
        self.seats.iter().filter_map(SeatDoc::player).collect()
    }

    /// Every player sitting in or invited to the game, in seat order.
    pub fn members(&self) -> Vec<&str> {
        self.seats.iter().filter_map(SeatDoc::member).collect()
    }

    /// The seat `player` sits in, if any.
    pub fn seat_of(&self, player: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|seat| seat.player() == Some(player))
            .map(|index| Seat(index as u8))
    }

    /// The player sitting in `seat`, if it is taken.
    pub fn player_in(&self, seat: Seat) -> Option<&str> {
        self.seats.get(seat.index()).and_then(SeatDoc::player)
    }

    /// Whether `viewer` (a player's handle, or `None` for anyone) may see the game: anyone
    /// may see a public game, only the players seated or invited in a private one.
    pub fn visible_to(&self, viewer: Option<&str>) -> bool {
        !self.private || viewer.is_some_and(|viewer| self.members().contains(&viewer))
    }
}

/// The player whose turn it is and when their time runs out (before any vacation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The player to move.
    pub player: String,
    /// When the turn began.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub since: DateTime<Utc>,
    /// The deadline without vacations; vacations only ever extend it.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub deadline: DateTime<Utc>,
}

/// A seat's clock so far: its moves and the wall time they took (vacations not deducted,
/// so the time it has left is a lower bound).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    /// Moves the seat made.
    pub moves: u32,
    /// Milliseconds its turns took, from each turn's start to its move.
    pub used_ms: i64,
}

/// What the next move needs, kept in the head so that a move reads one record whatever the
/// game's length: where the rules take the game up again, and every seat's clock. The log
/// stays the truth: this is always the replay of the log's summary, and `missive check`
/// compares the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    /// The position from which the history rules can still look back, and the moves since.
    pub window: Window,
    /// Every seat's clock, in seat order.
    pub clocks: Vec<SeatClock>,
}

/// A game's head: the one mutable record of a game. Every change raises `revision`; a
/// write succeeds only if the revision and ply are still those the writer read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The game.
    pub id: GameId,
    /// Raised by one at every change.
    pub revision: u64,
    /// Moves in the log.
    pub ply: u32,
    /// The seat to move, while the game is active.
    pub to_move: Option<Seat>,
    /// The current position text.
    pub position: String,
    /// The hash of the log's last entry (the chain's end); empty before the first.
    pub last_hash: String,
    /// Events in the log (absent, 0, in heads written before events were kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub events: u32,
    /// Who is to move and until when, while the game is active: the "waiting for me" index.
    pub waiting: Option<Waiting>,
    /// The game document.
    pub doc: GameDoc,
    /// What the next move needs; absent in heads written before it was kept (the service
    /// then replays the log once and writes it with the next change).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Resume>,
}

impl Head {
    /// The head of game `id` with `doc`, at the position of the rules game `rules` (of the
    /// doc's variant and options): its ply and position, the seat to move while the doc is
    /// active, and the resume point with every seat's `clocks`. At revision 0, with an empty
    /// log and nobody waiting: a caller sets the revision, the chain's end, the events and
    /// who is waiting where they differ (`Head { revision, ..Head::new(..) }`). The one way a
    /// head is made.
    pub fn new(id: GameId, doc: GameDoc, rules: &dyn AnyGame, clocks: Vec<SeatClock>) -> Head {
        let to_move = (doc.status == Status::Active)
            .then(|| rules.to_move())
            .flatten();
        Head {
            id,
            revision: 0,
            ply: rules.ply() as u32,
            to_move,
            position: rules.position_text(),
            last_hash: String::new(),
            events: 0,
            waiting: None,
            doc,
            resume: Some(Resume {
                window: rules.window(),
                clocks,
            }),
        }
    }

    /// The player to move, while someone is.
    pub fn player_to_move(&self) -> Option<&str> {
        self.waiting.as_ref().map(|w| w.player.as_str())
    }

    /// The number of the next move (`13.`, `13...`), while a seat is to move, counted as
    /// [`Head::moves_made`] says.
    pub fn next_move_number(&self) -> Option<MoveNumber> {
        let seat = self.to_move?;
        let first = self.first_seat(seat, self.ply);
        Some(MoveNumbering::after(first, self.moves_made()).next(seat))
    }

    /// The number of the last move, which `seat` made, counted as [`Head::moves_made`] says.
    pub fn last_move_number(&self, seat: Seat) -> MoveNumber {
        let mut made = self.moves_made();
        if let Some(count) = made.get_mut(seat.index()) {
            *count = count.saturating_sub(1);
        }
        let first = self.first_seat(seat, self.ply.saturating_sub(1));
        MoveNumbering::after(first, made).next(seat)
    }

    /// The moves each seat made, as the clocks keep them. Numbers count rounds: the first
    /// move is the first seat's in a game from the standard start, else the seat the turn
    /// order puts first.
    fn moves_made(&self) -> Vec<u32> {
        let seats = self.doc.seats.len();
        self.resume.as_ref().map_or_else(
            || vec![0; seats],
            |resume| resume.clocks.iter().map(|clock| clock.moves).collect(),
        )
    }

    /// The seat that made the first move, knowing that `seat` made (or makes) the move of
    /// `ply`.
    fn first_seat(&self, seat: Seat, ply: u32) -> Seat {
        let seats = self.doc.seats.len().max(1);
        match self.doc.start_position {
            None => Seat(0),
            Some(_) => {
                let back = ply as usize % seats;
                Seat(((seat.index() + seats - back) % seats) as u8)
            }
        }
    }
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}
