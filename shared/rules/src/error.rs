//! Typed errors of the rules crate. Every message names what was wrong and why.

use thiserror::Error;

/// A position text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid position, {field}: {reason}")]
pub struct PositionError {
    /// The part of the text at fault, e.g. `piece placement`, `castling rights`.
    pub field: &'static str,
    /// Why it is wrong.
    pub reason: String,
}

impl PositionError {
    /// An error about `field` for `reason`.
    pub fn new(field: &'static str, reason: impl Into<String>) -> PositionError {
        PositionError {
            field,
            reason: reason.into(),
        }
    }
}

/// A move text that could not be applied to the current position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in either notation of the variant.
    #[error("cannot read move `{text}`: {reason}")]
    Unreadable {
        /// The text as given.
        text: String,
        /// What could not be read.
        reason: String,
    },
    /// The text reads as a move, but no legal move matches it.
    #[error("illegal move `{text}`: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// Why no legal move matches.
        reason: String,
    },
    /// Several legal moves match the text.
    #[error("ambiguous move `{text}`: could be {}", candidates.join(", "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves it could mean, in long notation.
        candidates: Vec<String>,
    },
    /// The game has already ended.
    #[error("the game is over ({rule})")]
    GameOver {
        /// The rule that ended it.
        rule: String,
    },
}

/// Game options that could not be read or are not offered by the variant.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid option `{option}`: {reason}")]
pub struct OptionsError {
    /// The option text at fault.
    pub option: String,
    /// Why it is refused.
    pub reason: String,
}

/// A game that could not be set up: unknown variant, bad options or bad start position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// No variant has this id.
    #[error("unknown variant `{id}` (known: {known})")]
    UnknownVariant {
        /// The id asked for.
        id: String,
        /// The ids that exist, comma separated.
        known: String,
    },
    /// The options are wrong.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// The start position is wrong.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A move of a window taken up again ([`crate::Variant::resume`]) does not play.
    #[error("move {index} of the window: {error}")]
    Window {
        /// The move's index in the window, from 0.
        index: usize,
        /// Why it does not play.
        error: MoveError,
    },
}

/// A draw claim that the position does not support.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot claim {claim}: {reason}")]
pub struct ClaimError {
    /// The claim made, in its kebab-case name.
    pub claim: &'static str,
    /// Why it does not hold.
    pub reason: String,
}
