//! Dynamo move notation, after the seed: the primary piece with its squares, then a slash
//! and the pushed or pulled piece with its squares, `E` for off the board.
//!
//! Long form (for tools): `Pe2e4`, `Ra1a5/Ba5E`, station moves with the primary's one
//! square (`Nb1/Bc3d5`), a piece leaving the board `Rh3E/Qh6E`, promotion `Pe7e8=Q`,
//! castling `O-O`, an owner's promotion choice `d1=N`. Short form: SAN-like (no `P`, the
//! primary's origin and the pushed piece's origin only when needed), with `+` and `#`.
//! Both forms are read tolerantly, never by guessing between legal moves; a pushing pawn's
//! promotion may also follow its own part (`Pf2g1=Q/Pg1E`).

use super::Dynamo;
use super::board::{Place, last_rank};
use super::castling::Side;
use super::moves::{Move, MoveKind};
use crate::MoveError;
use crate::chess::types::{Role, Square, file_of, parse_square, rank_of, square_name};

/// How much of the primary piece's origin a short form names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    None,
    File,
    Rank,
    Square,
}

impl Dynamo {
    /// The move in long notation.
    pub fn long(&self, mv: Move) -> String {
        match mv.kind {
            MoveKind::Castle => castle_text(mv),
            MoveKind::Choice => choice_text(mv),
            MoveKind::Plain => {
                let mut text = self.letter(mv.from).to_string() + &square_name(mv.from);
                if mv.to != Place::On(mv.from) {
                    text.push_str(&place_text(mv.to));
                }
                self.finish(text, mv, true)
            }
        }
    }

    /// The move in short notation: the shortest SAN-like text that reads back as this move
    /// and no other, with `+` or `#` when it gives check or mate.
    pub fn short(&self, mv: Move) -> String {
        let text = match mv.kind {
            MoveKind::Castle => castle_text(mv),
            MoveKind::Choice => return choice_text(mv),
            MoveKind::Plain => {
                let mut legal = Vec::with_capacity(128);
                self.generate(&mut legal);
                self.short_candidates(mv)
                    .find(|text| self.matches_only(text, mv, &legal))
                    .unwrap_or_else(|| self.long(mv))
            }
        };
        text + self.check_mark(mv)
    }

    fn short_candidates(&self, mv: Move) -> impl Iterator<Item = String> + '_ {
        let origins = [Origin::None, Origin::File, Origin::Rank, Origin::Square];
        [false, true].into_iter().flat_map(move |pushed_origin| {
            origins
                .into_iter()
                .filter(move |origin| mv.to != Place::Off || *origin == Origin::Square)
                .map(move |origin| {
                    let letter = self.letter(mv.from);
                    let mut text = if letter == 'P' {
                        String::new()
                    } else {
                        letter.to_string()
                    };
                    let name = square_name(mv.from);
                    text.push_str(match origin {
                        Origin::None => "",
                        Origin::File => &name[..1],
                        Origin::Rank => &name[1..],
                        Origin::Square => &name,
                    });
                    text.push_str(&place_text(mv.to));
                    self.finish(text, mv, pushed_origin)
                })
        })
    }

    /// Appends the pushed or pulled piece (with its origin when `pushed_origin`) and the
    /// promotion suffix.
    fn finish(&self, mut text: String, mv: Move, pushed_origin: bool) -> String {
        if let Some((square, place)) = mv.pushed {
            text.push('/');
            text.push(self.letter(square));
            if pushed_origin {
                text.push_str(&square_name(square));
            }
            text.push_str(&place_text(place));
        }
        if let Some(role) = mv.promotion {
            text.push('=');
            text.push(role.letter());
        }
        text
    }

    fn matches_only(&self, text: &str, mv: Move, legal: &[Move]) -> bool {
        let Ok(pattern) = Pattern::read(text) else {
            return false;
        };
        let mut matching = legal.iter().filter(|m| pattern.matches(self, m));
        matching.next() == Some(&mv) && matching.next().is_none()
    }

    fn check_mark(&self, mv: Move) -> &'static str {
        let mut after = self.clone();
        after.play_move(mv);
        match (after.is_check(), after.has_legal_moves()) {
            (false, _) => "",
            (true, true) => "+",
            (true, false) => "#",
        }
    }

    fn letter(&self, square: Square) -> char {
        self.board.get(square).map_or('?', |p| p.role.letter())
    }

    fn role_at(&self, square: Square) -> Option<Role> {
        self.board.get(square).map(|p| p.role)
    }

    /// True when the primary piece of `mv` is a pawn that reaches its last rank.
    fn primary_promotes(&self, mv: &Move) -> bool {
        matches!((self.board.get(mv.from), mv.to), (Some(p), Place::On(to))
            if p.role == Role::Pawn && rank_of(to) == last_rank(p.color))
    }

    /// Reads a move in either notation and finds the one legal move it means.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, MoveError> {
        let pattern = Pattern::read(text).map_err(|reason| MoveError::Unreadable {
            text: text.to_string(),
            reason,
        })?;
        let mut legal = Vec::with_capacity(128);
        self.generate(&mut legal);
        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pattern.matches(self, m))
            .collect();
        match candidates.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(MoveError::Illegal {
                text: text.to_string(),
                reason: self.explain_illegal(&pattern, &legal),
            }),
            many => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: many.iter().map(|m| self.long(*m)).collect(),
            }),
        }
    }

    fn explain_illegal(&self, pattern: &Pattern, legal: &[Move]) -> String {
        if legal.is_empty() {
            return "the side to move has no legal move".into();
        }
        if let Some(square) = self.pending_choice() {
            return format!(
                "the pawn on {} must first become a Q, R, B or N (e.g. `{}=Q`)",
                square_name(square),
                square_name(square)
            );
        }
        if let Pattern::Move {
            primary_promotes: true,
            ..
        } = pattern
            && legal.iter().any(|m| pattern.loosened().matches(self, m))
        {
            return "the pawn that promotes is the pushed or pulled piece: write the promotion \
                    after its part or at the end (e.g. `Rd5d3/Pd3d1=N`)"
                .into();
        }
        let Pattern::Move {
            primary,
            pushed,
            promotion: None,
            ..
        } = pattern
        else {
            return "no legal move matches".into();
        };
        let unpromoted = Pattern::Move {
            primary: *primary,
            pushed: *pushed,
            promotion: None,
            primary_promotes: false,
        };
        let needs_role = legal.iter().any(|m| {
            m.promotion.is_some()
                && unpromoted.matches(
                    self,
                    &Move {
                        promotion: None,
                        ..*m
                    },
                )
        });
        if needs_role {
            return "a pawn reaching its last rank must be given a piece (=Q, =R, =B or =N)".into();
        }
        if self.is_check() && pushed.is_some() {
            return "dynamo moves cannot be used to escape check".into();
        }
        "no legal move matches".into()
    }
}

