//! The plain shapes of a game read straight from the bytes, without making a token of each:
//! white space, tag pairs without escapes, move numbers, moves, the termination marker, and
//! comments (a move's time and conditional mark at once). Anything else (a variation, a NAG,
//! an escape line, a symbol that is not ASCII, a tag pair with escapes or out of place, a
//! token longer than the bytes at hand) stops the reading and is left to the lexer's tokens,
//! which read every shape: a game reads the same either way, places and errors included.

use std::io::Read;

use memchr::{memchr, memchr3};

use chrono::{DateTime, Utc};

use super::{MAX_TAGS, Place, RawItem, Split, State, strip_move_number};
use crate::decode::decode;
use crate::error::Reason;
use crate::lexer::{Cursor, Lexer, MAX_TEXT, is_delimiter};
use crate::text::parse_ccsnt;

/// How many unread bytes the reading asks the lexer for at a time: many tokens' worth.
const WINDOW: usize = 16 * 1024;

/// A comment holding only a move's time: `[%ccsnt 2026.11.29,10:12:05]`.
const TIME_COMMAND: &[u8] = b"[%ccsnt ";
/// The length of a time with seconds.
const TIME: usize = 19;
/// The mark of a move played from a conditional line, after its time.
const CONDITIONAL_MARK: &[u8] = b" [%conditional]";
/// The longest tag name.
const MAX_NAME: usize = 255;

/// Why the reading of plain shapes stopped.
enum Stop {
    /// The game ended: with its termination marker, or where the next one begins.
    Ended,
    /// The next token is not a plain shape, or the game is broken: the lexer reads on.
    Token,
    /// The bytes at hand end inside a token: more must be read.
    More,
}

/// The bytes at hand, and how far the reading went through them.
struct Bytes<'b> {
    bytes: &'b [u8],
    /// True when the input ends with them.
    ended: bool,
    /// The next byte to read.
    at: usize,
    /// Where that byte is, but for its column: see `base`.
    cursor: Cursor,
    /// `at` less the column of the byte at `at` (wrapping): ASCII without line ends is passed
    /// by moving `at` alone.
    base: usize,
}

impl<'b> Bytes<'b> {
    /// The bytes at hand, `ended` when the input ends with them, the first of them at
    /// `cursor`.
    fn new(bytes: &'b [u8], ended: bool, cursor: Cursor) -> Bytes<'b> {
        let mut read = Bytes {
            bytes,
            ended,
            at: 0,
            cursor,
            base: 0,
        };
        read.move_to(cursor);
        read
    }

    /// Where the next byte is.
    #[inline]
    fn cursor(&self) -> Cursor {
        let mut cursor = self.cursor;
        cursor.column = self.at.wrapping_sub(self.base);
        cursor
    }

    /// Puts the next byte at `cursor`.
    #[inline]
    fn move_to(&mut self, cursor: Cursor) {
        self.cursor = cursor;
        self.base = self.at.wrapping_sub(cursor.column);
    }

    /// Reads past white space: the next byte, if there is one at hand.
    #[inline]
    fn skip_blanks(&mut self) -> Option<u8> {
        loop {
            let byte = *self.bytes.get(self.at)?;
            match byte {
                // A tab takes one column, as a space does.
                b' ' | b'\t' => self.at += 1,
                b'\n' | b'\r' => self.pass_line_end(byte),
                _ => return Some(byte),
            }
        }
    }

    /// Moves past the next byte, `byte`, a line end.
    #[inline(never)]
    fn pass_line_end(&mut self, byte: u8) {
        let mut cursor = self.cursor();
        cursor.advance(byte);
        self.at += 1;
        self.move_to(cursor);
    }

    /// Moves past the next `length` bytes, whatever they hold.
    fn pass_over(&mut self, length: usize) {
        let mut cursor = self.cursor();
        cursor.advance_over(&self.bytes[self.at..self.at + length]);
        self.at += length;
        self.move_to(cursor);
    }

    /// What stops a token that runs to the end of the bytes at hand: the lexer reads it
    /// when the input ends there, else more must be read.
    fn cut(&self) -> Stop {
        if self.ended { Stop::Token } else { Stop::More }
    }

    /// Moves past `length` bytes of ASCII without line ends, a token.
    #[inline]
    fn pass_ascii(&mut self, length: usize) {
        self.at += length;
        self.cursor.line_start = false;
    }
}

impl Split {
    /// Reads the plain shapes of the input from `lexer`, as far as they go; true when the
    /// current game ended (its termination marker read, or a tag pair beginning the next).
    pub(super) fn read_plain<R: Read>(&mut self, lexer: &mut Lexer<R>) -> bool {
        let mut want = WINDOW;
        loop {
            let cursor = lexer.cursor();
            let (bytes, ended) = lexer.window(want);
            let available = bytes.len();
            let mut read = Bytes::new(bytes, ended, cursor);
            let stop = self.read_shapes(&mut read);
            let (at, cursor) = (read.at, read.cursor());
            lexer.skip_read(at, cursor);
            match stop {
                Stop::Ended => return true,
                Stop::Token => return false,
                Stop::More if at > 0 => want = WINDOW,
                // One token fills all the bytes at hand: ask for more, unless the lexer has
                // no more to give (it then reads the token itself).
                Stop::More if available >= want && available <= MAX_TEXT => {
                    want = available + WINDOW;
                }
                Stop::More => return false,
            }
        }
    }

