//! Move notation, shared by every Tri-D rule set.
//!
//! Long (canonical): `b1(2)-c3(2)`, `c7(6)-c8(6)=Q`, `O-O`, `O-O-O`, `QL1@N-S-dn`, with `~`
//! after the pin when the board arrives turned half round and `=Q` when a riding pawn
//! promotes (`KL1@B-N-dn~=Q`). Short: piece letter (none for pawns), as much of the start
//! square as tells the move apart, `x` for a capture, the destination, promotion, and `+`
//! or `#`; board moves and castling as in the long form. Reading accepts both, a destination
//! without level (`Nc3`) when only one level fits, and never guesses between legal moves.

use super::geometry::{BoardId, Cell, Pin, Square};
use super::position::{Move, TriD};
use super::rules::RuleSet;
use crate::chess::Role;
use crate::{MoveError, choose_move};

impl<R: RuleSet> TriD<R> {
    /// The move in long notation.
    pub fn long(&self, mv: Move) -> String {
        match mv {
            Move::Piece {
                from,
                to,
                promotion,
                ..
            } => format!("{from}-{to}{}", promotion_text(promotion)),
            Move::Castle { king_side } => castle_text(king_side).to_string(),
            Move::Board {
                id,
                pin,
                inverted,
                promotion,
            } => format!(
                "{id}@{pin}{}{}",
                if inverted { "~" } else { "" },
                promotion_text(promotion)
            ),
        }
    }

    /// The move in short notation, with a check or mate mark.
    pub fn short(&self, mv: Move) -> String {
        let mut text = match mv {
            Move::Piece {
                from,
                to,
                promotion,
                en_passant,
            } => self.short_piece_move(from, to, promotion, en_passant),
            _ => self.long(mv),
        };
        let mut after = self.clone();
        after.play_move(mv);
        if after.is_check() {
            text.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        text
    }

    fn short_piece_move(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        en_passant: bool,
    ) -> String {
        let role = self.role_at(from);
        let capture = en_passant || self.layout.piece(to).is_some();
        let mut text = String::with_capacity(16);
        if role != Role::Pawn {
            text.push(role.letter());
        }
        let origin = self.origin_hint(from, to, role, promotion);
        if origin.is_empty() && role == Role::Pawn && capture {
            text.push(from.cell().file_char());
        }
        text.push_str(&origin);
        if capture {
            text.push('x');
        }
        text.push_str(&to.to_string());
        text.push_str(&promotion_text(promotion));
        text
    }

    /// As much of `from` as tells the move apart from other legal moves of the same role to
    /// the same square: nothing, the file, the rank, or the whole square.
    fn origin_hint(&self, from: Square, to: Square, role: Role, promotion: Option<Role>) -> String {
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        let rivals: Vec<Square> = legal
            .into_iter()
            .filter_map(|m| match m {
                Move::Piece {
                    from: f,
                    to: t,
                    promotion: p,
                    ..
                } if t == to && f != from && p == promotion && self.role_at(f) == role => Some(f),
                _ => None,
            })
            .collect();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|r| r.file() != from.file()) {
            from.cell().file_char().to_string()
        } else if rivals.iter().all(|r| r.rank() != from.rank()) {
            from.rank().to_string()
        } else {
            from.to_string()
        }
    }

    fn role_at(&self, square: Square) -> Role {
        self.layout
            .piece(square)
            .expect("a move starts on a piece")
            .role
    }

    /// Reads a move in long or short notation and finds the one legal move it means.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, MoveError> {
        let pattern = Pattern::read(text).map_err(|reason| MoveError::Unreadable {
            text: text.to_string(),
            reason,
        })?;
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pattern.matches(self, *m))
            .collect();
        choose_move(
            text,
            &candidates,
            || pattern.why_illegal(self, &legal),
            |m| self.long(m),
        )
    }
}

