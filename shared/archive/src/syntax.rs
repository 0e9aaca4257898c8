//! Groups tokens into games: the tag pairs, the main line's moves with their times, the
//! events, and the termination marker. Variations, NAGs, move numbers and free comment text
//! are read and dropped. Nothing here knows the rules.

use std::borrow::Cow;
use std::io::{self, Read};
use std::ops::Range;

use chrono::{DateTime, Utc};
use memchr::memchr;

use crate::error::{ImportError, Reason};
use crate::lexer::{Cursor, Lexer, Token, TokenKind};
use crate::record::{EventKind, OrganiserAct, OrganiserEntry};
use crate::text::{is_result_token, parse_ccsnt, unescape_free_text};

mod plain;

/// The most tags one game may have.
pub const MAX_TAGS: usize = 1_000;
/// The most moves and events one game may have.
pub const MAX_ENTRIES: usize = 50_000;

/// Where something is in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Place {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

/// A tag pair as written: where its texts are in [`RawGame::texts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawTag {
    name: Range<usize>,
    value: Range<usize>,
    place: Place,
}

/// A tag pair of a game as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag<'g> {
    /// The tag name.
    pub name: &'g str,
    /// The value, unescaped.
    pub value: &'g str,
    /// Where the tag starts.
    pub place: Place,
}

/// A main-line item as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawItem {
    /// A move with the time given by a following `[%ccsnt]`.
    Move {
        /// Where the move text, annotation marks removed, is in [`RawGame::texts`].
        text: Range<usize>,
        /// The time it was received.
        received: Option<DateTime<Utc>>,
        /// Whether a following `[%conditional]` marks it as played from a conditional line.
        conditional: bool,
        /// Where the move is.
        place: Place,
    },
    /// An event command `[%name seat argument time]`: its index in [`RawGame::events`]
    /// (kept apart: moves are most items).
    Event(usize),
    /// An organiser's act `[%name arguments time]`, with the text after it for an
    /// adjudication's reason.
    Organiser(Box<RawOrganiser>),
}

/// An event command as written, its words in [`RawGame::texts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawEvent {
    /// The event name.
    pub name: &'static str,
    /// Where the seat as written is.
    seat: Range<usize>,
    /// Where the argument is, if there is one.
    argument: Option<Range<usize>>,
    /// The time, if given.
    pub at: Option<DateTime<Utc>>,
    /// Where the comment holding it starts.
    pub place: Place,
}

/// An organiser's act as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawOrganiser {
    /// The act and its time.
    pub entry: OrganiserEntry,
    /// Where the comment holding it starts.
    pub place: Place,
}

/// One game as written, before the rules look at it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// The game's number in the input, from 1.
    pub number: usize,
    /// Where the game starts.
    pub place: Place,
    /// The tag pairs, in order.
    tags: Vec<RawTag>,
    /// The main line.
    pub items: Vec<RawItem>,
    /// The event commands of the main line, in order ([`RawItem::Event`]).
    events: Vec<RawEvent>,
    /// The texts of the tag pairs and of the main line's moves, back to back: one buffer
    /// for the game rather than one per text.
    texts: String,
    /// The termination marker at the end of the movetext, and where it is.
    pub termination: Option<(String, Place)>,
    /// Where the game's first text that is not UTF-8 (read as Windows-1252) is, if any.
    pub not_utf8: Option<Place>,
}

impl RawGame {
    /// The tag pairs, in order.
    pub fn tags(&self) -> impl Iterator<Item = Tag<'_>> {
        self.tags.iter().map(|tag| Tag {
            name: &self.texts[tag.name.clone()],
            value: &self.texts[tag.value.clone()],
            place: tag.place,
        })
    }

    /// How many tag pairs the game has.
    pub fn tag_count(&self) -> usize {
        self.tags.len()
    }

    /// The text of a move, given where [`RawItem::Move`] says it is.
    #[inline]
    pub fn move_text(&self, range: &Range<usize>) -> &str {
        &self.texts[range.clone()]
    }

    /// The event command [`RawItem::Event`] gives the index of, and its seat and argument
    /// as written.
    pub fn event(&self, index: usize) -> (&RawEvent, &str, Option<&str>) {
        let event = &self.events[index];
        let argument = event.argument.clone().map(|range| &self.texts[range]);
        (event, &self.texts[event.seat.clone()], argument)
    }

    /// Empties the game for the next, keeping its buffers but for its texts, which it gives.
    fn clear(&mut self, number: usize, place: Place) -> Vec<u8> {
        self.number = number;
        self.place = place;
        self.tags.clear();
        self.items.clear();
        self.events.clear();
        self.termination = None;
        self.not_utf8 = None;
        let mut texts = std::mem::take(&mut self.texts).into_bytes();
        texts.clear();
        texts
    }
}

