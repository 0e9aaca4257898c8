//! The plain shapes of a game read straight from the bytes, without making a token of each:
//! white space, tag pairs without escapes, move numbers, moves, the termination marker, and
//! comments (a move's time and conditional mark at once). Anything else (a variation, a NAG,
//! an escape line, a symbol that is not ASCII, a tag pair with escapes or out of place, a
//! token longer than the bytes at hand) stops the reading and is left to the lexer's tokens,
//! which read every shape: a game reads the same either way, places and errors included.

use std::io::Read;

use memchr::{memchr, memchr3};

use super::{MAX_TAGS, Place, RawItem, Split, State};
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

impl Split {
    /// Reads the plain shapes of the input from `lexer`, as far as they go; true when the
    /// current game ended (its termination marker read, or a tag pair beginning the next).
    pub(super) fn read_plain<R: Read>(&mut self, lexer: &mut Lexer<R>) -> bool {
        let mut want = WINDOW;
        loop {
            let mut cursor = lexer.cursor();
            let (bytes, ended) = lexer.window(want);
            let available = bytes.len();
            let mut at = 0;
            let stop = self.read_shapes(bytes, ended, &mut at, &mut cursor);
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

    /// Reads plain shapes from `bytes` (the input ends with them when `ended`), from `at`
    /// with `cursor` where `at` is, moving both past what it read.
    fn read_shapes(
        &mut self,
        bytes: &[u8],
        ended: bool,
        at: &mut usize,
        cursor: &mut Cursor,
    ) -> Stop {
        while self.reads_plain() {
            let Some(&byte) = bytes.get(*at) else {
                return if ended { Stop::Token } else { Stop::More };
            };
            let read = match byte {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    cursor.advance(byte);
                    *at += 1;
                    continue;
                }
                b'[' => self.read_tag(bytes, ended, at, cursor).map(|()| false),
                b'{' => self.read_comment(bytes, ended, at, cursor).map(|()| false),
                b'%' if cursor.line_start => return Stop::Token,
                _ if byte >= 0x80 || is_delimiter(byte) => return Stop::Token,
                _ => self.read_symbol(bytes, ended, at, cursor),
            };
            match read {
                Ok(true) => return Stop::Ended,
                Ok(false) => {}
                Err(stop) => return stop,
            }
        }
        Stop::Token
    }

    /// The place of a token of the movetext at `cursor`, beginning a game there if none
    /// is under way.
    fn movetext_place(&mut self, cursor: &Cursor) -> Place {
        let place = place(cursor);
        if self.state == State::Between {
            self.begin(place);
        }
        self.state = State::Moves;
        self.movetext_seen = true;
        place
    }

    /// Reads a tag pair at `at` whose value holds no escape, no quote and no line end, and
    /// is UTF-8, in a game's tags or beginning a game. Such a tag pair at the start of a
    /// line after some movetext ends the game instead, unread.
    fn read_tag(
        &mut self,
        bytes: &[u8],
        ended: bool,
        at: &mut usize,
        cursor: &mut Cursor,
    ) -> Result<(), Stop> {
        let more = || if ended { Stop::Token } else { Stop::More };
        let start = *at;
        let tag = &bytes[start..];
        let name_end = 1 + tag[1..]
            .iter()
            .take(MAX_NAME + 1)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if !(2..=MAX_NAME + 1).contains(&name_end) {
            return Err(if name_end == tag.len() {
                more()
            } else {
                Stop::Token
            });
        }
        let quote = name_end + blanks(&tag[name_end..]);
        match tag.get(quote) {
            Some(b'"') => {}
            Some(_) => return Err(Stop::Token),
            None => return Err(more()),
        }
        let Some(length) = memchr(b'"', &tag[quote + 1..]) else {
            return Err(more());
        };
        let value = &tag[quote + 1..quote + 1 + length];
        let close = quote + 2 + length;
        let end = close + blanks(&tag[close..]);
        match tag.get(end) {
            Some(b']') => {}
            Some(_) => return Err(Stop::Token),
            None => return Err(more()),
        }
        if value.len() > MAX_TEXT || memchr3(b'\\', b'\n', b'\r', value).is_some() {
            return Err(Stop::Token);
        }
        let (Ok(name), Ok(value)) = (
            std::str::from_utf8(&tag[1..name_end]),
            std::str::from_utf8(value),
        ) else {
            return Err(Stop::Token);
        };
        if cursor.line_start && self.state != State::Between && self.movetext_seen {
            return Err(Stop::Ended);
        }
        if self.state == State::Moves {
            return Err(Stop::Token);
        }
        let place = place(cursor);
        if self.state == State::Between {
            self.begin(place);
        }
        if self.game.tags.len() >= MAX_TAGS {
            self.fail(
                place,
                Reason::TooLarge(format!("more than {MAX_TAGS} tags")),
            );
        } else {
            self.push_tag(name, value, place);
        }
        cursor.advance_over(&tag[..=end]);
        cursor.line_start = false;
        *at = start + end + 1;
        Ok(())
    }

    /// Reads the symbol at `at`: a move number, a move or the termination marker (then
    /// true). Only ASCII symbols that no level follows (`b1(2)`) are plain.
    fn read_symbol(
        &mut self,
        bytes: &[u8],
        ended: bool,
        at: &mut usize,
        cursor: &mut Cursor,
    ) -> Result<bool, Stop> {
        let start = *at;
        let end = match bytes[start..]
            .iter()
            .position(|b| *b >= 0x80 || is_delimiter(*b))
        {
            Some(length) => start + length,
            None if ended => bytes.len(),
            None => return Err(Stop::More),
        };
        if bytes.get(end).is_some_and(|b| *b >= 0x80 || *b == b'(') || end - start > MAX_TEXT {
            return Err(Stop::Token);
        }
        let place = self.movetext_place(cursor);
        cursor.column += end - start;
        cursor.line_start = false;
        *at = end;
        Ok(self.take_move(&bytes[start..end], place))
    }

    /// Reads the comment at `at`: a move's time (and conditional mark) straight from its
    /// bytes, any other comment as the lexer would give it.
    fn read_comment(
        &mut self,
        bytes: &[u8],
        ended: bool,
        at: &mut usize,
        cursor: &mut Cursor,
    ) -> Result<(), Stop> {
        let start = *at;
        let Some(close) = memchr(b'}', &bytes[start + 1..]).map(|found| start + 1 + found) else {
            return Err(if ended { Stop::Token } else { Stop::More });
        };
        let text = &bytes[start + 1..close];
        if text.len() > MAX_TEXT {
            return Err(Stop::Token);
        }
        let place = self.movetext_place(cursor);
        if self.take_move_time(text) {
            cursor.column += close + 1 - start;
        } else {
            cursor.advance_over(&bytes[start..=close]);
            let (text, not_utf8) = decode(text);
            if not_utf8 && self.game.not_utf8.is_none() {
                self.game.not_utf8 = Some(place);
            }
            self.take_comment(&text, place);
        }
        cursor.line_start = cursor.column == 1;
        *at = close + 1;
        Ok(())
    }

    /// Takes a comment that holds only a time with seconds, and perhaps the conditional
    /// mark, for the move before it when that move has neither yet: true when it did (any
    /// other comment, and any such comment out of place, is read in full).
    fn take_move_time(&mut self, text: &[u8]) -> bool {
        let (command, marked) = match text.len() {
            length if length == TIME_COMMAND.len() + TIME + 1 => (text, false),
            length if length == TIME_COMMAND.len() + TIME + 1 + CONDITIONAL_MARK.len() => {
                let (command, mark) = text.split_at(TIME_COMMAND.len() + TIME + 1);
                if mark != CONDITIONAL_MARK {
                    return false;
                }
                (command, true)
            }
            _ => return false,
        };
        let Some(time) = command
            .strip_prefix(TIME_COMMAND)
            .and_then(|rest| rest.strip_suffix(b"]"))
            .and_then(parse_ccsnt)
        else {
            return false;
        };
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
