//! Move notation: UCI (the long form) and SAN (the short form), written exactly and read
//! tolerantly, but never by guessing between several legal moves.

use super::attacks;
use super::board::{Chess, MoveSink, Scope};
use super::types::{
    Bitboard, Color, Move, MoveKind, Role, Square, bit, file_of, rank_of, square_at, square_name,
    squares,
};
use crate::{MoveError, choose_move};

impl Chess {
    /// The move in UCI: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    pub fn uci(&self, mv: Move) -> String {
        let mut text = String::with_capacity(5);
        push_uci(mv, &mut text);
        text
    }

    /// The move in SAN with the minimal disambiguation and a `+` or `#` mark.
    pub fn san(&self, mv: Move) -> String {
        let mut after = self.clone();
        after.play_move(mv);
        self.san_leading_to(mv, &after)
    }

    /// [`Chess::san`] of `mv`, given `after`, the position it leads to.
    pub fn san_leading_to(&self, mv: Move, after: &Chess) -> String {
        let mut text = String::with_capacity(8);
        self.push_san_without_mark(mv, &mut text);
        if after.is_check() {
            text.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        text
    }

    fn push_san_without_mark(&self, mv: Move, text: &mut String) {
        if mv.kind == MoveKind::Castle {
            text.push_str(if file_of(mv.to) > file_of(mv.from) {
                "O-O"
            } else {
                "O-O-O"
            });
            return;
        }
        let role = self.role_at(mv.from);
        let capture = mv.kind == MoveKind::EnPassant || self.occupied() & (1 << mv.to) != 0;
        if role == Role::Pawn {
            if capture {
                text.push(file_letter(mv.from));
            }
        } else {
            text.push(role.letter());
            self.push_disambiguation(mv, role, text);
        }
        if capture {
            text.push('x');
        }
        push_square(text, mv.to);
        if let MoveKind::Promotion(promoted) = mv.kind {
            text.push('=');
            text.push(promoted.letter());
        }
    }

    /// Appends the file, rank or both that tell `mv` apart from other legal moves of the
    /// same role to the same square. Only the other pieces of that role are asked for their
    /// moves to that square, and none when no other such piece is there to ask.
    fn push_disambiguation(&self, mv: Move, role: Role, text: &mut String) {
        let others = self.pieces(self.turn, role) & !bit(mv.from);
        if others == 0 {
            return;
        }
        let mut rivals = Origins(0);
        let scope = Scope {
            from: others,
            to: bit(mv.to),
        };
        self.generate_in(&mut rivals, scope);
        let rivals = rivals.0;
        if rivals == 0 {
            return;
        }
        let (file, rank) = (file_of(mv.from), rank_of(mv.from));
        let same_file = squares(rivals).any(|rival| file_of(rival) == file);
        let same_rank = squares(rivals).any(|rival| rank_of(rival) == rank);
        if !same_file {
            text.push(file_letter(mv.from));
        } else if !same_rank {
            text.push(rank_digit(mv.from));
        } else {
            push_square(text, mv.from);
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
        if let Some(mv) = self.piece_move(&pattern) {
            return Ok(mv);
        }
        let mut matches = Matches::new(&pattern, self);
        self.generate_in(&mut matches, pattern.scope(self));
        if let Some(mv) = matches.single() {
            return Ok(mv);
        }
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        self.choose_move(text, &pattern, &legal)
    }

    /// The one legal move a SAN text means, found by trying only the pieces of the kind it
    /// names that reach its square, each on whether it leaves its king safe; `None` for
    /// castling, en passant and a promotion to any piece, and when not exactly one move
    /// fits (the full search then decides and explains).
    fn piece_move(&self, pattern: &SanPattern) -> Option<Move> {
        if pattern.exact || pattern.castle.is_some() {
            return None;
        }
        let (role, to) = (pattern.role?, pattern.to);
        let us = self.turn();
        if self.colors[us.index()] & bit(to) != 0 {
            return None;
        }
        let (from, kind) = match role {
            Role::Pawn => (self.pawn_origins(to), pawn_kind(pattern)?),
            _ => (
                self.pieces(us, role) & origins(self, role, to),
                MoveKind::Normal,
            ),
        };
        let king = self.king_of(us);
        let mut found = None;
        for from in squares(from) {
            let mv = Move { from, to, kind };
            if pattern.matches(self, mv) && self.keeps_king_safe(mv, king) {
                if found.is_some() {
                    return None;
                }
                found = Some(mv);
            }
        }
        found
    }

    /// The squares of the side to move's pawns that can capture on `to` (an opponent's
    /// piece there) or step to it (empty), pins and checks aside; none for en passant.
    fn pawn_origins(&self, to: Square) -> Bitboard {
        let us = self.turn();
        let pawns = self.pieces(us, Role::Pawn);
        let target = bit(to);
        if self.colors[us.other().index()] & target != 0 {
            return attacks::pawn(us.other(), to) & pawns;
        }
        let occupied = self.occupied();
        let (one, two, start) = match us {
            Color::White => (target >> 8, target >> 16, RANK_2),
            Color::Black => (target << 8, target << 16, RANK_7),
        };
        match one & occupied {
            0 => two & pawns & start,
            _ => one & pawns,
        }
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

/// Appends the move in UCI ([`Chess::uci`]) to `text`.
pub(super) fn push_uci(mv: Move, text: &mut String) {
    push_square(text, mv.from);
    push_square(text, mv.to);
    if let MoveKind::Promotion(role) = mv.kind {
        text.push(role.letter().to_ascii_lowercase());
    }
}

/// Appends a square's name (`e4`) to `text`.
fn push_square(text: &mut String, square: Square) {
    text.push(file_letter(square));
    text.push(rank_digit(square));
}

/// What a move text in UCI or SAN says about the move.
fn read_pattern(text: &str) -> Result<SanPattern, MoveError> {
    if let Some(plain) = SanPattern::read_plain(text.as_bytes()) {
        return Ok(plain);
    }
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(unreadable(text, "empty move"));
    }
    match UciPattern::read(trimmed.as_bytes()) {
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
    fn read(text: &[u8]) -> Option<UciPattern> {
        let (squares, promotion) = match text {
            [squares @ .., letter @ (b'q' | b'r' | b'b' | b'n')] if text.len() == 5 => {
                (squares, Some(role_of_letter(*letter)?))
            }
            squares => (squares, None),
        };
        match squares {
            [from @ .., _, _] if squares.len() == 4 => Some(UciPattern {
                from: square_of(from)?,
                to: square_of(&squares[2..])?,
                promotion,
            }),
            _ => None,
        }
    }
}

/// The square named by two bytes such as `e4`.
fn square_of(name: &[u8]) -> Option<Square> {
    match name {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some(square_at(file - b'a', rank - b'1')),
        _ => None,
    }
}

/// The role of a piece letter in either case (`p` for a pawn too).
fn role_of_letter(letter: u8) -> Option<Role> {
    Some(match letter.to_ascii_uppercase() {
        b'P' => Role::Pawn,
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        _ => return None,
    })
}

/// What a move text says about the move: every field left `None` is unconstrained.
#[derive(Clone, Debug, PartialEq)]
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
        let marks = text
            .bytes()
            .rev()
            .take_while(|b| matches!(b, b'+' | b'#' | b'!' | b'?'))
            .count();
        let marked = &text[..text.len() - marks];
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
        let (rest, promotion) = split_promotion(core.as_bytes());
        let (role, rest) = match rest {
            [
                letter @ (b'K' | b'Q' | b'R' | b'B' | b'N' | b'P'),
                rest @ ..,
            ] => (role_of_letter(*letter), rest),
            _ => (Some(Role::Pawn), rest),
        };
        let [origin @ .., file, rank] = rest else {
            return Err("no destination square".into());
        };
        let to = square_of(&[*file, *rank]).ok_or_else(|| {
            format!(
                "`{}{}` is not a square",
                char::from(*file),
                char::from(*rank)
            )
        })?;
        let (from_file, from_rank) = read_origin(origin)?;
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

    /// Reads SAN as most moves are written, byte by byte: a piece letter, the origin's file
    /// and rank, `x`, the square, `=` and a promotion piece and a `+` or `#` mark, each but
    /// the square optional. `None` for any other text (castling, UCI, the spellings
    /// [`SanPattern::read`] tolerates, white space), which the full reading then takes: for
    /// every text it reads, the pattern is the one the full reading gives.
    #[inline]
    fn read_plain(text: &[u8]) -> Option<SanPattern> {
        let text = match text {
            [rest @ .., b'+' | b'#'] => rest,
            _ => text,
        };
        let (text, promotion) = match text {
            [rest @ .., b'=', letter @ (b'Q' | b'R' | b'B' | b'N')] => {
                (rest, Some(role_of_letter(*letter)))
            }
            _ => (text, None),
        };
        let [rest @ .., file @ b'a'..=b'h', rank @ b'1'..=b'8'] = text else {
            return None;
        };
        let (role, origin) = match rest {
            [letter @ (b'N' | b'B' | b'R' | b'Q' | b'K'), origin @ ..] => {
                (role_of_letter(*letter), origin)
            }
            origin => (Some(Role::Pawn), origin),
        };
        let (origin, capture) = match origin {
            [origin @ .., b'x'] => (origin, true),
            origin => (origin, false),
        };
        let (from_file, from_rank) = match origin {
            [] => (None, None),
            [file @ b'a'..=b'h'] => (Some(file - b'a'), None),
            [rank @ b'1'..=b'8'] => (None, Some(rank - b'1')),
            // Two squares side by side with nothing before them read as UCI.
            [_, _] if role == Some(Role::Pawn) && !capture => return None,
            [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => (Some(file - b'a'), Some(rank - b'1')),
            _ => return None,
        };
        Some(SanPattern {
            castle: None,
            role,
            from_file,
            from_rank,
            to: square_at(file - b'a', rank - b'1'),
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

    /// The legal moves that can fit: those of the named piece kind, from the squares it
    /// could reach the named square from, to that square; a UCI text's one move.
    fn scope(&self, position: &Chess) -> Scope {
        let us = position.turn();
        match (self.castle, self.role, self.from_file, self.from_rank) {
            (Some(_), ..) => Scope {
                from: position.pieces(us, Role::King),
                ..Scope::ALL
            },
            (None, _, Some(file), Some(rank)) if self.exact => Scope {
                from: bit(square_at(file, rank)),
                to: bit(self.to),
            },
            (None, Some(role), ..) => Scope {
                from: position.pieces(us, role) & origins(position, role, self.to),
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
        if !self.exact
            && self
                .role
                .is_some_and(|r| position.pieces(position.turn(), r) & bit(mv.from) == 0)
        {
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

/// The squares a piece of `role` of the side to move could come to `to` from, pins and
/// checks aside: every legal move of that role to `to` starts on one of them.
fn origins(position: &Chess, role: Role, to: Square) -> Bitboard {
    let occupied = position.occupied();
    match role {
        Role::Pawn => {
            let pushes = match position.turn() {
                Color::White => bit(to) >> 8 | bit(to) >> 16,
                Color::Black => bit(to) << 8 | bit(to) << 16,
            };
            attacks::pawn(position.turn().other(), to) | pushes
        }
        Role::Knight => attacks::knight(to),
        Role::Bishop => attacks::bishop(to, occupied),
        Role::Rook => attacks::rook(to, occupied),
        Role::Queen => attacks::bishop(to, occupied) | attacks::rook(to, occupied),
        Role::King => attacks::king(to),
    }
}

/// The second and seventh ranks, where pawns start.
const RANK_2: Bitboard = 0xff << 8;
const RANK_7: Bitboard = 0xff << 48;

/// What a pawn's move to the pattern's square is: a promotion to the piece it names on the
/// last rank, a plain move elsewhere; `None` for a promotion to any piece.
fn pawn_kind(pattern: &SanPattern) -> Option<MoveKind> {
    match (rank_of(pattern.to), pattern.promotion) {
        (0 | 7, Some(Some(role))) => Some(MoveKind::Promotion(role)),
        (0 | 7, _) => None,
        _ => Some(MoveKind::Normal),
    }
}

/// A SAN text without its promotion (`=Q`, or `Q` right after the rank), and the promotion:
/// `None` when none is written.
fn split_promotion(text: &[u8]) -> (&[u8], Option<Option<Role>>) {
    match text {
        [
            before @ ..,
            b'=' | b'0'..=b'9',
            letter @ (b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'b' | b'n'),
        ] => {
            let kept = text.len() - 1 - usize::from(text[before.len()] == b'=');
            let mut rest = &text[..kept];
            while let [start @ .., b'='] = rest {
                rest = start;
            }
            (rest, Some(role_of_letter(*letter)))
        }
        _ => (text, None),
    }
}

/// The file and rank a SAN names its moving piece's origin by, read past `x`, `-` and `:`.
fn read_origin(text: &[u8]) -> Result<(Option<u8>, Option<u8>), String> {
    let mut file = None;
    let mut rank = None;
    for &c in text.iter().filter(|c| !matches!(c, b'x' | b'-' | b':')) {
        match c {
            b'a'..=b'h' if file.is_none() && rank.is_none() => file = Some(c - b'a'),
            b'1'..=b'8' if rank.is_none() => rank = Some(c - b'1'),
            _ => return Err(format!("unexpected `{}`", char::from(c))),
        }
    }
    Ok((file, rank))
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

/// A sink that gathers the squares the legal moves it is given start from, castling aside:
/// the rivals a move's disambiguation tells it apart from.
struct Origins(Bitboard);

impl MoveSink for Origins {
    #[inline]
    fn push(&mut self, mv: Move) {
        if mv.kind != MoveKind::Castle {
            self.0 |= bit(mv.from);
        }
    }

    fn satisfied(&self) -> bool {
        false
    }
}

/// The letter of `square`'s file.
fn file_letter(square: Square) -> char {
    char::from(b'a' + file_of(square))
}

/// The digit of `square`'s rank.
fn rank_digit(square: Square) -> char {
    char::from(b'1' + rank_of(square))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The full reading of a text: UCI, else tolerant SAN.
    fn full(text: &str) -> Option<SanPattern> {
        let text = text.trim();
        match UciPattern::read(text.as_bytes()) {
            Some(uci) => Some(uci.into()),
            None => SanPattern::read(text).ok(),
        }
    }

    #[test]
    fn plain_san_reads_as_the_full_reading_does() {
        let texts = [
            "e4", "exd5", "Nf3", "Nbd7", "R1e2", "Qh4xe1", "Qh4e1", "e8=Q", "exd8=N+", "Kxf2#",
            "a1", "h8", "bxc8=B", "Bb5+", "N5xd4", "e5xd6", "Rxa8", "Kg1", "Qxh7#",
        ];
        for text in texts {
            let plain = SanPattern::read_plain(text.as_bytes());
            assert!(plain.is_some(), "{text} is plain SAN");
            assert_eq!(plain, full(text), "{text}");
        }
    }

    #[test]
    fn other_texts_are_left_to_the_full_reading() {
        let texts = [
            "e2e4", "e7e8q", "O-O", "0-0-0", "e8Q", "Pe4", "e4!", " e4", "e4++", "Ng1-f3",
            "exd6e.p.", "e8=q", "Nf3:", "i4", "e9", "", "Q", "xe4x", "Nbbd7", "e4+#",
        ];
        for text in texts {
            assert_eq!(SanPattern::read_plain(text.as_bytes()), None, "{text}");
        }
    }
}
