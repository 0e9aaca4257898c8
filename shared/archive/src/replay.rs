//! Import: a game as written, replayed through the rules into a [`GameRecord`]. Each game is
//! all or nothing: the first problem rejects it, with its place.

use missive_rules::{AnyGame, Claim, EndRule, Seat, SeatResult};

use crate::error::{ImportError, Reason};
use crate::record::{Entry, Event, EventKind, GameRecord, GameResult, MoveEntry, is_rule_name};
use crate::rules::{Rules, new_game, start_text, variant_id};
use crate::syntax::{Place, RawGame, RawItem, RawTag};
use crate::text::{is_result_token, seat_tag};

/// A game read from an archive: its record, and the seal tags it carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The game's number in the file, from 1.
    pub number: usize,
    /// The line where the game starts.
    pub line: usize,
    /// The record, moves in long notation.
    pub record: GameRecord,
    /// The `Digest` tag's value, if present.
    pub digest: Option<String>,
}

/// Tags the archive derives from the record rather than keeping in [`GameRecord::tags`]
/// (seat tags aside, which depend on the variant).
pub const DERIVED_TAGS: &[&str] = &[
    "Result",
    "Variant",
    "Options",
    "SetUp",
    "FEN",
    "Termination",
    "Digest",
    "Signature",
];

/// Replays `raw` through `rules` into a record.
pub fn import(raw: RawGame, rules: &dyn Rules) -> Result<Imported, ImportError> {
    let fail = |place: Place, reason: Reason| raw.error(place, reason);
    let value = |name: &str| raw.tag(name).map(|tag| tag.value.as_str());
    let (mut game, start) = setup(&raw, rules)?;
    let entries = replay_items(&raw, game.as_mut())?;
    let result_place = raw
        .termination
        .as_ref()
        .map_or(raw.tag_place("Result"), |(_, place)| *place);
    let result = read_result(&raw, game.as_ref(), &entries)
        .map_err(|e| fail(result_place, Reason::Result(e)))?;
    let seat_tags: Vec<String> = game.seat_names().iter().map(|s| seat_tag(s)).collect();
    let players = seat_tags
        .iter()
        .map(|tag| value(tag).unwrap_or("?").to_string())
        .collect();
    Ok(Imported {
        number: raw.number,
        line: raw.place.line,
        digest: value("Digest").map(str::to_string),
        record: GameRecord {
            variant: game.variant().to_string(),
            options: game.options(),
            players,
            start,
            tags: kept_tags(&raw.tags, &seat_tags),
            entries,
            result,
            signature: value("Signature").map(str::to_string),
        },
    })
}

impl RawGame {
    /// An error of this game at `place`.
    fn error(&self, place: Place, reason: Reason) -> ImportError {
        ImportError {
            game: self.number,
            line: place.line,
            column: place.column,
            reason,
        }
    }

    /// Where tag `name` is, or where the game starts when it has no such tag.
    fn tag_place(&self, name: &str) -> Place {
        self.tag(name).map_or(self.place, |tag| tag.place)
    }
}

/// The game the tags set up (variant, options, start position), and its start position's
/// text when it is not the standard one.
fn setup(
    raw: &RawGame,
    rules: &dyn Rules,
) -> Result<(Box<dyn AnyGame>, Option<String>), ImportError> {
    let value = |name: &str| raw.tag(name).map(|tag| tag.value.as_str());
    let variant = variant_id(value("Variant"));
    let fen = value("FEN")
        .filter(|_| value("SetUp") != Some("0"))
        .map(|fen| start_text(variant, fen));
    let place = raw.tag_place(if fen.is_some() { "FEN" } else { "Variant" });
    let fail = |error| raw.error(place, Reason::Setup(error));
    let options = value("Options").unwrap_or("");
    let game = new_game(rules, variant, options, fen.as_deref()).map_err(fail)?;
    let start = match fen {
        Some(_) => non_standard_start(rules, variant, game.as_ref()).map_err(fail)?,
        None => None,
    };
    Ok((game, start))
}

