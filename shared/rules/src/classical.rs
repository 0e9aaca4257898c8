//! The end rules standard chess shares with its close relatives (dynamo): checkmate and
//! stalemate, the 50- and 75-move rules, threefold and fivefold repetition, and a timeout
//! against a side that could never win. Two seats; each variant supplies the facts.

use crate::{Claim, EndRule, Outcome, Seat};

/// Plies without an irreversible move after which a player may claim a draw.
pub(crate) const FIFTY_MOVES: u32 = 100;
/// Plies without an irreversible move after which the game is drawn.
pub(crate) const SEVENTY_FIVE_MOVES: u32 = 150;

/// What the shared rules need to know about a position.
pub(crate) struct Facts {
    /// The seat to move.
    pub to_move: Seat,
    /// The side to move has a legal move.
    pub has_moves: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// Neither side can ever checkmate.
    pub dead: bool,
    /// Plies since the last irreversible move.
    pub halfmoves: u32,
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0.min(1))
}

/// The end the position decides: checkmate, then a dead position, stalemate, 75 moves.
pub(crate) fn outcome(facts: Facts) -> Option<Outcome> {
    if !facts.has_moves && facts.in_check {
        return Some(Outcome::win(EndRule::Checkmate, other(facts.to_move), 2));
    }
    let draw = if facts.dead {
        EndRule::InsufficientMaterial
    } else if !facts.has_moves {
        EndRule::Stalemate
    } else if facts.halfmoves >= SEVENTY_FIVE_MOVES {
        EndRule::SeventyFiveMoves
    } else {
        return None;
    };
    Some(Outcome::draw(draw, 2))
}

/// Fivefold repetition, given how often the current position occurred.
pub(crate) fn history_outcome(repetitions: usize) -> Option<Outcome> {
    (repetitions >= 5).then(|| Outcome::draw(EndRule::FivefoldRepetition, 2))
}

/// The draws the player to move may claim.
pub(crate) fn claims(repetitions: usize, halfmoves: u32) -> Vec<Claim> {
    let mut claims = Vec::new();
    if repetitions >= 3 {
        claims.push(Claim::ThreefoldRepetition);
    }
    if halfmoves >= FIFTY_MOVES {
        claims.push(Claim::FiftyMoves);
    }
    claims
}

/// The result when `seat` runs out of time: a draw when the opponent could never win.
pub(crate) fn timeout(seat: Seat, opponent_can_win: bool) -> Outcome {
    if opponent_can_win {
        Outcome::win(EndRule::Timeout, other(seat), 2)
    } else {
        Outcome::draw(EndRule::TimeoutVsInsufficientMaterial, 2)
    }
}
