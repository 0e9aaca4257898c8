//! Star Trek Tri-Dimensional chess: one board model, several rule sets.
//!
//! The model (shared by every rule set): the grid of cells and levels ([`geometry`]), the
//! three main boards and the four attack boards on their pins, pieces ([`layout`]), the
//! position with its move counters ([`TriD`]), position text and notation. A rule set
//! ([`RuleSet`]) decides what rule books disagree on: the routes pieces may take, which
//! attack-board moves exist, castling and promotion. [`Federation`] is seed 000's
//! Federation Standard (`trid-fs`),
//! [`Wtdcf`] seed 003's WTDCF Laws (`trid-wtdcf`).

mod diagram;
pub mod fs;
pub mod geometry;
pub mod layout;
mod movegen;
mod notation;
mod position;
pub mod rules;
mod text;
pub mod wtdcf;

pub use fs::{Federation, Paths};
pub use geometry::{BoardId, Cell, Flank, MainBoard, Pin, Square};
pub use layout::{AttackBoard, Layout, Piece};
pub use position::{EnPassant, Move, TriD};
pub use rules::{BoardCapture, BoardStep, Castling, Route, RuleSet};
pub use wtdcf::Wtdcf;

use crate::chess::{Color, Role};
use crate::classical;
use crate::position::occurrences;
use crate::{
    Claim, Diagram, EndRule, MoveEnds, MoveError, Notation, Options, Outcome, Position,
    PositionError, Seat,
};

/// A position of the Federation Standard variant `trid-fs`.
pub type FederationStandard = TriD<Federation>;

/// A position of the WTDCF variant `trid-wtdcf`.
pub type WtdcfLaws = TriD<Wtdcf>;

/// Plies without capture, pawn move or promotion after which the game is drawn.
const SEVENTY_FIVE_MOVES: u32 = 150;

/// What two positions must share to be the same for repetition: boards, pieces with their
/// flags, side to move, and an en passant capture only when one is legal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TriDKey {
    layout: Layout,
    turn: Color,
    ep: Option<EnPassant>,
}

impl<R: RuleSet> TriD<R> {
    /// The start position under `rules`.
    pub fn start_with(rules: R) -> TriD<R> {
        TriD::from_text_with(R::START, rules).expect("the start position text is valid")
    }

    /// True when neither side has anything but its king.
    pub fn is_bare_kings(&self) -> bool {
        self.layout.occupied().all(|(_, p)| p.role == Role::King)
    }

    fn seat_of(color: Color) -> Seat {
        Seat(color.index() as u8)
    }

    /// The en passant chance only when a capture en passant is legal.
    fn legal_ep(&self) -> Option<EnPassant> {
        let ep = self.ep?;
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
            .iter()
            .any(|m| {
                matches!(
                    m,
                    Move::Piece {
                        en_passant: true,
                        ..
                    }
                )
            })
            .then_some(ep)
    }
}

impl<R: RuleSet> Position for TriD<R> {
    type Move = Move;
    type Key = TriDKey;

    const ID: &'static str = R::ID;
    const DESCRIPTION: &'static str = R::DESCRIPTION;
    const SEATS: &'static [&'static str] = &["white", "black"];
    const EDITION_ZERO: &'static str = R::EDITION_ZERO;

    fn option_specs() -> &'static [crate::OptionSpec] {
        R::option_specs()
    }

    fn start(options: &Options) -> TriD<R> {
        TriD::start_with(R::from_options(options))
    }

    fn from_text(text: &str, options: &Options) -> Result<TriD<R>, PositionError> {
        TriD::from_text_with(text, R::from_options(options))
    }

    fn to_text(&self) -> String {
        TriD::to_text(self)
    }

    fn to_move(&self) -> Seat {
        TriD::<R>::seat_of(self.turn)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let has_moves = self.has_legal_moves();
        if !has_moves && self.is_check() {
            return Some(Outcome::win(
                EndRule::Checkmate,
                TriD::<R>::seat_of(self.turn.other()),
                2,
            ));
        }
        let draw = if !has_moves {
            EndRule::Stalemate
        } else if self.is_bare_kings() {
            EndRule::InsufficientMaterial
        } else if self.halfmoves >= SEVENTY_FIVE_MOVES {
            EndRule::SeventyFiveMoves
        } else {
            return None;
        };
        Some(Outcome::draw(draw, 2))
    }

    /// Bare kings and the move counter: checkmate and stalemate need no legal move.
    fn outcome_with_a_move(&self) -> Option<Option<Outcome>> {
        let draw = if self.is_bare_kings() {
            EndRule::InsufficientMaterial
        } else if self.halfmoves >= SEVENTY_FIVE_MOVES {
            EndRule::SeventyFiveMoves
        } else {
            return Some(None);
        };
        Some(Some(Outcome::draw(draw, 2)))
    }

    fn key(&self) -> TriDKey {
        TriDKey {
            layout: self.layout.clone(),
            turn: self.turn,
            ep: self.legal_ep(),
        }
    }

    fn reversible_plies(&self) -> usize {
        self.halfmoves as usize
    }

    fn history_outcome(history: &[TriD<R>]) -> Option<Outcome> {
        classical::history_outcome(occurrences(history, |_, _| true))
    }

    fn claimable(history: &[TriD<R>]) -> Vec<Claim> {
        let halfmoves = history.last().map_or(0, |p| p.halfmoves);
        classical::claims(occurrences(history, |_, _| true), halfmoves)
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Long => self.long(mv),
            Notation::Short => self.short(mv),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_text(text)
    }

    fn diagram(&self) -> Diagram {
        self.board_diagram()
    }

    fn move_spots(&self, mv: Move) -> Vec<String> {
        self.marked_spots(mv)
    }

    fn move_ends(&self, mv: Move) -> MoveEnds {
        self.ends(mv)
    }
}
