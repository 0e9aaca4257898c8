//! Export: a [`GameRecord`] replayed through the rules and written as archive text (or plain
//! PGN for other tools), sealed with its digest.

use std::fmt::Write as _;

use missive_rules::{AnyGame, MoveNumbering, Notation, PlayedMove, Seat};

use crate::error::{ExportError, Reason};
use crate::record::{Entry, Event, GameRecord, MessageEntry, MoveEntry, OrganiserEntry};
use crate::replay::{check_result, is_derived_tag, non_standard_start};
use crate::rules::{CHESS, Rules, new_game};
use crate::seal::{Canonical, KeyPair};
use crate::syntax::CONDITIONAL;
use crate::text::{ccsnt_text, escape_free_text, escape_tag_value, seat_tag};

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The archive: times, events, `Digest` and `Signature`.
    Archive,
    /// Plain PGN for other tools: tags, moves and result only.
    Pgn,
}

/// How to write a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Archive or plain PGN.
    pub format: Format,
    /// The move notation of the movetext.
    pub notation: Notation,
}

impl Default for ExportOptions {
    /// The archive in short notation.
    fn default() -> ExportOptions {
        ExportOptions {
            format: Format::Archive,
            notation: Notation::Short,
        }
    }
}

/// The widest movetext line.
const LINE_WIDTH: usize = 80;

/// The Seven Tag Roster's tags other than the players and the result, with the value
/// written when the record has none.
const ROSTER: [(&str, &str); 4] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
];

/// A record replayed through the rules: the game at its end, each move as played, and the
/// record with its moves, options and start in canonical form.
struct Replayed {
    game: Box<dyn AnyGame>,
    played: Vec<PlayedMove>,
    normal: GameRecord,
}

/// Replays `record`, checking every move, event seat and the result.
fn replay(record: &GameRecord, rules: &dyn Rules) -> Result<Replayed, Reason> {
    let mut game = new_game(
        rules,
        &record.variant,
        &record.options,
        record.start.as_deref(),
    )?;
    let seats = game.seat_names().len();
    if record.players.len() > seats {
        return Err(Reason::Syntax(format!(
            "{} players for a game of {seats} seats",
            record.players.len()
        )));
    }
    let mut normal = record.clone();
    normal.options = game.options();
    normal.start = non_standard_start(rules, &record.variant, game.as_ref())?;
    normal.players.resize(seats, "?".to_string());
    let mut played = Vec::new();
    for entry in &mut normal.entries {
        match entry {
            Entry::Move(MoveEntry { text, received, .. }) => {
                let mv = game.play(text).map_err(|error| Reason::Move {
                    ply: played.len() + 1,
                    error,
                })?;
                *text = mv.long.clone();
                *received = received.map(whole_seconds);
                played.push(mv);
            }
            Entry::Event(event) => {
                if event.seat.index() >= seats {
                    return Err(Reason::Event(format!(
                        "{} in a game of {seats} seats",
                        event.seat
                    )));
                }
                event.at = event.at.map(whole_seconds);
            }
            Entry::Message(message) => {
                if message.seat.index() >= seats {
                    return Err(Reason::Event(format!(
                        "a message of {} in a game of {seats} seats",
                        message.seat
                    )));
                }
                message.at = whole_seconds(message.at);
            }
            Entry::Organiser(organiser) => organiser.at = organiser.at.map(whole_seconds),
        }
    }
    match &record.result {
        Some(result) => {
            let ruled = check_result(game.as_ref(), result, &normal.entries);
            normal.result = Some(ruled.map_err(Reason::Result)?);
        }
        None => {
            if let Some(outcome) = game.outcome() {
                return Err(Reason::Result(format!(
                    "the moves end the game by {} ({}) but the record has no result",
                    outcome.rule,
                    outcome.score_text()
                )));
            }
        }
    }
    Ok(Replayed {
        game,
        played,
        normal,
    })
}

fn whole_seconds(time: chrono::DateTime<chrono::Utc>) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(time.timestamp(), 0).unwrap_or(time)
}

/// The canonical content of `record` (replayed to put its moves in long notation).
pub fn canonical(record: &GameRecord, rules: &dyn Rules) -> Result<Canonical, ExportError> {
    Ok(Canonical::of(&replay(record, rules)?.normal))
}

