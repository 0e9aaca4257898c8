//! The records the store keeps: a game's head, its append-only move log, the finished-games
//! index and each player's vacation record. The same shapes on every backend.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::StoreError;

/// A game's id: a ULID in text, sortable by creation time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct GameId(pub String);

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
            SeatDoc::Open | SeatDoc::Invited { .. } | SeatDoc::Named { .. } => None,
        }
    }

    /// The name to show for the seat: its player, the archive's name, or `?`.
    pub fn name(&self) -> &str {
        match self {
            SeatDoc::Taken { player } => player,
            SeatDoc::Named { name } => name,
            SeatDoc::Open | SeatDoc::Invited { .. } => "?",
        }
    }
}

/// How much time a player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Ending {
    /// When it ended.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub at: DateTime<Utc>,
    /// The rule in kebab case: a rules end (`checkmate`, `timeout`, ...) or `aborted`,
    /// `declined` for cancelled games.
    pub rule: String,
    /// Each seat's result (`win`, `shared-win`, `draw`, `loss`) in seat order; empty when
    /// the game was cancelled.
    pub results: Vec<String>,
    /// The seat whose act ended it (resigned, ran out of time, aborted, declined), if any.
    pub by: Option<u8>,
}

/// A conditional line: moves in turn order from ply `from`, where the owner's own moves are
/// played at once when every earlier move of the line was played. Never shown to others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConditionalLine {
    /// The seat that registered the line and whose moves it contains.
    pub owner: u8,
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
    pub draw_offers: Vec<u8>,
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
}

impl GameDoc {
    /// Every player sitting in the game, in seat order.
    pub fn players(&self) -> Vec<&str> {
        self.seats.iter().filter_map(SeatDoc::player).collect()
    }

    /// Whether `viewer` (a player's handle, or `None` for anyone) may see the game: anyone
    /// may see a public game, only the players seated or invited in a private one.
    pub fn visible_to(&self, viewer: Option<&str>) -> bool {
        !self.private
            || viewer.is_some_and(|viewer| {
                self.seats.iter().any(|seat| match seat {
                    SeatDoc::Taken { player } | SeatDoc::Invited { player } => player == viewer,
                    SeatDoc::Open | SeatDoc::Named { .. } => false,
                })
            })
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
    pub to_move: Option<u8>,
    /// The current position text.
    pub position: String,
    /// The hash of the last move (the chain's end); empty before the first move.
    pub last_hash: String,
    /// Who is to move and until when, while the game is active: the "waiting for me" index.
    pub waiting: Option<Waiting>,
    /// The game document.
    pub doc: GameDoc,
}

/// A move in the log: written once, never changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveRecord {
    /// Moves before this one: the first move has ply 0.
    pub ply: u32,
    /// The seat that played it.
    pub seat: u8,
    /// Long (canonical) notation.
    pub long: String,
    /// Short notation.
    pub short: String,
    /// When the service accepted it.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub at: DateTime<Utc>,
    /// The client's idempotency key; `None` for moves the service played (conditional).
    pub key: Option<String>,
    /// Whether a draw was offered with the move.
    pub draw_offer: bool,
    /// The previous move's hash (empty for the first).
    pub prev_hash: String,
    /// SHA-256 over the previous hash and this record's content, in hex.
    pub hash: String,
}

impl MoveRecord {
    /// The hash a record with these contents must carry: SHA-256 in hex of the game id,
    /// the previous hash and every field, so any change to the log breaks the chain.
    pub fn chain_hash(&self, game: &GameId) -> String {
        let text = format!(
            "{game}\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
            self.prev_hash,
            self.ply,
            self.seat,
            self.long,
            self.at.timestamp_millis(),
            self.key.as_deref().unwrap_or(""),
            self.draw_offer,
        );
        Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Fills `hash` from the other fields.
    pub fn sealed(mut self, game: &GameId) -> MoveRecord {
        self.hash = self.chain_hash(game);
        self
    }
}

/// A game as stored: its head and its whole move log in ply order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The head.
    pub head: Head,
    /// Every move, ply 0 first.
    pub moves: Vec<MoveRecord>,
}

