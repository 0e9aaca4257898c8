//! Position text: reading (with validation naming the field at fault) and writing.
//!
//! `<shu half>|<wu half>|<wei half> <nation to move> <nations out> <clock> <ply>`. Each
//! half board is written from its bank (rank 5) down to its back rank (rank 1), ranks
//! separated by `/`, each rank from file a to file i: a digit counts empty points, a piece
//! is its role letter (`K A E H R C P F`) followed by its original nation's colour letter
//! (`r` Shu, `g` Wu, `b` Wei) and, when another nation controls it, that nation's letter.
//! `Hrg` is a Shu horse that Wu now moves. Nations out are listed in turn order, comma
//! separated, or `-`. The clock counts plies since the last capture or elimination, the
//! ply count plies since the start.

use super::board::Sanguo;
use super::types::{Nation, Piece, Point, Role, file_of, half_of, in_palace, point_at, rank_of};
use crate::PositionError;

/// The start position with flags.
pub const START_TEXT: &str = "9/Pr1Pr1Pr1Pr1Pr/1Cr1Fr1Fr1Cr1/9/RrHrErArKrArErHrRr|\
9/Pg1Pg1Pg1Pg1Pg/1Cg1Fg1Fg1Cg1/9/RgHgEgAgKgAgEgHgRg|\
9/Pb1Pb1Pb1Pb1Pb/1Cb1Fb1Fb1Cb1/9/RbHbEbAbKbAbEbHbRb shu - 0 0";

/// The points (file, rank) an advisor can stand on in its palace.
const ADVISOR_POINTS: [(u8, u8); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
/// The points (file, rank) an elephant can stand on on its half board.
const ELEPHANT_POINTS: [(u8, u8); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
/// The rank (0-based) soldiers start on; they never stand behind it on their own half.
const SOLDIER_RANK: u8 = 3;

impl Sanguo {
    /// The start position, with or without flags.
    pub fn start_position(flags: bool) -> Sanguo {
        let mut position = Sanguo::from_position_text(START_TEXT, true).expect("valid start");
        if !flags {
            for square in position.board.iter_mut() {
                if square.is_some_and(|p| p.role == Role::Flag) {
                    *square = None;
                }
            }
        }
        position
    }

    /// Reads a position text; `flags` tells whether the game plays with flags. The
    /// counters may be left out (both default to 0).
    pub fn from_position_text(text: &str, flags: bool) -> Result<Sanguo, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(3..=5).contains(&fields.len()) {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 3 to 5 space-separated fields, found {}",
                    fields.len()
                ),
            ));
        }
        let mut position = Sanguo::empty();
        read_placement(&mut position, fields[0])?;
        position.to_move = Nation::from_name(fields[1]).ok_or_else(|| {
            PositionError::new(
                "nation to move",
                format!("expected shu, wu or wei, found `{}`", fields[1]),
            )
        })?;
        let out = read_out(fields[2])?;
        position.clock = read_counter(fields.get(3), "clock")?;
        position.ply = read_counter(fields.get(4), "ply")?;
        validate(&position, &out, flags)?;
        Ok(position)
    }

    /// Writes the position text.
    pub fn to_position_text(&self) -> String {
        let halves: Vec<String> = Nation::ALL.iter().map(|&n| self.half_text(n)).collect();
        let out: Vec<&str> = Nation::ALL
            .into_iter()
            .filter(|&n| !self.is_in_game(n))
            .map(Nation::name)
            .collect();
        format!(
            "{} {} {} {} {}",
            halves.join("|"),
            self.to_move.name(),
            if out.is_empty() {
                "-".to_string()
            } else {
                out.join(",")
            },
            self.clock,
            self.ply
        )
    }

    fn half_text(&self, half: Nation) -> String {
        let ranks: Vec<String> = (0..5)
            .rev()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for file in 0..9 {
                    match self.piece_at(point_at(half, file, rank)) {
                        None => empty += 1,
                        Some(piece) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            push_piece(&mut text, piece);
                        }
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        ranks.join("/")
    }
}

fn push_piece(text: &mut String, piece: Piece) {
    text.push(piece.role.letter());
    text.push(piece.origin.colour());
    if piece.controller != piece.origin {
        text.push(piece.controller.colour());
    }
}

fn placement_error(reason: impl Into<String>) -> PositionError {
    PositionError::new("piece placement", reason)
}

fn read_placement(position: &mut Sanguo, text: &str) -> Result<(), PositionError> {
    let halves: Vec<&str> = text.split('|').collect();
    if halves.len() != 3 {
        return Err(placement_error(format!(
            "expected 3 half boards separated by `|`, found {}",
            halves.len()
        )));
    }
    for (half, half_text) in Nation::ALL.into_iter().zip(halves) {
        let ranks: Vec<&str> = half_text.split('/').collect();
        if ranks.len() != 5 {
            return Err(placement_error(format!(
                "half board {} has {} ranks, expected 5",
                half.name(),
                ranks.len()
            )));
        }
        for (rank, rank_text) in (0..5u8).rev().zip(ranks) {
            read_rank(position, half, rank, rank_text)?;
        }
    }
    Ok(())
}

