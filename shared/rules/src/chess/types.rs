//! Small value types of the 8x8 board: colours, roles, squares, bitboards, moves.

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side sitting in `seat` (0 White, 1 Black).
    pub(crate) fn of_seat(seat: crate::Seat) -> Color {
        if seat.0 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The upper-case letter of the role (`P`, `N`, `B`, `R`, `Q`, `K`).
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self as usize]
    }

    /// The role of a letter in either case.
    pub fn from_letter(letter: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.letter() == letter.to_ascii_uppercase())
    }

    /// The index of the role into per-role arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A square, 0 = a1, 1 = b1, ..., 63 = h8.
pub type Square = u8;

/// A set of squares, bit `n` for square `n`.
pub type Bitboard = u64;

/// The set holding only `square`.
pub const fn bit(square: Square) -> Bitboard {
    1 << square
}

/// The file of a square, 0 = a.
pub const fn file_of(square: Square) -> u8 {
    square & 7
}

/// The rank of a square, 0 = rank 1.
pub const fn rank_of(square: Square) -> u8 {
    square >> 3
}

/// The square on `file` and `rank` (both 0-based).
pub const fn square_at(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// The square's name, e.g. `e4`.
pub fn square_name(square: Square) -> String {
    let mut name = String::with_capacity(2);
    name.push((b'a' + file_of(square)) as char);
    name.push((b'1' + rank_of(square)) as char);
    name
}

/// Reads a square name such as `e4`.
pub fn parse_square(text: &str) -> Option<Square> {
    match text.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(square_at(f - b'a', r - b'1')),
        _ => None,
    }
}

/// The squares of a bitboard, lowest first.
#[inline]
pub fn squares(bb: Bitboard) -> Squares {
    Squares(bb)
}

/// An iterator over the squares of a bitboard, lowest first.
pub struct Squares(Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros() as Square;
        self.0 &= self.0 - 1;
        Some(square)
    }
}

/// What a move does beyond moving one piece from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal,
    /// A pawn reaching the last rank, becoming this role.
    Promotion(Role),
    /// A pawn capturing en passant; `to` is the empty square it lands on.
    EnPassant,
    /// Castling; `from` is the king's square and `to` its destination (g- or c-file).
    Castle,
}

/// A chess move. Only meaningful in the position that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving piece's square (the king's for castling).
    pub from: Square,
    /// The destination (the king's for castling).
    pub to: Square,
    /// Special effects.
    pub kind: MoveKind,
}
