//! The service's errors: each says what was refused and why.

use missive_domain::{ChallengeId, ChallengeState, Ending, GameError, GameId, Status};
use missive_rules::{ClaimError, MoveError, SetupError};
use missive_store::StoreError;
use thiserror::Error;

use crate::Limit;

/// Why a use case did not happen.
#[derive(Debug, Error)]
pub enum ServiceError {
    /// No game has this id.
    #[error("no game {0}")]
    GameNotFound(GameId),
    /// The request was made against an older state: the game is now at `current_ply`.
    #[error("stale request: the game is at ply {current_ply}")]
    Conflict {
        /// The ply the game is at.
        current_ply: u32,
    },
    /// No player has this handle.
    #[error("no player {0}")]
    UnknownPlayer(String),
    /// A name or address is already taken.
    #[error("{0}")]
    Taken(String),
    /// The player does not sit in this game.
    #[error("{player} does not sit in this game")]
    NotSeated {
        /// The player.
        player: String,
    },
    /// The idempotency key was used before for another request.
    #[error("the idempotency key was used before for another request")]
    KeyReused,
    /// It is another seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game is not being played.
    #[error("the game is {}", .0.words())]
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
    /// A limit on what one sender may have done was reached: nothing was done; try again
    /// in `retry_after` seconds.
    #[error("limit reached: {limit}; try again in {retry_after} s")]
    Limited {
        /// The limit.
        limit: Limit,
        /// Whole seconds until the limit allows it again (at the earliest).
        retry_after: u64,
    },
    /// The player has as many challenges open as they may (the limit's `value`): nothing
    /// was published; one withdrawn, accepted or expired makes room.
    #[error("you have {} open challenges, as many as you may: withdraw one, or wait until one is accepted or expires", .0.value)]
    TooManyChallenges(Limit),
    /// The request carries more than one request may: nothing was done.
    #[error("too much for one request: at most {}", .0.value)]
    TooMuch(Limit),
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
    /// No challenge has this id.
    #[error("no challenge {0}")]
    NoChallenge(ChallengeId),
    /// The challenge is no longer open: every seat was taken, or its creator withdrew it.
    #[error("the challenge is {}", match .0 {
        ChallengeState::Withdrawn => "withdrawn",
        ChallengeState::Accepted { .. } | ChallengeState::Open => "taken: every seat is filled",
    })]
    ChallengeClosed(ChallengeState),
    /// The challenge expired unanswered.
    #[error("the challenge {0} has expired")]
    ChallengeExpired(ChallengeId),
    /// The player has no rating in the variant.
    #[error("{player} has no {variant} rating")]
    NoRating {
        /// The player.
        player: String,
        /// The variant.
        variant: String,
    },
    /// The challenge's rating bounds leave out the accepting player's rating.
    #[error("your rating {rating} is outside the challenge's bounds ({})", bounds(*.min, *.max))]
    RatingOutOfRange {
        /// The player's current rating in the variant, rounded.
        rating: u32,
        /// The least rating the challenge asks for.
        min: Option<u32>,
        /// The highest rating the challenge admits.
        max: Option<u32>,
    },
    /// Only the challenge's creator may do this.
    #[error("only the challenge's creator may withdraw it")]
    NotCreator,

    /// No tournament has this id.
    #[error("no tournament {0}")]
    NoTournament(missive_domain::TournamentId),

    /// Only the tournament's organiser may do this.
    #[error("only the tournament's organiser may do this")]
    NotOrganiser,

    /// The tournament is not in a state that allows the request.
    #[error("the tournament is {}", .0.as_str())]
    TournamentState(missive_domain::TournamentState),
    /// A text is longer than the service takes.
    #[error("{what} has at most {limit} characters")]
    TooLong {
        /// What was too long.
        what: &'static str,
        /// The most characters it may have.
        limit: usize,
    },
    /// The player did this too often lately; they may again in `retry_after` seconds.
    #[error("{what}: try again in {retry_after} s")]
    TooOften {
        /// What was done too often.
        what: &'static str,
        /// Seconds until it is allowed again.
        retry_after: u64,
    },
    /// The player has no hook with this id.
    #[error("no hook {0}")]
    NoHook(missive_domain::HookId),
    /// No open WebSocket connection has this id (closed, or never opened here).
    #[error("no open connection {0}")]
    NoSocket(missive_domain::SocketId),
    /// A list was asked to go on from a cursor it did not give out.
    #[error("the cursor is not one this list gave out")]
    BadCursor,
    /// An event feed was asked to go on from a cursor older than the events kept: read
    /// the games again and follow the feed from a new cursor.
    #[error("the cursor is older than the events kept ({} days): read your games again and start without a cursor", missive_domain::FEED_RETENTION.num_days())]
    CursorExpired,
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
    /// The player has no application password with this id.
    #[error("no application password {0}")]
    NoAppPassword(String),
    /// The handle and password sign nobody in (which of them was wrong is not said).
    #[error("unknown handle or wrong application password")]
    BadCredentials,
    /// [`crate::HASHES_AT_ONCE`] password hashes were being computed and
    /// [`crate::WAITING_TO_HASH`] waiting: nothing was done; try again in a moment.
    #[error(transparent)]
    Busy(#[from] missive_gate::Busy),
}

impl ServiceError {
    /// A refusal for `reason`.
    pub fn refused(reason: impl Into<String>) -> ServiceError {
        ServiceError::Refused(reason.into())
    }
}

impl From<GameError> for ServiceError {
    fn from(error: GameError) -> ServiceError {
        match error {
            GameError::NotSeated { player } => ServiceError::NotSeated { player },
            GameError::NotYourTurn => ServiceError::NotYourTurn,
            GameError::NotActive(status) => ServiceError::NotActive(status),
            GameError::Move(error) => ServiceError::Move(error),
            GameError::Refused(reason) => ServiceError::Refused(reason),
        }
    }
}

impl From<StoreError> for ServiceError {
    fn from(error: StoreError) -> ServiceError {
        match error {
            StoreError::BadCursor => ServiceError::BadCursor,
            error => ServiceError::Store(error),
        }
    }
}

/// Rating bounds in words: `at least 1800`, `at most 1600`, `1400 to 1600`.
fn bounds(min: Option<u32>, max: Option<u32>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("{min} to {max}"),
        (Some(min), None) => format!("at least {min}"),
        (None, Some(max)) => format!("at most {max}"),
        (None, None) => "none".into(),
    }
}