/// Plays the moves and reads the events of the main line.
fn replay_items(raw: &RawGame, game: &mut dyn AnyGame) -> Result<Vec<Entry>, ImportError> {
    let mut entries = Vec::with_capacity(raw.items.len());
    game.reserve(raw.items.len());
    let mut ply = 0;
    for item in &raw.items {
        let entry = match item {
            RawItem::Move {
                text,
                received,
                place,
            } => {
                ply += 1;
                let long = game
                    .play_long(raw.move_text(text))
                    .map_err(|error| raw.error(*place, Reason::Move { ply, error }))?;
                Entry::Move(MoveEntry {
                    text: long,
                    received: *received,
                })
            }
            RawItem::Event {
                name,
                seat,
                argument,
                at,
                place,
            } => Entry::Event(
                read_event(game, name, seat, argument.as_deref(), *at)
                    .map_err(|reason| raw.error(*place, Reason::Event(reason)))?,
            ),
        };
        entries.push(entry);
    }
    Ok(entries)
}

fn read_event(
    game: &dyn AnyGame,
    name: &str,
    seat: &str,
    argument: Option<&str>,
    at: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Event, String> {
    let seats = game.seat_names();
    let seat = find_seat(seats, seat).ok_or_else(|| {
        format!(
            "no seat `{seat}` in {} (seats: {})",
            game.variant(),
            seats.join(", ")
        )
    })?;
    Ok(Event {
        kind: EventKind::parse(name, argument)?,
        seat,
        at,
    })
}

/// The tags a record keeps: all but the derived ones and the seat tags.
fn kept_tags(tags: &[RawTag], seat_tags: &[String]) -> Vec<(String, String)> {
    tags.iter()
        .filter(|tag| !is_derived_tag(&tag.name, seat_tags))
        .map(|RawTag { name, value, .. }| (name.clone(), value.clone()))
        .collect()
}

/// True for a tag the archive writes from the record's own fields.
pub fn is_derived_tag(name: &str, seat_tags: &[String]) -> bool {
    DERIVED_TAGS.contains(&name) || seat_tags.iter().any(|tag| tag == name)
}

/// The start position's text when it is not the variant's standard start under the game's
/// options, `None` when it is.
pub fn non_standard_start(
    rules: &dyn Rules,
    variant: &str,
    game: &dyn AnyGame,
) -> Result<Option<String>, missive_rules::SetupError> {
    let standard = new_game(rules, variant, &game.options(), None)?.start_text();
    let start = game.start_text();
    Ok((start != standard).then_some(start))
}

/// The seat named `text` (any case), among `names`.
pub fn find_seat(names: &[&str], text: &str) -> Option<Seat> {
    names
        .iter()
        .position(|name| name.eq_ignore_ascii_case(text))
        .map(|index| Seat(index as u8))
}

/// The game's result from its `Result` tag, termination marker and `Termination` tag,
/// checked against the rules.
fn read_result(
    raw: &RawGame,
    game: &dyn AnyGame,
    entries: &[Entry],
) -> Result<Option<GameResult>, String> {
    let tag = raw
        .tag("Result")
        .map(|tag| tag.value.trim())
        .filter(|value| !value.is_empty() && *value != "?");
    let marker = raw.termination.as_ref().map(|(text, _)| text.as_str());
    if let Some(tag) = tag
        && !is_result_token(tag)
    {
        return Err(format!("`{tag}` is not a result"));
    }
    if let (Some(tag), Some(marker)) = (tag, marker)
        && tag != marker
    {
        return Err(format!(
            "the Result tag says `{tag}` but the movetext ends with `{marker}`"
        ));
    }
    let seats = game.seat_names().len();
    let written = marker.or(tag).unwrap_or("*");
    let termination = raw.tag("Termination").map(|tag| tag.value.trim());
    let results = match written {
        "*" => None,
        text => Some(GameResult::parse_score(text, seats).ok_or_else(|| {
            format!("`{text}` does not give a result to each of the {seats} seats")
        })?),
    };
    if let Some(outcome) = game.outcome() {
        let decided = GameResult::from(&outcome);
        let agrees = results.as_ref().is_none_or(|r| *r == decided.results)
            && termination
                .filter(|t| is_rule_name(t))
                .is_none_or(|t| t == decided.rule);
        if !agrees {
            return Err(format!(
                "the moves end the game by {} ({}), the record says {written}{}",
                decided.rule,
                decided.score_text(),
                termination.map(|t| format!(" by {t}")).unwrap_or_default()
            ));
        }
        return Ok(Some(decided));
    }
    let Some(results) = results else {
        return Ok(None);
    };
    let rule = match termination.filter(|t| is_rule_name(t)) {
        Some(rule) => rule.to_string(),
        None => infer_rule(game, &results, termination)?,
    };
    let result = GameResult { rule, results };
    check_result(game, &result, entries)?;
    Ok(Some(result))
}

/// The ending rule of a game from another tool, which names none of ours: a decisive result
/// is a resignation (a timeout when its `Termination` speaks of time, an abandonment when it
/// speaks of that), an all-drawn one an agreement.
fn infer_rule(
    game: &dyn AnyGame,
    results: &[SeatResult],
    termination: Option<&str>,
) -> Result<String, String> {
    let said = termination.unwrap_or("").to_ascii_lowercase();
    let rule = if results.iter().all(|r| *r == SeatResult::Draw) {
        EndRule::Agreement
    } else if said.contains("time") {
        EndRule::Timeout
    } else if said.contains("abandon") {
        EndRule::Abandonment
    } else if results.contains(&SeatResult::Win) {
        EndRule::Resignation
    } else {
        return Err(format!(
            "the Termination tag must name the rule that ended this {}-seat game",
            game.seat_names().len()
        ));
    };
    Ok(rule.as_str().to_string())
}

/// The rules the position itself decides: a record may only name them when the moves
/// reach such a position.
const BOARD_RULES: &[EndRule] = &[
    EndRule::Checkmate,
    EndRule::Stalemate,
    EndRule::InsufficientMaterial,
    EndRule::FivefoldRepetition,
    EndRule::SeventyFiveMoves,
];

/// Checks `result` against the rules at the game's last position: a board rule must be the
/// position's own end, a claim must hold, a resignation or timeout must give the results the
/// rules give for some seat (the one whose event says so, if recorded), an agreement must
/// be a draw. Other rule names (abandonment, a variant's own) are taken as recorded.
pub fn check_result(
    game: &dyn AnyGame,
    result: &GameResult,
    entries: &[Entry],
) -> Result<(), String> {
    let seats = game.seat_names().len();
    if result.results.len() != seats {
        return Err(format!(
            "{} seat results for a game of {seats} seats",
            result.results.len()
        ));
    }
    if let Some(outcome) = game.outcome() {
        return (GameResult::from(&outcome) == *result)
            .then_some(())
            .ok_or_else(|| {
                format!(
                    "the moves end the game by {} ({}), the record says {} ({})",
                    outcome.rule,
                    outcome.score_text(),
                    result.rule,
                    result.score_text()
                )
            });
    }
    let rule = result.rule.as_str();
    if BOARD_RULES.iter().any(|r| r.as_str() == rule) {
        return Err(format!(
            "the final position does not end the game by {rule}"
        ));
    }
    let by_seat = |outcome: &dyn Fn(Seat) -> missive_rules::Outcome,
                   event: fn(&EventKind) -> bool| {
        let recorded = last_event_seat(entries, event);
        let fits = |seat: Seat| GameResult::from(&outcome(seat)) == *result;
        let fitting = match recorded {
            Some(seat) => fits(seat),
            None => (0..seats).any(|i| fits(Seat(i as u8))),
        };
        fitting
            .then_some(())
            .ok_or_else(|| format!("{} does not give {} here", rule, result.score_text()))
    };
    match rule {
        "resignation" => by_seat(&|seat| game.resign(seat), |k| *k == EventKind::Resigned),
        "timeout" | "timeout-vs-insufficient-material" => {
            by_seat(&|seat| game.timeout(seat), |k| *k == EventKind::TimedOut)
        }
        "agreement" if result.results.iter().any(|r| *r != SeatResult::Draw) => {
            Err("a game ended by agreement is drawn for every seat".into())
        }
        _ => match Claim::parse(rule) {
            Some(claim) => {
                let upheld = game.claim(claim).map_err(|e| e.to_string())?;
                (GameResult::from(&upheld) == *result)
                    .then_some(())
                    .ok_or_else(|| format!("a {rule} claim gives {}", upheld.score_text()))
            }
            None => Ok(()),
        },
    }
}

/// The seat of the last event of the kind `matches` selects.
fn last_event_seat(entries: &[Entry], matches: fn(&EventKind) -> bool) -> Option<Seat> {
    entries.iter().rev().find_map(|entry| match entry {
        Entry::Event(event) if matches(&event.kind) => Some(event.seat),
        _ => None,
    })
}
