//! A tournament as the tournament routes answer it, with its standings, and the parts a
//! round robin to create names.

use chrono::{DateTime, Utc};
use missive_domain::{GameId, Tournament};
use missive_game::TournamentStandings;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::TimeControl;

/// A tournament's id: a ULID.
#[derive(Serialize, ToSchema)]
#[serde(transparent)]
pub(crate) struct TournamentId(String);

/// Where a tournament is in its life.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TournamentState {
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

impl From<missive_domain::TournamentState> for TournamentState {
    fn from(state: missive_domain::TournamentState) -> TournamentState {
        use missive_domain::TournamentState as S;
        match state {
            S::Open => TournamentState::Open,
            S::Starting => TournamentState::Starting,
            S::Running => TournamentState::Running,
            S::Paused => TournamentState::Paused,
            S::Finished => TournamentState::Finished,
        }
    }
}

/// When a tournament's games start.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum TournamentStart {
    /// As soon as the last place is taken.
    #[schema(title = "StartWhenFull")]
    WhenFull,
    /// At a date (if full by then; the organiser may start earlier once full).
    #[schema(title = "StartAt")]
    At {
        /// When.
        at: DateTime<Utc>,
    },
}

impl From<missive_domain::TournamentStart> for TournamentStart {
    fn from(start: missive_domain::TournamentStart) -> TournamentStart {
        match start {
            missive_domain::TournamentStart::WhenFull => TournamentStart::WhenFull,
            missive_domain::TournamentStart::At { at } => TournamentStart::At { at },
        }
    }
}

impl From<TournamentStart> for missive_domain::TournamentStart {
    fn from(start: TournamentStart) -> missive_domain::TournamentStart {
        match start {
            TournamentStart::WhenFull => missive_domain::TournamentStart::WhenFull,
            TournamentStart::At { at } => missive_domain::TournamentStart::At { at },
        }
    }
}

/// What becomes of the unfinished games of a player who withdraws.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum WithdrawalScoring {
    /// The withdrawn player loses them; the others win them.
    Forfeit,
    /// They count for nobody.
    Annul,
}

impl From<missive_domain::WithdrawalScoring> for WithdrawalScoring {
    fn from(scoring: missive_domain::WithdrawalScoring) -> WithdrawalScoring {
        match scoring {
            missive_domain::WithdrawalScoring::Forfeit => WithdrawalScoring::Forfeit,
            missive_domain::WithdrawalScoring::Annul => WithdrawalScoring::Annul,
        }
    }
}

impl From<WithdrawalScoring> for missive_domain::WithdrawalScoring {
    fn from(scoring: WithdrawalScoring) -> missive_domain::WithdrawalScoring {
        match scoring {
            WithdrawalScoring::Forfeit => missive_domain::WithdrawalScoring::Forfeit,
            WithdrawalScoring::Annul => missive_domain::WithdrawalScoring::Annul,
        }
    }
}

/// One game of a tournament: who sits where (seat 0 first) and in which round.
#[derive(Serialize, ToSchema)]
pub(crate) struct TournamentGame {
    /// The game.
    #[schema(value_type = missive_game::api_schema::GameId)]
    game: GameId,
    /// Its players by seat.
    players: Vec<String>,
    /// Its round, from 1 (all the games of a three-seat tournament are round 1).
    round: u32,
}

impl From<missive_domain::TournamentGame> for TournamentGame {
    fn from(game: missive_domain::TournamentGame) -> TournamentGame {
        TournamentGame {
            game: game.game,
            players: game.players,
            round: game.round,
        }
    }
}

/// A player's withdrawal from a tournament.
#[derive(Serialize, ToSchema)]
pub(crate) struct Withdrawal {
    /// The player.
    player: String,
    /// When.
    at: DateTime<Utc>,
    /// Why: `withdrew` (the player's own choice) or `timeouts` (lost the organiser's
    /// number of games on time).
    reason: String,
    /// The player's games still being played when they withdrew: scored as the organiser
    /// chose, whatever became of them since.
    #[serde(default)]
    #[schema(value_type = Vec<missive_game::api_schema::GameId>)]
    games: Vec<GameId>,
}

