//! Xiangqi (Chinese chess, after seed 002's standard column): the variant `xiangqi`.
//!
//! Position text is FEN as Fairy-Stockfish writes it, long notation its coordinates
//! (`h3e3`), short notation WXF (`C2.5`). The board is a 90-point mailbox; move generation
//! is pseudo-legal with a legality test only for moves that touch a line or horse leg of
//! the mover's general. The ends: a side with no legal move loses (checkmated or not);
//! the third repetition is a draw unless one side gave check with every move of the
//! repeated cycle (that side loses); 60 moves by each side without a capture draw.
//! `docs/rules/xiangqi.md` records the decisions.

mod board;
pub(crate) mod diagram;
mod fen;
mod notation;
mod types;

pub use board::{Xiangqi, XiangqiKey};
pub use fen::START_FEN;
pub use types::{Move, Piece, Role, Side, Square, parse_square, square_name};

use crate::{
    Diagram, EndRule, MoveError, Notation, Options, Outcome, Position, PositionError, Seat,
};

/// Plies without a capture after which the game is drawn: 60 moves by each side.
pub const MOVE_LIMIT: u32 = 120;

impl Xiangqi {
    /// The standard start position.
    pub fn start() -> Xiangqi {
        Xiangqi::from_fen(START_FEN).expect("the start FEN is valid")
    }

    fn seat_of(side: Side) -> Seat {
        Seat(side.index() as u8)
    }
}

/// The end the repetition rule decides for the last position of `history` (every position
/// since the last capture, the current one last): nothing before its third occurrence;
/// then, over the cycle from its first occurrence to now, a side that gave check with
/// every one of its moves loses (perpetual check), and otherwise, both sides checking
/// throughout included, the game is drawn.
pub fn repetition_outcome(history: &[Xiangqi]) -> Option<Outcome> {
    let current = history.last()?;
    let key = current.key();
    let first = (0..history.len())
        .rev()
        .step_by(2)
        .filter(|i| history[*i].key() == key)
        .nth(2)?;
    let cycle = &history[first + 1..];
    let checked_throughout = |checker: Side| {
        cycle
            .iter()
            .filter(|p| p.turn() == checker.other())
            .all(Xiangqi::is_check)
    };
    let outcome = match (
        checked_throughout(Side::Red),
        checked_throughout(Side::Black),
    ) {
        (true, false) => Outcome::win(EndRule::PerpetualCheck, Xiangqi::seat_of(Side::Black), 2),
        (false, true) => Outcome::win(EndRule::PerpetualCheck, Xiangqi::seat_of(Side::Red), 2),
        _ => Outcome::draw(EndRule::ThreefoldRepetition, 2),
    };
    Some(outcome)
}

impl Position for Xiangqi {
    type Move = Move;
    type Key = XiangqiKey;

    const ID: &'static str = "xiangqi";
    const DESCRIPTION: &'static str =
        "Xiangqi (Chinese chess): Fairy-Stockfish FEN positions, coordinate and WXF moves";
    const SEATS: &'static [&'static str] = &["red", "black"];

    fn start(_: &Options) -> Xiangqi {
        Xiangqi::start()
    }

    fn from_text(text: &str, _: &Options) -> Result<Xiangqi, PositionError> {
        Xiangqi::from_fen(text)
    }

    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn to_move(&self) -> Seat {
        Xiangqi::seat_of(self.turn())
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    /// A side with no legal move loses: by checkmate when in check, otherwise by
    /// [`EndRule::NoLegalMove`]. Then [`MOVE_LIMIT`] plies without a capture draw.
    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            let rule = if self.is_check() {
                EndRule::Checkmate
            } else {
                EndRule::NoLegalMove
            };
            return Some(Outcome::win(rule, Xiangqi::seat_of(self.turn().other()), 2));
        }
        (self.halfmoves() >= MOVE_LIMIT).then(|| Outcome::draw(EndRule::MoveLimit, 2))
    }

    /// The move limit alone: a legal move rules out mate and the loss without one.
    fn outcome_with_a_move(&self) -> Option<Option<Outcome>> {
        Some((self.halfmoves() >= MOVE_LIMIT).then(|| Outcome::draw(EndRule::MoveLimit, 2)))
    }

    fn key(&self) -> XiangqiKey {
        Xiangqi::key(self)
    }

    fn reversible_plies(&self) -> usize {
        self.halfmoves() as usize
    }

    fn history_outcome(history: &[Xiangqi]) -> Option<Outcome> {
        repetition_outcome(history)
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Long => self.coordinates(mv),
            Notation::Short => self.wxf(mv),
        }
    }

    fn diagram(&self) -> Diagram {
        self.board_diagram()
    }

    fn move_spots(&self, mv: Move) -> Vec<String> {
        vec![square_name(mv.from), square_name(mv.to)]
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_text(text)
    }
}
