//! Move notation. The long form is Fairy-Stockfish's coordinates (`h3e3`, `a10a9`); the
//! short form is WXF (`C2.5`, `H8+7`, `R+.4`, `P3.4`, `++.4`), written as the WXF
//! standard does and read tolerantly (`=` for `.`, lower case, `+` and `-` markers for
//! advisors and elephants too), never by guessing.

use super::board::Xiangqi;
use super::types::{
    FILES, Move, RANKS, Role, Side, Square, file_of, parse_square, rank_of, square_at, square_name,
};
use crate::MoveError;

/// Where a piece stands among the pieces of its kind on its file, front first, as WXF
/// names it: two are front and rear; a middle one of three keeps its file number; of four
/// or five, the outermost are foremost and rearmost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tandem {
    Alone,
    Foremost,
    Front,
    Middle,
    Rear,
    Rearmost,
}

impl Tandem {
    /// The label of the `index`-th piece (front first) of `count` on one file.
    fn of(index: usize, count: usize) -> Tandem {
        use Tandem::*;
        let labels: &[Tandem] = match count {
            0 | 1 => &[Alone],
            2 => &[Front, Rear],
            3 => &[Front, Middle, Rear],
            4 => &[Foremost, Front, Rear, Rearmost],
            _ => &[Foremost, Front, Middle, Rear, Rearmost],
        };
        labels[index.min(labels.len() - 1)]
    }

    fn marker(self) -> Option<char> {
        match self {
            Tandem::Front => Some('+'),
            Tandem::Rear => Some('-'),
            _ => None,
        }
    }
}

/// A move as WXF sees it: the piece (kind, file number from the mover's right, place in
/// a tandem) and the movement (`+` forward, `-` backward, `.` along the rank, and a
/// number: points travelled on the file, otherwise the file number reached).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wxf {
    role: Role,
    file: u8,
    tandem: Tandem,
    /// Files holding two or more of the mover's pieces of this kind.
    tandem_files: usize,
    direction: char,
    number: u8,
}

/// The file number of board file `file` (0 = a) from `side`'s right: Red counts from i,
/// Black from a.
fn file_number(side: Side, file: u8) -> u8 {
    match side {
        Side::Red => FILES - file,
        Side::Black => file + 1,
    }
}

impl Xiangqi {
    /// The move in Fairy-Stockfish coordinates: `h3e3`, `a10a9`.
    pub fn coordinates(&self, mv: Move) -> String {
        square_name(mv.from) + &square_name(mv.to)
    }

    /// The move in WXF notation, e.g. `C2.5`, `H8+7`, `R+.4`, `P3.4`, `7+.6`, `++.4`.
    /// Advisors and elephants always go by their file number: of two on one file, the
    /// front one can only retreat and the rear one only advance, so the movement tells
    /// them apart.
    pub fn wxf(&self, mv: Move) -> String {
        let w = self.wxf_parts(mv);
        let letter = w.role.wxf_letter();
        let file = char::from(b'0' + w.file);
        let by_file = format!("{letter}{file}");
        let selector = match w.tandem {
            _ if matches!(w.role, Role::Advisor | Role::Elephant) => by_file,
            Tandem::Alone => by_file,
            tandem if w.role == Role::Soldier && w.tandem_files >= 2 => {
                format!("{file}{}", tandem.marker().unwrap_or(file))
            }
            Tandem::Middle => by_file,
            Tandem::Foremost => "++".to_string(),
            Tandem::Rearmost => "--".to_string(),
            Tandem::Front => format!("{letter}+"),
            Tandem::Rear => format!("{letter}-"),
        };
        format!("{selector}{}{}", w.direction, w.number)
    }

    fn wxf_parts(&self, mv: Move) -> Wxf {
        let piece = self.piece_at(mv.from).expect("a move starts on a piece");
        let side = piece.side;
        let on_file = |file: u8| -> Vec<Square> {
            let mut points: Vec<Square> = (0..RANKS)
                .map(|rank| square_at(file, rank))
                .filter(|s| self.piece_at(*s) == Some(piece))
                .collect();
            if side == Side::Red {
                points.reverse();
            }
            points
        };
        let mates = on_file(file_of(mv.from));
        let index = mates.iter().position(|s| *s == mv.from).unwrap_or(0);
        let tandem_files = match piece.role {
            Role::Soldier => (0..FILES).filter(|f| on_file(*f).len() >= 2).count(),
            _ => usize::from(mates.len() >= 2),
        };
        let forward =
            (i16::from(rank_of(mv.to)) - i16::from(rank_of(mv.from))) * i16::from(side.forward());
        let direction = match forward.signum() {
            0 => '.',
            1 => '+',
            _ => '-',
        };
        let number = if forward != 0 && file_of(mv.to) == file_of(mv.from) {
            forward.unsigned_abs() as u8
        } else {
            file_number(side, file_of(mv.to))
        };
        Wxf {
            role: piece.role,
            file: file_number(side, file_of(mv.from)),
            tandem: Tandem::of(index, mates.len()),
            tandem_files,
            direction,
            number,
        }
    }