/// Appends `text`, the UTF-8 of a text, to `texts`, giving where it is.
fn push_range(texts: &mut Vec<u8>, text: &[u8]) -> Range<usize> {
    let start = texts.len();
    texts.extend_from_slice(text);
    start..texts.len()
}

/// What the reader is doing with the current game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No token of a game yet.
    Between,
    /// Reading the tag pairs.
    Tags,
    /// Reading the movetext.
    Moves,
    /// The game is broken: skipping to the next one.
    Skip,
}

/// Games as written, one at a time, from a stream of bytes.
pub struct Games<R> {
    lexer: Lexer<R>,
    split: Split,
}

/// What the splitting of tokens into games knows: the game being read and where it is.
struct Split {
    state: State,
    game: RawGame,
    error: Option<ImportError>,
    depth: usize,
    count: usize,
    done: bool,
    /// True once the current game has a token that is not a tag pair.
    movetext_seen: bool,
    /// A game given back ([`Games::recycle`]), whose buffers the next game takes.
    spare: Option<RawGame>,
    /// The texts of the game being read ([`RawGame::texts`]), each piece of them UTF-8: they
    /// are checked as a whole once the game ends.
    texts: Vec<u8>,
    /// True once the input ended between games, without a read error.
    ended_between: bool,
}

impl<R: Read> Games<R> {
    /// Games from `input`.
    pub fn new(input: R) -> Games<R> {
        Games::with_lexer(Lexer::new(input))
    }

    /// Games from `input`, text that follows text read elsewhere, which left off between
    /// games at `cursor`: places go on from there, games are numbered from 1.
    pub fn resuming(input: R, cursor: Cursor) -> Games<R> {
        let mut games = Games::new(input);
        games.lexer.start_at(cursor);
        games
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.lexer.offset()
    }

    /// Where reading stands: the line and column of the next unread byte.
    pub fn cursor(&self) -> Cursor {
        self.lexer.cursor()
    }

    /// True once the input ended between games (the last game ended with its termination
    /// marker, or there was none, and only blanks followed) without a read error. When it
    /// ended right after a line end, text that follows reads as it would after this input
    /// when read alone from [`Games::cursor`] on ([`Games::resuming`]).
    pub fn ended_between(&self) -> bool {
        self.split.ended_between
    }
}

/// Games of bytes read in place, not copied into a buffer of the reader's own.
impl Games<io::Empty> {
    /// Games of `bytes`, all the input there is, ended by `error` when one is given: the
    /// games [`Games::resuming`] reads from `cursor` on in a reader that gives these bytes
    /// and then that error (or their end).
    pub fn in_place(bytes: Vec<u8>, error: Option<io::Error>, cursor: Cursor) -> Games<io::Empty> {
        let mut games = Games::with_lexer(Lexer::in_place(bytes, error));
        games.lexer.start_at(cursor);
        games
    }

    /// The bytes read, given back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.lexer.into_bytes()
    }
}

impl<R> Games<R> {
    /// Games of the tokens of `lexer`.
    fn with_lexer(lexer: Lexer<R>) -> Games<R> {
        Games {
            lexer,
            split: Split {
                state: State::Between,
                game: RawGame::default(),
                error: None,
                depth: 0,
                count: 0,
                done: false,
                movetext_seen: false,
                spare: None,
                texts: Vec::new(),
                ended_between: false,
            },
        }
    }

    /// Takes back a game this reader gave, once it is no longer needed: the next game is
    /// read into its buffers.
    pub fn recycle(&mut self, game: RawGame) {
        self.split.spare = Some(game);
    }
}

