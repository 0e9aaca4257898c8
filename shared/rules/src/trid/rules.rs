//! What a Tri-D rule set decides on top of the shared board model: how pieces get from one
//! square to another, which attack-board moves exist, castling and promotion.

use std::fmt::Debug;
use std::hash::Hash;

use super::geometry::{BoardId, Cell, Pin, Square};
use super::layout::Layout;
use crate::chess::Color;
use crate::{OptionSpec, Options};

/// How a line move (rook, bishop, queen, pawn step) crossed the board: the square it passed
/// in its first intermediate cell, which is where a pawn's double step may be taken en
/// passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    /// The square crossed in the first cell between start and end, `None` for a one-step move.
    pub via: Option<Square>,
}

/// A castling of one side: where king and rook stand and go, and what must be true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castling {
    /// True for `O-O`, false for `O-O-O`.
    pub king_side: bool,
    /// The king's start square.
    pub king_from: Square,
    /// The king's destination.
    pub king_to: Square,
    /// The rook's start square.
    pub rook_from: Square,
    /// The rook's destination.
    pub rook_to: Square,
    /// Squares that must exist and be empty.
    pub clear: &'static [Square],
    /// An attack board that must never have moved, if the rule set asks for one.
    pub board: Option<BoardId>,
}

/// An attack-board move a rule set allows: the destination pin, and whether the board is
/// turned half round (its riders land on the diagonally opposite places).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStep {
    /// Where the board goes (may be its own pin when it only turns round).
    pub pin: Pin,
    /// True when the board is turned half round.
    pub inverted: bool,
}

/// Which capture on an attack board hands the board to the side that took (for rule sets
/// with [`RuleSet::BOARD_CAPTURE`]); either way only a board of the taken piece's owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardCapture {
    /// The taken piece was the only piece on the board, the taking piece aside.
    OnlyPiece,
    /// No piece of the board's owner is left on it once the capture is made.
    OwnersLast,
}

/// A rule set for the shared Tri-D board model. The model owns squares, boards, pieces,
/// position text and notation; the rule set answers the questions where rule books differ.
/// A value of the rule set carries the game's options.
pub trait RuleSet: Copy + Debug + Eq + Hash + Send + Sync + 'static {
    /// The variant id in the registry.
    const ID: &'static str;
    /// One line describing the variant.
    const DESCRIPTION: &'static str;
    /// The start position in position text.
    const START: &'static str;
    /// True when attack boards keep an unmoved flag (for castling conditions).
    const BOARD_FLAGS: bool;
    /// True when taking the last piece of a board's owner on it hands the board to the
    /// side that took it.
    const BOARD_CAPTURE: bool;
    /// The options that bring back the readings of edition 0 (see
    /// [`crate::Position::EDITION_ZERO`]).
    const EDITION_ZERO: &'static str = "";

    /// Which captures hand a board over; asked only when [`RuleSet::BOARD_CAPTURE`].
    fn board_capture(&self) -> BoardCapture {
        BoardCapture::OnlyPiece
    }

    /// The options the rule set offers.
    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    /// The rule set under `options` (already validated against [`RuleSet::option_specs`]).
    fn from_options(options: &Options) -> Self;

    /// Whether a piece on `from` may travel to `to` over the cells `between` (seen from
    /// above, in order; empty for a one-step move), and how. Knights never ask: they jump.
    /// `to` exists; whether it may be entered (empty or enemy) is the caller's business.
    fn route(&self, layout: &Layout, from: Square, to: Square, between: &[Cell]) -> Option<Route>;

    /// True when the rook-pawn rule is on: pawns on files a and f may also step inward.
    fn rook_pawns(&self) -> bool {
        false
    }

    /// The castlings of `color`.
    fn castlings(&self, color: Color) -> &'static [Castling];

    /// True when a `color` pawn standing on `square` in `layout` promotes.
    fn promotes(&self, layout: &Layout, color: Color, square: Square) -> bool;

    /// Appends the moves `mover` may make with attack board `id` (whoever owns it), before
    /// the test that the mover's king is safe afterwards.
    fn board_steps(&self, layout: &Layout, mover: Color, id: BoardId, out: &mut Vec<BoardStep>);
}
