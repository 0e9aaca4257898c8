//! Castling squares and rights. A right belongs to one rook, followed wherever it is
//! pushed or pulled, and is lost when that rook or its king moves as the primary piece
//! or leaves the board.

use super::board::Place;
use super::moves::{Move, MoveKind};
use crate::chess::types::{Color, Role, Square, file_of, square_at};

/// King side or queen side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    King,
    Queen,
}

impl Side {
    pub(crate) const BOTH: [Side; 2] = [Side::King, Side::Queen];

    /// The side a castling king's destination lies on.
    pub(crate) fn of_destination(to: Place) -> Side {
        match to {
            Place::On(sq) if file_of(sq) < 4 => Side::Queen,
            _ => Side::King,
        }
    }
}

fn back_rank(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

/// The king's start square.
pub(crate) fn king_home(color: Color) -> Square {
    square_at(4, back_rank(color))
}

/// The corner the castling rook of `side` starts on.
pub(crate) fn rook_home(color: Color, side: Side) -> Square {
    let file = match side {
        Side::King => 7,
        Side::Queen => 0,
    };
    square_at(file, back_rank(color))
}

/// Where king and rook land: (king, rook).
pub(crate) fn destinations(color: Color, side: Side) -> (Square, Square) {
    let rank = back_rank(color);
    match side {
        Side::King => (square_at(6, rank), square_at(5, rank)),
        Side::Queen => (square_at(2, rank), square_at(3, rank)),
    }
}

/// The squares the king crosses and lands on.
pub(crate) fn king_path(color: Color, side: Side) -> impl Iterator<Item = Square> {
    let rank = back_rank(color);
    let files = match side {
        Side::King => [5, 6],
        Side::Queen => [3, 2],
    };
    files.into_iter().map(move |f| square_at(f, rank))
}

/// The slot of a right in the rights array: K, Q, k, q.
pub(crate) fn index(color: Color, side: Side) -> usize {
    color.index() * 2
        + match side {
            Side::King => 0,
            Side::Queen => 1,
        }
}

/// The FEN letter of a right.
pub(crate) fn letter(color: Color, side: Side) -> char {
    let letter = match side {
        Side::King => 'K',
        Side::Queen => 'Q',
    };
    match color {
        Color::White => letter,
        Color::Black => letter.to_ascii_lowercase(),
    }
}

/// Each right's rook square, K, Q, k, q; `None` when the right is gone.
pub(crate) type Rights = [Option<Square>; 4];

/// The rights after `mv`, played by `us` whose primary piece has `role`.
pub(crate) fn after_move(mut rights: Rights, mv: &Move, us: Color, role: Role) -> Rights {
    if role == Role::King || mv.kind == MoveKind::Castle {
        rights[index(us, Side::King)] = None;
        rights[index(us, Side::Queen)] = None;
    }
    for right in rights.iter_mut() {
        if *right == Some(mv.from) {
            *right = None;
        } else if let Some((from, place)) = mv.pushed
            && *right == Some(from)
        {
            *right = match place {
                Place::On(sq) => Some(sq),
                Place::Off => None,
            };
        }
    }
    rights
}
