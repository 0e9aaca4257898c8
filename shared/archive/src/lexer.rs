//! Splits archive text into tokens, streaming from a reader through one fixed-size buffer,
//! or reading bytes already in memory in place ([`Lexer::in_place`]: the same tokens).
//!
//! Handles what PGN files in the wild contain: a byte order mark, LF, CRLF and CR line ends,
//! `%` escape lines, `;` rest-of-line comments, brace comments over several lines, NAGs,
//! variations, text that is not UTF-8 (read as Windows-1252, the token says so). Every token
//! carries its line and column (1-based, columns in characters).
//!
//! Tokens borrow the buffer: a token's text is copied only when it must change (a tag value
//! with escapes, text read as Windows-1252). The lexer finds a token's end first and then
//! counts its lines and columns in one step (a run with no line end and only ASCII moves
//! the column by its length). No token keeps more than [`MAX_TEXT`] bytes: a longer one is
//! read past without being kept, so memory stays bounded on any input.

use std::borrow::Cow;
use std::io::{self, Read};

use memchr::{memchr, memchr2};

use crate::decode::decode;

/// The longest tag value, comment or symbol kept, in bytes.
pub const MAX_TEXT: usize = 64 * 1024;

/// The buffer's size: any token of at most [`MAX_TEXT`] bytes of text fits in it, escapes
/// and all, with room to spare for the tokens around it.
const CAPACITY: usize = 4 * MAX_TEXT;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag {
        /// The tag name.
        name: &'a str,
        /// The value, unescaped.
        value: Cow<'a, str>,
    },
    /// The text between `{` and `}`.
    Comment(Cow<'a, str>),
    /// A move, a move number or a result, as written.
    Symbol(Cow<'a, str>),
    /// `$n`.
    Nag,
    /// `(`: a variation begins.
    Open,
    /// `)`: a variation ends.
    Close,
    /// Text that is not a token, with the reason.
    Error(String),
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: TokenKind<'a>,
    /// Line of its first character.
    pub line: usize,
    /// Column of its first character.
    pub column: usize,
    /// True when only white space precedes it on its line.
    pub line_start: bool,
    /// True when its text is not UTF-8 and was read as Windows-1252.
    pub not_utf8: bool,
}

/// Where the lexer is: line and column of the next byte, whether only white space precedes
/// it on its line, and the line a CR began (an LF right after that CR, at its column 1, ends
/// no further line).
#[derive(Clone, Copy, Debug)]
pub struct Cursor {
    /// Line of the next byte, from 1.
    pub line: usize,
    /// Column of the next byte, from 1, in characters.
    pub column: usize,
    /// True when only white space precedes the next byte on its line.
    pub line_start: bool,
    cr_line: usize,
}

impl Cursor {
    /// The start of line `line`, as the lexer stands after a line end.
    pub fn at_line(line: usize) -> Cursor {
        Cursor {
            line,
            column: 1,
            line_start: true,
            cr_line: 0,
        }
    }

    /// Moves past `byte`. LF, CR and CRLF each end a line. Bytes above CR, which are never
    /// line ends, take one comparison and a branch-free column step.
    #[inline]
    pub fn advance(&mut self, byte: u8) {
        if byte > b'\r' {
            self.column += usize::from(!is_continuation(byte));
            return;
        }
        match byte {
            b'\n' if self.column == 1 && self.cr_line == self.line => self.cr_line = 0,
            b'\n' | b'\r' => {
                self.line += 1;
                self.column = 1;
                self.line_start = true;
                self.cr_line = if byte == b'\r' { self.line } else { 0 };
            }
            _ => self.column += 1,
        }
    }

    /// Moves past `bytes`: a run without line ends moves the column by its characters (its
    /// length when it is ASCII); any other run byte by byte.
    #[inline]
    pub fn advance_over(&mut self, bytes: &[u8]) {
        if bytes.len() < SHORT_RUN || memchr2(b'\n', b'\r', bytes).is_some() {
            bytes.iter().for_each(|byte| self.advance(*byte));
        } else if bytes.is_ascii() {
            self.column += bytes.len();
        } else {
            self.column += bytes.iter().filter(|b| !is_continuation(**b)).count();
        }
    }
}

/// Runs shorter than this are counted byte by byte: looking for a line end first would cost
/// more.
const SHORT_RUN: usize = 16;

/// True for UTF-8 continuation bytes, which do not start a character.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// True for the bytes that end a line: LF and CR.
fn is_line_end(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// True for white space between tokens.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C)
}

/// A token found at the start of the unread bytes: how many bytes it takes, and what it is.
struct Scanned {
    length: usize,
    shape: Shape,
}

/// What a scanned token is, its texts as ranges of the bytes it takes.
enum Shape {
    Tag {
        name: std::ops::Range<usize>,
        value: std::ops::Range<usize>,
        /// True when the value holds escapes to take out.
        escaped: bool,
    },
    Comment,
    Symbol,
    Nag,
    Open,
    Close,
    /// Not a token: the reason, and whether the rest of the line goes with it.
    Error {
        reason: String,
        skip_line: bool,
    },
}

/// What scanning the unread bytes found.
enum Scan {
    /// A whole token.
    Token(Scanned),
    /// The bytes end before the token does: more must be read first.
    More,
}

/// The tokens of a byte stream.
pub struct Lexer<R> {
    input: R,
    /// Holds the bytes read and not yet consumed, from `start` to `end`; its length is its
    /// room.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    cursor: Cursor,
    /// The number of bytes consumed so far.
    offset: u64,
    io_error: Option<io::Error>,
    /// Where the last token began, to read it again ([`Lexer::unread`]).
    last: (usize, Cursor, u64),
}

impl<R: Read> Lexer<R> {
    /// A lexer over `input`.
    pub fn new(input: R) -> Lexer<R> {
        Lexer::holding(input, vec![0; CAPACITY], 0)
    }

    /// A lexer over the first `end` bytes of `buffer` and then `input`, the buffer's length
    /// its room.
    fn holding(input: R, buffer: Vec<u8>, end: usize) -> Lexer<R> {
        let cursor = Cursor {
            line: 1,
            column: 1,
            line_start: true,
            cr_line: 0,
        };
        Lexer {
            input,
            buffer,
            start: 0,
            end,
            eof: false,
            cursor,
            offset: 0,
            io_error: None,
            last: (0, cursor, 0),
        }
    }

    /// Starts reading at `cursor` rather than at the start of line 1: for input that
    /// follows text read elsewhere, which left off there. Only before the first token.
    pub fn start_at(&mut self, cursor: Cursor) {
        self.cursor = cursor;
        self.last.1 = cursor;
    }

    /// The read error that ended the stream, if one did.
    pub fn take_io_error(&mut self) -> Option<io::Error> {
        self.io_error.take()
    }

    /// Bytes consumed so far (for progress reports).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The line the lexer has reached.
    pub fn line(&self) -> usize {
        self.cursor.line
    }

    /// Where the lexer is: the line and column of the next unread byte.
    pub fn cursor(&self) -> Cursor {
        self.cursor
    }

    /// The unread bytes, at least `want` of them when the input and the buffer hold that
    /// many (reading on as needed), and whether the input ends with them: for a reader that
    /// goes through the bytes itself and then tells the lexer how far
    /// ([`Lexer::skip_read`]).
    pub fn window(&mut self, want: usize) -> (&[u8], bool) {
        while self.end - self.start < want && self.fill() {}
        (&self.buffer[self.start..self.end], self.eof)
    }

    /// Consumes the first `n` unread bytes, which a reader of [`Lexer::window`] went
    /// through, leaving the lexer where that reader's cursor went.
    pub fn skip_read(&mut self, n: usize, cursor: Cursor) {
        self.start += n;
        self.offset += n as u64;
        self.cursor = cursor;
    }

    /// Reads more input after the unread bytes, moving them to the front of the buffer
    /// first; false when nothing more came (the input ended or the buffer is full).
    fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        if self.start > 0 {
            self.buffer.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        while self.end < self.buffer.len() {
            match self.input.read(&mut self.buffer[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return false;
                }
                Ok(read) => {
                    self.end += read;
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.io_error = Some(e);
                    self.eof = true;
                    return false;
                }
            }
        }
        false
    }

    /// The unread bytes.
    fn unread_bytes(&self) -> &[u8] {
        &self.buffer[self.start..self.end]
    }

    /// The unread bytes a token is scanned in, no more of them than a buffer of its own
    /// holds (so that bytes read in place give the tokens a reader's give), and whether the
    /// input ends with them.
    fn scan_window(&self) -> (&[u8], bool) {
        let end = self.end.min(self.start + CAPACITY);
        (&self.buffer[self.start..end], self.eof && end == self.end)
    }

    /// Consumes `n` unread bytes.
    #[inline]
    fn consume(&mut self, n: usize) {
        let bytes = &self.buffer[self.start..self.start + n];
        self.cursor.advance_over(bytes);
        self.start += n;
        self.offset += n as u64;
    }

    /// Consumes bytes while `keep` holds for them, reading on as needed; true when it
    /// stopped at a byte `keep` refused (false at the end of the input).
    fn consume_while(&mut self, keep: impl Fn(u8) -> bool) -> bool {
        loop {
            let bytes = self.unread_bytes();
            let n = bytes.iter().position(|b| !keep(*b));
            self.consume(n.unwrap_or(bytes.len()));
            if n.is_some() {
                return true;
            }
            if !self.fill() {
                return false;
            }
        }
    }

    /// Consumes bytes up to and with the first `byte`, reading on as needed; false when the
    /// input ended first.
    fn consume_through(&mut self, byte: u8) -> bool {
        loop {
            let bytes = self.unread_bytes();
            let found = memchr(byte, bytes);
            self.consume(found.map_or(bytes.len(), |at| at + 1));
            if found.is_some() {
                return true;
            }
            if !self.fill() {
                return false;
            }
        }
    }

    /// The next unread byte, reading on as needed.
    fn peek(&mut self) -> Option<u8> {
        if self.start == self.end && !self.fill() {
            return None;
        }
        Some(self.buffer[self.start])
    }

    /// Skips white space, byte order marks, escape lines and `;` comments.
    fn skip_blank(&mut self) {
        while let Some(byte) = self.peek() {
            match byte {
                _ if is_blank(byte) => {
                    self.consume_while(is_blank);
                }
                0xEF if self.starts_with(b"\xEF\xBB\xBF") => {
                    self.consume(3);
                    // A byte order mark takes no column.
                    self.cursor.column -= 1;
                }
                b'%' if self.cursor.line_start => self.skip_line(),
                b';' => self.skip_line(),
                _ => return,
            }
        }
    }

    /// True when the unread bytes begin with `prefix` (reading on as needed).
    fn starts_with(&mut self, prefix: &[u8]) -> bool {
        while self.end - self.start < prefix.len() && self.fill() {}
        self.unread_bytes().starts_with(prefix)
    }

    /// Skips the rest of the line and its line end (a CRLF's LF is then white space).
    fn skip_line(&mut self) {
        if self.consume_while(|b| !is_line_end(b)) {
            self.consume(1);
        }
    }

    /// Reads the next token again: the last one given was not taken.
    pub fn unread(&mut self) {
        (self.start, self.cursor, self.offset) = self.last;
    }

    /// The next token, or `None` at the end of the input.
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        self.skip_blank();
        self.peek()?;
        let before = self.cursor;
        let scanned = loop {
            let (window, ended) = self.scan_window();
            match scan(window, ended) {
                Scan::Token(scanned) => break scanned,
                Scan::More if self.fill() => {}
                // The input ended since: scan again, knowing it.
                Scan::More if self.scan_window().1 => {}
                Scan::More => break self.overlong(),
            }
        };
        Some(self.take(scanned, before))
    }

    /// What a token longer than the buffer is, read past to its end without keeping it.
    fn overlong(&mut self) -> Scanned {
        let reason = match self.buffer[self.start] {
            b'{' => {
                if self.consume_through(b'}') {
                    format!("comment longer than {MAX_TEXT} bytes")
                } else {
                    "unterminated comment: `}` missing".into()
                }
            }
            b'[' => {
                self.skip_line();
                "tag value too long".into()
            }
            b'$' => {
                self.consume(1);
                self.consume_while(|b| b.is_ascii_digit());
                return Scanned {
                    length: 0,
                    shape: Shape::Nag,
                };
            }
            _ => {
                self.consume_while(|b| !is_delimiter(b));
                format!("symbol longer than {MAX_TEXT} bytes")
            }
        };
        Scanned {
            length: 0,
            shape: Shape::Error {
                reason,
                skip_line: false,
            },
        }
    }

    /// Consumes a scanned token, which began where the cursor was `before`, and gives it,
    /// its texts borrowed from the buffer.
    fn take(&mut self, scanned: Scanned, before: Cursor) -> Token<'_> {
        self.last = (self.start, before, self.offset);
        let at = self.start;
        self.consume(scanned.length);
        let token = |kind, not_utf8| Token {
            kind,
            line: before.line,
            column: before.column,
            line_start: before.line_start,
            not_utf8,
        };
        let shape = match scanned.shape {
            Shape::Error { reason, skip_line } => {
                if skip_line {
                    self.skip_line();
                }
                self.cursor.line_start = self.cursor.column == 1;
                return token(TokenKind::Error(reason), false);
            }
            shape => shape,
        };
        // A token that ended by consuming a line end leaves the lexer at a line start.
        self.cursor.line_start = self.cursor.column == 1;
        let bytes = &self.buffer[at..at + scanned.length];
        let mut not_utf8 = false;
        let mut text = |range: std::ops::Range<usize>| {
            let (text, fallback) = decode(&bytes[range]);
            not_utf8 |= fallback;
            text
        };
        let kind = match shape {
            Shape::Tag {
                name,
                value,
                escaped,
            } => TokenKind::Tag {
                name: std::str::from_utf8(&bytes[name]).unwrap_or_default(),
                value: match escaped {
                    true => Cow::Owned(unescaped(&bytes[value], &mut not_utf8)),
                    false => text(value),
                },
            },
            Shape::Comment => TokenKind::Comment(text(1..scanned.length - 1)),
            Shape::Symbol => TokenKind::Symbol(text(0..scanned.length)),
            Shape::Nag => TokenKind::Nag,
            Shape::Open => TokenKind::Open,
            Shape::Close => TokenKind::Close,
            Shape::Error { .. } => unreachable!("errors are given above"),
        };
        token(kind, not_utf8)
    }
}