impl Split {
    fn begin(&mut self, at: Place) {
        self.count += 1;
        let mut game = self.spare.take().unwrap_or_default();
        self.texts = game.clear(self.count, at);
        self.game = game;
        self.error = None;
        self.depth = 0;
        self.movetext_seen = false;
        self.state = State::Tags;
    }

    /// Ends the current game, giving it or its first error.
    fn finish(&mut self) -> Result<RawGame, ImportError> {
        self.state = State::Between;
        let mut game = std::mem::take(&mut self.game);
        game.texts = match String::from_utf8(std::mem::take(&mut self.texts)) {
            Ok(texts) => texts,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        };
        match self.error.take() {
            Some(error) => Err(error),
            None => Ok(game),
        }
    }

    fn fail(&mut self, at: Place, reason: Reason) {
        if self.error.is_none() {
            self.error = Some(ImportError {
                game: self.game.number,
                line: at.line,
                column: at.column,
                reason,
            });
        }
        self.state = State::Skip;
    }

    /// True when `token` begins the next game: a tag pair at the start of a line after
    /// some movetext (also when the current game is broken: that is where reading resumes).
    fn starts_game(&self, token: &Token<'_>) -> bool {
        matches!(token.kind, TokenKind::Tag { .. })
            && token.line_start
            && self.state != State::Between
            && self.movetext_seen
    }

    /// Takes one token of the current game; true when the game ends with it.
    fn take(&mut self, token: Token<'_>) -> bool {
        let at = place(&token);
        if token.not_utf8 && self.game.not_utf8.is_none() {
            self.game.not_utf8 = Some(at);
        }
        self.movetext_seen |= !matches!(token.kind, TokenKind::Tag { .. } | TokenKind::Error(_));
        match token.kind {
            TokenKind::Tag { name, value } => self.take_tag(name, value, at),
            _ if self.state == State::Skip => {
                if let TokenKind::Symbol(text) = &token.kind {
                    return self.depth == 0 && is_result_token(text.as_bytes());
                }
                false
            }
            TokenKind::Error(reason) => {
                self.fail(at, Reason::Syntax(reason));
                false
            }
            TokenKind::Nag => false,
            TokenKind::Open => {
                self.state = State::Moves;
                self.depth += 1;
                false
            }
            TokenKind::Close => {
                if self.depth == 0 {
                    self.fail(at, Reason::Syntax("`)` without a variation to end".into()));
                } else {
                    self.depth -= 1;
                }
                false
            }
            TokenKind::Comment(text) => {
                self.state = State::Moves;
                if self.depth == 0 {
                    self.take_comment(&text, at);
                }
                false
            }
            TokenKind::Symbol(text) => {
                self.state = State::Moves;
                self.depth == 0 && self.take_move(text.as_bytes(), at)
            }
        }
    }

    fn take_tag(&mut self, name: &str, value: Cow<'_, str>, at: Place) -> bool {
        if self.state == State::Tags {
            if self.game.tags.len() >= MAX_TAGS {
                self.fail(at, Reason::TooLarge(format!("more than {MAX_TAGS} tags")));
            } else {
                self.push_tag(name.as_bytes(), value.as_bytes(), at);
            }
        } else if self.state != State::Skip {
            self.fail(at, Reason::Syntax("tag pair inside the movetext".into()));
        }
        false
    }

    /// Takes a main-line symbol: a move (after any move number), or the termination marker
    /// that ends the game (then true).
    fn take_move(&mut self, text: &[u8], at: Place) -> bool {
        strip_move_number(text).is_some_and(|mv| self.take_move_text(mv, at))
    }

    /// Takes a main-line symbol without its move number: a move, or the termination marker
    /// that ends the game (then true). Inlined always: it runs for every move, and a call
    /// costs more than its common path.
    #[inline(always)]
    fn take_move_text(&mut self, mv: &[u8], at: Place) -> bool {
        if is_result_token(mv) {
            self.game.termination = Some((String::from_utf8_lossy(mv).into_owned(), at));
            return true;
        }
        let marks = mv
            .iter()
            .rev()
            .take_while(|byte| matches!(byte, b'!' | b'?'))
            .count();
        let mv = &mv[..mv.len() - marks];
        if mv.is_empty() {
            return false;
        }
        let text = push_range(&mut self.texts, mv);
        self.push(
            RawItem::Move {
                text,
                received: None,
                conditional: false,
                place: at,
            },
            at,
        );
        false
    }