/// Signs `record` with `key`: sets [`GameRecord::signature`].
pub fn sign(record: &mut GameRecord, key: &KeyPair, rules: &dyn Rules) -> Result<(), ExportError> {
    record.signature = Some(key.sign(&canonical(record, rules)?));
    Ok(())
}

/// The text of one game: tag pairs, a blank line, the movetext, a blank line. The record's
/// own signature, if any, is written as it is.
pub fn export(
    record: &GameRecord,
    options: ExportOptions,
    rules: &dyn Rules,
) -> Result<String, ExportError> {
    Ok(write(&replay(record, rules)?, options))
}

/// The text of one game as [`export`] writes it, signed with `key` (replayed once: the
/// signature covers the canonical content of what is written).
pub fn export_signed(
    record: &GameRecord,
    options: ExportOptions,
    key: &KeyPair,
    rules: &dyn Rules,
) -> Result<String, ExportError> {
    let mut replayed = replay(record, rules)?;
    replayed.normal.signature = Some(key.sign(&Canonical::of(&replayed.normal)));
    Ok(write(&replayed, options))
}

/// The text of a replayed record.
fn write(replayed: &Replayed, options: ExportOptions) -> String {
    let mut text = String::new();
    for (name, value) in tag_pairs(replayed, options.format) {
        let _ = writeln!(text, "[{name} \"{}\"]", escape_tag_value(&value));
    }
    text.push('\n');
    for line in movetext(replayed, options) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push('\n');
    text
}

/// The tag pairs in archive order: the roster, the seats, the result, the variant's setup,
/// the termination, the record's other tags, the seal.
fn tag_pairs(replayed: &Replayed, format: Format) -> Vec<(String, String)> {
    let record = &replayed.normal;
    let mut tags: Vec<(String, String)> = ROSTER
        .iter()
        .map(|(name, default)| {
            (
                name.to_string(),
                record.tag(name).unwrap_or(default).to_string(),
            )
        })
        .collect();
    for (seat, player) in replayed.game.seat_names().iter().zip(&record.players) {
        tags.push((seat_tag(seat), player.clone()));
    }
    tags.push(("Result".into(), result_text(record)));
    if record.variant != CHESS {
        tags.push(("Variant".into(), record.variant.clone()));
    }
    if !record.options.is_empty() {
        tags.push(("Options".into(), record.options.clone()));
    }
    if let Some(start) = &record.start {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), start.clone()));
    }
    if let Some(result) = &record.result {
        tags.push(("Termination".into(), result.rule.clone()));
    }
    let seats = replayed.game.seat_names();
    tags.extend(
        record
            .tags
            .iter()
            .filter(|(name, _)| {
                !ROSTER.iter().any(|(roster, _)| roster == name) && !is_derived_tag(name, seats)
            })
            .cloned(),
    );
    if format == Format::Archive {
        tags.push(("Digest".into(), Canonical::of(record).digest()));
        if let Some(signature) = &record.signature {
            tags.push(("Signature".into(), signature.clone()));
        }
    }
    tags
}

fn result_text(record: &GameRecord) -> String {
    record
        .result
        .as_ref()
        .map_or_else(|| "*".to_string(), |result| result.score_text())
}

/// The movetext, wrapped at [`LINE_WIDTH`] columns.
fn movetext(replayed: &Replayed, options: ExportOptions) -> Vec<String> {
    let seat_names = replayed.game.seat_names();
    let mut lines = Lines::default();
    let mut played = replayed.played.iter();
    let first = replayed.played.first().map_or(Seat(0), |mv| mv.seat);
    let mut numbering = MoveNumbering::new(first, seat_names.len());
    let mut after_comment = true;
    for entry in &replayed.normal.entries {
        match entry {
            Entry::Move(mv) => {
                let move_played = played.next().expect("one played move per move entry");
                let number = numbering.number(move_played.seat);
                if move_played.seat == Seat(0) || after_comment {
                    lines.push(number.to_string());
                }
                lines.push(match options.notation {
                    Notation::Short => move_played.short.clone(),
                    Notation::Long => move_played.long.clone(),
                });
                after_comment = false;
                if let Some(comment) =
                    move_comment(mv).filter(|_| options.format == Format::Archive)
                {
                    lines.push(comment);
                    after_comment = true;
                }
            }
            Entry::Event(event) if options.format == Format::Archive => {
                lines.push(event_comment(event, seat_names));
                after_comment = true;
            }
            Entry::Message(message) if options.format == Format::Archive => {
                for token in message_tokens(message, seat_names) {
                    lines.push(token);
                }
                after_comment = true;
            }
            Entry::Organiser(organiser) if options.format == Format::Archive => {
                for token in organiser_tokens(organiser) {
                    lines.push(token);
                }
                after_comment = true;
            }
            Entry::Event(_) | Entry::Message(_) | Entry::Organiser(_) => {}
        }
    }
    lines.push(result_text(&replayed.normal));
    lines.done()
}