/// A lexer over bytes read in place, not copied into a buffer of its own.
impl Lexer<io::Empty> {
    /// A lexer over `bytes`, all the input there is, ended by `error` when one is given: its
    /// tokens, places and offsets are those of a lexer over a reader that gives these bytes
    /// and then that error (or their end).
    pub fn in_place(bytes: Vec<u8>, error: Option<io::Error>) -> Lexer<io::Empty> {
        let end = bytes.len();
        let mut lexer = Lexer::holding(io::empty(), bytes, end);
        lexer.eof = true;
        lexer.io_error = error;
        lexer
    }

    /// The bytes read in place, given back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buffer
    }
}

/// Scans the token at the start of `bytes` (which begin with a token's first byte); `ended`
/// says the input ends with them.
fn scan(bytes: &[u8], ended: bool) -> Scan {
    let token = |length, shape| Scan::Token(Scanned { length, shape });
    let error = |length, reason: String| {
        token(
            length,
            Shape::Error {
                reason,
                skip_line: false,
            },
        )
    };
    match bytes[0] {
        b'[' => scan_tag(bytes, ended),
        b'{' => match memchr(b'}', bytes) {
            Some(close) if close - 1 > MAX_TEXT => {
                error(close + 1, format!("comment longer than {MAX_TEXT} bytes"))
            }
            Some(close) => token(close + 1, Shape::Comment),
            None if ended => error(bytes.len(), "unterminated comment: `}` missing".into()),
            None => Scan::More,
        },
        b'$' => {
            let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
            match (digits, 1 + digits == bytes.len() && !ended) {
                (_, true) => Scan::More,
                (0, false) => error(1, "expected digits after `$`".into()),
                (_, false) => token(1 + digits, Shape::Nag),
            }
        }
        b'(' => token(1, Shape::Open),
        b')' => token(1, Shape::Close),
        byte @ (b'}' | b']' | b'"') => error(1, format!("unexpected `{}`", byte as char)),
        _ => match symbol_length(bytes, ended) {
            None => Scan::More,
            Some(length) if length > MAX_TEXT => {
                error(length, format!("symbol longer than {MAX_TEXT} bytes"))
            }
            Some(length) => token(length, Shape::Symbol),
        },
    }
}