fn place_text(place: Place) -> String {
    match place {
        Place::On(square) => square_name(square),
        Place::Off => "E".to_string(),
    }
}

fn castle_text(mv: Move) -> String {
    match Side::of_destination(mv.to) {
        Side::King => "O-O".into(),
        Side::Queen => "O-O-O".into(),
    }
}

fn choice_text(mv: Move) -> String {
    let role = mv.promotion.map_or('?', Role::letter);
    format!("{}={role}", square_name(mv.from))
}

/// One piece's part of a move text; `None` fields are unconstrained.
#[derive(Clone, Copy, Debug)]
struct Part {
    role: Option<Role>,
    file: Option<u8>,
    rank: Option<u8>,
    to: Place,
}

impl Part {
    /// Reads `[letter][origin file][origin rank](square|E)`, ignoring `x`, `-` and `:`.
    /// A primary part without a letter is a pawn unless it names its whole origin.
    fn read(text: &str, primary: bool) -> Result<Part, String> {
        let cleaned: String = text
            .chars()
            .filter(|c| !matches!(c, 'x' | '-' | ':'))
            .collect();
        let mut rest = cleaned.as_str();
        let mut role = None;
        if let Some(c) = rest.chars().next().filter(|c| "KQRBNP".contains(*c)) {
            role = Role::from_letter(c);
            rest = &rest[1..];
        }
        let to = if let Some(before) = rest.strip_suffix('E') {
            rest = before;
            Place::Off
        } else {
            let split = rest.len().checked_sub(2).ok_or("no destination square")?;
            let square = rest
                .get(split..)
                .and_then(parse_square)
                .ok_or_else(|| format!("`{rest}` does not end with a square or `E`"))?;
            rest = &rest[..split];
            Place::On(square)
        };
        let (file, rank) = match rest.as_bytes() {
            [] => (None, None),
            [f @ b'a'..=b'h'] => (Some(f - b'a'), None),
            [r @ b'1'..=b'8'] => (None, Some(r - b'1')),
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Some(f - b'a'), Some(r - b'1')),
            _ => return Err(format!("unexpected `{rest}`")),
        };
        if primary && role.is_none() && (file.is_none() || rank.is_none()) {
            role = Some(Role::Pawn);
        }
        Ok(Part {
            role,
            file,
            rank,
            to,
        })
    }

    fn matches(&self, role: Option<Role>, from: Square, to: Place) -> bool {
        self.to == to
            && self.role.is_none_or(|r| Some(r) == role)
            && self.file.is_none_or(|f| f == file_of(from))
            && self.rank.is_none_or(|r| r == rank_of(from))
    }
}

