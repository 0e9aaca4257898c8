//! Check in dynamo chess: a king is in check when the other side has a push or pull,
//! by the rules of movement alone, that would put it off the board.

use super::Rules;
use super::board::{
    ALL_DIRECTIONS, Board, DIAGONAL, KNIGHT_JUMPS, Piece, Place, Step, back, forward, offset,
    start_rank,
};
use crate::chess::types::{Color, Role, Square, rank_of};

/// True when a piece of `by` on `square` is a slider that moves along `step`.
fn slider_on(board: &Board, square: Square, by: Color, step: Step) -> bool {
    let diagonal = DIAGONAL.contains(&step);
    matches!(
        board.get(square),
        Some(Piece { color, role }) if color == by && match role {
            Role::Queen => true,
            Role::Rook => !diagonal,
            Role::Bishop => diagonal,
            _ => false,
        }
    )
}

/// True when `square` holds a piece of `by` with `role`.
fn holds(board: &Board, square: Option<Square>, by: Color, role: Role) -> bool {
    square.and_then(|sq| board.get(sq)) == Some(Piece { color: by, role })
}

/// The number of squares from `from` to the edge along `step` when they are all empty.
fn clear_to_edge(board: &Board, from: Square, step: Step) -> Option<u8> {
    match board.first_piece(from, step) {
        Some(_) => None,
        None => {
            let mut room = 0;
            let mut at = from;
            while let Some(next) = offset(at, step) {
                room += 1;
                at = next;
            }
            Some(room)
        }
    }
}

/// True when the king of `owner` on `king` could be pushed or pulled off the board by a
/// piece of the other side under `rules` (whether that move would be legal for it or not).
pub(crate) fn threatened(board: &Board, king: Square, owner: Color, rules: Rules) -> bool {
    let them = owner.other();
    ALL_DIRECTIONS
        .iter()
        .any(|&step| slider_threat(board, king, them, step))
        || leaper_threat(board, king, them, Role::Knight, &KNIGHT_JUMPS)
        || leaper_threat(board, king, them, Role::King, &ALL_DIRECTIONS)
        || diagonal_pawn_threat(board, king, them)
        || (rules.pawns_push_any && straight_pawn_threat(board, king, them))
}

/// A slider of `by` pushing the king along `step` from behind it, or pulling it along
/// `step` while leaving the board ahead of it.
fn slider_threat(board: &Board, king: Square, by: Color, step: Step) -> bool {
    let push = clear_to_edge(board, king, step).is_some_and(|room| {
        board
            .first_piece(king, back(step))
            .is_some_and(|(at, distance)| distance > room && slider_on(board, at, by, step))
    });
    push || board.first_piece(king, step).is_some_and(|(at, distance)| {
        slider_on(board, at, by, step)
            && clear_to_edge(board, at, step).is_some_and(|room| room < distance)
    })
}

/// A knight or king of `by` pushing the king off along one of `steps`, or pulling it
/// while stepping off the board itself (kings stay on it and pull the king off).
fn leaper_threat(board: &Board, king: Square, by: Color, role: Role, steps: &[Step]) -> bool {
    steps.iter().any(|&step| {
        let ahead = offset(king, step);
        let push = ahead.is_none() && holds(board, offset(king, back(step)), by, role);
        let pull = holds(board, ahead, by, role) && ahead.and_then(|a| offset(a, step)).is_none();
        push || pull
    })
}

/// A pawn of `by` pushing the king off diagonally.
fn diagonal_pawn_threat(board: &Board, king: Square, by: Color) -> bool {
    [-1, 1].into_iter().any(|df| {
        let step = (df, forward(by).1);
        offset(king, step).is_none() && holds(board, offset(king, back(step)), by, Role::Pawn)
    })
}

/// A pawn of `by` pushing the king off straight ahead, one or two squares (an enemy king
/// only under `pawn-push=any`).
fn straight_pawn_threat(board: &Board, king: Square, by: Color) -> bool {
    let step = forward(by);
    let behind = offset(king, back(step));
    let single = offset(king, step).is_none() && holds(board, behind, by, Role::Pawn);
    single
        || behind.is_some_and(|b| {
            let pawn = offset(b, back(step));
            board.is_empty(b)
                && holds(board, pawn, by, Role::Pawn)
                && pawn.is_some_and(|p| rank_of(p) == start_rank(by))
                && board.travel(king, step, 2) == Some(Place::Off)
        })
}
