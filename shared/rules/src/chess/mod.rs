//! Standard chess (seed 001): the variant `chess`.
//!
//! Position text is FEN, long notation UCI, short notation SAN. The board is a set of
//! bitboards; move generation is strictly legal (pins and check masks, no make-and-test).

mod attacks;
mod board;
mod fen;
mod notation;
mod types;

pub use attacks::{KING_STEPS, KNIGHT_STEPS};
pub use board::{Chess, ChessKey};
pub use fen::START_FEN;
pub use types::{Color, Move, MoveKind, Role, Square, parse_square, square_name};

use crate::{
    Claim, EndRule, MoveError, Notation, Options, Outcome, Position, PositionError, Seat,
    chess_claims, fivefold_repetition,
};

/// Plies without capture or pawn move after which the game is drawn.
const SEVENTY_FIVE_MOVES: u32 = 150;

impl Chess {
    /// The standard start position.
    pub fn start() -> Chess {
        Chess::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// True when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// True when the side to move is not in check and has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// True when 75 moves by each side passed without capture or pawn move and the side to
    /// move is not checkmated.
    pub fn is_seventy_five_moves(&self) -> bool {
        self.halfmoves >= SEVENTY_FIVE_MOVES && self.has_legal_moves()
    }

    fn seat_of(color: Color) -> Seat {
        Seat(color.index() as u8)
    }
}

impl Position for Chess {
    type Move = Move;
    type Key = ChessKey;

    const ID: &'static str = "chess";
    const DESCRIPTION: &'static str =
        "Standard chess (FIDE rules): FEN positions, UCI and SAN moves";
    const SEATS: &'static [&'static str] = &["white", "black"];

    fn start(_: &Options) -> Chess {
        Chess::start()
    }

    fn from_text(text: &str, _: &Options) -> Result<Chess, PositionError> {
        Chess::from_fen(text)
    }

    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn to_move(&self) -> Seat {
        Chess::seat_of(self.turn)
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
                Chess::seat_of(self.turn.other()),
                2,
            ));
        }
        let draw = if self.is_insufficient_material() {
            EndRule::InsufficientMaterial
        } else if !has_moves {
            EndRule::Stalemate
        } else if self.halfmoves >= SEVENTY_FIVE_MOVES {
            EndRule::SeventyFiveMoves
        } else {
            return None;
        };
        Some(Outcome::draw(draw, 2))
    }

    fn key(&self) -> ChessKey {
        Chess::key(self)
    }

    fn reversible_plies(&self) -> usize {
        self.halfmoves as usize
    }

    fn history_outcome(history: &[Chess]) -> Option<Outcome> {
        fivefold_repetition(history)
    }

    fn claimable(history: &[Chess]) -> Vec<Claim> {
        chess_claims(history)
    }

    fn timeout(&self, seat: Seat) -> Outcome {
        let opponent = if seat.0 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if self.has_insufficient_material(opponent) {
            Outcome::draw(EndRule::TimeoutVsInsufficientMaterial, 2)
        } else {
            Outcome::win(EndRule::Timeout, Chess::seat_of(opponent), 2)
        }
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Long => self.uci(mv),
            Notation::Short => self.san(mv),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_text(text)
    }
}