    /// Appends a tag pair, its name and value UTF-8, to the game.
    fn push_tag(&mut self, name: &[u8], value: &[u8], place: Place) {
        let name = push_range(&mut self.texts, name);
        let value = push_range(&mut self.texts, value);
        self.game.tags.push(RawTag { name, value, place });
    }

    /// Appends an item to the game's main line, or fails the game at `at` when it has as
    /// many as a game may hold.
    #[inline]
    fn push(&mut self, item: RawItem, at: Place) {
        if self.game.items.len() < MAX_ENTRIES {
            self.game.items.push(item);
        } else {
            self.fail_too_many(at);
        }
    }

    #[cold]
    fn fail_too_many(&mut self, at: Place) {
        self.fail(
            at,
            Reason::TooLarge(format!("more than {MAX_ENTRIES} moves and events")),
        );
    }

    /// Reads the commands of a main-line comment: `[%ccsnt]` gives the previous move its
    /// time, `[%conditional]` marks it as played from a conditional line, event commands
    /// add events; anything else is dropped.
    /// An adjudication takes the rest of its comment as its reason: no command after it is
    /// read.
    fn take_comment(&mut self, text: &str, at: Place) {
        for (name, arguments, rest) in commands(text) {
            let outcome = match name {
                "ccsnt" => self.take_time(arguments),
                CONDITIONAL => self.take_conditional(arguments),
                _ if let Some(name) = EventKind::NAMES.iter().find(|known| **known == name) => {
                    self.take_event(name, arguments, at)
                }
                _ if OrganiserAct::NAMES.contains(&name) => {
                    let arguments: Vec<&str> = words(arguments).collect();
                    take_organiser(name, &arguments, rest, at)
                        .map(|act| self.push(RawItem::Organiser(Box::new(act)), at))
                }
                _ => Ok(()),
            };
            if let Err(reason) = outcome {
                self.fail(at, Reason::Syntax(format!("in `[%{name}]`: {reason}")));
                return;
            }
            if OrganiserAct::takes_text(name) {
                return;
            }
        }
    }

    /// Reads `seat [argument] [time]` of an event command named `name`, in a comment at
    /// `at`, into the game (what the argument means is read with the variant's seats, when
    /// the game is replayed).
    fn take_event(&mut self, name: &'static str, arguments: &str, at: Place) -> Result<(), String> {
        let mut words = words(arguments);
        let seat = words
            .next()
            .ok_or_else(|| "the seat is missing".to_string())?;
        // An argument and a time at most: a third word is one too many, with or without a
        // time.
        let mut rest = [""; 3];
        let count = rest
            .iter_mut()
            .zip(&mut words)
            .map(|(slot, word)| *slot = word)
            .count();
        let (time, rest) = split_time(&rest[..count]);
        let argument = match rest {
            [] => None,
            [one] => Some(one.as_bytes()),
            _ => return Err("too many arguments".into()),
        };
        let event = RawEvent {
            name,
            seat: push_range(&mut self.texts, seat.as_bytes()),
            argument: argument.map(|argument| push_range(&mut self.texts, argument)),
            at: time,
            place: at,
        };
        self.push(RawItem::Event(self.game.events.len()), at);
        self.game.events.push(event);
        Ok(())
    }

    fn take_time(&mut self, arguments: &str) -> Result<(), String> {
        let time = arguments.trim();
        let time = parse_ccsnt(time).ok_or_else(|| {
            format!("`{time}` is not a date and time (expected 2026.11.29,10:12:05)")
        })?;
        match self.game.items.last_mut() {
            Some(RawItem::Move { received, .. }) if received.is_none() => {
                *received = Some(time);
                Ok(())
            }
            _ => Err("a move time must follow its move".into()),
        }
    }

