//! Dynamo FEN: the chess FEN with two additions. A castling right whose rook has been
//! pushed or pulled away from its corner is written with the rook's square (`K@h3`), and
//! an optional seventh field gives what the last move displaced (`g8f6`, `a1a3/a3a5`),
//! which the rule against undoing the previous move needs.

use super::board::{Board, Piece, back, forward, last_rank, offset};
use super::castling::{self, Rights, Side};
use super::check::threatened;
use super::{Dynamo, Rules, Trace};
use crate::PositionError;
use crate::chess::fen::{read_placement, read_turn, write_placement};
use crate::chess::types::{Color, Role, Square, file_of, parse_square, rank_of, square_name};
use crate::fen::read_counters;

/// The standard start position (the same as in orthodox chess).
pub const START_FEN: &str = crate::chess::START_FEN;

impl Dynamo {
    /// Reads a dynamo FEN under `rules`. The counters may be left out (`0 1`), and so may
    /// the last-move field. The position must be one a game can reach the shape of: one
    /// king each, the side not to move not in check, rights that match the pieces.
    pub fn from_fen(text: &str, rules: Rules) -> Result<Dynamo, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 7 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 4 to 7 space-separated fields, found {}",
                    fields.len()
                ),
            ));
        }
        let mut board = Board::empty();
        read_placement(fields[0], |sq, color, role| {
            board.put(sq, Piece { color, role })
        })?;
        let turn = read_turn(fields[1])?;
        let (halfmoves, fullmoves) = read_counters(&fields)?;
        let mut position = Dynamo {
            board,
            turn,
            castling: [None; 4],
            ep: None,
            last: None,
            halfmoves,
            fullmoves,
            since_material: 0,
            rules,
        };
        validate_pieces(&position)?;
        position.castling = read_castling(&position.board, fields[2])?;
        position.ep = read_ep(&position, fields[3])?;
        position.last = fields
            .get(6)
            .map(|t| read_last(&position.board, t))
            .transpose()?
            .flatten();
        Ok(position)
    }

    /// Writes the FEN, with the last-move field when that move could still be undone.
    pub fn to_fen(&self) -> String {
        let mut fen = write_placement(|sq| self.board.get(sq).map(|p| (p.color, p.role)));
        fen.push_str(if self.turn == Color::White {
            " w "
        } else {
            " b "
        });
        fen.push_str(&castling_text(&self.castling));
        fen.push(' ');
        fen.push_str(&self.ep.map_or("-".to_string(), square_name));
        fen.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        if let Some(trace) = self.last {
            fen.push(' ');
            fen.push_str(&trace_text(&trace));
        }
        fen
    }
}

fn validate_pieces(position: &Dynamo) -> Result<(), PositionError> {
    let field = "piece placement";
    let board = &position.board;
    for color in [Color::White, Color::Black] {
        let name = color_name(color);
        let count = |role: Option<Role>| {
            board
                .pieces()
                .filter(|(_, p)| p.color == color && role.is_none_or(|r| r == p.role))
                .count()
        };
        let kings = count(Some(Role::King));
        if kings != 1 {
            return Err(PositionError::new(
                field,
                format!("{name} has {kings} kings, needs exactly 1"),
            ));
        }
        if count(Some(Role::Pawn)) > 8 || count(None) > 16 {
            return Err(PositionError::new(
                field,
                format!("{name} has more than 8 pawns or 16 pieces"),
            ));
        }
    }
    let waiting: Vec<Square> = board
        .pieces()
        .filter(|(sq, p)| p.role == Role::Pawn && rank_of(*sq) == last_rank(p.color))
        .map(|(sq, _)| sq)
        .collect();
    if let Some(&square) = waiting.first() {
        let owner = board.get(square).map(|p| p.color);
        if !position.rules.owner_promotes || waiting.len() > 1 || owner != Some(position.turn) {
            return Err(PositionError::new(
                field,
                format!(
                    "pawn on {}, on its last rank: only one pawn of the side to move may wait \
                     there for its owner's choice, under owner-promotes=on",
                    square_name(square)
                ),
            ));
        }
    }
    let waiting_side = position.turn.other();
    if board
        .king(waiting_side)
        .is_some_and(|king| threatened(board, king, waiting_side, position.rules))
    {
        return Err(PositionError::new(
            "side to move",
            "the side not to move is in check",
        ));
    }
    Ok(())
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `KQkq` as in chess; a right whose rook stands away from its corner is followed by
/// `@` and the rook's square.
fn read_castling(board: &Board, text: &str) -> Result<Rights, PositionError> {
    let field = "castling rights";
    let mut rights: Rights = [None; 4];
    if text == "-" {
        return Ok(rights);
    }
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        let (color, side) = match c {
            'K' => (Color::White, Side::King),
            'Q' => (Color::White, Side::Queen),
            'k' => (Color::Black, Side::King),
            'q' => (Color::Black, Side::Queen),
            other => {
                return Err(PositionError::new(
                    field,
                    format!(
                        "unexpected `{other}`; expected `-` or some of `KQkq`, each maybe with `@` and a square"
                    ),
                ));
            }
        };
        let mut rook = castling::rook_home(color, side);
        if let Some(after) = rest.strip_prefix('@') {
            rook = after.get(..2).and_then(parse_square).ok_or_else(|| {
                PositionError::new(field, format!("`{c}@` must be followed by a square"))
            })?;
            rest = &after[2..];
        }
        let slot = castling::index(color, side);
        if rights[slot].is_some() {
            return Err(PositionError::new(field, format!("`{c}` given twice")));
        }
        if board.get(rook)
            != Some(Piece {
                color,
                role: Role::Rook,
            })
        {
            return Err(PositionError::new(
                field,
                format!(
                    "`{c}` needs a {} rook on {}",
                    color_name(color),
                    square_name(rook)
                ),
            ));
        }
        if rights.contains(&Some(rook)) {
            return Err(PositionError::new(
                field,
                format!("two rights name the rook on {}", square_name(rook)),
            ));
        }
        rights[slot] = Some(rook);
    }
    Ok(rights)
}

