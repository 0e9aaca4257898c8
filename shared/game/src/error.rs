//! The service's errors: each says what was refused and why.

use missive_rules::{ClaimError, MoveError, SetupError};
use missive_store::{Ending, GameId, Status, StoreError};
use thiserror::Error;

/// Why a use case did not happen.
#[derive(Debug, Error)]
pub enum ServiceError {
    /// No game has this id.
    #[error("no game {0}")]
    NotFound(GameId),
    /// The request was made against an older state: the game is now at `current_ply`.
    #[error("stale request: the game is at ply {current_ply}")]
    Conflict {
        /// The ply the game is at.
        current_ply: u32,
    },
    /// The player does not sit in this game.
    #[error("{player} does not sit in this game")]
    NotSeated {
        /// The player.
        player: String,
    },
    /// It is another seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game is not being played.
    #[error("the game is {}", status_text(*.0))]
    NotActive(Status),
    /// The move was refused by the rules.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The game could not be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The claim does not hold.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// The request breaks one of the service's rules (time control, seats, offers,
    /// vacation limits, conditional lines).
    #[error("refused: {0}")]
    Refused(String),
    /// The mover's time had run out: the game ended on time instead.
    #[error("time ran out: the game ended by {}", .0.rule)]
    TimeExpired(Ending),
    /// Too many concurrent changes to the same game; try again.
    #[error("the game is too busy, try again")]
    Contended,
    /// A stored game does not replay.
    #[error("stored game {game} is inconsistent: {reason}")]
    Corrupt {
        /// The game.
        game: GameId,
        /// What does not match.
        reason: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError {
    /// A refusal for `reason`.
    pub fn refused(reason: impl Into<String>) -> ServiceError {
        ServiceError::Refused(reason.into())
    }
}

/// A status in words.
pub fn status_text(status: Status) -> &'static str {
    match status {
        Status::Forming => "waiting for players",
        Status::Active => "in play",
        Status::Finished => "finished",
        Status::Cancelled => "cancelled",
    }
}
