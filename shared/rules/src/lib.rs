//! Missive's rules: every game it plays, as pure values.
//!
//! No I/O, no clock, no async. A variant is a [`Position`] type (typed, fast, used by
//! benchmarks and by the variant's own code) registered under an id in [`registry`], which
//! hands out [`AnyGame`] trait objects to everything that only knows the id: the command line,
//! the archive, the game service. [`Game`] owns the history (every position since the start),
//! so repetition, move counters and replay belong to the rules, not to callers.
//!
//! The design is explained in `docs/architecture.md`.

pub mod chess;
mod classical;
mod diagram;
pub mod dynamo;
mod ends;
mod error;
mod fen;
mod game;
mod numbering;
mod options;
mod outcome;
mod position;
pub mod registry;
pub mod sanguo;
mod score;
mod seat;
pub mod trid;
pub mod xiangqi;

pub use diagram::{
    Cell, Diagram, DiagramPiece, DiagramSeat, Ink, Label, LabelKind, Line, PieceStyle, Shade, Spot,
    Stroke, Xy,
};
pub use ends::{LegalMove, MoveEnds};
pub use error::{ClaimError, MoveError, OptionsError, PositionError, SetupError};
pub use game::{AnyGame, Game, PlayedMove, Window};
pub use numbering::{MoveNumber, MoveNumbering};
pub use options::{OptionSpec, Options};
pub use outcome::{Claim, EndRule, Outcome, SeatResult};
pub use position::{Notation, Position, choose_move, perft};
pub use registry::{Variant, variant, variants};
pub use score::{Score, score};
pub use seat::Seat;
