//! Small value types of the 9x10 board: sides, roles, pieces, points, moves.

/// A side. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Upper case in FEN, starts on ranks 1-4, moves first.
    Red,
    /// Lower case in FEN, starts on ranks 7-10.
    Black,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The rank step of "forward" for this side: +1 for Red, -1 for Black.
    pub fn forward(self) -> i8 {
        match self {
            Side::Red => 1,
            Side::Black => -1,
        }
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// General (king): one orthogonal step inside its palace.
    General,
    /// Advisor: one diagonal step inside its palace.
    Advisor,
    /// Elephant: two diagonal steps, never across the river, blocked by a piece on the eye.
    Elephant,
    /// Horse: one orthogonal then one diagonal step, blocked by a piece on the leg.
    Horse,
    /// Chariot: any distance orthogonally.
    Chariot,
    /// Cannon: moves like a chariot, captures by jumping exactly one screen.
    Cannon,
    /// Soldier: one step forward, also sideways once across the river.
    Soldier,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// The upper-case FEN letter as Fairy-Stockfish writes it (`K A B N R C P`).
    pub fn fen_letter(self) -> char {
        ['K', 'A', 'B', 'N', 'R', 'C', 'P'][self as usize]
    }

    /// The WXF letter (`K A E H R C P`).
    pub fn wxf_letter(self) -> char {
        ['K', 'A', 'E', 'H', 'R', 'C', 'P'][self as usize]
    }

    /// The role of a FEN or WXF letter in either case; `G` (general) is accepted too.
    pub fn from_letter(letter: char) -> Option<Role> {
        let role = match letter.to_ascii_uppercase() {
            'K' | 'G' => Role::General,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Chariot,
            'C' => Role::Cannon,
            'P' => Role::Soldier,
            _ => return None,
        };
        Some(role)
    }

    /// How many of this role a side has at the start.
    pub fn start_count(self) -> u32 {
        [1, 2, 2, 2, 2, 2, 5][self as usize]
    }
}

/// A piece: its side and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for Red, lower case for Black.
    pub fn fen_letter(self) -> char {
        let letter = self.role.fen_letter();
        match self.side {
            Side::Red => letter,
            Side::Black => letter.to_ascii_lowercase(),
        }
    }
}

/// A point of the board, `rank * 9 + file`: 0 = a1 (Red's right corner from Black's view,
/// Red's left from Red's), 8 = i1, 89 = i10.
pub type Square = u8;

/// Files on the board.
pub const FILES: u8 = 9;
/// Ranks on the board.
pub const RANKS: u8 = 10;
/// Points on the board.
pub const SQUARES: usize = (FILES as usize) * (RANKS as usize);

/// The file of a point, 0 = a.
pub const fn file_of(square: Square) -> u8 {
    square % FILES
}

/// The rank of a point, 0 = rank 1 (Red's back rank).
pub const fn rank_of(square: Square) -> u8 {
    square / FILES
}

/// The point on `file` and `rank` (both 0-based).
pub const fn square_at(file: u8, rank: u8) -> Square {
    rank * FILES + file
}

/// The point `df` files and `dr` ranks away from `square`, if it is on the board.
#[inline]
pub fn offset(square: Square, df: i8, dr: i8) -> Option<Square> {
    let file = file_of(square) as i8 + df;
    let rank = rank_of(square) as i8 + dr;
    ((0..FILES as i8).contains(&file) && (0..RANKS as i8).contains(&rank))
        .then(|| square_at(file as u8, rank as u8))
}

/// The point's name in Fairy-Stockfish coordinates, e.g. `e1`, `a10`.
pub fn square_name(square: Square) -> String {
    format!(
        "{}{}",
        char::from(b'a' + file_of(square)),
        rank_of(square) + 1
    )
}

/// Reads a point name such as `e1` or `a10` (file letter in either case).
pub fn parse_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !('a'..='i').contains(&file) {
        return None;
    }
    let rank_text = chars.as_str();
    if rank_text.starts_with('0') || !rank_text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: u8 = rank_text.parse().ok()?;
    (1..=RANKS)
        .contains(&rank)
        .then(|| square_at(file as u8 - b'a', rank - 1))
}

/// True when `square` lies on `side`'s own half of the board (before the river).
#[inline]
pub fn on_own_half(side: Side, square: Square) -> bool {
    match side {
        Side::Red => rank_of(square) < RANKS / 2,
        Side::Black => rank_of(square) >= RANKS / 2,
    }
}

/// True when `square` lies in `side`'s palace (files d-f, its three back ranks).
#[inline]
pub fn in_palace(side: Side, square: Square) -> bool {
    let rank = rank_of(square);
    let back = match side {
        Side::Red => rank <= 2,
        Side::Black => rank >= RANKS - 3,
    };
    back && (3..=5).contains(&file_of(square))
}

/// A move: a piece goes from one point to another, capturing what stands there.
/// Only meaningful in the position that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving piece's point.
    pub from: Square,
    /// The destination.
    pub to: Square,
}