    fn take_conditional(&mut self, arguments: &str) -> Result<(), String> {
        if !arguments.trim().is_empty() {
            return Err(format!("takes no argument, found `{}`", arguments.trim()));
        }
        match self.game.items.last_mut() {
            Some(RawItem::Move { conditional, .. }) if !*conditional => {
                *conditional = true;
                Ok(())
            }
            _ => Err("it must follow the move it marks".into()),
        }
    }
}

/// The command marking a move played from a conditional line.
pub const CONDITIONAL: &str = "conditional";

/// Reads `[argument ...] [time]` of an organiser's act, and `text`, the rest of its
/// comment, as its text if it takes one (an adjudication's reason).
fn take_organiser(
    name: &str,
    arguments: &[&str],
    text: &str,
    at: Place,
) -> Result<RawOrganiser, String> {
    let (time, arguments) = split_time(arguments);
    let text = match OrganiserAct::takes_text(name) {
        true => unescape_free_text(text),
        false => String::new(),
    };
    let act = OrganiserAct::parse(name, arguments, &text)?;
    Ok(RawOrganiser {
        entry: OrganiserEntry { act, at: time },
        place: at,
    })
}

/// A command's words without its time (the last word, when it is one), and the time.
fn split_time<'a, 'w>(words: &'a [&'w str]) -> (Option<DateTime<Utc>>, &'a [&'w str]) {
    match words
        .split_last()
        .map(|(last, before)| (parse_ccsnt(last), before))
    {
        Some((Some(time), before)) => (Some(time), before),
        _ => (None, words),
    }
}

/// The `[%name arguments]` commands in a comment, as name, argument text and the comment's
/// text after the command.
fn commands(text: &str) -> impl Iterator<Item = (&str, &str, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let start = command_start(rest.as_bytes())?;
        let body = &rest[start + 2..];
        let end = memchr(b']', body.as_bytes())?;
        rest = &body[end + 1..];
        let command = body[..end].trim_start();
        let split = word_length(command);
        Some((&command[..split], &command[split..], rest))
    })
}

/// Where the first `[%` of `text` is.
fn command_start(text: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = memchr(b'[', &text[from..]) {
        let at = from + found;
        if text.get(at + 1) == Some(&b'%') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The words of `text` split at white space, as [`str::split_whitespace`] gives them, its
/// ASCII read byte by byte.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        rest = rest.trim_start();
        if rest.is_empty() {
            return None;
        }
        let (word, after) = rest.split_at(word_length(rest));
        rest = after;
        Some(word)
    })
}

/// The bytes a word's reading stops at: ASCII white space, and every byte above ASCII (a
/// character to decode).
const WORD_END: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(byte, 0x09..=0x0D | 0x20 | 0x80..);
        byte += 1;
    }
    table
};

/// The length of the word `text` begins with: up to its first white space character.
#[inline]
fn word_length(text: &str) -> usize {
    match text.bytes().position(|b| WORD_END[usize::from(b)]) {
        Some(at) if !text.as_bytes()[at].is_ascii() => {
            at + text[at..]
                .find(char::is_whitespace)
                .unwrap_or(text.len() - at)
        }
        Some(at) => at,
        None => text.len(),
    }
}

/// The symbol without a leading move number (`12.`, `12...`); `None` when it is only one.
#[inline]
fn strip_move_number(bytes: &[u8]) -> Option<&[u8]> {
    // A move begins with a letter: most symbols are read here.
    if bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return Some(bytes);
    }
    without_move_number(bytes)
}

/// A symbol without its move number, as the PGN standard reads one: leading digits, then
/// dots; `None` when nothing follows them.
#[inline]
fn without_move_number(bytes: &[u8]) -> Option<&[u8]> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = bytes[digits..].iter().take_while(|b| **b == b'.').count();
    match dots > 0 || (digits > 0 && digits == bytes.len()) {
        true => Some(&bytes[digits + dots..]).filter(|rest| !rest.is_empty()),
        false => Some(bytes),
    }
}

fn place(token: &Token<'_>) -> Place {
    Place {
        line: token.line,
        column: token.column,
    }
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<RawGame, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game(true)
    }
}

