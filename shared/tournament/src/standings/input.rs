//! What the standings are computed from: the games, the withdrawals, and what can be wrong
//! with them.

use missive_rules::SeatResult;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::score::ScoreError;

/// One game of the tournament: its players by seat and how far it has got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The players (indices into the player list) by seat: seat 0 first.
    pub players: Vec<usize>,
    /// Whether and how the game ended.
    pub state: GameState,
}

/// How far a game has got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameState {
    /// Still being played.
    Unfinished,
    /// Ended on the board (or by resignation, agreement, time): each seat's result.
    Finished(Vec<SeatResult>),
    /// Decided by the organiser: each seat's result. It counts like a finished game.
    Adjudicated(Vec<SeatResult>),
}

/// What the organiser does with the unfinished games of players who withdrew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Withdrawal {
    /// The withdrawn players lose them; the players who stayed win (one of them) or share
    /// the win (two of them, at a three-seat table). Games whose every player withdrew
    /// are annulled.
    Forfeit,
    /// They count for nobody: no points, not among the games played.
    Annul,
}

/// Why standings cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StandingsError {
    /// A withdrawn player is not in the player list.
    #[error("withdrawn player {player} is not among the {players} players")]
    UnknownWithdrawn {
        /// The withdrawn player's index.
        player: usize,
        /// The number of players.
        players: usize,
    },
    /// A game seats another number of players than the tournament's games do.
    #[error("the game at index {game} seats {found} players, not {expected}")]
    SeatCount {
        /// The game's index in the list of games.
        game: usize,
        /// The number of players it seats.
        found: usize,
        /// The tournament's number of seats.
        expected: usize,
    },
    /// A game seats a player who is not in the player list.
    #[error("the game at index {game} seats player {player}, not among the {players} players")]
    UnknownPlayer {
        /// The game's index in the list of games.
        game: usize,
        /// The unknown player's index.
        player: usize,
        /// The number of players.
        players: usize,
    },
    /// A game seats one player twice.
    #[error("the game at index {game} seats player {player} twice")]
    PlayerTwice {
        /// The game's index in the list of games.
        game: usize,
        /// The player seated twice.
        player: usize,
    },
    /// A game's results are not one per seat.
    #[error("the game at index {game} has {results} results for {seats} seats")]
    ResultCount {
        /// The game's index in the list of games.
        game: usize,
        /// The number of results given.
        results: usize,
        /// The number of seats.
        seats: usize,
    },
    /// A game's results are not a game's result (two wins, say).
    #[error("the game at index {game}: {source}")]
    Results {
        /// The game's index in the list of games.
        game: usize,
        /// What is wrong with its results.
        #[source]
        source: ScoreError,
    },
}