/// The length of the symbol at the start of `bytes`, levels in squares (`b1(2)`) included;
/// `None` when the bytes may end before it does.
fn symbol_length(bytes: &[u8], ended: bool) -> Option<usize> {
    let mut at = 0;
    loop {
        at += bytes[at..]
            .iter()
            .take_while(|b| !is_delimiter(**b))
            .count();
        match bytes.get(at) {
            None if ended => return Some(at),
            None => return None,
            Some(b'(') => match level_length(&bytes[at..]) {
                Level::Length(length) => at += length,
                Level::More if !ended => return None,
                Level::More | Level::None => return Some(at),
            },
            Some(_) => return Some(at),
        }
    }
}

/// Whether `(`, one to four digits and `)` begin some bytes.
enum Level {
    /// They do, in this many bytes.
    Length(usize),
    /// They do not.
    None,
    /// The bytes end too soon to tell.
    More,
}

/// Whether a level such as `(2)` begins `bytes` (which begin with `(`).
fn level_length(bytes: &[u8]) -> Level {
    let digits = bytes[1..]
        .iter()
        .take(4)
        .take_while(|b| b.is_ascii_digit())
        .count();
    match bytes.get(1 + digits) {
        None => Level::More,
        Some(b')') if digits > 0 => Level::Length(digits + 2),
        Some(_) => Level::None,
    }
}

