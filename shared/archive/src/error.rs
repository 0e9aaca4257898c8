//! Errors of import, export and verification. Every import error names the game (counted
//! from 1 in the file), the line and the column where the problem is, and the reason.

use missive_rules::{MoveError, SetupError};
use thiserror::Error;

use crate::seal::{KeyError, Section};

/// Why a game could not be imported (or exported).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Reason {
    /// The text is not well formed.
    #[error("{0}")]
    Syntax(String),
    /// The variant, options or start position are refused by the rules.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A move of the main line is not legal.
    #[error("move {ply}: {error}")]
    Move {
        /// The move's number in the game, counting every seat's moves from 1 (a ply).
        ply: usize,
        /// What the rules said.
        error: MoveError,
    },
    /// The result does not agree with the moves or the rules.
    #[error("result: {0}")]
    Result(String),
    /// An event names a seat the variant does not have, or is malformed.
    #[error("event: {0}")]
    Event(String),
    /// The times of the moves and events go back.
    #[error("times out of order: {0}")]
    Order(String),
    /// The seal does not hold: the digest does not match, or the signature is not the
    /// expected key's.
    #[error("seal: {0}")]
    Seal(String),
    /// The game is larger than the archive accepts.
    #[error("{0}")]
    TooLarge(String),
    /// The input could not be read.
    #[error("read error: {0}")]
    Io(String),
}

/// A problem with one game, and where it is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("game {game}, line {line}, column {column}: {reason}")]
pub struct ImportError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// Line of the problem, from 1.
    pub line: usize,
    /// Column of the problem, from 1, in characters.
    pub column: usize,
    /// What is wrong.
    pub reason: Reason,
}

/// Why a record could not be exported: the same reasons as import, without a place.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot export the game: {0}")]
pub struct ExportError(#[from] pub Reason);

/// Why a game failed verification.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VerifyError {
    /// The game could not be read or replayed.
    #[error(transparent)]
    Import(#[from] ImportError),
    /// The game carries no `Digest` tag.
    #[error("no Digest tag")]
    NoDigest,
    /// The digest does not match: these sections were altered.
    #[error("digest mismatch: {} altered", describe(.0))]
    Digest(Vec<Section>),
    /// A key was given but the game carries no `Signature` tag.
    #[error("no Signature tag")]
    NoSignature,
    /// The signature is malformed or does not match.
    #[error(transparent)]
    Signature(#[from] KeyError),
}

fn describe(sections: &[Section]) -> String {
    sections
        .iter()
        .map(|s| s.describe())
        .collect::<Vec<_>>()
        .join("; ")
}
