//! The typed heart of a variant: a position and the moves that can be made from it.

use std::fmt::Debug;

use crate::{Claim, EndRule, MoveError, OptionSpec, Options, Outcome, PositionError, Seat};

/// Which of a variant's two move notations to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// The canonical form tools exchange (UCI for chess).
    Long,
    /// The friendly form people write (SAN for chess).
    Short,
}

/// A variant's position: everything needed to list the legal moves and play one,
/// including move counters and rights (castling, en passant), but not the history of
/// earlier positions, which [`crate::Game`] keeps.
///
/// Implementations are pure values: `play` never fails on a move `legal_moves` produced,
/// and the same position and move always give the same result. Geometry is the variant's
/// own business (an 8x8 bitboard, a set of levels with movable attack boards, three joined
/// half boards): the trait only speaks of moves, seats and text.
pub trait Position: Clone + Debug + Send + Sync + 'static {
    /// A move: a small value, only meaningful for the position that produced it.
    type Move: Copy + Eq + Debug + Send + Sync;
    /// What two positions must share to count as the same for repetition.
    type Key: Eq + Clone + Debug + Send + Sync;

    /// The variant id in the registry, e.g. `chess`.
    const ID: &'static str;
    /// One line describing the variant.
    const DESCRIPTION: &'static str;
    /// Seat names in turn order, e.g. `["white", "black"]`.
    const SEATS: &'static [&'static str];

    /// The options the variant offers (empty when none).
    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    /// The standard start position under `options`.
    fn start(options: &Options) -> Self;

    /// Reads a position text (FEN for chess) under `options`, validating it.
    fn from_text(text: &str, options: &Options) -> Result<Self, PositionError>;

    /// Prints the position text; `from_text` of it gives back an equal position.
    fn to_text(&self) -> String;

    /// The seat whose turn it is.
    fn to_move(&self) -> Seat;

    /// Appends every legal move to `out` (which the caller clears).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a move produced by `legal_moves` of this very position.
    fn play(&mut self, mv: Self::Move);

    /// The end the position itself decides (checkmate, stalemate, material, move counters),
    /// without looking at earlier positions.
    fn outcome(&self) -> Option<Outcome>;

    /// The repetition identity of this position.
    fn key(&self) -> Self::Key;

    /// How many plies back a repetition could still be found: positions before the last
    /// irreversible move can never repeat. `usize::MAX` when unknown.
    fn reversible_plies(&self) -> usize {
        usize::MAX
    }

    /// The end decided by the history (repetitions and the like), given every position of
    /// the game from its start to this one (the last element is `self`). Checked after
    /// [`Position::outcome`].
    fn history_outcome(history: &[Self]) -> Option<Outcome> {
        let _ = history;
        None
    }

    /// The draws the player to move may claim now, given the history as above.
    fn claimable(history: &[Self]) -> Vec<crate::Claim> {
        let _ = history;
        Vec::new()
    }

    /// The result when `seat` runs out of time in this position.
    fn timeout(&self, seat: Seat) -> Outcome {
        Outcome::win(
            crate::EndRule::Timeout,
            self.next_seat(seat),
            Self::SEATS.len(),
        )
    }

    /// The result when `seat` resigns in this position.
    fn resign(&self, seat: Seat) -> Outcome {
        Outcome::win(
            crate::EndRule::Resignation,
            self.next_seat(seat),
            Self::SEATS.len(),
        )
    }

    /// The seat after `seat` in turn order (for two seats: the opponent).
    fn next_seat(&self, seat: Seat) -> Seat {
        Seat(((seat.index() + 1) % Self::SEATS.len()) as u8)
    }

    /// Prints `mv` (legal in this position) in the chosen notation.
    fn write_move(&self, mv: Self::Move, notation: Notation) -> String;

    /// Reads a move in either notation and finds the one legal move it means. Never guesses:
    /// a text that fits several legal moves is [`MoveError::Ambiguous`].
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
}

/// Counts the leaf nodes of the legal move tree `depth` plies deep (perft), making every
/// move including those at the last ply.
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(64); depth as usize + 1];
    perft_with(position, depth, &mut buffers)
}

fn perft_with<P: Position>(position: &P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    moves.clear();
    position.legal_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.play(mv);
        nodes += perft_with(&child, depth - 1, rest);
    }
    nodes
}

/// How many times the last position of `history` occurred in it (itself included), for
/// two-seat games: only every second position has the same side to move.
pub fn repetitions<P: Position>(history: &[P]) -> usize {
    let Some(current) = history.last() else {
        return 0;
    };
    let key = current.key();
    history
        .iter()
        .rev()
        .step_by(2)
        .filter(|p| p.key() == key)
        .count()
}

/// Plies without capture or pawn move after which a chess player may claim a draw.
const FIFTY_MOVES: usize = 100;

/// The chess draw the history decides by itself: the fifth occurrence of a position.
pub fn fivefold_repetition<P: Position>(history: &[P]) -> Option<Outcome> {
    (repetitions(history) >= 5).then(|| Outcome::draw(EndRule::FivefoldRepetition, 2))
}

/// The chess draws a player may claim: threefold repetition, and the fifty-move rule when
/// the last position's [`Position::reversible_plies`] count reaches 100.
pub fn chess_claims<P: Position>(history: &[P]) -> Vec<Claim> {
    let mut claims = Vec::new();
    if repetitions(history) >= 3 {
        claims.push(Claim::ThreefoldRepetition);
    }
    if history
        .last()
        .is_some_and(|p| p.reversible_plies() >= FIFTY_MOVES)
    {
        claims.push(Claim::FiftyMoves);
    }
    claims
}

/// The one move a text means among the legal moves that match it: an error naming every
/// candidate (by `name`) when several match, and `Illegal` with `why_none()` when none does.
pub fn choose_move<M: Copy>(
    text: &str,
    candidates: &[M],
    why_none: impl FnOnce() -> String,
    name: impl Fn(M) -> String,
) -> Result<M, MoveError> {
    match candidates {
        [mv] => Ok(*mv),
        [] => Err(MoveError::Illegal {
            text: text.to_string(),
            reason: why_none(),
        }),
        many => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: many.iter().map(|m| name(*m)).collect(),
        }),
    }
}
