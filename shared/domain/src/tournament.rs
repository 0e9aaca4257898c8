//! Tournaments: round robins whose games all start at once, with their players, their
//! games (who sits where) and how the games of a player who withdraws are scored.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::{GameId, TimeControl, TournamentEdge};

/// A tournament's id: a ULID.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TournamentId(pub String);

impl std::fmt::Display for TournamentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentState {
    /// Taking players; no game exists yet.
    Open,
    /// Started: its games are known (who sits where) and being created, a batch at a time,
    /// by the start and then by the sweep; those created are played as usual. Running once
    /// every game exists.
    Starting,
    /// Its games are being played.
    Running,
    /// Its games are stopped by the organiser: no move is taken and no clock runs.
    Paused,
    /// Every game is over (or scored without being played).
    Finished,
}

impl TournamentState {
    /// The state in kebab case, as shown.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentState::Open => "open",
            TournamentState::Starting => "starting",
            TournamentState::Running => "running",
            TournamentState::Paused => "paused",
            TournamentState::Finished => "finished",
        }
    }
}

/// When a tournament's games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TournamentStart {
    /// As soon as the last place is taken.
    WhenFull,
    /// At a date (if full by then; the organiser may start earlier once full).
    At {
        /// When.
        at: DateTime<Utc>,
    },
}

/// What becomes of the unfinished games of a player who withdraws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawalScoring {
    /// The withdrawn player loses them; the others win them.
    Forfeit,
    /// They count for nobody.
    Annul,
}

/// One game of a tournament: who sits where (seat 0 first) and in which round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGame {
    /// The game.
    pub game: GameId,
    /// Its players by seat.
    pub players: Vec<String>,
    /// Its round, from 1 (all the games of a three-seat tournament are round 1).
    pub round: u32,
}

/// A player's withdrawal from a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    /// The player.
    pub player: String,
    /// When.
    pub at: DateTime<Utc>,
    /// Why: `withdrew` (the player's own choice) or `timeouts` (lost the organiser's
    /// number of games on time).
    pub reason: String,
    /// The player's games still being played when they withdrew: scored as the organiser
    /// chose, whatever became of them since.
    #[serde(default)]
    pub games: Vec<GameId>,
}

/// How far the creation of a starting tournament's games has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartJob {
    /// How many of its games, in its order, are known to exist: the creation goes on
    /// from there (a game created since but not counted is a conflict it skips).
    pub created: usize,
    /// When the sweep takes the creation up: a little later while a start works on it
    /// (so that the sweep leaves it alone meanwhile, and takes it up if that start died),
    /// the moment it stopped once it stopped with games left.
    pub due: DateTime<Utc>,
}

/// A tournament as stored: written over its revision (1 creates it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Its id.
    pub id: TournamentId,
    /// Raised by one at every change.
    pub revision: u64,
    /// Its name.
    pub name: String,
    /// The player who created it and runs it.
    pub organiser: String,
    /// The variant of every game.
    pub variant: String,
    /// The variant's options of every game (`""`: none).
    pub options: String,
    /// Every game's time control.
    pub time_control: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// How many players it takes.
    pub size: u8,
    /// Whether every pairing plays twice, colours swapped (two-seat variants).
    pub double: bool,
    /// When its games start.
    pub start: TournamentStart,
    /// What becomes of a withdrawn player's unfinished games.
    pub withdrawal: WithdrawalScoring,
    /// Games lost on time after which a player is withdrawn (`None`: never).
    pub timeouts_to_withdraw: Option<u8>,
    /// Players the organiser invited (they may join; others may too while places remain).
    pub invited: Vec<String>,
    /// The players, in the order they joined (their index in the crosstable).
    pub players: Vec<String>,
    /// Players who withdrew.
    pub withdrawn: Vec<Withdrawal>,
    /// Its games, once started.
    pub games: Vec<TournamentGame>,
    /// The creation of its games, while it is starting (absent otherwise, and in what was
    /// stored before tournaments had a starting state).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_job: Option<StartJob>,
    /// Where it is.
    pub state: TournamentState,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When its games started.
    pub started_at: Option<DateTime<Utc>>,
    /// Since when it is paused, while it is.
    pub paused_at: Option<DateTime<Utc>>,
    /// When its last game ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// The mails its every player has been sent (the start, the end): each edge is added
    /// once all its mails went out, so the notifier stops looking for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub told: Vec<TournamentEdge>,
}