/// The comment after a move: its time, and whether it was played from a conditional line;
/// `None` when it has neither.
fn move_comment(mv: &MoveEntry) -> Option<String> {
    let mut commands = Vec::with_capacity(2);
    if let Some(time) = mv.received {
        commands.push(format!("[%ccsnt {}]", ccsnt_text(time)));
    }
    if mv.conditional {
        commands.push(format!("[%{CONDITIONAL}]"));
    }
    (!commands.is_empty()).then(|| format!("{{{}}}", commands.join(" ")))
}

/// An event's comment: `{[%name seat argument time]}`.
fn event_comment(event: &Event, seat_names: &[&str]) -> String {
    let mut command = format!(
        "{{[%{} {}",
        event.kind.name(),
        seat_names[event.seat.index()]
    );
    if let Some(argument) = event.kind.argument() {
        let _ = write!(command, " {}", argument.text(seat_names));
    }
    if let Some(at) = event.at {
        let _ = write!(command, " {}", ccsnt_text(at));
    }
    command.push_str("]}");
    command
}

/// A message's comment as tokens a line may break between: `{[%message seat time]`, its
/// words, and `}` after the last. The text can neither end the comment nor hold a command
/// a reader would act on: a `}` is written `)`, a `[%` as `[ %`. No token starts with `%`
/// (which would make an escape line at the start of a line): such a word stays with the one
/// before it, and a line feed before a `%` gets a space after it.
fn message_tokens(message: &MessageEntry, seat_names: &[&str]) -> Vec<String> {
    let text = message
        .text
        .replace('}', ")")
        .replace("[%", "[ %")
        .replace("\n%", "\n %");
    let command = format!(
        "{{[%message {} {}]",
        seat_names[message.seat.index()],
        ccsnt_text(message.at)
    );
    comment_tokens(command, &text)
}

/// An organiser's act as comment tokens: `{[%name arguments time]}`, and for an
/// adjudication its reason after the command, escaped to read back exactly
/// ([`escape_free_text`]).
fn organiser_tokens(organiser: &OrganiserEntry) -> Vec<String> {
    let mut command = format!("{{[%{}", organiser.act.name());
    for argument in organiser.act.arguments() {
        let _ = write!(command, " {argument}");
    }
    if let Some(at) = organiser.at {
        let _ = write!(command, " {}", ccsnt_text(at));
    }
    command.push(']');
    let text = organiser
        .act
        .text()
        .map(escape_free_text)
        .unwrap_or_default();
    comment_tokens(command, &text)
}

/// A comment as tokens a line may break between: `command` (which opens it), the words of
/// `text` (which holds no `}`), and `}` after the last. No token starts with `%` (which
/// would make an escape line at the start of a line): such a word stays with the one before
/// it.
fn comment_tokens(command: String, text: &str) -> Vec<String> {
    let mut tokens = vec![command];
    for word in text.split(' ').filter(|word| !word.is_empty()) {
        match tokens.last_mut() {
            Some(last) if word.starts_with('%') => {
                last.push(' ');
                last.push_str(word);
            }
            _ => tokens.push(word.to_string()),
        }
    }
    if let Some(last) = tokens.last_mut() {
        last.push('}');
    }
    tokens
}

/// Movetext lines being filled token by token.
#[derive(Default)]
struct Lines {
    done: Vec<String>,
    current: String,
}

impl Lines {
    fn push(&mut self, token: String) {
        if !self.current.is_empty() && self.current.len() + 1 + token.len() > LINE_WIDTH {
            self.done.push(std::mem::take(&mut self.current));
        }
        if !self.current.is_empty() {
            self.current.push(' ');
        }
        self.current.push_str(&token);
    }

    fn done(mut self) -> Vec<String> {
        if !self.current.is_empty() {
            self.done.push(self.current);
        }
        self.done
    }
}