fn read_rank(
    position: &mut Sanguo,
    half: Nation,
    rank: u8,
    text: &str,
) -> Result<(), PositionError> {
    let where_ = format!("{} rank {}", half.name(), rank + 1);
    let mut file = 0u8;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(empty) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
            file += empty as u8;
        } else {
            let role = Role::from_letter(c)
                .filter(|_| c.is_ascii_uppercase())
                .ok_or_else(|| placement_error(format!("{where_}: unexpected `{c}`")))?;
            let origin = chars.next().and_then(Nation::from_colour).ok_or_else(|| {
                placement_error(format!("{where_}: `{c}` must be followed by r, g or b"))
            })?;
            let controller = chars
                .next_if(|&n| Nation::from_colour(n).is_some())
                .and_then(Nation::from_colour)
                .unwrap_or(origin);
            if file >= 9 {
                return Err(placement_error(format!("{where_}: more than 9 points")));
            }
            position.board[usize::from(point_at(half, file, rank))] = Some(Piece {
                role,
                origin,
                controller,
            });
            file += 1;
        }
        if file > 9 {
            return Err(placement_error(format!("{where_}: more than 9 points")));
        }
    }
    if file != 9 {
        return Err(placement_error(format!(
            "{where_}: {file} points, expected 9"
        )));
    }
    Ok(())
}

fn read_out(text: &str) -> Result<Vec<Nation>, PositionError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|name| {
            Nation::from_name(name).ok_or_else(|| {
                PositionError::new(
                    "nations out",
                    format!("expected `-` or names among shu, wu, wei, found `{name}`"),
                )
            })
        })
        .collect()
}

fn read_counter(field: Option<&&str>, name: &'static str) -> Result<u32, PositionError> {
    field.map_or(Ok(0), |text| {
        text.parse()
            .map_err(|_| PositionError::new(name, format!("expected a number, found `{text}`")))
    })
}

/// Why `piece` cannot stand on `point`, if it cannot.
fn misplaced(piece: Piece, point: Point, flags: bool) -> Option<&'static str> {
    let home = half_of(point) == piece.origin;
    let spot = (file_of(point), rank_of(point));
    match piece.role {
        Role::General if piece.controller != piece.origin => {
            Some("a general is always moved by its own nation")
        }
        Role::General if !(home && in_palace(point)) => Some("a general stays in its palace"),
        Role::Advisor if !(home && ADVISOR_POINTS.contains(&spot)) => {
            Some("an advisor stands on its palace's diagonals")
        }
        Role::Elephant if !(home && ELEPHANT_POINTS.contains(&spot)) => {
            Some("an elephant stands on its own half board's elephant points")
        }
        Role::Soldier if home && spot.1 < SOLDIER_RANK => {
            Some("a soldier never stands behind its start rank")
        }
        Role::Flag if !flags => Some("this game plays without flags"),
        _ => None,
    }
}

fn validate(position: &Sanguo, out: &[Nation], flags: bool) -> Result<(), PositionError> {
    let mut counts = [[0usize; 8]; 3];
    for point in 0..super::types::POINTS as Point {
        let Some(piece) = position.piece_at(point) else {
            continue;
        };
        let name = super::types::point_name(point);
        if let Some(reason) = misplaced(piece, point, flags) {
            return Err(placement_error(format!("{name}: {reason}")));
        }
        if position.is_in_game(piece.origin) && piece.controller != piece.origin {
            return Err(placement_error(format!(
                "{name}: only an eliminated nation's pieces change hands"
            )));
        }
        if !position.is_in_game(piece.controller) {
            return Err(placement_error(format!(
                "{name}: controlled by {}, which has no general",
                piece.controller.name()
            )));
        }
        let count = &mut counts[piece.origin.index()][piece.role as usize];
        *count += 1;
        if *count > piece.role.start_count() {
            return Err(placement_error(format!(
                "{} has more than {} {:?} pieces",
                piece.origin.name(),
                piece.role.start_count(),
                piece.role
            )));
        }
    }
    let listed_out: Vec<Nation> = Nation::ALL
        .into_iter()
        .filter(|n| out.contains(n))
        .collect();
    let really_out: Vec<Nation> = Nation::ALL
        .into_iter()
        .filter(|&n| !position.is_in_game(n))
        .collect();
    if out.len() != listed_out.len() || listed_out != really_out {
        return Err(PositionError::new(
            "nations out",
            "must list, once each, exactly the nations without a general",
        ));
    }
    if !position.is_in_game(position.to_move) {
        return Err(PositionError::new(
            "nation to move",
            format!("{} is out of the game", position.to_move.name()),
        ));
    }
    validate_turn(position)
}

/// The nation to move must be able to move: a nation without moves is eliminated when its
/// turn comes, so no game reaches such a position while two nations are in it.
fn validate_turn(position: &Sanguo) -> Result<(), PositionError> {
    let mover = position.to_move;
    if position.nations_in_game().len() > 1 && !position.has_legal_move(mover) {
        return Err(PositionError::new(
            "nation to move",
            format!(
                "{} has no legal move: it would already be out",
                mover.name()
            ),
        ));
    }
    Ok(())
}
