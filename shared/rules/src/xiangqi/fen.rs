//! FEN as Fairy-Stockfish writes it: rank 10 first, `r n b a k c p` (upper case Red),
//! `w` for Red to move, `- -` for the castling and en passant fields, then the halfmove
//! clock (plies since the last capture) and the full-move number.

use super::board::{Xiangqi, attacked};
use super::types::{
    FILES, Piece, RANKS, Role, SQUARES, Side, Square, file_of, in_palace, on_own_half, rank_of,
    square_at, square_name,
};
use crate::PositionError;
use crate::fen::{self, PLACEMENT, read_counters, write_placement};

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Xiangqi {
    /// Reads a FEN. After the placement and the side to move, the fields `- -` and the two
    /// counters may be left out (the counters default to `0 1`). `h` and `e` are read as
    /// horse and elephant too. The position must be one a game can reach the shape of: one
    /// general each in its palace, advisors, elephants and soldiers only on points they can
    /// reach, no more pieces of a kind than a side starts with, the side not to move not in
    /// check and the generals not facing each other.
    pub fn from_fen(text: &str) -> Result<Xiangqi, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) || fields.len() == 3 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected placement, side to move, `- -` and two counters (2, 4, 5 or 6 \
                     space-separated fields), found {}",
                    fields.len()
                ),
            ));
        }
        let mut position = Xiangqi::empty();
        read_placement(&mut position, fields[0])?;
        position.turn = match fields[1] {
            "w" | "r" => Side::Red,
            "b" => Side::Black,
            other => {
                return Err(PositionError::new(
                    "side to move",
                    format!("expected `w` (Red) or `b` (Black), found `{other}`"),
                ));
            }
        };
        for (index, field) in [(2, "castling rights"), (3, "en passant square")] {
            if let Some(text) = fields.get(index).filter(|t| **t != "-") {
                return Err(PositionError::new(
                    field,
                    format!("xiangqi has none: expected `-`, found `{text}`"),
                ));
            }
        }
        (position.halfmoves, position.fullmoves) = read_counters(&fields)?;
        validate(&position)?;
        Ok(position)
    }

    /// Writes the FEN exactly as Fairy-Stockfish does.
    pub fn to_fen(&self) -> String {
        let mut fen = write_placement(FILES, RANKS, |file, rank| {
            self.piece_at(square_at(file, rank)).map(Piece::fen_letter)
        });
        let side = if self.turn == Side::Red { 'w' } else { 'b' };
        fen.push_str(&format!(
            " {side} - - {} {}",
            self.halfmoves, self.fullmoves
        ));
        fen
    }
}

fn read_placement(position: &mut Xiangqi, text: &str) -> Result<(), PositionError> {
    fen::read_placement(text, FILES, RANKS, |file, rank, c| {
        let role = Role::from_letter(c)
            .filter(|_| !c.eq_ignore_ascii_case(&'g'))
            .ok_or_else(|| fen::unknown_letter(c, rank))?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        position.put(square_at(file, rank), Piece { side, role });
        Ok(())
    })
}

fn validate(position: &Xiangqi) -> Result<(), PositionError> {
    for side in [Side::Red, Side::Black] {
        let name = side_name(side);
        for role in Role::ALL {
            let count = (0..SQUARES as Square)
                .filter(|s| position.piece_at(*s) == Some(Piece { side, role }))
                .count() as u32;
            if count > role.start_count() || (role == Role::General && count == 0) {
                return Err(PositionError::new(
                    PLACEMENT,
                    format!(
                        "{name} has {count} {}, expected {}{}",
                        role_plural(role),
                        if role == Role::General {
                            ""
                        } else {
                            "at most "
                        },
                        role.start_count()
                    ),
                ));
            }
        }
    }
    for square in 0..SQUARES as Square {
        if let Some(piece) = position.piece_at(square)
            && !can_stand(piece, square)
        {
            return Err(PositionError::new(
                PLACEMENT,
                format!(
                    "{} {} on {} cannot stand there",
                    side_name(piece.side),
                    role_plural(piece.role).trim_end_matches('s'),
                    square_name(square)
                ),
            ));
        }
    }
    let waiting = position.turn.other();
    if attacked(&position.board, position.general_of(waiting), position.turn) {
        return Err(PositionError::new(
            "side to move",
            "the side not to move is in check (or the generals face each other)",
        ));
    }
    Ok(())
}

/// True when `piece` can ever stand on `square`: generals and advisors on their palace's
/// points, elephants on their seven points, soldiers ahead of their start rank (and on
/// their own files until they cross the river).
fn can_stand(piece: Piece, square: Square) -> bool {
    let side = piece.side;
    let file = file_of(square);
    let rank = match side {
        Side::Red => rank_of(square),
        Side::Black => RANKS - 1 - rank_of(square),
    };
    match piece.role {
        Role::General => in_palace(side, square),
        Role::Advisor => in_palace(side, square) && file.abs_diff(4) == rank.abs_diff(1),
        Role::Elephant => {
            on_own_half(side, square)
                && file.is_multiple_of(2)
                && rank.is_multiple_of(2)
                && (file + rank) % 4 == 2
        }
        Role::Soldier => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
        Role::Horse | Role::Chariot | Role::Cannon => true,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

fn role_plural(role: Role) -> &'static str {
    [
        "generals",
        "advisors",
        "elephants",
        "horses",
        "chariots",
        "cannons",
        "soldiers",
    ][role as usize]
}
