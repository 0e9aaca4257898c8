//! Move notation: UCI (the long form) and SAN (the short form), written exactly and read
//! tolerantly, but never by guessing between several legal moves.

use super::board::{Chess, MoveSink, Scope};
use super::types::{
    Move, MoveKind, Role, Square, bit, file_of, parse_square, rank_of, square_name,
};
use crate::{MoveError, choose_move};

impl Chess {
    /// The move in UCI: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    pub fn uci(&self, mv: Move) -> String {
        let mut text = String::with_capacity(5);
        push_square(&mut text, mv.from);
        push_square(&mut text, mv.to);
        if let MoveKind::Promotion(role) = mv.kind {
            text.push(role.letter().to_ascii_lowercase());
        }
        text
    }

    /// The move in SAN with the minimal disambiguation and a `+` or `#` mark.
    pub fn san(&self, mv: Move) -> String {
        let mut text = self.san_without_mark(mv);
        let mut after = self.clone();
        after.play_move(mv);
        if after.is_check() {
            text.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        text
    }

    fn san_without_mark(&self, mv: Move) -> String {
        if mv.kind == MoveKind::Castle {
            return if file_of(mv.to) > file_of(mv.from) {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let role = self.role_at(mv.from);
        let capture = mv.kind == MoveKind::EnPassant || self.occupied() & (1 << mv.to) != 0;
        let mut text = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                text.push((b'a' + file_of(mv.from)) as char);
            }
        } else {
            text.push(role.letter());
            text.push_str(&self.disambiguation(mv, role));
        }
        if capture {
            text.push('x');
        }
        text.push_str(&square_name(mv.to));
        if let MoveKind::Promotion(promoted) = mv.kind {
            text.push('=');
            text.push(promoted.letter());
        }
        text
    }

    /// The file, rank or both that tell `mv` apart from other legal moves of the same role
    /// to the same square. Only the other pieces of that role are asked for their moves to
    /// that square, and none when no other such piece is there to ask.
    fn disambiguation(&self, mv: Move, role: Role) -> String {
        let others = self.pieces(self.turn, role) & !bit(mv.from);
        if others == 0 {
            return String::new();
        }
        let mut legal = Vec::new();
        let scope = Scope {
            from: others,
            to: bit(mv.to),
        };
        self.generate_in(&mut legal, scope);
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|m| m.kind != MoveKind::Castle)
            .map(|m| m.from)
            .collect();
        if rivals.is_empty() {
            return String::new();
        }
        let name = square_name(mv.from);
        if rivals.iter().all(|r| file_of(*r) != file_of(mv.from)) {
            name[..1].to_string()
        } else if rivals.iter().all(|r| rank_of(*r) != rank_of(mv.from)) {
            name[1..].to_string()
        } else {
            name
        }
    }

    fn role_at(&self, square: Square) -> Role {
        self.piece_at(square).expect("a move starts on a piece").1
    }

    /// Reads a move in UCI or SAN and finds the one legal move it means, listing only the
    /// legal moves that could match (those of the named piece kind to the named square)
    /// unless the text turns out ambiguous or illegal.
    pub fn parse_move_direct(&self, text: &str) -> Result<Move, MoveError> {
        let pattern = read_pattern(text)?;
        let mut matches = Matches::new(&pattern, self);
        self.generate_in(&mut matches, pattern.scope(self));
        if let Some(mv) = matches.single() {
            return Ok(mv);
        }
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        self.choose_move(text, &pattern, &legal)
    }

    /// Reads a move in UCI or SAN and finds the one move of `legal` (this position's legal
    /// moves) it means.
    pub fn parse_move_text(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        let pattern = read_pattern(text)?;
        match pattern.single_match(self, legal) {
            Some(mv) => Ok(mv),
            None => self.choose_move(text, &pattern, legal),
        }
    }

    /// The one move of `legal` that `pattern` (read from `text`) fits, or why there is none.
    fn choose_move(
        &self,
        text: &str,
        pattern: &SanPattern,
        legal: &[Move],
    ) -> Result<Move, MoveError> {
        choose_move(
            text,
            legal.iter().copied().filter(|m| pattern.matches(self, *m)),
            || self.explain_illegal(pattern, legal),
            |m| self.uci(m),
        )
    }

    fn explain_illegal(&self, pattern: &SanPattern, legal: &[Move]) -> String {
        let without_promotion = SanPattern {
            promotion: Some(None),
            ..pattern.clone()
        };
        if pattern.promotion.is_none() && legal.iter().any(|m| without_promotion.matches(self, *m))
        {
            "a pawn reaching the last rank must name its promotion piece (Q, R, B or N)".to_string()
        } else if legal.is_empty() {
            "the side to move has no legal move".to_string()
        } else {
            match pattern.castle {
                Some(true) => "castling king side is not possible here".to_string(),
                Some(false) => "castling queen side is not possible here".to_string(),
                None => {
                    let piece = pattern.role.map_or("pawn", role_name);
                    format!(
                        "no {piece} of the side to move can go to {}",
                        square_name(pattern.to)
                    )
                }
            }
        }
    }
}

