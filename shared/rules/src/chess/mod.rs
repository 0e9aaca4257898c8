//! Standard chess (seed 001): the variant `chess`.
//!
//! Position text is FEN, long notation UCI, short notation SAN. The board is a set of
//! bitboards; move generation is strictly legal (pins and check masks, no make-and-test).

pub(crate) mod attacks;
mod board;
pub(crate) mod diagram;
pub(crate) mod fen;
mod notation;
pub(crate) mod types;
mod zobrist;

pub use attacks::{KING_STEPS, KNIGHT_STEPS};
pub use board::{Chess, ChessKey};
pub use fen::START_FEN;
pub use types::{Color, Move, MoveKind, Role, Square, parse_square, square_name};

use std::sync::LazyLock;

use crate::classical::{self, Facts, SEVENTY_FIVE_MOVES};
use crate::position::occurrences;
use crate::{Claim, Diagram, MoveError, Notation, Options, Outcome, Position, PositionError, Seat};

impl Chess {
    /// What the end rules shared with chess need to know of this position, given whether
    /// the side to move has a legal move and is in check.
    fn facts(&self, has_moves: bool, in_check: bool) -> Facts {
        Facts {
            to_move: Chess::seat_of(self.turn),
            has_moves,
            in_check,
            dead: self.is_insufficient_material(),
            halfmoves: self.halfmoves,
        }
    }

    /// The standard start position.
    pub fn start() -> Chess {
        static START: LazyLock<Chess> =
            LazyLock::new(|| Chess::from_fen(START_FEN).expect("the start FEN is valid"));
        START.clone()
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

/// The fewest reversible plies in which a position can occur five times.
const FIVEFOLD_PLIES: u32 = 16;

/// How many times the last position of `history` occurred in it (itself included): the
/// Zobrist keys are compared first, the full key (with its legal en passant) only when they
/// match.
pub fn repetitions(history: &[Chess]) -> usize {
    occurrences(history, |p, current| p.zobrist == current.zobrist)
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

    /// Decides without the list: finding one legal move is enough.
    fn outcome_listing(&self, _: &mut Vec<Move>) -> Option<Outcome> {
        self.outcome()
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        classical::outcome(self.facts(self.has_legal_moves(), self.is_check()))
    }

    /// Material and the move counter: checkmate and stalemate need no legal move. A pawn,
    /// rook or queen on the board with the counter short of 75 moves ends nothing: most
    /// positions are told at once.
    #[inline]
    fn outcome_with_a_move(&self) -> Option<Option<Outcome>> {
        let r = &self.roles;
        let mating = r[Role::Pawn.index()] | r[Role::Rook.index()] | r[Role::Queen.index()];
        if mating != 0 && self.halfmoves < SEVENTY_FIVE_MOVES {
            return Some(None);
        }
        Some(classical::outcome(self.facts(true, false)))
    }

    fn key(&self) -> ChessKey {
        Chess::key(self)
    }

    fn reversible_plies(&self) -> usize {
        self.halfmoves as usize
    }

    /// Five occurrences of a position lie at least four plies apart (each side must take
    /// its move back): fewer than 16 reversible plies repeat nothing five times.
    #[inline]
    fn history_outcome(history: &[Chess]) -> Option<Outcome> {
        if history.last().is_none_or(|p| p.halfmoves < FIVEFOLD_PLIES) {
            return None;
        }
        classical::history_outcome(repetitions(history))
    }

    fn claimable(history: &[Chess]) -> Vec<Claim> {
        let halfmoves = history.last().map_or(0, |p| p.halfmoves);
        classical::claims(repetitions(history), halfmoves)
    }

    fn timeout(&self, seat: Seat) -> Outcome {
        classical::timeout(
            seat,
            !self.has_insufficient_material(Color::of_seat(seat).other()),
        )
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Long => self.uci(mv),
            Notation::Short => self.san(mv),
        }
    }

    fn write_short_leading_to(&self, mv: Move, after: &Chess) -> String {
        self.san_leading_to(mv, after)
    }

    fn push_move(&self, mv: Move, notation: Notation, out: &mut String) {
        match notation {
            Notation::Long => self::notation::push_uci(mv, out),
            Notation::Short => out.push_str(&self.san(mv)),
        }
    }

    fn diagram(&self) -> Diagram {
        diagram::board_diagram(Self::ID, Self::SEATS, |sq| self.piece_at(sq), self.turn)
    }

    /// The move's two squares, then the castling rook's or the pawn taken en passant.
    fn move_spots(&self, mv: Move) -> Vec<String> {
        let mut squares = vec![mv.from, mv.to];
        match mv.kind {
            MoveKind::Castle => {
                let rook = self.castling_rook(mv);
                squares.extend([rook, board::castling_squares(mv.from, rook).1]);
            }
            MoveKind::EnPassant => squares.push(types::square_at(
                types::file_of(mv.to),
                types::rank_of(mv.from),
            )),
            MoveKind::Normal | MoveKind::Promotion(_) => {}
        }
        squares.into_iter().map(square_name).collect()
    }

    /// Lists only the legal moves that could fit the text.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_direct(text)
    }

    fn parse_move_among(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        self.parse_move_text(text, legal)
    }
}
