//! FEN: reading (with validation that names the field at fault) and writing.

use super::board::Chess;
use super::types::{
    Color, Role, Square, bit, parse_square, rank_of, square_at, square_name, squares,
};
use crate::PositionError;
use crate::fen::{self, read_counters};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Chess {
    /// Reads a FEN. The two counters may be left out (they default to `0 1`). The position
    /// must be one a game can reach the shape of: one king each, no pawn on the first or
    /// last rank, the side not to move not in check, rights that match the pieces.
    pub fn from_fen(text: &str) -> Result<Chess, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 4 to 6 space-separated fields, found {}",
                    fields.len()
                ),
            ));
        }
        let mut position = Chess::empty();
        read_placement(fields[0], |sq, color, role| position.put(sq, color, role))?;
        position.set_turn(read_turn(fields[1])?);
        let castling = read_castling(&position, fields[2])?;
        position.set_castling(castling);
        position.ep = read_ep(&position, fields[3])?;
        (position.halfmoves, position.fullmoves) = read_counters(&fields)?;
        validate(&position)?;
        Ok(position)
    }

    /// Writes the FEN. The en passant square is written only when an en passant capture is
    /// legal, as python-chess and lichess do.
    pub fn to_fen(&self) -> String {
        let mut fen = write_placement(|sq| self.piece_at(sq));
        fen.push_str(if self.turn == Color::White {
            " w "
        } else {
            " b "
        });
        fen.push_str(&castling_text(self.castling));
        fen.push(' ');
        fen.push_str(&self.legal_ep().map_or("-".to_string(), square_name));
        fen.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        fen
    }
}

/// Writes the piece placement field of an 8x8 FEN, rank 8 first.
pub(crate) fn write_placement(piece_at: impl Fn(Square) -> Option<(Color, Role)>) -> String {
    fen::write_placement(8, 8, |file, rank| {
        piece_at(square_at(file, rank)).map(|(color, role)| {
            let letter = role.letter();
            if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            }
        })
    })
}

/// Reads the piece placement field of an 8x8 FEN, calling `put` for every piece.
pub(crate) fn read_placement(
    text: &str,
    mut put: impl FnMut(Square, Color, Role),
) -> Result<(), PositionError> {
    fen::read_placement(text, 8, 8, |file, rank, c| {
        let role = Role::from_letter(c).ok_or_else(|| fen::unknown_letter(c, rank))?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        put(square_at(file, rank), color, role);
        Ok(())
    })
}

/// Reads the side-to-move field.
pub(crate) fn read_turn(text: &str) -> Result<Color, PositionError> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(PositionError::new(
            "side to move",
            format!("expected `w` or `b`, found `{other}`"),
        )),
    }
}

fn read_castling(position: &Chess, text: &str) -> Result<u64, PositionError> {
    let field = "castling rights";
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in text.chars() {
        let (color, rook, king): (Color, Square, Square) = match c {
            'K' => (Color::White, 7, 4),
            'Q' => (Color::White, 0, 4),
            'k' => (Color::Black, 63, 60),
            'q' => (Color::Black, 56, 60),
            other => {
                return Err(PositionError::new(
                    field,
                    format!("unexpected `{other}`; expected `-` or some of `KQkq`"),
                ));
            }
        };
        if rights & bit(rook) != 0 {
            return Err(PositionError::new(field, format!("`{c}` given twice")));
        }
        if position.piece_at(king) != Some((color, Role::King)) {
            return Err(PositionError::new(
                field,
                format!("`{c}` needs the king on {}", square_name(king)),
            ));
        }
        if position.piece_at(rook) != Some((color, Role::Rook)) {
            return Err(PositionError::new(
                field,
                format!("`{c}` needs a rook on {}", square_name(rook)),
            ));
        }
        rights |= bit(rook);
    }
    Ok(rights)
}

fn read_ep(position: &Chess, text: &str) -> Result<Option<Square>, PositionError> {
    let field = "en passant square";
    if text == "-" {
        return Ok(None);
    }
    let square = parse_square(text).ok_or_else(|| {
        PositionError::new(field, format!("expected `-` or a square, found `{text}`"))
    })?;
    let (expected_rank, pawn_square, origin) = match position.turn {
        Color::White => (5, square - 8, square + 8),
        Color::Black => (2, square + 8, square - 8),
    };
    if rank_of(square) != expected_rank {
        return Err(PositionError::new(
            field,
            format!("{text} is not on rank {}", expected_rank + 1),
        ));
    }
    let mover = position.turn.other();
    if position.piece_at(pawn_square) != Some((mover, Role::Pawn))
        || position.occupied() & (bit(square) | bit(origin)) != 0
    {
        return Err(PositionError::new(
            field,
            format!("{text} does not follow a double pawn step"),
        ));
    }
    Ok(Some(square))
}

fn validate(position: &Chess) -> Result<(), PositionError> {
    let field = "piece placement";
    for color in [Color::White, Color::Black] {
        let name = if color == Color::White {
            "white"
        } else {
            "black"
        };
        let kings = position.pieces(color, Role::King).count_ones();
        if kings != 1 {
            return Err(PositionError::new(
                field,
                format!("{name} has {kings} kings, needs exactly 1"),
            ));
        }
        let pawns = position.pieces(color, Role::Pawn).count_ones();
        if pawns > 8 {
            return Err(PositionError::new(
                field,
                format!("{name} has {pawns} pawns, at most 8 are possible"),
            ));
        }
        let pieces = position.colors[color.index()].count_ones();
        if pieces > 16 {
            return Err(PositionError::new(
                field,
                format!("{name} has {pieces} pieces, at most 16 are possible"),
            ));
        }
    }
    const BACK_RANKS: u64 = 0xff | 0xff << 56;
    if let Some(square) = squares(position.roles[Role::Pawn.index()] & BACK_RANKS).next() {
        return Err(PositionError::new(
            field,
            format!("pawn on {}, on a first or last rank", square_name(square)),
        ));
    }
    let waiting = position.turn.other();
    let king = position.king_of(waiting);
    if position.attackers(king, position.turn, position.occupied()) != 0 {
        return Err(PositionError::new(
            "side to move",
            "the side not to move is in check",
        ));
    }
    Ok(())
}

fn castling_text(rights: u64) -> String {
    let text: String = [(7, 'K'), (0, 'Q'), (63, 'k'), (56, 'q')]
        .into_iter()
        .filter(|(sq, _)| rights & bit(*sq) != 0)
        .map(|(_, c)| c)
        .collect();
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}