/// Scans a tag pair `[Name "value"]` at the start of `bytes`.
fn scan_tag(bytes: &[u8], ended: bool) -> Scan {
    let more = || if ended { None } else { Some(Scan::More) };
    let broken = |at: usize, reason: &str, skip_line: bool| {
        Scan::Token(Scanned {
            length: at,
            shape: Shape::Error {
                reason: reason.into(),
                skip_line,
            },
        })
    };
    let spaces = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()
    };
    let name_start = spaces(1);
    let name_length = bytes[name_start..]
        .iter()
        .take(256)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let name_end = name_start + name_length;
    if name_length > 255 {
        return broken(name_end, "tag name longer than 255 characters", false);
    }
    let quote = spaces(name_end);
    if quote == bytes.len()
        && let Some(more) = more()
    {
        return more;
    }
    if name_length == 0 {
        return broken(quote, "expected a tag name after `[`", true);
    }
    if bytes.get(quote) != Some(&b'"') {
        return broken(quote, "expected `\"` before the tag value", true);
    }
    let value_start = quote + 1;
    let mut at = value_start;
    let mut kept = 0;
    let mut escaped = false;
    loop {
        match bytes.get(at) {
            None => {
                return more().unwrap_or_else(|| broken(at, "unterminated tag value", false));
            }
            Some(b'\n' | b'\r') => return broken(at + 1, "unterminated tag value", false),
            Some(b'"') => {
                let close = spaces(at + 1);
                match bytes.get(close) {
                    None if !ended => return Scan::More,
                    Some(b']') => {
                        return Scan::Token(Scanned {
                            length: close + 1,
                            shape: Shape::Tag {
                                name: name_start..name_end,
                                value: value_start..at,
                                escaped,
                            },
                        });
                    }
                    _ => at += 1,
                }
            }
            Some(b'\\') if matches!(bytes.get(at + 1), Some(b'"' | b'\\')) => {
                escaped = true;
                at += 2;
            }
            Some(b'\\') if at + 1 == bytes.len() && !ended => return Scan::More,
            Some(_) => at += 1,
        }
        kept += 1;
        if kept > MAX_TEXT {
            return broken(at, "tag value too long", true);
        }
    }
}

