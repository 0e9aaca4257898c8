//! Position text, shared by every Tri-D rule set. Six space-separated fields:
//!
//! 1. the four attack boards, `QL1@W-S-up:w,...`: name, pin, owner (`w`/`b`), and `*` when
//!    the board has never moved (only for rule sets that keep that flag);
//! 2. the pieces, `Ra0(3)*,Qb0(3),...`: letter (upper case White, lower case Black), square,
//!    and `*` on a pawn, rook or king that has never moved;
//! 3. the side to move, `w` or `b`;
//! 4. en passant: `-`, or `<landing>/<pawn>` (the square a pawn's double step crossed, then
//!    the square it stands on);
//! 5. the plies since the last capture, pawn move or promotion;
//! 6. the full-move number.

use super::geometry::{BoardId, Pin, Square};
use super::layout::{AttackBoard, Layout, Piece};
use super::position::{EnPassant, TriD, forward};
use super::rules::RuleSet;
use crate::PositionError;
use crate::chess::{Color, Role};

impl<R: RuleSet> TriD<R> {
    /// Prints the position text.
    pub fn to_text(&self) -> String {
        let boards: Vec<String> = BoardId::ALL
            .into_iter()
            .map(|id| {
                let b = self.layout.board(id);
                format!(
                    "{id}@{}:{}{}",
                    b.pin,
                    color_char(b.owner),
                    if b.unmoved { "*" } else { "" }
                )
            })
            .collect();
        let mut pieces: Vec<(Square, Piece)> = self.layout.occupied().collect();
        pieces.sort_by_key(|(s, _)| (s.level(), s.rank(), s.file()));
        let pieces: Vec<String> = pieces
            .into_iter()
            .map(|(s, p)| format!("{}{s}{}", piece_char(p), if p.unmoved { "*" } else { "" }))
            .collect();
        let ep = self
            .ep
            .map_or("-".to_string(), |ep| format!("{}/{}", ep.landing, ep.pawn));
        format!(
            "{} {} {} {ep} {} {}",
            boards.join(","),
            if pieces.is_empty() {
                "-".to_string()
            } else {
                pieces.join(",")
            },
            color_char(self.turn),
            self.halfmoves,
            self.fullmoves
        )
    }

    /// Reads a position text under `rules`, validating it: four boards on distinct pins of
    /// their flank, pieces on existing squares, one king each, no pawn where it would have
    /// promoted, an en passant pawn that can have just stepped twice, the side not to move
    /// not in check.
    pub fn from_text_with(text: &str, rules: R) -> Result<TriD<R>, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(PositionError::new(
                "fields",
                format!("expected 6 space-separated fields, found {}", fields.len()),
            ));
        }
        let mut layout = Layout::new(read_boards::<R>(fields[0])?);
        read_pieces(&mut layout, fields[1])?;
        let turn = match fields[2] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(PositionError::new(
                    "side to move",
                    format!("expected `w` or `b`, found `{other}`"),
                ));
            }
        };
        let ep = read_ep(&layout, turn, fields[3])?;
        let halfmoves = read_counter(fields[4], "halfmove clock")?;
        let fullmoves = read_counter(fields[5], "fullmove number")?;
        if fullmoves == 0 {
            return Err(PositionError::new("fullmove number", "must be at least 1"));
        }
        let position = TriD {
            rules,
            layout,
            turn,
            ep,
            halfmoves,
            fullmoves,
        };
        position.validate()?;
        Ok(position)
    }

    fn validate(&self) -> Result<(), PositionError> {
        for color in [Color::White, Color::Black] {
            let kings = self
                .layout
                .occupied()
                .filter(|(_, p)| p.color == color && p.role == Role::King)
                .count();
            if kings != 1 {
                return Err(PositionError::new(
                    "pieces",
                    format!("{} has {kings} kings, expected 1", color_name(color)),
                ));
            }
        }
        if let Some((square, _)) = self
            .layout
            .occupied()
            .find(|(s, p)| p.role == Role::Pawn && self.rules.promotes(&self.layout, p.color, *s))
        {
            return Err(PositionError::new(
                "pieces",
                format!("the pawn on {square} stands where it would have promoted"),
            ));
        }
        let waiting = self.turn.other();
        let king = self.layout.king(waiting).expect("one king each");
        if self.attacked(king, self.turn) {
            return Err(PositionError::new(
                "side to move",
                format!("{} is in check but not to move", color_name(waiting)),
            ));
        }
        Ok(())
    }
}

