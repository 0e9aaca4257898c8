//! Zobrist keys: a 64-bit fingerprint of a position's pieces, side to move and castling
//! rights, kept up to date move by move. Two positions with different fingerprints are never
//! the same position for repetition; two with the same one are compared in full (the
//! fingerprint leaves out the en passant right, which counts only when a capture is legal).

use super::types::{Bitboard, Color, Role, Square, squares};

/// A fixed pseudo-random sequence (SplitMix64), so that the keys are the same in every build.
const fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One key per colour, role and square.
const fn piece_keys() -> [[[u64; 64]; 6]; 2] {
    let mut table = [[[0; 64]; 6]; 2];
    let mut i = 0;
    while i < 2 * 6 * 64 {
        table[i / 384][i / 64 % 6][i % 64] = mix(i as u64);
        i += 1;
    }
    table
}

/// One key per square of a rook that keeps its castling right.
const fn castling_keys() -> [u64; 64] {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = mix((2 * 6 * 64 + i) as u64);
        i += 1;
    }
    table
}

static PIECE_KEYS: [[[u64; 64]; 6]; 2] = piece_keys();
static CASTLING_KEYS: [u64; 64] = castling_keys();

/// The key of a piece of `color` and `role` on `square`.
#[inline]
pub fn piece(color: Color, role: Role, square: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][usize::from(square & 63)]
}

/// The key of the castling rights held by the rooks on `rooks`.
#[inline]
pub fn castling(rooks: Bitboard) -> u64 {
    squares(rooks).fold(0, |key, square| key ^ CASTLING_KEYS[usize::from(square)])
}

/// The key of Black to move (White to move adds nothing).
pub const BLACK_TO_MOVE: u64 = mix(2 * 6 * 64 + 64);

#[cfg(test)]
mod tests {
    use crate::Position;
    use crate::chess::Chess;

    #[test]
    fn the_key_kept_move_by_move_is_the_key_of_the_position_read_afresh() {
        let mut position = Chess::start();
        let mut seed: u64 = 7;
        let mut moves = Vec::new();
        for _ in 0..400 {
            moves.clear();
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            seed = super::mix(seed);
            position.play(moves[(seed % moves.len() as u64) as usize]);
            let afresh = Chess::from_fen(&position.to_fen()).expect("a FEN it wrote");
            assert_eq!(
                position.zobrist(),
                afresh.zobrist(),
                "{}",
                position.to_fen()
            );
        }
    }
}