/// A tag value's text with `\"` and `\\` taken for the character they escape (noting in
/// `not_utf8` when it is not UTF-8).
fn unescaped(raw: &[u8], not_utf8: &mut bool) -> String {
    let mut value = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter().copied();
    while let Some(byte) = bytes.next() {
        match byte {
            b'\\' => value.push(bytes.next().unwrap_or(b'\\')),
            _ => value.push(byte),
        }
    }
    let (text, fallback) = decode(&value);
    *not_utf8 |= fallback;
    text.into_owned()
}

/// Bytes that end a symbol: white space and `{ } ( ) [ ] ; " $`.
pub const fn is_delimiter(byte: u8) -> bool {
    DELIMITERS[byte as usize]
}

const DELIMITERS: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b" \t\r\n\x0B\x0C{}()[];\"$";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind of each token, owned, with its line and column.
    fn kinds(text: &str) -> Vec<(TokenKind<'static>, usize, usize)> {
        tokens(text.as_bytes())
            .into_iter()
            .map(|(kind, line, column, _)| (kind, line, column))
            .collect()
    }

    fn tokens(bytes: &[u8]) -> Vec<(TokenKind<'static>, usize, usize, bool)> {
        let mut lexer = Lexer::new(bytes);
        let mut found = Vec::new();
        while let Some(token) = lexer.next_token() {
            found.push((owned(token.kind), token.line, token.column, token.not_utf8));
        }
        found
    }

    fn owned(kind: TokenKind<'_>) -> TokenKind<'static> {
        let own = |text: Cow<'_, str>| Cow::Owned(text.into_owned());
        match kind {
            TokenKind::Tag { name, value } => TokenKind::Tag {
                name: name.to_string().leak(),
                value: own(value),
            },
            TokenKind::Comment(text) => TokenKind::Comment(own(text)),
            TokenKind::Symbol(text) => TokenKind::Symbol(own(text)),
            TokenKind::Nag => TokenKind::Nag,
            TokenKind::Open => TokenKind::Open,
            TokenKind::Close => TokenKind::Close,
            TokenKind::Error(reason) => TokenKind::Error(reason),
        }
    }

    fn symbol(text: &str) -> TokenKind<'static> {
        TokenKind::Symbol(Cow::Owned(text.into()))
    }

    fn tag(name: &'static str, value: &str) -> TokenKind<'static> {
        TokenKind::Tag {
            name,
            value: Cow::Owned(value.into()),
        }
    }

    #[test]
    fn squares_with_levels_stay_one_symbol() {
        assert_eq!(
            kinds("b1(2)-c3(2) QL1@N-S-dn e4(d4)"),
            [
                (symbol("b1(2)-c3(2)"), 1, 1),
                (symbol("QL1@N-S-dn"), 1, 13),
                (symbol("e4"), 1, 24),
                (TokenKind::Open, 1, 26),
                (symbol("d4"), 1, 27),
                (TokenKind::Close, 1, 29),
            ]
        );
    }

    #[test]
    fn skips_bom_escapes_and_rest_of_line_comments() {
        assert_eq!(
            kinds("\u{feff}% escape\r\ne4 ; note\r\n  e5 %not-an-escape"),
            [
                (symbol("e4"), 2, 1),
                (symbol("e5"), 3, 3),
                (symbol("%not-an-escape"), 3, 6),
            ]
        );
    }

    #[test]
    fn lf_crlf_and_cr_each_end_one_line() {
        for end in ["\n", "\r\n", "\r"] {
            let text = ["[A \"x\"]", "% escape", "e4 ; note", "", "", "e5"].join(end);
            assert_eq!(
                kinds(&text),
                [
                    (tag("A", "x"), 1, 1),
                    (symbol("e4"), 3, 1),
                    (symbol("e5"), 6, 1)
                ],
                "{end:?}"
            );
        }
        let broken = kinds("[A \"x\r[B \"y\"]");
        assert_eq!(
            broken[0],
            (TokenKind::Error("unterminated tag value".into()), 1, 1)
        );
        assert_eq!(broken[1].1, 2);
    }

    #[test]
    fn text_that_is_not_utf8_is_read_as_windows_1252_and_marked() {
        let found: Vec<(TokenKind, bool)> = tokens(b"[White \"Ju\xe1rez\"] {caf\xe9} e4")
            .into_iter()
            .map(|(kind, _, _, not_utf8)| (kind, not_utf8))
            .collect();
        assert_eq!(
            found,
            [
                (tag("White", "Juárez"), true),
                (TokenKind::Comment(Cow::Owned("café".into())), true),
                (symbol("e4"), false),
            ]
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(
            kinds("[White \"Čapek\"] {é} $3"),
            [
                (tag("White", "Čapek"), 1, 1),
                (TokenKind::Comment(Cow::Owned("é".into())), 1, 17),
                (TokenKind::Nag, 1, 21),
            ]
        );
    }

    #[test]
    fn tag_values_unescape_and_tolerate_bare_quotes() {
        let value = |text: &str| match &kinds(text)[0].0 {
            TokenKind::Tag { value, .. } => value.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(value(r#"[A "x \"y\" \\ z"]"#), r#"x "y" \ z"#);
        assert_eq!(value(r#"[A "Bo "B" Lee" ]"#), r#"Bo "B" Lee"#);
    }

    /// A reader that gives one byte at a time: every token crosses a buffer's end.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let Some((first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buffer[0] = *first;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn tokens_read_alike_however_the_input_arrives() {
        let text = "\u{feff}[Event \"a \\\"b\\\"\"]\r\n[Site \"x\" ]\r\n% esc\n1. e4 {[%ccsnt \
                    2026.11.02,09:00:12]} $12 (1... e5) b1(2)-c3(2) e4(d4) 1-0 {never";
        let mut trickled = Lexer::new(Trickle(text.as_bytes()));
        let mut found = Vec::new();
        while let Some(token) = trickled.next_token() {
            found.push((owned(token.kind), token.line, token.column, token.not_utf8));
        }
        assert_eq!(found, tokens(text.as_bytes()));
    }

    #[test]
    fn a_token_read_again_is_the_same() {
        let mut lexer = Lexer::new(&b"e4 [A \"x\"] e5"[..]);
        let first = lexer
            .next_token()
            .map(|t| (owned(t.kind), t.line, t.column));
        assert_eq!(first, Some((symbol("e4"), 1, 1)));
        let tag_pair = lexer
            .next_token()
            .map(|t| (owned(t.kind), t.line, t.column));
        lexer.unread();
        let again = lexer
            .next_token()
            .map(|t| (owned(t.kind), t.line, t.column));
        assert_eq!(tag_pair, again);
        assert_eq!(lexer.next_token().map(|t| t.column), Some(12));
    }
}
