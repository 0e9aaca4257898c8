//! Splits archive text into tokens, streaming from a reader with a fixed-size buffer.
//!
//! Handles what PGN files in the wild contain: a byte order mark, LF, CRLF and CR line ends,
//! `%` escape lines, `;` rest-of-line comments, brace comments over several lines, NAGs,
//! variations, text that is not UTF-8 (read as Windows-1252, the token says so). Every token
//! carries its line and column (1-based, columns in characters). No token keeps more than
//! [`MAX_TEXT`] bytes, so memory stays bounded on any input.

use std::io::{self, Read};

use crate::decode::decode;

/// The longest tag value, comment or symbol kept, in bytes.
pub const MAX_TEXT: usize = 64 * 1024;

const CHUNK: usize = 64 * 1024;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: String, value: String },
    /// The text between `{` and `}`.
    Comment(String),
    /// A move, a move number or a result, as written.
    Symbol(String),
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
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
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
struct Cursor {
    line: usize,
    column: usize,
    line_start: bool,
    cr_line: usize,
}

impl Cursor {
    /// Moves past `byte`. LF, CR and CRLF each end a line. Bytes above CR, which are never
    /// line ends, take one comparison and a branch-free column step.
    #[inline]
    fn advance(&mut self, byte: u8) {
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
}

/// True for the bytes that end a line: LF and CR.
fn is_line_end(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// True for UTF-8 continuation bytes, which do not start a character.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The tokens of a byte stream.
pub struct Lexer<R> {
    input: R,
    buffer: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
    cursor: Cursor,
    /// The number of bytes consumed so far.
    offset: u64,
    io_error: Option<io::Error>,
    /// A buffer handed back by [`Lexer::recycle`], reused for the next text.
    spare: Vec<u8>,
    /// True when the token being read has text that is not UTF-8.
    not_utf8: bool,
}

impl<R: Read> Lexer<R> {
    /// A lexer over `input`.
    pub fn new(input: R) -> Lexer<R> {
        Lexer {
            input,
            buffer: vec![0; CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            cursor: Cursor {
                line: 1,
                column: 1,
                line_start: true,
                cr_line: 0,
            },
            offset: 0,
            io_error: None,
            spare: Vec::new(),
            not_utf8: false,
        }
    }

    /// The read error that ended the stream, if one did.
    pub fn take_io_error(&mut self) -> Option<io::Error> {
        self.io_error.take()
    }

    /// Takes back the text of a token that is no longer needed, to hold a later one.
    pub fn recycle(&mut self, text: String) {
        self.spare = text.into_bytes();
    }

    /// An empty buffer, reusing a recycled one.
    fn buffer(&mut self) -> Vec<u8> {
        let mut buffer = std::mem::take(&mut self.spare);
        buffer.clear();
        buffer
    }

    /// Bytes consumed so far (for progress reports).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The line the lexer has reached.
    pub fn line(&self) -> usize {
        self.cursor.line
    }

    /// Makes at least `n` bytes available unless the input ends first; true if they are.
    fn fill(&mut self, n: usize) -> bool {
        while self.end - self.start < n && !self.eof {
            if self.start > 0 {
                self.buffer.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            match self.input.read(&mut self.buffer[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(read) => self.end += read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.io_error = Some(e);
                    self.eof = true;
                }
            }
        }
        self.end - self.start >= n
    }

    fn peek_at(&mut self, k: usize) -> Option<u8> {
        self.fill(k + 1).then(|| self.buffer[self.start + k])
    }

    fn peek(&mut self) -> Option<u8> {
        if self.start < self.end {
            Some(self.buffer[self.start])
        } else {
            self.peek_at(0)
        }
    }

    /// Consumes the bytes that satisfy `keep`, appending them to `out` (if given) while it
    /// holds fewer than [`MAX_TEXT`] bytes; true when some had to be dropped for that limit.
    fn consume_while(&mut self, mut out: Option<&mut Vec<u8>>, keep: impl Fn(u8) -> bool) -> bool {
        let mut dropped = false;
        while self.fill(1) {
            let available = &self.buffer[self.start..self.end];
            let cursor = &mut self.cursor;
            let n = available
                .iter()
                .position(|b| {
                    let stop = !keep(*b);
                    if !stop {
                        cursor.advance(*b);
                    }
                    stop
                })
                .unwrap_or(available.len());
            let run = &available[..n];
            if let Some(out) = out.as_deref_mut() {
                let room = MAX_TEXT.saturating_sub(out.len());
                dropped |= run.len() > room;
                out.extend_from_slice(&run[..run.len().min(room)]);
            }
            self.start += n;
            self.offset += n as u64;
            if n < available.len() {
                break;
            }
        }
        dropped
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.start += 1;
        self.offset += 1;
        self.cursor.advance(byte);
        Some(byte)
    }

    /// Skips white space, byte order marks, escape lines and `;` comments.
    fn skip_blank(&mut self) {
        while let Some(byte) = self.peek() {
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C => {
                    self.consume_while(None, |b| {
                        matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C)
                    });
                }
                0xEF if self.peek_at(1) == Some(0xBB) && self.peek_at(2) == Some(0xBF) => {
                    self.bump();
                    self.bump();
                    self.bump();
                    // A byte order mark takes no column.
                    self.cursor.column -= 1;
                }
                b'%' if self.cursor.line_start => self.skip_line(),
                b';' => self.skip_line(),
                _ => return,
            }
        }
    }

    /// Skips the rest of the line and its line end (a CRLF's LF is then white space).
    fn skip_line(&mut self) {
        self.consume_while(None, |b| !is_line_end(b));
        self.bump();
    }

    fn tag(&mut self) -> TokenKind {
        self.bump();
        self.skip_spaces();
        let mut name = Vec::new();
        while let Some(byte) = self.peek() {
            if byte.is_ascii_alphanumeric() || byte == b'_' {
                name.push(byte);
                self.bump();
                if name.len() > 255 {
                    return TokenKind::Error("tag name longer than 255 characters".into());
                }
            } else {
                break;
            }
        }
        if name.is_empty() {
            return self.broken_tag("expected a tag name after `[`");
        }
        self.skip_spaces();
        if self.peek() != Some(b'"') {
            return self.broken_tag("expected `\"` before the tag value");
        }
        self.bump();
        let mut value = Vec::new();
        loop {
            let too_long = self.consume_while(Some(&mut value), |b| {
                !matches!(b, b'"' | b'\\' | b'\n' | b'\r')
            });
            if too_long {
                return self.broken_tag("tag value too long");
            }
            match self.bump() {
                None | Some(b'\n' | b'\r') => {
                    return TokenKind::Error("unterminated tag value".into());
                }
                // A quote ends the value only before `]`: python-chess writes quotes
                // inside values without escaping them.
                Some(b'"') if self.closes_tag() => break,
                Some(b'\\') if matches!(self.peek(), Some(b'"' | b'\\')) => {
                    value.push(self.bump().unwrap_or(b'\\'));
                }
                Some(byte) => value.push(byte),
            }
            if value.len() > MAX_TEXT {
                return self.broken_tag("tag value too long");
            }
        }
        self.skip_spaces();
        if self.peek() != Some(b']') {
            return self.broken_tag("expected `]` after the tag value");
        }
        self.bump();
        TokenKind::Tag {
            name: self.text(name),
            value: self.text(value),
        }
    }

    /// True when only spaces stand between the next byte and a `]`.
    fn closes_tag(&mut self) -> bool {
        let mut k = 0;
        while matches!(self.peek_at(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        self.peek_at(k) == Some(b']')
    }

    /// An error inside a tag pair: the rest of its line is skipped.
    fn broken_tag(&mut self, reason: &str) -> TokenKind {
        self.skip_line();
        TokenKind::Error(reason.into())
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
    }

    fn comment(&mut self) -> TokenKind {
        self.bump();
        let mut text = self.buffer();
        let too_long = self.consume_while(Some(&mut text), |b| b != b'}');
        if self.bump().is_none() {
            return TokenKind::Error("unterminated comment: `}` missing".into());
        }
        if too_long {
            return TokenKind::Error(format!("comment longer than {MAX_TEXT} bytes"));
        }
        TokenKind::Comment(self.text(text))
    }

    fn nag(&mut self) -> TokenKind {
        self.bump();
        let mut digits = 0;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.bump();
            digits += 1;
        }
        if digits == 0 {
            TokenKind::Error("expected digits after `$`".into())
        } else {
            TokenKind::Nag
        }
    }

    fn symbol(&mut self) -> TokenKind {
        let mut text = self.buffer();
        loop {
            if self.consume_while(Some(&mut text), |b| !is_delimiter(b)) {
                return TokenKind::Error(format!("symbol longer than {MAX_TEXT} bytes"));
            }
            if self.peek() == Some(b'(') && self.parenthesised_digits() {
                // A level in a square such as `b1(2)`: part of the symbol.
                while let Some(byte) = self.bump() {
                    text.push(byte);
                    if byte == b')' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
        TokenKind::Symbol(self.text(text))
    }

    /// The text of a token's `bytes` (see [`decode`]), noting when it is not UTF-8.
    fn text(&mut self, bytes: Vec<u8>) -> String {
        let (text, not_utf8) = decode(bytes);
        self.not_utf8 |= not_utf8;
        text
    }

    /// True when the input continues with `(`, one to three digits and `)`.
    fn parenthesised_digits(&mut self) -> bool {
        let mut k = 1;
        while k <= 4 && matches!(self.peek_at(k), Some(b'0'..=b'9')) {
            k += 1;
        }
        k > 1 && self.peek_at(k) == Some(b')')
    }
}

/// Bytes that end a symbol: white space and `{ } ( ) [ ] ; " $`.
fn is_delimiter(byte: u8) -> bool {
    DELIMITERS[usize::from(byte)]
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

impl<R: Read> Iterator for Lexer<R> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        self.skip_blank();
        let byte = self.peek()?;
        let (line, column, line_start) =
            (self.cursor.line, self.cursor.column, self.cursor.line_start);
        let kind = match byte {
            b'[' => self.tag(),
            b'{' => self.comment(),
            b'$' => self.nag(),
            b'(' => {
                self.bump();
                TokenKind::Open
            }
            b')' => {
                self.bump();
                TokenKind::Close
            }
            b'}' | b']' | b'"' => {
                self.bump();
                TokenKind::Error(format!("unexpected `{}`", byte as char))
            }
            _ => self.symbol(),
        };
        // A token that ended by consuming a line end leaves the lexer at a line start.
        self.cursor.line_start = self.cursor.column == 1;
        Some(Token {
            kind,
            line,
            column,
            line_start,
            not_utf8: std::mem::take(&mut self.not_utf8),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TokenKind, usize, usize)> {
        Lexer::new(text.as_bytes())
            .map(|t| (t.kind, t.line, t.column))
            .collect()
    }

    fn symbol(text: &str) -> TokenKind {
        TokenKind::Symbol(text.into())
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
                    (
                        TokenKind::Tag {
                            name: "A".into(),
                            value: "x".into()
                        },
                        1,
                        1
                    ),
                    (symbol("e4"), 3, 1),
                    (symbol("e5"), 6, 1),
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
        let tokens: Vec<(TokenKind, bool)> = Lexer::new(&b"[White \"Ju\xe1rez\"] {caf\xe9} e4"[..])
            .map(|t| (t.kind, t.not_utf8))
            .collect();
        assert_eq!(
            tokens,
            [
                (
                    TokenKind::Tag {
                        name: "White".into(),
                        value: "Juárez".into()
                    },
                    true
                ),
                (TokenKind::Comment("café".into()), true),
                (symbol("e4"), false),
            ]
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(
            kinds("[White \"Čapek\"] {é} $3"),
            [
                (
                    TokenKind::Tag {
                        name: "White".into(),
                        value: "Čapek".into()
                    },
                    1,
                    1
                ),
                (TokenKind::Comment("é".into()), 1, 17),
                (TokenKind::Nag, 1, 21),
            ]
        );
    }

    #[test]
    fn tag_values_unescape_and_tolerate_bare_quotes() {
        let tag = |text: &str| match &kinds(text)[0].0 {
            TokenKind::Tag { value, .. } => value.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(tag(r#"[A "x \"y\" \\ z"]"#), r#"x "y" \ z"#);
        assert_eq!(tag(r#"[A "Bo "B" Lee" ]"#), r#"Bo "B" Lee"#);
    }
}