    /// Reads a move in coordinates or WXF and finds the legal move it means.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, MoveError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(unreadable(text, "empty move"));
        }
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        if let Some((from, to)) = read_coordinates(trimmed) {
            return legal
                .iter()
                .copied()
                .find(|m| m.from == from && m.to == to)
                .ok_or_else(|| {
                    let reason = match self.piece_at(from) {
                        Some(p) if p.side == self.turn => {
                            format!(
                                "the piece on {} cannot go to {}",
                                square_name(from),
                                square_name(to)
                            )
                        }
                        _ => format!(
                            "no piece of the side to move stands on {}",
                            square_name(from)
                        ),
                    };
                    MoveError::Illegal {
                        text: text.to_string(),
                        reason,
                    }
                });
        }
        let pattern = WxfPattern::read(trimmed).map_err(|reason| unreadable(text, reason))?;
        let parts: Vec<(Move, Wxf)> = legal.iter().map(|m| (*m, self.wxf_parts(*m))).collect();
        let candidates: Vec<Move> = parts
            .iter()
            .filter(|(_, w)| pattern.selects(w) && pattern.moves_like(w))
            .map(|(m, _)| *m)
            .collect();
        match candidates.as_slice() {
            [mv] => Ok(*mv),
            [] => {
                let reason = if legal.is_empty() {
                    "the side to move has no legal move"
                } else if parts.iter().any(|(_, w)| pattern.selects(w)) {
                    "the piece it names cannot make that move"
                } else {
                    "no piece of the side to move that can move answers to that name"
                };
                Err(MoveError::Illegal {
                    text: text.to_string(),
                    reason: reason.to_string(),
                })
            }
            many => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: many.iter().map(|m| self.coordinates(*m)).collect(),
            }),
        }
    }
}

fn unreadable(text: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Unreadable {
        text: text.to_string(),
        reason: reason.into(),
    }
}

/// Reads `h3e3`, `a10a9`, also with `-` or `x` between the points.
fn read_coordinates(text: &str) -> Option<(Square, Square)> {
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)?;
    let first = text[..split].trim_end_matches(['-', 'x', 'X']);
    Some((parse_square(first)?, parse_square(&text[split..])?))
}

/// Which piece a WXF text names.
#[derive(Clone, Copy, Debug)]
enum Selector {
    /// A letter and a file number: `R2`, or `P3` for the middle soldier of a file.
    File(Role, u8),
    /// A letter and a place in a tandem: `R+`, `P-`; `++` and `--` for soldiers.
    Tandem(Role, Tandem),
    /// A soldier by file number and place, when two files hold tandem soldiers:
    /// `3+`, `33` (middle), `3-`.
    SoldierOnFile(u8, Tandem),
}

/// What a WXF text says: the piece and the movement.
struct WxfPattern {
    selector: Selector,
    direction: char,
    number: u8,
}

impl WxfPattern {
    fn read(text: &str) -> Result<WxfPattern, String> {
        let chars: Vec<char> = text.chars().collect();
        let &[a, b, direction, number] = chars.as_slice() else {
            return Err(
                "expected coordinates (e.g. `h3e3`) or WXF of four characters (e.g. `C2.5`)".into(),
            );
        };
        let direction = match direction {
            '=' => '.',
            '+' | '-' | '.' => direction,
            other => return Err(format!("`{other}` is not a direction (`+`, `-` or `.`)")),
        };
        let digit = |c: char| c.to_digit(10).filter(|d| *d >= 1).map(|d| d as u8);
        let number =
            digit(number).ok_or_else(|| format!("`{number}` is not a number from 1 to 9"))?;
        let marker = |c: char| match c {
            '+' => Some(Tandem::Front),
            '-' => Some(Tandem::Rear),
            _ => None,
        };
        let selector = if let Some(role) = Role::from_letter(a) {
            match (digit(b), marker(b)) {
                (Some(file), _) => Selector::File(role, file),
                (_, Some(tandem)) => Selector::Tandem(role, tandem),
                _ => return Err(format!("`{b}` is neither a file number nor `+` or `-`")),
            }
        } else if let Some(file) = digit(a) {
            match (digit(b), marker(b)) {
                (Some(again), _) if again == file => Selector::SoldierOnFile(file, Tandem::Middle),
                (_, Some(tandem)) => Selector::SoldierOnFile(file, tandem),
                _ => {
                    return Err(format!(
                        "after the file number `{a}`, expected `+`, `-` or `{a}`"
                    ));
                }
            }
        } else {
            match (a, b) {
                ('+', '+') => Selector::Tandem(Role::Soldier, Tandem::Foremost),
                ('-', '-') => Selector::Tandem(Role::Soldier, Tandem::Rearmost),
                _ => return Err(format!("`{a}` is not a piece letter (K A E H R C P)")),
            }
        };
        Ok(WxfPattern {
            selector,
            direction,
            number,
        })
    }

    /// True when the piece of `w` answers to the selector. A file number names a piece
    /// alone on its file or the middle soldier; for advisors and elephants, whose tandem
    /// moves never share a direction, it names either of the two.
    fn selects(&self, w: &Wxf) -> bool {
        match self.selector {
            Selector::File(role, file) => {
                role == w.role
                    && file == w.file
                    && (matches!(w.tandem, Tandem::Alone | Tandem::Middle)
                        || matches!(role, Role::Advisor | Role::Elephant))
            }
            Selector::Tandem(role, tandem) => role == w.role && tandem == w.tandem,
            Selector::SoldierOnFile(file, tandem) => {
                w.role == Role::Soldier && file == w.file && tandem == w.tandem
            }
        }
    }

    fn moves_like(&self, w: &Wxf) -> bool {
        self.direction == w.direction && self.number == w.number
    }
}