    /// True while plain shapes may be read: between games, or at the main line of a game
    /// that is not broken.
    pub(super) fn reads_plain(&self) -> bool {
        self.state != State::Skip && self.depth == 0
    }

    /// Reads plain shapes from the bytes at hand, as long as they are plain and the game
    /// is not broken.
    fn read_shapes(&mut self, read: &mut Bytes) -> Stop {
        loop {
            let Some(byte) = read.skip_blanks() else {
                return read.cut();
            };
            let outcome = match byte {
                b'[' => self.read_tag(read).map(|()| false),
                b'{' => self.read_comment(read).map(|()| false),
                b'%' if read.cursor.line_start => return Stop::Token,
                _ if !continues_symbol(byte) => return Stop::Token,
                _ => self.read_symbol(read),
            };
            match outcome {
                Ok(true) => return Stop::Ended,
                Ok(false) if self.reads_plain() => {}
                Ok(false) => return Stop::Token,
                Err(stop) => return stop,
            }
        }
    }

    /// The place of a token of the movetext at `cursor`, beginning a game there if none
    /// is under way.
    #[inline]
    fn movetext_place(&mut self, cursor: &Cursor) -> Place {
        let place = place(cursor);
        if self.state == State::Between {
            self.begin(place);
        }
        self.state = State::Moves;
        self.movetext_seen = true;
        place
    }

    /// Reads a tag pair whose value holds no escape, no quote and no line end, and is
    /// UTF-8, in a game's tags or beginning a game. Such a tag pair at the start of a line
    /// after some movetext ends the game instead, unread.
    fn read_tag(&mut self, read: &mut Bytes) -> Result<(), Stop> {
        let tag = &read.bytes[read.at..];
        let name_end = 1 + tag[1..]
            .iter()
            .take(MAX_NAME + 1)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if !(2..=MAX_NAME + 1).contains(&name_end) {
            return Err(if name_end == tag.len() {
                read.cut()
            } else {
                Stop::Token
            });
        }
        let quote = name_end + blanks(&tag[name_end..]);
        match tag.get(quote) {
            Some(b'"') => {}
            Some(_) => return Err(Stop::Token),
            None => return Err(read.cut()),
        }
        let Some(length) = memchr(b'"', &tag[quote + 1..]) else {
            return Err(read.cut());
        };
        let value = &tag[quote + 1..quote + 1 + length];
        let close = quote + 2 + length;
        let end = close + blanks(&tag[close..]);
        match tag.get(end) {
            Some(b']') => {}
            Some(_) => return Err(Stop::Token),
            None => return Err(read.cut()),
        }
        if value.len() > MAX_TEXT || memchr3(b'\\', b'\n', b'\r', value).is_some() {
            return Err(Stop::Token);
        }
        // The name is ASCII; a value that is not UTF-8 is the lexer's to decode.
        let ascii = value.is_ascii();
        if !ascii && std::str::from_utf8(value).is_err() {
            return Err(Stop::Token);
        }
        if read.cursor.line_start && self.state != State::Between && self.movetext_seen {
            return Err(Stop::Ended);
        }
        if self.state == State::Moves {
            return Err(Stop::Token);
        }
        let place = place(&read.cursor());
        if self.state == State::Between {
            self.begin(place);
        }
        if self.game.tags.len() >= MAX_TAGS {
            self.fail(
                place,
                Reason::TooLarge(format!("more than {MAX_TAGS} tags")),
            );
        } else {
            self.push_tag(&tag[1..name_end], value, place);
        }
        // No line end stands in such a tag pair.
        match ascii {
            true => read.pass_ascii(end + 1),
            false => {
                read.pass_over(end + 1);
                read.cursor.line_start = false;
            }
        }
        Ok(())
    }

