//! Move notation. Long: both points with their half boards, `shu:h3-wu:c5`. Short, for
//! people: the role letter, the origin point only when another piece of that role could
//! go to the same point, `x` for a capture, and the destination, with points on the
//! mover's own half board written bare: `Hc3`, `Rxwu:c1`, `Ra1-a2`. Both are read
//! tolerantly (`x` or `-` between points, bare points on the mover's half board, nation
//! names in any case) but never by guessing.

use super::board::Sanguo;
use super::types::{Move, Nation, Point, Role, half_of, local_name, parse_point, point_name};
use crate::MoveError;

impl Sanguo {
    /// The move in long notation, e.g. `shu:h3-wu:c5`.
    pub fn long_notation(&self, mv: Move) -> String {
        format!("{}-{}", point_name(mv.from), point_name(mv.to))
    }

    /// The move in short notation, e.g. `Cwu:b1` or `Rxc1`.
    pub fn short_notation(&self, mv: Move) -> String {
        let role = self.role_at(mv.from);
        let capture = if self.piece_at(mv.to).is_some() {
            "x"
        } else {
            ""
        };
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        let ambiguous = legal
            .iter()
            .any(|m| m.to == mv.to && m.from != mv.from && self.role_at(m.from) == role);
        let from = if ambiguous {
            let separator = if capture.is_empty() { "-" } else { "" };
            self.short_point(mv.from) + separator
        } else {
            String::new()
        };
        format!(
            "{}{from}{capture}{}",
            role.letter(),
            self.short_point(mv.to)
        )
    }

    fn short_point(&self, point: Point) -> String {
        if half_of(point) == self.to_move {
            local_name(point)
        } else {
            point_name(point)
        }
    }

    fn role_at(&self, point: Point) -> Role {
        self.piece_at(point).expect("a move starts on a piece").role
    }

    /// Reads a move in either notation and finds the one legal move it means.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, MoveError> {
        let pattern =
            Pattern::read(text, self.to_move).map_err(|reason| MoveError::Unreadable {
                text: text.to_string(),
                reason,
            })?;
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        let candidates: Vec<Move> = legal
            .into_iter()
            .filter(|m| {
                m.to == pattern.to
                    && pattern.from.is_none_or(|f| f == m.from)
                    && pattern.role.is_none_or(|r| r == self.role_at(m.from))
            })
            .collect();
        match candidates.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(MoveError::Illegal {
                text: text.to_string(),
                reason: format!("no legal move of {} matches it", self.to_move.name()),
            }),
            _ => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: candidates.iter().map(|m| self.long_notation(*m)).collect(),
            }),
        }
    }
}

/// What a move text says: a destination, maybe an origin, maybe a role.
struct Pattern {
    role: Option<Role>,
    from: Option<Point>,
    to: Point,
}

impl Pattern {
    fn read(text: &str, mover: Nation) -> Result<Pattern, String> {
        let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if trimmed.is_empty() {
            return Err("empty move".into());
        }
        let mut chars = trimmed.chars();
        let first = chars.next().expect("not empty");
        let role = Role::from_letter(first).filter(|_| first.is_ascii_uppercase());
        let rest = if role.is_some() {
            chars.as_str()
        } else {
            trimmed
        };
        let point = |text: &str| {
            parse_point(text, mover).ok_or_else(|| {
                format!("`{text}` is not a point (e.g. `c5` or `wu:c5`: files a-i, ranks 1-5)")
            })
        };
        match rest.split_once(['-', 'x', 'X']) {
            Some((from, to)) if from.is_empty() && role.is_some() => Ok(Pattern {
                role,
                from: None,
                to: point(to)?,
            }),
            Some((from, to)) => Ok(Pattern {
                role,
                from: Some(point(from)?),
                to: point(to)?,
            }),
            None if role.is_some() => Ok(Pattern {
                role,
                from: None,
                to: point(rest)?,
            }),
            None => Err("expected `from-to` or a role letter and a point".into()),
        }
    }
}