/// What a move text says.
#[derive(Clone, Copy, Debug)]
enum Pattern {
    Castle(Side),
    Move {
        primary: Part,
        pushed: Option<Part>,
        promotion: Option<Role>,
        /// True when the promotion follows the primary piece's part and a pushed or pulled
        /// piece's part comes after it (`Pf2g1=Q/Pg1E`): the primary piece is the pawn
        /// that promotes. A promotion at the end (`Pf2g1/Pg1E=Q`) is the move's, whichever
        /// pawn it is.
        primary_promotes: bool,
    },
}

impl Pattern {
    /// Reads either notation; `0-0` for `O-O`, `e8Q` for `e8=Q`, and trailing `+`, `#`,
    /// `!`, `?` are accepted. The promotion may follow the whole move or, for the primary
    /// piece, its own part: `Pf2g1/Pg1E=Q` and `Pf2g1=Q/Pg1E` are one move.
    fn read(text: &str) -> Result<Pattern, String> {
        let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
        match core {
            "" => return Err("empty move".into()),
            "O-O" | "0-0" => return Ok(Pattern::Castle(Side::King)),
            "O-O-O" | "0-0-0" => return Ok(Pattern::Castle(Side::Queen)),
            _ => {}
        }
        if !core.is_ascii() {
            return Err("unexpected characters; expected e.g. `Ra1a5/Ba5E` or `Nf3`".into());
        }
        let mut parts = core.split('/');
        let (primary, first) = split_promotion(parts.next().unwrap_or_default())?;
        let primary = Part::read(primary, true)?;
        let second = parts.next().map(split_promotion).transpose()?;
        if parts.next().is_some() {
            return Err("a move pushes or pulls at most one piece (one `/`)".into());
        }
        let (pushed, last) = match second {
            Some((text, role)) => (Some(Part::read(text, false)?), role),
            None => (None, None),
        };
        if first.is_some() && last.is_some() {
            return Err("a move promotes at most one pawn (one `=`)".into());
        }
        Ok(Pattern::Move {
            primary,
            pushed,
            promotion: first.or(last),
            primary_promotes: first.is_some() && pushed.is_some(),
        })
    }

    /// The same pattern with a promotion after the primary's part read as the move's.
    fn loosened(&self) -> Pattern {
        match *self {
            Pattern::Move {
                primary,
                pushed,
                promotion,
                ..
            } => Pattern::Move {
                primary,
                pushed,
                promotion,
                primary_promotes: false,
            },
            castle => castle,
        }
    }

    fn matches(&self, position: &Dynamo, mv: &Move) -> bool {
        match (self, mv.kind) {
            (Pattern::Castle(side), MoveKind::Castle) => Side::of_destination(mv.to) == *side,
            (
                Pattern::Move {
                    primary,
                    pushed: None,
                    promotion,
                    ..
                },
                MoveKind::Choice,
            ) => {
                primary.role.is_none_or(|r| r == Role::Pawn)
                    && primary.matches(Some(Role::Pawn), mv.from, Place::On(mv.from))
                    && *promotion == mv.promotion
            }
            (
                Pattern::Move {
                    primary,
                    pushed,
                    promotion,
                    primary_promotes,
                },
                MoveKind::Plain,
            ) => {
                let pushed_matches = match (pushed, mv.pushed) {
                    (None, None) => true,
                    (Some(part), Some((square, place))) => {
                        part.matches(position.role_at(square), square, place)
                    }
                    _ => false,
                };
                primary.matches(position.role_at(mv.from), mv.from, mv.to)
                    && pushed_matches
                    && *promotion == mv.promotion
                    && (!primary_promotes || position.primary_promotes(mv))
            }
            _ => false,
        }
    }
}

/// Splits off `=Q` (or a bare `Q` right after a square) from the end of one part of a move
/// text.
fn split_promotion(text: &str) -> Result<(&str, Option<Role>), String> {
    let role_of = |c: char| {
        Role::from_letter(c)
            .filter(|r| !matches!(r, Role::King | Role::Pawn))
            .ok_or_else(|| format!("`{c}` is not a piece a pawn can become (Q, R, B or N)"))
    };
    if let Some((body, suffix)) = text.rsplit_once('=') {
        let mut chars = suffix.chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) => Ok((body, Some(role_of(c)?))),
            _ => Err(format!(
                "expected one piece letter after `=`, found `{suffix}`"
            )),
        };
    }
    let mut chars = text.chars().rev();
    match (chars.next(), chars.next()) {
        (Some(c @ ('Q' | 'R' | 'B' | 'N')), Some(d)) if d.is_ascii_digit() => {
            Ok((&text[..text.len() - 1], Some(role_of(c)?)))
        }
        _ => Ok((text, None)),
    }
}