impl StoredGame {
    /// Checks a whole game written at once ([`crate::Store::import_game`]) is well formed:
    /// the head at revision 1 and past every move, the moves numbered from 0 and chained,
    /// an ending if it is finished. Gives the commit that would have produced it from nothing.
    pub fn as_first_commit(&self) -> Result<Commit, StoreError> {
        let commit = Commit {
            head: self.head.clone(),
            expected_revision: 0,
            expected_ply: 0,
            moves: self.moves.clone(),
            finishes: self.head.doc.status == Status::Finished,
        };
        commit.check()?;
        Ok(commit)
    }
}

/// One atomic change to a game: the new head and the moves appended with it.
///
/// It succeeds only if the stored head still has `expected_revision` and `expected_ply`
/// (the values the writer read) and no move exists yet at the new plies.
#[derive(Clone, Debug)]
pub struct Commit {
    /// The head after the change; its revision must be `expected_revision + 1` and its ply
    /// `expected_ply + moves.len()`.
    pub head: Head,
    /// The revision the writer read.
    pub expected_revision: u64,
    /// The ply the writer read.
    pub expected_ply: u32,
    /// The moves appended, plies `expected_ply..`.
    pub moves: Vec<MoveRecord>,
    /// Whether this change ends the game: then every player gets a finished-games entry.
    pub finishes: bool,
}

impl Commit {
    /// Checks the commit is well formed: the head one revision on, its ply past the new
    /// moves, the moves numbered from `expected_ply` and chained to each other.
    pub fn check(&self) -> Result<(), StoreError> {
        let invalid = |reason: &str| Err(StoreError::Invalid(reason.to_string()));
        if self.head.revision != self.expected_revision + 1 {
            return invalid("the head's revision must be one more than the one read");
        }
        if self.head.ply as usize != self.expected_ply as usize + self.moves.len() {
            return invalid("the head's ply must count the appended moves");
        }
        let numbered = self
            .moves
            .iter()
            .zip(self.expected_ply..)
            .all(|(mv, ply)| mv.ply == ply);
        if !numbered {
            return invalid("the moves must be numbered from the ply read");
        }
        let chained = self
            .moves
            .windows(2)
            .all(|pair| pair[1].prev_hash == pair[0].hash);
        let last = self
            .moves
            .last()
            .is_none_or(|mv| mv.hash == self.head.last_hash);
        if !chained || !last {
            return invalid("the moves must be chained and end at the head's last hash");
        }
        if self.finishes && self.head.doc.ending.is_none() {
            return invalid("a finishing commit needs an ending");
        }
        Ok(())
    }

    /// When the game ended, for a commit that finishes it.
    pub fn finished_at(&self) -> Result<DateTime<Utc>, StoreError> {
        self.head
            .doc
            .ending
            .as_ref()
            .map(|ending| ending.at)
            .ok_or_else(|| StoreError::Invalid("a finishing commit needs an ending".into()))
    }
}

/// A period during which a player's clocks stand still.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Period {
    /// The first instant.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub start: DateTime<Utc>,
    /// The first instant after it.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub end: DateTime<Utc>,
}

/// A player's vacations: every period taken, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VacationRecord {
    /// Raised by one at every change; 0 for a player without a record.
    pub revision: u64,
    /// The periods, sorted and not overlapping.
    pub periods: Vec<Period>,
}

/// A registered player: a unique handle and a unique e-mail address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The public name, unique.
    pub handle: String,
    /// Where sign-in links go, unique (stored as given, compared lower-cased).
    pub email: String,
    /// When the player signed up.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub created_at: DateTime<Utc>,
}

impl Player {
    /// The e-mail address as it is looked up: lower-cased.
    pub fn email_key(email: &str) -> String {
        email.trim().to_lowercase()
    }
}