fn castling_text(rights: &Rights) -> String {
    let mut text = String::new();
    for color in [Color::White, Color::Black] {
        for side in Side::BOTH {
            if let Some(rook) = rights[castling::index(color, side)] {
                text.push(castling::letter(color, side));
                if rook != castling::rook_home(color, side) {
                    text.push('@');
                    text.push_str(&square_name(rook));
                }
            }
        }
    }
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

/// The en passant field: only under `en-passant=on`, after a two-square advance on an
/// edge file.
fn read_ep(position: &Dynamo, text: &str) -> Result<Option<Square>, PositionError> {
    let field = "en passant square";
    if text == "-" {
        return Ok(None);
    }
    if !position.rules.en_passant {
        return Err(PositionError::new(
            field,
            "en passant pushes need the option en-passant=on",
        ));
    }
    let square = parse_square(text).ok_or_else(|| {
        PositionError::new(field, format!("expected `-` or a square, found `{text}`"))
    })?;
    let mover = position.turn.other();
    let expected_rank = match mover {
        Color::White => 2,
        Color::Black => 5,
    };
    let pawn = offset(square, forward(mover));
    let origin = offset(square, back(forward(mover)));
    let follows_double_step = rank_of(square) == expected_rank
        && matches!(file_of(square), 0 | 7)
        && pawn.and_then(|sq| position.board.get(sq))
            == Some(Piece {
                color: mover,
                role: Role::Pawn,
            })
        && origin.is_some_and(|sq| position.board.is_empty(sq))
        && position.board.is_empty(square);
    if !follows_double_step {
        return Err(PositionError::new(
            field,
            format!("{text} does not follow a two-square pawn advance on an edge file"),
        ));
    }
    Ok(Some(square))
}

/// The last-move field: `-`, or one or two `fromto` pairs joined by `/`, that can be
/// undone on this board.
fn read_last(board: &Board, text: &str) -> Result<Option<Trace>, PositionError> {
    let field = "last move";
    if text == "-" {
        return Ok(None);
    }
    let error = || {
        PositionError::new(
            field,
            format!(
                "expected `-` or one or two square pairs such as `g8f6` or `a1a3/a3a5`, found `{text}`"
            ),
        )
    };
    let pair = |t: &str| -> Option<(Square, Square)> {
        Some((parse_square(t.get(..2)?)?, parse_square(t.get(2..4)?)?)).filter(|_| t.len() == 4)
    };
    let mut parts = text.split('/');
    let primary = parts.next().and_then(pair).ok_or_else(error)?;
    let secondary = parts
        .next()
        .map(|t| pair(t).ok_or_else(error))
        .transpose()?;
    if parts.next().is_some() {
        return Err(error());
    }
    let trace = Trace { primary, secondary };
    let targets: Vec<Square> = trace
        .displacements()
        .into_iter()
        .flatten()
        .map(|(_, to)| to)
        .collect();
    let reversible = targets.iter().all(|&to| !board.is_empty(to))
        && targets.first() != targets.get(1)
        && trace
            .displacements()
            .into_iter()
            .flatten()
            .all(|(from, _)| board.is_empty(from) || targets.contains(&from));
    if !reversible {
        return Err(PositionError::new(
            field,
            format!("{text} does not lead to this board"),
        ));
    }
    Ok(Some(trace))
}

fn trace_text(trace: &Trace) -> String {
    trace
        .displacements()
        .into_iter()
        .flatten()
        .map(|(from, to)| square_name(from) + &square_name(to))
        .collect::<Vec<_>>()
        .join("/")
}
