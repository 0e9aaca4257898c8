//! What the notifier keeps: each player's mail preference, and markers of the mails sent
//! so that a repeated event or sweep sends each mail once.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::GameId;

/// How a player wants to hear that it is their turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MailPreference {
    /// A mail each time it becomes the player's turn (the default).
    #[default]
    EachMove,
    /// One mail a day listing every game waiting for the player.
    DailyDigest,
    /// No notification mail at all.
    None,
}

impl MailPreference {
    /// Every preference, in the order a form offers them.
    pub const ALL: [MailPreference; 3] = [
        MailPreference::EachMove,
        MailPreference::DailyDigest,
        MailPreference::None,
    ];

    /// The preference's name in kebab case (`each-move`, `daily-digest`, `none`).
    pub fn as_str(self) -> &'static str {
        match self {
            MailPreference::EachMove => "each-move",
            MailPreference::DailyDigest => "daily-digest",
            MailPreference::None => "none",
        }
    }

    /// The preference named `text` as [`MailPreference::as_str`] writes it.
    pub fn parse(text: &str) -> Option<MailPreference> {
        MailPreference::ALL
            .into_iter()
            .find(|preference| preference.as_str() == text)
    }
}

/// When a player wants the messages the other players of a game write them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MessageMail {
    /// With the player's next turn mail, or on its own when it is their turn already (the
    /// default).
    #[default]
    WithTurn,
    /// On its own at once, whoever's turn it is.
    AtOnce,
}

impl MessageMail {
    /// Every choice, in the order a form offers them.
    pub const ALL: [MessageMail; 2] = [MessageMail::WithTurn, MessageMail::AtOnce];

    /// The choice's name in kebab case (`with-turn`, `at-once`).
    pub fn as_str(self) -> &'static str {
        match self {
            MessageMail::WithTurn => "with-turn",
            MessageMail::AtOnce => "at-once",
        }
    }

    /// The choice named `text` as [`MessageMail::as_str`] writes it.
    pub fn parse(text: &str) -> Option<MessageMail> {
        MessageMail::ALL
            .into_iter()
            .find(|choice| choice.as_str() == text)
    }
}

/// A mail that is sent at most once, named by what it is about. The store keeps a marker
/// for each one claimed (`MailStore::claim_notice` in the store).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notice {
    /// It became the turn of the seat to move at `ply` in `game`.
    Turn {
        /// The game.
        game: GameId,
        /// The ply the move will have.
        ply: u32,
    },
    /// 80% of the time for the move at `ply` in `game` is gone.
    Reminder {
        /// The game.
        game: GameId,
        /// The ply the move will have.
        ply: u32,
    },
    /// The creator of `game`, who does not move first, was told it started (their
    /// challenge or invitation was accepted).
    Started {
        /// The game.
        game: GameId,
    },
    /// `player` was told how `game` ended.
    Ended {
        /// The game.
        game: GameId,
        /// The player told.
        player: String,
    },
    /// The daily digest of `player` for `day` (UTC).
    Digest {
        /// The player.
        player: String,
        /// The day.
        day: NaiveDate,
    },
    /// `player` was told of event `seq` of `game` (a message, a draw offered, accepted or
    /// declined), in a mail of its own or with a turn mail.
    Note {
        /// The game.
        game: GameId,
        /// The event's sequence number.
        seq: u32,
        /// The player told.
        player: String,
    },
    /// `to` was told that the leave of `player` starting at `start` began or ended.
    Leave {
        /// The player told (an opponent of the one on leave).
        to: String,
        /// The player on leave.
        player: String,
        /// When the leave starts: it names the leave.
        start: DateTime<Utc>,
        /// Which end of the leave.
        edge: LeaveEdge,
    },
    /// `player` was invited to `tournament`, or told that it started or ended.
    Tournament {
        /// The tournament.
        tournament: crate::TournamentId,
        /// The player told.
        player: String,
        /// What of it.
        edge: TournamentEdge,
    },
}

/// What of a tournament a [`Notice::Tournament`] is about: an invitation, its start, its
/// end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentEdge {
    /// The player was invited to it.
    Invited,
    /// Its games started.
    Start,
    /// Its last game ended.
    End,
}

impl TournamentEdge {
    /// The edge in one word, as notice markers name it.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentEdge::Invited => "invited",
            TournamentEdge::Start => "start",
            TournamentEdge::End => "end",
        }
    }
}

/// Which end of a leave a [`Notice::Leave`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaveEdge {
    /// The leave began: the player's clocks stand still.
    Start,
    /// The leave is over (at its end, or ended early): the clocks run again.
    End,
}

impl LeaveEdge {
    /// `starts` or `ends`, as a notice marker names it.
    pub fn as_str(self) -> &'static str {
        match self {
            LeaveEdge::Start => "starts",
            LeaveEdge::End => "ends",
        }
    }
}

impl Notice {
    /// The marker's key: a scope (`game:<id>`, `player:<handle>`) and a name within it
    /// (`turn:<ply, 6 digits>`, `reminder:<ply>`, `started`, `ended:<player>`, `digest:<yyyy-mm-dd>`,
    /// `note:<seq, 6 digits>:<player>`, and `leave:<player>:<start, ms, 13 digits>:starts|ends`
    /// in the scope of the player told).
    pub fn key(&self) -> (String, String) {
        match self {
            Notice::Turn { game, ply } => (format!("game:{game}"), format!("turn:{ply:06}")),
            Notice::Reminder { game, ply } => {
                (format!("game:{game}"), format!("reminder:{ply:06}"))
            }
            Notice::Started { game } => (format!("game:{game}"), "started".to_string()),
            Notice::Ended { game, player } => (format!("game:{game}"), format!("ended:{player}")),
            Notice::Digest { player, day } => (format!("player:{player}"), format!("digest:{day}")),
            Notice::Note { game, seq, player } => {
                (format!("game:{game}"), format!("note:{seq:06}:{player}"))
            }
            Notice::Leave {
                to,
                player,
                start,
                edge,
            } => (
                format!("player:{to}"),
                format!(
                    "leave:{player}:{:013}:{}",
                    start.timestamp_millis(),
                    edge.as_str()
                ),
            ),
            Notice::Tournament {
                tournament,
                player,
                edge,
            } => (
                format!("tournament:{tournament}"),
                format!("{}:{player}", edge.as_str()),
            ),
        }
    }
}