    /// Reads a symbol: a move number, a move or the termination marker (then true). Only
    /// ASCII symbols that no level follows (`b1(2)`) are plain.
    #[inline]
    fn read_symbol(&mut self, read: &mut Bytes) -> Result<bool, Stop> {
        let rest = &read.bytes[read.at..];
        let length = match rest.iter().position(|b| !continues_symbol(*b)) {
            Some(length) if rest[length] >= 0x80 || rest[length] == b'(' => {
                return Err(Stop::Token);
            }
            Some(length) => length,
            None if read.ended => rest.len(),
            None => return Err(Stop::More),
        };
        if length > MAX_TEXT {
            return Err(Stop::Token);
        }
        let place = self.movetext_place(&read.cursor());
        read.pass_ascii(length);
        Ok(match strip_move_number(&rest[..length]) {
            Some(text) => self.take_move_text(text, place),
            None => false,
        })
    }

    /// Reads a comment: a move's time (and conditional mark) straight from its bytes, any
    /// other comment as the lexer would give it.
    fn read_comment(&mut self, read: &mut Bytes) -> Result<(), Stop> {
        let start = read.at;
        let text = &read.bytes[start + 1..];
        if let Some((length, time, marked)) = move_time(text) {
            let place = self.movetext_place(&read.cursor());
            if !self.take_move_time(time, marked) {
                self.read_any_comment(read, place, length);
            } else {
                read.pass_ascii(length + 2);
            }
            return Ok(());
        }
        let Some(length) = memchr(b'}', text) else {
            return Err(read.cut());
        };
        if length > MAX_TEXT {
            return Err(Stop::Token);
        }
        let place = self.movetext_place(&read.cursor());
        self.read_any_comment(read, place, length);
        Ok(())
    }

    /// Reads the comment at `place` whose text is `length` bytes long as the lexer would
    /// give it, its commands taken.
    fn read_any_comment(&mut self, read: &mut Bytes, place: Place, length: usize) {
        let start = read.at;
        let close = start + 1 + length;
        read.pass_over(close + 1 - start);
        read.cursor.line_start = read.cursor().column == 1;
        let (text, not_utf8) = decode(&read.bytes[start + 1..close]);
        if not_utf8 && self.game.not_utf8.is_none() {
            self.game.not_utf8 = Some(place);
        }
        self.take_comment(&text, place);
    }

    /// Gives the move before a comment holding its time `time` (and its conditional mark
    /// when `marked`) that time, when that move has neither yet: true when it did (a time
    /// out of place is read in full, to be refused as such).
    fn take_move_time(&mut self, time: DateTime<Utc>, marked: bool) -> bool {
        match self.game.items.last_mut() {
            Some(RawItem::Move {
                received: received @ None,
                conditional,
                ..
            }) if !(marked && *conditional) => {
                *received = Some(time);
                *conditional |= marked;
                true
            }
            _ => false,
        }
    }
}

/// A comment's text (after its `{`) holding only a time with seconds and perhaps the
/// conditional mark: the text's length, the time and whether the mark is there.
#[inline]
fn move_time(text: &[u8]) -> Option<(usize, DateTime<Utc>, bool)> {
    let time = text.strip_prefix(TIME_COMMAND)?.get(..TIME + 1)?;
    let end = TIME_COMMAND.len() + TIME + 1;
    let marked = match text.get(end)? {
        b'}' => false,
        _ if text[end..].starts_with(CONDITIONAL_MARK)
            && text.get(end + CONDITIONAL_MARK.len()) == Some(&b'}') =>
        {
            true
        }
        _ => return None,
    };
    let time = parse_ccsnt(time.strip_suffix(b"]")?)?;
    Some((
        end + usize::from(marked) * CONDITIONAL_MARK.len(),
        time,
        marked,
    ))
}

/// True for the bytes an ASCII symbol goes on with: any but white space, delimiters and
/// bytes above ASCII.
#[inline]
fn continues_symbol(byte: u8) -> bool {
    SYMBOL[usize::from(byte)]
}

const SYMBOL: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x80 {
        table[byte] = !is_delimiter(byte as u8);
        byte += 1;
    }
    table
};

/// The spaces and tabs at the start of `bytes`, which may stand around a tag's name and
/// value.
fn blanks(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()
}

/// Where `cursor` is.
fn place(cursor: &Cursor) -> Place {
    Place {
        line: cursor.line,
        column: cursor.column,
    }
}