impl Tournament {
    /// Whether `player` plays in it.
    pub fn has_player(&self, player: &str) -> bool {
        self.players.iter().any(|p| p == player)
    }

    /// Whether `player` withdrew from it.
    pub fn has_withdrawn(&self, player: &str) -> bool {
        self.withdrawn.iter().any(|w| w.player == player)
    }

    /// When it is to start, while it is open with a start date.
    pub fn starts_at(&self) -> Option<DateTime<Utc>> {
        match (self.state, self.start) {
            (TournamentState::Open, TournamentStart::At { at }) => Some(at),
            _ => None,
        }
    }

    /// When it is due in the sweep's index: an open tournament with a start date at that
    /// date, a starting one when its [`StartJob`] is due (at its start if it has none).
    pub fn wakes_at(&self) -> Option<DateTime<Utc>> {
        match self.state {
            TournamentState::Starting => self
                .start_job
                .map(|job| job.due)
                .or(self.started_at)
                .or(Some(self.created_at)),
            _ => self.starts_at(),
        }
    }

    /// The game `id` of it, if it is one.
    pub fn game(&self, id: &GameId) -> Option<&TournamentGame> {
        self.games.iter().find(|g| &g.game == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A running tournament as stored before tournaments had a starting state.
    const RUNNING: &str = r#"{"id":"01J00000000000000000000T01","revision":3,"name":"Cup","organiser":"ann","variant":"chess","options":"","time_control":{"kind":"days-per-move","days":3},"rated":true,"size":2,"double":false,"start":{"kind":"when-full"},"withdrawal":"forfeit","timeouts_to_withdraw":null,"invited":[],"players":["ann","bob"],"withdrawn":[],"games":[{"game":"01J00000000000000000000T02","players":["ann","bob"],"round":1}],"state":"running","created_at":"2026-03-01T12:00:00Z","started_at":"2026-03-01T13:00:00Z","paused_at":null,"finished_at":null}"#;

    #[test]
    fn a_tournament_stored_before_the_starting_state_reads_and_writes_the_same() {
        let tournament: Tournament = serde_json::from_str(RUNNING).unwrap();
        assert_eq!(tournament.state, TournamentState::Running);
        assert_eq!(tournament.start_job, None);
        assert_eq!(tournament.wakes_at(), None);
        assert_eq!(serde_json::to_string(&tournament).unwrap(), RUNNING);
        let open = Tournament {
            state: TournamentState::Open,
            start: TournamentStart::At {
                at: tournament.created_at,
            },
            ..tournament.clone()
        };
        assert_eq!(open.wakes_at(), Some(tournament.created_at));
    }

    #[test]
    fn a_starting_tournament_wakes_when_its_job_is_due() {
        let running: Tournament = serde_json::from_str(RUNNING).unwrap();
        let due = running.created_at + chrono::Duration::seconds(10);
        let starting = Tournament {
            state: TournamentState::Starting,
            start_job: Some(StartJob { created: 1, due }),
            ..running
        };
        assert_eq!(starting.wakes_at(), Some(due));
        let text = serde_json::to_string(&starting).unwrap();
        assert!(text.contains(r#""state":"starting""#), "{text}");
        assert_eq!(serde_json::from_str::<Tournament>(&text).unwrap(), starting);
        let without_job = Tournament {
            start_job: None,
            ..starting
        };
        assert_eq!(without_job.wakes_at(), without_job.started_at);
    }
}