/// Appends a square's name (`e4`) to `text`.
fn push_square(text: &mut String, square: Square) {
    text.push(char::from(b'a' + file_of(square)));
    text.push(char::from(b'1' + rank_of(square)));
}

/// What a move text in UCI or SAN says about the move.
fn read_pattern(text: &str) -> Result<SanPattern, MoveError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(unreadable(text, "empty move"));
    }
    match UciPattern::read(trimmed) {
        Some(uci) => Ok(uci.into()),
        None => SanPattern::read(trimmed).map_err(|reason| unreadable(text, reason)),
    }
}

fn unreadable(text: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Unreadable {
        text: text.to_string(),
        reason: reason.into(),
    }
}

fn role_name(role: Role) -> &'static str {
    ["pawn", "knight", "bishop", "rook", "queen", "king"][role.index()]
}

/// A UCI move text: `e2e4`, `e7e8q`.
struct UciPattern {
    from: Square,
    to: Square,
    promotion: Option<Role>,
}

impl UciPattern {
    fn read(text: &str) -> Option<UciPattern> {
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return None;
        }
        let from = parse_square(&text[0..2])?;
        let to = parse_square(&text[2..4])?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) if "qrbn".contains(c) => Role::from_letter(c),
            Some(_) => return None,
        };
        Some(UciPattern {
            from,
            to,
            promotion,
        })
    }
}

/// What a move text says about the move: every field left `None` is unconstrained.
#[derive(Clone)]
struct SanPattern {
    /// `Some(true)` king side, `Some(false)` queen side castling.
    castle: Option<bool>,
    role: Option<Role>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    /// `None`: no promotion written; `Some(None)`: any promotion; `Some(Some(r))`: to `r`.
    promotion: Option<Option<Role>>,
    /// UCI texts name the exact origin; the role is then free.
    exact: bool,
}

impl From<UciPattern> for SanPattern {
    fn from(uci: UciPattern) -> SanPattern {
        SanPattern {
            castle: None,
            role: None,
            from_file: Some(file_of(uci.from)),
            from_rank: Some(rank_of(uci.from)),
            to: uci.to,
            promotion: uci.promotion.map(Some),
            exact: true,
        }
    }
}