fn promotion_text(promotion: Option<Role>) -> String {
    promotion.map_or(String::new(), |r| format!("={}", r.letter()))
}

fn castle_text(king_side: bool) -> &'static str {
    if king_side { "O-O" } else { "O-O-O" }
}

/// A square as written in a move: a cell, and the level when given.
#[derive(Clone, Copy, Debug)]
struct Place {
    cell: Cell,
    level: Option<u8>,
}

impl Place {
    /// Reads `c3(4)` or `c3`.
    fn read(text: &str) -> Option<Place> {
        if let Some(square) = Square::parse(text) {
            return Some(Place {
                cell: square.cell(),
                level: Some(square.level()),
            });
        }
        match text.as_bytes() {
            [f @ b'a'..=b'f', r @ b'0'..=b'9'] => Some(Place {
                cell: Cell::new((f - b'a') as i8, (r - b'0') as i8)?,
                level: None,
            }),
            _ => None,
        }
    }

    fn matches(&self, square: Square) -> bool {
        square.cell() == self.cell && self.level.is_none_or(|l| l == square.level())
    }
}

/// What a move text says; every `None` is unconstrained.
#[derive(Clone, Debug)]
enum Pattern {
    Castle(bool),
    Board {
        id: BoardId,
        pin: Pin,
        inverted: bool,
        promotion: Option<Role>,
    },
    Piece {
        role: Option<Role>,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        from: Option<Place>,
        to: Place,
        promotion: Option<Role>,
    },
}

impl Pattern {
    fn read(text: &str) -> Result<Pattern, String> {
        let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if core.is_empty() {
            return Err("empty move".into());
        }
        if !core.is_ascii() {
            return Err("unexpected characters; expected e.g. `b1(2)-c3(2)` or `Nc3(2)`".into());
        }
        match core {
            "O-O" | "0-0" => return Ok(Pattern::Castle(true)),
            "O-O-O" | "0-0-0" => return Ok(Pattern::Castle(false)),
            _ => {}
        }
        let (core, promotion) = split_promotion(core)?;
        match core.split_once('@') {
            Some((board, pin)) => Pattern::read_board(board, pin, promotion),
            None => Pattern::read_piece(core, promotion),
        }
    }

    fn read_board(board: &str, pin: &str, promotion: Option<Role>) -> Result<Pattern, String> {
        let id = BoardId::parse(board)
            .ok_or_else(|| format!("`{board}` is not a board (QL1, KL1, QL3, KL3)"))?;
        let (pin, inverted) = match pin.strip_suffix('~') {
            Some(pin) => (pin, true),
            None => (pin, false),
        };
        let pin = Pin::parse(pin).ok_or_else(|| format!("`{pin}` is not a pin such as N-S-dn"))?;
        Ok(Pattern::Board {
            id,
            pin,
            inverted,
            promotion,
        })
    }