impl From<missive_domain::Withdrawal> for Withdrawal {
    fn from(withdrawal: missive_domain::Withdrawal) -> Withdrawal {
        Withdrawal {
            player: withdrawal.player,
            at: withdrawal.at,
            reason: withdrawal.reason,
            games: withdrawal.games,
        }
    }
}

/// Each of `items` made into a `T`.
fn all<T: From<U>, U>(items: Vec<U>) -> Vec<T> {
    items.into_iter().map(T::from).collect()
}

/// A tournament, with its standings once started.
#[derive(Serialize, ToSchema)]
pub(crate) struct TournamentView {
    id: TournamentId,
    name: String,
    organiser: String,
    variant: String,
    options: String,
    time_control: TimeControl,
    rated: bool,
    /// How many players it takes.
    size: u8,
    double: bool,
    /// When its games start.
    starts: TournamentStart,
    withdrawal: WithdrawalScoring,
    timeouts_to_withdraw: Option<u8>,
    invited: Vec<String>,
    /// The players, in the order they joined.
    players: Vec<String>,
    withdrawn: Vec<Withdrawal>,
    state: TournamentState,
    created_at: DateTime<Utc>,
    started_at: Option<DateTime<Utc>>,
    finished_at: Option<DateTime<Utc>>,
    /// Every game: who sits where, and its round.
    games: Vec<TournamentGame>,
    /// The standings, best first (absent until it runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    standings: Option<Vec<StandingRow>>,
    /// The crosstable as text (absent until it runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    crosstable: Option<String>,
}

/// One player's line of the standings.
#[derive(Serialize, ToSchema)]
pub(crate) struct StandingRow {
    /// The rank from 1; players level on every tiebreak share one.
    rank: u32,
    player: String,
    /// Points, as a decimal (`2.5`, `1.33`).
    points: String,
    /// Sonneborn-Berger, to two decimals.
    sonneborn_berger: String,
    /// Outright wins (forfeits included).
    wins: u32,
    /// Points among the players level on points, Sonneborn-Berger and wins, when any are.
    #[serde(skip_serializing_if = "Option::is_none")]
    head_to_head: Option<String>,
    /// Games that count.
    played: u32,
    /// Games still being played.
    left: u32,
    withdrawn: bool,
}

impl From<TournamentStandings> for TournamentView {
    fn from(read: TournamentStandings) -> TournamentView {
        let TournamentStandings {
            tournament,
            standings,
        } = read;
        let rows = standings.as_ref().map(|standings| {
            standings
                .rows
                .iter()
                .map(|row| StandingRow {
                    rank: row.rank,
                    player: tournament.players[row.player].clone(),
                    points: row.points.to_string(),
                    sonneborn_berger: row.sonneborn_berger.to_string(),
                    wins: row.wins,
                    head_to_head: row.head_to_head.map(|p| p.to_string()),
                    played: row.played,
                    left: row.left,
                    withdrawn: row.withdrawn,
                })
                .collect()
        });
        let crosstable = standings.map(|s| s.render_text(&tournament.players));
        let Tournament {
            id,
            name,
            organiser,
            variant,
            options,
            time_control,
            rated,
            size,
            double,
            start,
            withdrawal,
            timeouts_to_withdraw,
            invited,
            players,
            withdrawn,
            games,
            state,
            created_at,
            started_at,
            finished_at,
            ..
        } = tournament;
        TournamentView {
            id: TournamentId(id.0),
            name,
            organiser,
            variant,
            options,
            time_control: time_control.into(),
            rated,
            size,
            double,
            starts: start.into(),
            withdrawal: withdrawal.into(),
            timeouts_to_withdraw,
            invited,
            players,
            withdrawn: all(withdrawn),
            state: state.into(),
            created_at,
            started_at,
            finished_at,
            games: all(games),
            standings: rows,
            crosstable,
        }
    }
}

impl From<Tournament> for TournamentView {
    fn from(tournament: Tournament) -> TournamentView {
        TournamentStandings {
            tournament,
            standings: None,
        }
        .into()
    }
}