impl SanPattern {
    /// Reads SAN tolerantly: `0-0` for `O-O`, `e8Q` or `e8=Q`, superfluous `x`, `-`, `+`,
    /// `#`, `!`, `?` and `e.p.`.
    fn read(text: &str) -> Result<SanPattern, String> {
        let marked = text.trim_end_matches(['+', '#', '!', '?']);
        let core = marked.strip_suffix("e.p.").unwrap_or(marked).trim_end();
        match core {
            "O-O" | "0-0" => return Ok(SanPattern::castling(true)),
            "O-O-O" | "0-0-0" => return Ok(SanPattern::castling(false)),
            _ => {}
        }
        if !core.is_ascii() {
            return Err(
                "unexpected characters; expected SAN (e.g. `Nf3`) or UCI (e.g. `g1f3`)".into(),
            );
        }
        let mut rest = core;
        let mut promotion = None;
        if let Some(last) = rest.chars().last().filter(|c| "QRBNqrbn".contains(*c)) {
            let before = &rest[..rest.len() - 1];
            if before.ends_with('=') || before.ends_with(|c: char| c.is_ascii_digit()) {
                promotion = Some(Role::from_letter(last));
                rest = before.trim_end_matches('=');
            }
        }
        let role = match rest.chars().next() {
            Some(c @ ('K' | 'Q' | 'R' | 'B' | 'N')) => {
                rest = &rest[1..];
                Role::from_letter(c)
            }
            Some('P') => {
                rest = &rest[1..];
                Some(Role::Pawn)
            }
            _ => Some(Role::Pawn),
        };
        if rest.len() < 2 {
            return Err("no destination square".into());
        }
        let to = parse_square(&rest[rest.len() - 2..])
            .ok_or_else(|| format!("`{}` is not a square", &rest[rest.len() - 2..]))?;
        let mut from_file = None;
        let mut from_rank = None;
        for c in rest[..rest.len() - 2]
            .chars()
            .filter(|c| *c != 'x' && *c != '-' && *c != ':')
        {
            match c {
                'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                    from_file = Some(c as u8 - b'a')
                }
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return Err(format!("unexpected `{c}`")),
            }
        }
        Ok(SanPattern {
            castle: None,
            role,
            from_file,
            from_rank,
            to,
            promotion,
            exact: false,
        })
    }

    fn castling(king_side: bool) -> SanPattern {
        SanPattern {
            castle: Some(king_side),
            role: None,
            from_file: None,
            from_rank: None,
            to: 0,
            promotion: None,
            exact: false,
        }
    }

    /// The legal moves that can fit: those of the named piece kind to the named square.
    fn scope(&self, position: &Chess) -> Scope {
        let us = position.turn();
        match (self.castle, self.role) {
            (Some(_), _) => Scope {
                from: position.pieces(us, Role::King),
                ..Scope::ALL
            },
            (None, Some(role)) if !self.exact => Scope {
                from: position.pieces(us, role),
                to: bit(self.to),
            },
            _ => Scope {
                to: bit(self.to),
                ..Scope::ALL
            },
        }
    }

    /// The move of `moves` the pattern fits when exactly one does.
    fn single_match(&self, position: &Chess, moves: &[Move]) -> Option<Move> {
        // The destination alone rules out nearly every move: a plain scan for it comes first.
        let castle = self.castle.is_some();
        let mut matches = Matches::new(self, position);
        for mv in moves.iter().filter(|m| castle || m.to == self.to) {
            matches.push(*mv);
        }
        matches.single()
    }

    #[inline]
    fn matches(&self, position: &Chess, mv: Move) -> bool {
        if let Some(king_side) = self.castle {
            return mv.kind == MoveKind::Castle && (file_of(mv.to) > file_of(mv.from)) == king_side;
        }
        if mv.to != self.to
            || (mv.kind == MoveKind::Castle && !self.exact)
            || self.from_file.is_some_and(|f| f != file_of(mv.from))
            || self.from_rank.is_some_and(|r| r != rank_of(mv.from))
        {
            return false;
        }
        if !self.exact && self.role.is_some_and(|r| r != position.role_at(mv.from)) {
            return false;
        }
        match (self.promotion, mv.kind) {
            (None, MoveKind::Promotion(_)) => false,
            (Some(None), MoveKind::Promotion(_)) => true,
            (Some(Some(wanted)), MoveKind::Promotion(role)) => wanted == role,
            (Some(_), _) => false,
            (None, _) => true,
        }
    }
}

/// The moves a pattern fits, as they are found: the first, and how many.
struct Matches<'a> {
    pattern: &'a SanPattern,
    position: &'a Chess,
    first: Option<Move>,
    count: usize,
}

impl<'a> Matches<'a> {
    fn new(pattern: &'a SanPattern, position: &'a Chess) -> Matches<'a> {
        Matches {
            pattern,
            position,
            first: None,
            count: 0,
        }
    }

    /// The move found when exactly one fits.
    fn single(&self) -> Option<Move> {
        self.first.filter(|_| self.count == 1)
    }
}

impl MoveSink for Matches<'_> {
    #[inline]
    fn push(&mut self, mv: Move) {
        if self.pattern.matches(self.position, mv) {
            self.first.get_or_insert(mv);
            self.count += 1;
        }
    }

    /// Two fits make the text ambiguous: the full list then explains it.
    fn satisfied(&self) -> bool {
        self.count > 1
    }
}