impl<R: Read> Games<R> {
    /// The next game; with `plain`, its plain shapes read straight from the bytes, else all
    /// of it token by token (the same game either way: the tests hold the two readings side
    /// by side).
    fn next_game(&mut self, plain: bool) -> Option<Result<RawGame, ImportError>> {
        let split = &mut self.split;
        if split.done {
            return None;
        }
        loop {
            if plain && split.reads_plain() && split.read_plain(&mut self.lexer) {
                return Some(split.finish());
            }
            let Some(token) = self.lexer.next_token() else {
                split.done = true;
                let io_error = self.lexer.take_io_error();
                split.ended_between = split.state == State::Between && io_error.is_none();
                if let Some(error) = io_error {
                    let at = Place {
                        line: self.lexer.line(),
                        column: 1,
                    };
                    if split.state == State::Between {
                        split.begin(at);
                    }
                    split.fail(at, Reason::Io(error.to_string()));
                }
                return (split.state != State::Between).then(|| split.finish());
            };
            if split.starts_game(&token) {
                self.lexer.unread();
                return Some(split.finish());
            }
            if split.state == State::Between {
                split.begin(place(&token));
            }
            if split.take(token) {
                return Some(split.finish());
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;
    use crate::lexer::MAX_TEXT;

    /// Every game `games` gives, read with the plain shapes or token by token.
    fn all_games<R: Read>(mut games: Games<R>, plain: bool) -> Vec<Result<RawGame, ImportError>> {
        std::iter::from_fn(|| games.next_game(plain)).collect()
    }

    /// The games of `bytes` read with the plain shapes or token by token.
    fn games(bytes: &[u8], plain: bool) -> Vec<Result<RawGame, ImportError>> {
        all_games(Games::new(bytes), plain)
    }

    /// Every PGN file of the collection of real games, and the archive's documentation.
    pub(crate) fn samples() -> Vec<Vec<u8>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut found = vec![std::fs::read(root.join("../../docs/archive.md")).expect("reads")];
        let mut folders = vec![root.join("tests/data/real")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("reads the collection") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "pgn") {
                    found.push(std::fs::read(path).expect("reads"));
                }
            }
        }
        found
    }

    #[test]
    fn the_plain_shapes_read_as_the_tokens_do() {
        for bytes in samples() {
            assert_eq!(games(&bytes, true), games(&bytes, false));
        }
    }