    fn read_piece(core: &str, promotion: Option<Role>) -> Result<Pattern, String> {
        let (role, rest) = match core.chars().next() {
            Some(c @ ('K' | 'Q' | 'R' | 'B' | 'N' | 'P')) => (Role::from_letter(c), &core[1..]),
            _ => (None, core),
        };
        let split = rest
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_ascii_lowercase() && *c != 'x')
            .map(|(i, _)| i)
            .ok_or("no destination square")?;
        let (origin, to) = rest.split_at(split);
        let to = Place::read(to).ok_or_else(|| format!("`{to}` is not a square such as c3(2)"))?;
        let origin = origin.trim_end_matches(['x', '-', ':']);
        let mut pattern = Pattern::Piece {
            role,
            from_file: None,
            from_rank: None,
            from: None,
            to,
            promotion,
        };
        if let Pattern::Piece {
            from_file,
            from_rank,
            from,
            ..
        } = &mut pattern
        {
            if let Some(place) = Place::read(origin) {
                *from = Some(place);
            } else {
                for c in origin.chars() {
                    match c {
                        'a'..='f' if from_file.is_none() && from_rank.is_none() => {
                            *from_file = Some(c as u8 - b'a')
                        }
                        '0'..='9' if from_rank.is_none() => *from_rank = Some(c as u8 - b'0'),
                        _ => return Err(format!("unexpected `{c}` before the destination")),
                    }
                }
            }
        }
        Ok(pattern)
    }

    fn matches<R: RuleSet>(&self, position: &TriD<R>, mv: Move) -> bool {
        match (self, mv) {
            (Pattern::Castle(side), Move::Castle { king_side }) => *side == king_side,
            (
                Pattern::Board {
                    id,
                    pin,
                    inverted,
                    promotion,
                },
                Move::Board {
                    id: i,
                    pin: p,
                    inverted: v,
                    promotion: r,
                },
            ) => (*id, *pin, *inverted, *promotion) == (i, p, v, r),
            (
                Pattern::Piece {
                    role,
                    from_file,
                    from_rank,
                    from: origin,
                    to,
                    promotion,
                },
                Move::Piece {
                    from,
                    to: t,
                    promotion: p,
                    ..
                },
            ) => {
                let exact = origin.is_some_and(|o| o.level.is_some());
                let wanted_role = role.or((!exact).then_some(Role::Pawn));
                to.matches(t)
                    && *promotion == p
                    && origin.is_none_or(|o| o.matches(from))
                    && from_file.is_none_or(|f| f == from.file())
                    && from_rank.is_none_or(|r| r == from.rank())
                    && wanted_role.is_none_or(|r| r == position.role_at(from))
            }
            _ => false,
        }
    }

    fn why_illegal<R: RuleSet>(&self, position: &TriD<R>, legal: &[Move]) -> String {
        if legal.is_empty() {
            return "the side to move has no legal move".into();
        }
        if self.lacks_promotion(position, legal) {
            return "a pawn reaching its last ranks must name its promotion piece (Q, R, B or N)"
                .into();
        }
        match self {
            Pattern::Castle(side) => format!("{} is not possible here", castle_text(*side)),
            Pattern::Board { id, pin, .. } => format!("{id} cannot move to {pin} here"),
            Pattern::Piece { to, .. } => format!(
                "no such piece of the side to move can go to {}{}",
                to.cell.file_char(),
                to.cell.rank()
            ),
        }
    }

    /// True when the text names no promotion but would match a legal promoting move.
    fn lacks_promotion<R: RuleSet>(&self, position: &TriD<R>, legal: &[Move]) -> bool {
        let named = match self {
            Pattern::Piece { promotion, .. } | Pattern::Board { promotion, .. } => *promotion,
            Pattern::Castle(_) => return false,
        };
        named.is_none()
            && legal.iter().any(|m| {
                let (Move::Piece { promotion, .. } | Move::Board { promotion, .. }) = *m else {
                    return false;
                };
                promotion.is_some_and(|r| self.with_promotion(r).matches(position, *m))
            })
    }

    fn with_promotion(&self, role: Role) -> Pattern {
        let mut pattern = self.clone();
        if let Pattern::Piece { promotion, .. } | Pattern::Board { promotion, .. } = &mut pattern {
            *promotion = Some(role);
        }
        pattern
    }
}

/// Splits `=Q` (or a bare `Q` after a square) off the end of a move text.
fn split_promotion(core: &str) -> Result<(&str, Option<Role>), String> {
    let Some(last) = core.chars().last().filter(|c| "QRBN".contains(*c)) else {
        return Ok((core, None));
    };
    let before = &core[..core.len() - 1];
    if let Some(before) = before.strip_suffix('=') {
        return Ok((before, Role::from_letter(last)));
    }
    if before.ends_with([')', '~']) || before.ends_with(|c: char| c.is_ascii_digit()) {
        return Ok((before, Role::from_letter(last)));
    }
    Err(format!("`{core}` does not end in a square"))
}
