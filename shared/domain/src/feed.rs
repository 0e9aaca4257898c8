//! A player's event feed: what happened in their games and challenges that concerns them,
//! in the order the store wrote it, for clients that follow a player without polling each
//! game. Items are written with the change they tell of (in the same transaction), so a
//! change and its items exist together or not at all.

use chrono::{DateTime, TimeDelta, Utc};
use missive_rules::{Seat, SeatResult};
use serde::{Deserialize, Serialize};

use crate::{ChallengeId, GameId, Reason, Status, TournamentId};

/// How long a feed item is kept after it was written: a reader whose position is older
/// than this may have missed items.
pub const FEED_RETENTION: TimeDelta = TimeDelta::days(30);

/// What a player is told of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FeedEvent {
    /// It is the player's turn in the game (after a move, or at the game's start).
    YourTurn {
        /// Moves played so far: the player's move will have this ply.
        ply: u32,
        /// When their time runs out, before any vacation.
        deadline: DateTime<Utc>,
    },
    /// Another player of the game moved, or the service played a move from a seat's
    /// conditional line (told to that seat's player too).
    Moved {
        /// The move's ply (the first move has ply 0).
        ply: u32,
        /// The seat that moved.
        seat: Seat,
        /// The player who moved.
        player: String,
        /// Long (canonical) notation.
        long: String,
        /// Short notation.
        short: String,
        /// Whether a draw was offered with the move.
        draw_offer: bool,
        /// Whether the service played it for its seat, from the seat's conditional line.
        #[serde(default)]
        conditional: bool,
    },
    /// Another player offered a draw without a move.
    DrawOffered {
        /// The seat that offered it.
        seat: Seat,
        /// The player who offered it.
        player: String,
    },
    /// Another player withdrew the draw they offered.
    DrawWithdrawn {
        /// The seat that withdrew it.
        seat: Seat,
        /// The player who withdrew it.
        player: String,
    },
    /// Another player accepted the draw offered (the game is over: a `game-over` follows).
    DrawAccepted {
        /// The seat that accepted.
        seat: Seat,
        /// The player who accepted.
        player: String,
    },
    /// Another player declined the draw offered: every standing offer lapsed.
    DrawDeclined {
        /// The seat that declined.
        seat: Seat,
        /// The player who declined.
        player: String,
    },
    /// Another player wrote to the game's players.
    Message {
        /// The writer's seat.
        seat: Seat,
        /// The writer.
        player: String,
        /// What they wrote.
        text: String,
    },
    /// A nation of a three-seat game is out; its army passed to `heir`.
    Eliminated {
        /// The seat that went out.
        seat: Seat,
        /// The seat that took its army over.
        heir: Seat,
    },
    /// Every seat is taken: the game has started.
    GameStarted,
    /// The game is over: finished with a result, or called off.
    GameOver {
        /// `finished` or `cancelled`.
        status: Status,
        /// Why it ended (a rule such as `checkmate`, or `aborted`, `declined`).
        rule: Reason,
        /// Each seat's result in seat order; empty when the game was called off.
        results: Vec<SeatResult>,
    },
    /// The player was invited to the game.
    Invited {
        /// Who created the game.
        by: String,
    },
    /// The player's open challenge was accepted: the game is the one it became.
    ChallengeAccepted {
        /// The challenge.
        challenge: ChallengeId,
        /// Who accepted it.
        by: String,
    },
    /// The game's tournament was paused by its organiser: no clock of the game runs.
    GamePaused,
    /// The game's tournament was resumed: the clocks run again, the pause given back.
    GameResumed {
        /// When the turn's time runs out now, before any vacation (absent when nobody is
        /// to move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<DateTime<Utc>>,
    },
    /// The tournament's organiser stopped the game's clocks for `days` days: the turn's
    /// deadline moved that much later.
    DeadlineExtended {
        /// The organiser.
        by: String,
        /// Days.
        days: u16,
        /// The seat to move, whose deadline moved (absent when nobody is to move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// When the turn's time runs out now, before any vacation (absent when nobody is
        /// to move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<DateTime<Utc>>,
    },
    /// The tournament's organiser ended the game with a result (a `game-over` follows).
    Adjudicated {
        /// The organiser.
        by: String,
        /// Why, in the organiser's words.
        reason: String,
    },
    /// A tournament the player plays in started: its games are being played.
    TournamentStarted {
        /// The tournament.
        tournament: TournamentId,
        /// Its name.
        name: String,
    },
    /// A tournament the player plays in finished: every game of it is over.
    TournamentFinished {
        /// The tournament.
        tournament: TournamentId,
        /// Its name.
        name: String,
    },
}

/// One item of a player's feed, as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedItem {
    /// The player it is for.
    pub recipient: String,
    /// When it happened (the change's time).
    pub at: DateTime<Utc>,
    /// The game it is about; `None` for an item about a whole tournament (absent, never
    /// `null`, from what is written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameId>,
    /// What happened.
    #[serde(flatten)]
    pub event: FeedEvent,
}

impl FeedItem {
    /// When the stores may drop the item ([`FEED_RETENTION`] after it was written).
    pub fn expires_at(&self) -> DateTime<Utc> {
        self.at + FEED_RETENTION
    }
}

/// An item as read back from a player's feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedEntry {
    /// The item's id, unique in the player's feed (a client that is given an item twice
    /// sees the same id).
    pub id: String,
    /// Where the feed goes on after this item (the store's own position).
    pub position: String,
    /// The item.
    pub item: FeedItem,
}

/// A stretch of a player's feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedPage {
    /// The items, oldest first.
    pub entries: Vec<FeedEntry>,
    /// Where the feed goes on after them (the store's own position): the last entry's, or
    /// the one asked from when there is none.
    pub position: String,
}