    /// A reader that gives its bytes at most `size` at a time.
    struct Chunks<'a> {
        bytes: &'a [u8],
        size: usize,
    }

    impl Read for Chunks<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            let n = self.bytes.len().min(buffer.len()).min(self.size);
            buffer[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// The games of `bytes` given `size` bytes at a time, read with the plain shapes or
    /// token by token.
    fn games_in_chunks(
        bytes: &[u8],
        size: usize,
        plain: bool,
    ) -> Vec<Result<RawGame, ImportError>> {
        all_games(Games::new(Chunks { bytes, size }), plain)
    }

    #[test]
    fn games_across_the_ends_of_the_bytes_at_hand_read_alike() {
        let mut bytes = samples().concat();
        for length in [20_000, MAX_TEXT, 70_000] {
            let comment = format!("1. e4 {{{}}} e5 ", "x".repeat(length));
            bytes.extend_from_slice(comment.as_bytes());
            bytes.extend_from_slice(GAME.as_bytes());
        }
        assert_eq!(
            games_in_chunks(&bytes, 7, true),
            games_in_chunks(&bytes, 7, false)
        );
    }

    /// Pieces of archives: the shapes the plain reading takes, the same shapes a little
    /// wrong, and the shapes it leaves to the tokens.
    const PIECES: &[&[u8]] = &[
        b"[Event \"Cup\"]",
        b"[White \"\xc4\x8capek\"]",
        b"[Result \"1-0\"]",
        b"[Black \"a\\\"b\"]",
        b"[Site \"\xe9t\xe9\"]",
        b"[Round\"2\" ]",
        b"[ Date \"2026.11.29\"]",
        b"[Variant \"chess\"",
        b"1.",
        b"12...",
        b"3.Bb5",
        b"e4",
        b"e5",
        b"Nf3",
        b"exd5",
        b"O-O",
        b"e8=Q+",
        b"Nc6!?",
        b"b1(2)",
        b"\xc3\xa9",
        b"{[%ccsnt 2026.11.02,09:00:12]}",
        b"{[%ccsnt 2026.11.02,09:00:12] [%conditional]}",
        b"{[%ccsnt 2026.02.30,09:00:12]}",
        b"{[%ccsnt 2026.11.02,09:00]}",
        b"{[%ccsnt 2026.11.02,09:00:12 ]}",
        b"{[%conditional]}",
        b"{[%draw-offer white 2026.11.02,09:00:12]}",
        b"{[%claim black threefold-repetition]}",
        b"{[%pause 2026.11.02,09:00:12]}",
        b"{a note}",
        b"{\xff}",
        b"{",
        b"}",
        b"(",
        b")",
        b"(2. f4 exf4)",
        b"$1",
        b";a line\n",
        b"%escaped\n",
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        b"*",
        b"\"",
        b"[",
        b"]",
    ];

    /// What stands between pieces.
    const SEPARATORS: &[&[u8]] = &[b" ", b"", b"\n", b"\r\n", b"\t", b"\n\n", b"  "];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]
        #[test]
        fn random_archives_read_alike_either_way(
            picks in proptest::collection::vec((0..PIECES.len(), 0..SEPARATORS.len()), 0..60),
            size in 1..40usize,
        ) {
            let bytes: Vec<u8> = picks
                .iter()
                .flat_map(|(piece, separator)| [PIECES[*piece], SEPARATORS[*separator]])
                .flatten()
                .copied()
                .collect();
            let tokens = games(&bytes, false);
            prop_assert_eq!(&games(&bytes, true), &tokens);
            prop_assert_eq!(&games_in_chunks(&bytes, size, true), &tokens);
        }
    }

    /// A short archive of the shapes the plain reading takes and those around them.
    const GAME: &str = "[Event \"Cup\"]\n[White \"Čapek\"]\n[Result \"1-0\"]\n\n\
        {[%draw-offer white 2026.11.02,09:00:12]} 1. e4 {[%ccsnt 2026.11.02,09:00:12]} 1... e5\n\
        {[%ccsnt 2026.11.02,18:41:03] [%conditional]} 2. Nf3 $1 (2. f4 exf4) 2... Nc6!? \
        {a note} 3.Bb5 {[%ccsnt 2026.11.03,10:00:00]} 1-0\n\n[Event \"Next\"]\n1. d4 *\n";

    proptest! {
        #[test]
        fn words_split_as_the_standard_library_splits(
            text in "[a-z0-9é€ \t\n\r\x0B\x0C\u{85}\u{a0}\u{2028}\u{3000}]{0,24}",
        ) {
            prop_assert_eq!(
                words(&text).collect::<Vec<_>>(),
                text.split_whitespace().collect::<Vec<_>>()
            );
            let first = text.split(char::is_whitespace).next().unwrap_or("");
            prop_assert_eq!(word_length(&text), first.len());
        }
    }

    proptest! {
        #[test]
        fn move_numbers_are_stripped_as_the_standard_reads_them(
            symbol in "[0-9.a-hNBRQKxO+#=!?-]{0,8}",
        ) {
            prop_assert_eq!(
                strip_move_number(symbol.as_bytes()),
                without_move_number(symbol.as_bytes())
            );
        }
    }

    proptest! {
        #[test]
        fn any_text_reads_as_the_tokens_do(
            edits in prop::collection::vec(
                (
                    0usize..400,
                    prop::sample::select(&b" \n\r\t{}[]()\"$;%.-*019eNx+#\\\xc4\xe9"[..]),
                    any::<bool>(),
                ),
                0..8,
            ),
            cut in 0usize..400,
        ) {
            let mut bytes = GAME.as_bytes().to_vec();
            for (at, byte, replace) in edits {
                let at = at % bytes.len();
                match replace {
                    true => bytes[at] = byte,
                    false => bytes.insert(at, byte),
                }
            }
            bytes.truncate(bytes.len().min(cut.max(200)));
            prop_assert_eq!(games(&bytes, true), games(&bytes, false));
        }
    }
}
