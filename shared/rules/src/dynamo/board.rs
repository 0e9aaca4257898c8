//! The dynamo board: one slot per square, and the geometry pushes and pulls share
//! (steps, travelling over empty squares, leaving the board).

use crate::chess::types::{Color, Role, Square, file_of, rank_of, square_at};

/// A piece: its side and its role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side owning the piece.
    pub color: Color,
    /// What the piece is.
    pub role: Role,
}

/// Where a moved piece ends: on a square, or off the board (out of the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// On this square.
    On(Square),
    /// Off the board: the piece has left the game.
    Off,
}

/// A step as (file delta, rank delta).
pub(crate) type Step = (i8, i8);

/// The four rook directions.
pub(crate) const ORTHOGONAL: [Step; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The four bishop directions.
pub(crate) const DIAGONAL: [Step; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// The eight queen and king directions.
pub(crate) const ALL_DIRECTIONS: [Step; 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];
/// The eight knight jumps.
pub(crate) const KNIGHT_JUMPS: [Step; 8] = crate::chess::attacks::KNIGHT_STEPS;

/// The opposite step.
pub(crate) const fn back((df, dr): Step) -> Step {
    (-df, -dr)
}

/// The square one `step` from `square`, or `None` off the board.
#[inline]
pub(crate) fn offset(square: Square, (df, dr): Step) -> Option<Square> {
    let file = file_of(square) as i8 + df;
    let rank = rank_of(square) as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| square_at(file as u8, rank as u8))
}

/// The rank (0-based) pawns of `color` start on.
pub(crate) const fn start_rank(color: Color) -> u8 {
    match color {
        Color::White => 1,
        Color::Black => 6,
    }
}

/// The rank (0-based) on which pawns of `color` promote.
pub(crate) const fn last_rank(color: Color) -> u8 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// One square forward for pawns of `color`.
pub(crate) const fn forward(color: Color) -> Step {
    match color {
        Color::White => (0, 1),
        Color::Black => (0, -1),
    }
}

/// The squares of a dynamo position with the two kings' squares at hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 64],
    kings: [Option<Square>; 2],
}

impl Board {
    /// A board without pieces.
    pub(crate) const fn empty() -> Board {
        Board {
            squares: [None; 64],
            kings: [None; 2],
        }
    }

    /// The piece on `square`.
    #[inline]
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.squares[square as usize]
    }

    /// True when nothing stands on `square`.
    #[inline]
    pub(crate) fn is_empty(&self, square: Square) -> bool {
        self.squares[square as usize].is_none()
    }

    /// Puts `piece` on `square` (replacing what stood there).
    pub(crate) fn put(&mut self, square: Square, piece: Piece) {
        self.take(square);
        if piece.role == Role::King {
            self.kings[piece.color.index()] = Some(square);
        }
        self.squares[square as usize] = Some(piece);
    }

    /// Lifts the piece off `square`.
    pub(crate) fn take(&mut self, square: Square) -> Option<Piece> {
        let piece = self.squares[square as usize].take();
        if let Some(p) = piece.filter(|p| p.role == Role::King) {
            self.kings[p.color.index()] = None;
        }
        piece
    }

    /// The square of `color`'s king, `None` if it has none.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Every occupied square with its piece, a1 first.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..64u8).filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The first piece met going from `from` (excluded) along `step`, with its distance.
    pub(crate) fn first_piece(&self, from: Square, step: Step) -> Option<(Square, u8)> {
        let mut at = from;
        let mut distance = 0;
        while let Some(next) = offset(at, step) {
            distance += 1;
            if !self.is_empty(next) {
                return Some((next, distance));
            }
            at = next;
        }
        None
    }

    /// Where a piece on `from` ends when driven `distance` times by `step`: every square
    /// it crosses must be empty or off the board, and once off it is out of the game.
    /// `None` when an occupied square stops it.
    #[inline]
    pub(crate) fn travel(&self, from: Square, step: Step, distance: u8) -> Option<Place> {
        let mut at = from;
        for _ in 0..distance {
            match offset(at, step) {
                None => return Some(Place::Off),
                Some(next) if self.is_empty(next) => at = next,
                Some(_) => return None,
            }
        }
        Some(Place::On(at))
    }
}