fn color_char(color: Color) -> char {
    match color {
        Color::White => 'w',
        Color::Black => 'b',
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The piece's letter: upper case for White.
pub fn piece_char(piece: Piece) -> char {
    match piece.color {
        Color::White => piece.role.letter(),
        Color::Black => piece.role.letter().to_ascii_lowercase(),
    }
}

fn read_boards<R: RuleSet>(field: &str) -> Result<[AttackBoard; 4], PositionError> {
    let error = |reason: String| PositionError::new("attack boards", reason);
    let mut boards: [Option<AttackBoard>; 4] = [None; 4];
    for item in field.split(',') {
        let (name, rest) = item
            .split_once('@')
            .ok_or_else(|| error(format!("`{item}`: expected <board>@<pin>:<owner>")))?;
        let id = BoardId::parse(name)
            .ok_or_else(|| error(format!("`{name}` is not QL1, KL1, QL3 or KL3")))?;
        let (pin, owner) = rest
            .split_once(':')
            .ok_or_else(|| error(format!("`{item}`: expected <board>@<pin>:<owner>")))?;
        let pin =
            Pin::parse(pin).ok_or_else(|| error(format!("`{pin}` is not a pin such as W-S-up")))?;
        let (owner, unmoved) = match owner.strip_suffix('*') {
            Some(owner) if R::BOARD_FLAGS => (owner, true),
            Some(_) => return Err(error(format!("`{item}`: boards carry no `*` here"))),
            None => (owner, false),
        };
        let owner = match owner {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(error(format!("`{other}` is not an owner (w or b)"))),
        };
        if boards[id.index()]
            .replace(AttackBoard {
                pin,
                owner,
                unmoved,
            })
            .is_some()
        {
            return Err(error(format!("{id} is given twice")));
        }
    }
    let boards = boards.map(|b| b.ok_or(()));
    let mut result = Vec::with_capacity(4);
    for (id, board) in BoardId::ALL.into_iter().zip(boards) {
        result.push(board.map_err(|_| error(format!("{id} is missing")))?);
    }
    let boards: [AttackBoard; 4] = result.try_into().expect("four boards");
    for id in [BoardId::QL1, BoardId::KL1] {
        if boards[id.index()].pin == boards[id.neighbour().index()].pin {
            return Err(error(format!(
                "{id} and {} stand on the same pin",
                id.neighbour()
            )));
        }
    }
    Ok(boards)
}

fn read_pieces(layout: &mut Layout, field: &str) -> Result<(), PositionError> {
    let error = |reason: String| PositionError::new("pieces", reason);
    if field == "-" {
        return Ok(());
    }
    for item in field.split(',') {
        let mut chars = item.chars();
        let letter = chars
            .next()
            .ok_or_else(|| error("empty piece entry".into()))?;
        let role = Role::from_letter(letter)
            .ok_or_else(|| error(format!("`{letter}` is not a piece letter")))?;
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rest = chars.as_str();
        let (square_text, unmoved) = match rest.strip_suffix('*') {
            Some(s) => (s, true),
            None => (rest, false),
        };
        let square = Square::parse(square_text)
            .ok_or_else(|| error(format!("`{square_text}` is not a square such as b1(2)")))?;
        if unmoved && !Piece::keeps_flag(role) {
            return Err(error(format!(
                "`{item}`: only pawns, rooks and kings carry `*`"
            )));
        }
        if !layout.exists(square) {
            return Err(error(format!("{square} does not exist with these boards")));
        }
        if layout.piece(square).is_some() {
            return Err(error(format!("{square} is given twice")));
        }
        layout.set(square, Some(Piece::new(color, role, unmoved)));
    }
    Ok(())
}

fn read_ep(layout: &Layout, turn: Color, field: &str) -> Result<Option<EnPassant>, PositionError> {
    let error = |reason: String| PositionError::new("en passant", reason);
    if field == "-" {
        return Ok(None);
    }
    let (landing, pawn) = field
        .split_once('/')
        .ok_or_else(|| error(format!("`{field}`: expected - or <landing>/<pawn>")))?;
    let square =
        |text: &str| Square::parse(text).ok_or_else(|| error(format!("`{text}` is not a square")));
    let (landing, pawn) = (square(landing)?, square(pawn)?);
    let stepper = turn.other();
    let is_pawn = layout.piece(pawn) == Some(Piece::new(stepper, Role::Pawn, false));
    let behind = pawn.cell().offset(0, -forward(stepper)) == Some(landing.cell());
    if !is_pawn || !behind || !layout.exists(landing) || layout.piece(landing).is_some() {
        return Err(error(format!(
            "{pawn} must hold a moved {} pawn with {landing} an empty square just behind it",
            color_name(stepper)
        )));
    }
    Ok(Some(EnPassant { landing, pawn }))
}

fn read_counter(field: &str, name: &'static str) -> Result<u32, PositionError> {
    field
        .parse()
        .map_err(|_| PositionError::new(name, format!("`{field}` is not a number")))
}
