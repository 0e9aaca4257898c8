//! Attack tables computed at compile time: leapers by lookup, sliders by rays.

use super::types::{Bitboard, Color, Square};

/// Ray directions as (file step, rank step). The first four increase the square index;
/// direction `d + 4` is the opposite of direction `d`.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];
const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

const fn offset(square: usize, df: i8, dr: i8) -> Option<usize> {
    let file = (square % 8) as i8 + df;
    let rank = (square / 8) as i8 + dr;
    if file < 0 || file > 7 || rank < 0 || rank > 7 {
        None
    } else {
        Some((rank * 8 + file) as usize)
    }
}

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = offset(square, steps[i].0, steps[i].1) {
                table[square] |= 1 << to;
            }
            i += 1;
        }
        square += 1;
    }
    table
}

const fn ray_table() -> [[Bitboard; 64]; 8] {
    let mut table = [[0; 64]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut square = 0;
        while square < 64 {
            let mut at = square;
            while let Some(next) = offset(at, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                table[dir][square] |= 1 << next;
                at = next;
            }
            square += 1;
        }
        dir += 1;
    }
    table
}

/// Between and line tables: `between[a][b]` holds the squares strictly between two
/// aligned squares, `line[a][b]` the whole line through both (empty if not aligned).
const fn alignment_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut dir = 0;
        while dir < 8 {
            let opposite = (dir + 4) % 8;
            let full = RAYS[dir][a] | RAYS[opposite][a] | (1 << a);
            let mut rest = RAYS[dir][a];
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                between[a][b] = RAYS[dir][a] & !RAYS[dir][b] & !(1 << b);
                line[a][b] = full;
            }
            dir += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Bishop and rook attacks on an empty board.
const fn empty_board_tables() -> ([Bitboard; 64], [Bitboard; 64]) {
    let mut diagonal = [0; 64];
    let mut straight = [0; 64];
    let mut square = 0;
    while square < 64 {
        let mut i = 0;
        while i < 4 {
            diagonal[square] |= RAYS[DIAGONAL[i]][square];
            straight[square] |= RAYS[ORTHOGONAL[i]][square];
            i += 1;
        }
        square += 1;
    }
    (diagonal, straight)
}

static RAYS: [[Bitboard; 64]; 8] = ray_table();
static EMPTY_BOARD: ([Bitboard; 64], [Bitboard; 64]) = empty_board_tables();
static ALIGNMENT: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = alignment_tables();
/// A knight's eight (file, rank) steps.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// A king's eight (file, rank) steps.
pub const KING_STEPS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Squares a knight on `square` attacks.
#[inline]
pub fn knight(square: Square) -> Bitboard {
    KNIGHT[square as usize]
}

/// Squares a king on `square` attacks.
#[inline]
pub fn king(square: Square) -> Bitboard {
    KING[square as usize]
}

/// Squares a pawn of `color` on `square` attacks.
#[inline]
pub fn pawn(color: Color, square: Square) -> Bitboard {
    PAWN[color.index()][square as usize]
}

#[inline]
fn ray(dir: usize, square: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][square as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let first = if dir < 4 {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ RAYS[dir][first as usize]
}

/// Squares a bishop on `square` attacks given the occupied squares.
#[inline]
pub fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
    DIAGONAL
        .iter()
        .fold(0, |acc, &dir| acc | ray(dir, square, occupied))
}

/// Squares a rook on `square` attacks given the occupied squares.
#[inline]
pub fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    ORTHOGONAL
        .iter()
        .fold(0, |acc, &dir| acc | ray(dir, square, occupied))
}

/// Squares a bishop on `square` attacks on an empty board.
#[inline]
pub fn bishop_empty(square: Square) -> Bitboard {
    EMPTY_BOARD.0[square as usize]
}

/// Squares a rook on `square` attacks on an empty board.
#[inline]
pub fn rook_empty(square: Square) -> Bitboard {
    EMPTY_BOARD.1[square as usize]
}

/// Squares strictly between `a` and `b` if they share a line, else none.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    ALIGNMENT.0[a as usize][b as usize]
}

/// The whole line through `a` and `b` if they share one, else none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    ALIGNMENT.1[a as usize][b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_in_the_corner_has_two_squares() {
        assert_eq!(knight(0).count_ones(), 2);
        assert_eq!(knight(27).count_ones(), 8);
    }

    #[test]
    fn rook_stops_at_the_first_blocker() {
        // rook a1, blocker a4: a2 a3 a4 plus b1..h1
        assert_eq!(rook(0, 1 << 24).count_ones(), 3 + 7);
    }

    #[test]
    fn between_and_line_agree() {
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(line(0, 9), line(63, 54));
        assert_eq!(between(0, 17), 0);
        // e2-f3 extends back to d1, not to f1
        assert_eq!(line(12, 21), 1 << 3 | 1 << 12 | 1 << 21 | 1 << 30 | 1 << 39);
        assert_ne!(line(0, 9) & (1 << 63), 0);
    }
}
