//! Import: a game as written, replayed through the rules into a [`GameRecord`]. Each game is
//! all or nothing: the first problem rejects it, with its place.

use std::ops::Range;

use chrono::{DateTime, Utc};
use missive_rules::{AnyGame, Claim, EndRule, MoveError, Outcome, Seat, SeatResult};

use crate::error::{ImportError, Reason};
use crate::record::{Entry, Event, EventKind, GameRecord, GameResult, MoveEntry, is_rule_name};
use crate::rules::{Rules, new_game, start_text, variant_id};
use crate::seal::Canonical;
use crate::syntax::{Place, RawGame, RawItem, Tag};
use crate::text::{ccsnt_text, is_result_token};

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
    /// Where the parts of the game a seal check names are.
    pub places: SealPlaces,
    /// The rules game at the record's end, every move replayed: what a store's import
    /// takes the moves' notations and the final position from without replaying again.
    pub game: ReplayedGame,
    /// The seats each move put out of a game of more than two seats, as the rules say: the
    /// move's index among the record's moves (from 0) and the seat, in the order of play
    /// (empty for a two-seat game).
    pub eliminations: Vec<(usize, Seat)>,
}

/// A rules game as a record's replay left it. Two are equal when they are of the same
/// variant at the same position after the same number of moves.
#[derive(Clone, Debug)]
pub struct ReplayedGame(pub Box<dyn AnyGame>);

impl PartialEq for ReplayedGame {
    fn eq(&self, other: &ReplayedGame) -> bool {
        let (a, b) = (self.0.as_ref(), other.0.as_ref());
        a.variant() == b.variant() && a.ply() == b.ply() && a.position_text() == b.position_text()
    }
}

impl Eq for ReplayedGame {}

/// Where, in a game's text, the parts its seal covers begin, and the signature is: what
/// a failed check points at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SealPlaces {
    /// The setup: where the game begins.
    pub setup: Place,
    /// The play: the first move or event (the termination marker when there is none).
    pub play: Place,
    /// The result: the termination marker (or the `Result` tag).
    pub result: Place,
    /// The `Signature` tag (where the game begins when it has none).
    pub signature: Place,
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

/// Replays `raw` through `rules` into a record, each move's long notation in its entry when
/// `texts` says so (else its text is empty, and [`Imported::game`] writes it when asked).
pub fn import(raw: &RawGame, rules: &dyn Rules, texts: bool) -> Result<Imported, ImportError> {
    let fail = |place: Place, reason: Reason| raw.error(place, reason);
    let derived = DerivedTags::of(raw);
    let value = |name: &str| derived.get(name).map(|tag| tag.value);
    let (mut game, start) = setup(raw, &derived, rules)?;
    let (entries, eliminations) = replay_items(raw, game.as_mut(), texts)?;
    let result_place = raw
        .termination
        .as_ref()
        .map_or(derived.place(raw, "Result"), |(_, place)| *place);
    let result = read_result(raw, &derived, game.as_ref(), &entries)
        .map_err(|e| fail(result_place, Reason::Result(e)))?;
    let places = SealPlaces {
        setup: raw.place,
        play: raw
            .items
            .first()
            .map_or(result_place, |item| raw.item_place(item)),
        result: result_place,
        signature: derived.place(raw, "Signature"),
    };
    let (players, tags) = players_and_kept_tags(raw, game.seat_names());
    let record = GameRecord {
        variant: game.variant().to_string(),
        options: game.options(),
        players,
        start,
        tags,
        entries,
        result,
        signature: value("Signature").map(str::to_string),
    };
    Ok(Imported {
        number: raw.number,
        line: raw.place.line,
        digest: value("Digest").map(str::to_string),
        places,
        record,
        game: ReplayedGame(game),
        eliminations,
    })
}

impl Imported {
    /// The canonical content of the game read ([`Canonical::of`] its record), each move the
    /// reader left without its text ([`crate::Reader::without_move_texts`]) written in long
    /// notation from the replay: what its seal covers.
    pub fn canonical(&self) -> Canonical {
        Canonical::written(&self.record, Some(self.game.0.as_ref()))
    }
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
}

/// The first tag of each of the [`DERIVED_TAGS`] names among a game's, found in one pass
/// over its tags: what import reads of them.
struct DerivedTags<'g>([Option<Tag<'g>>; DERIVED_TAGS.len()]);

impl<'g> DerivedTags<'g> {
    /// The derived tags of `raw`.
    fn of(raw: &'g RawGame) -> DerivedTags<'g> {
        let mut found = [None; DERIVED_TAGS.len()];
        for tag in raw.tags() {
            if let Some(index) = derived_index(tag.name) {
                found[index].get_or_insert(tag);
            }
        }
        DerivedTags(found)
    }

    /// The first tag named `name`, one of the [`DERIVED_TAGS`] (`None` for another name).
    fn get(&self, name: &str) -> Option<Tag<'g>> {
        self.0[derived_index(name)?]
    }

    /// Where tag `name` of `raw` is, or where the game starts when it has no such tag.
    fn place(&self, raw: &RawGame, name: &str) -> Place {
        self.get(name).map_or(raw.place, |tag| tag.place)
    }
}

/// The index of `name` among the [`DERIVED_TAGS`], if it is one.
#[inline]
fn derived_index(name: &str) -> Option<usize> {
    Some(match name {
        "Result" => 0,
        "Variant" => 1,
        "Options" => 2,
        "SetUp" => 3,
        "FEN" => 4,
        "Termination" => 5,
        "Digest" => 6,
        "Signature" => 7,
        _ => return None,
    })
}

/// The game the tags set up (variant, options, start position), and its start position's
/// text when it is not the standard one.
fn setup(
    raw: &RawGame,
    derived: &DerivedTags<'_>,
    rules: &dyn Rules,
) -> Result<(Box<dyn AnyGame>, Option<String>), ImportError> {
    let value = |name: &str| derived.get(name).map(|tag| tag.value);
    let variant = variant_id(value("Variant"));
    let fen = value("FEN")
        .filter(|_| value("SetUp") != Some("0"))
        .map(|fen| start_text(variant, fen));
    let place = derived.place(raw, if fen.is_some() { "FEN" } else { "Variant" });
    let fail = |error| raw.error(place, Reason::Setup(error));
    let options = value("Options").unwrap_or("");
    let game = new_game(rules, variant, options, fen.as_deref()).map_err(fail)?;
    let start = match fen {
        Some(_) => non_standard_start(rules, variant, game.as_ref()).map_err(fail)?,
        None => None,
    };
    Ok((game, start))
}

/// The entries of a replayed game, and the seats each of its moves put out of the game.
type Replayed = (Vec<Entry>, Vec<(usize, Seat)>);

/// Plays the moves and reads the events of the main line, whose times must not go back;
/// with the seats each move put out of a game of more than two seats. Each move entry holds
/// the move's long notation when `texts` says so.
fn replay_items(
    raw: &RawGame,
    game: &mut dyn AnyGame,
    texts: bool,
) -> Result<Replayed, ImportError> {
    let mut entries = Vec::with_capacity(raw.items.len());
    let mut eliminations = Vec::new();
    let many_seats = game.seat_names().len() > 2;
    game.reserve(raw.items.len());
    let mut ply = 0;
    let mut latest = None;
    for item in &raw.items {
        let entry = match item {
            RawItem::Move {
                text,
                received,
                conditional,
                place,
            } => {
                ply += 1;
                let long = match many_seats {
                    false => play(raw, game, text, texts),
                    true => play_counting_out(raw, game, text, texts, &mut eliminations, ply),
                }
                .map_err(|error| raw.error(*place, Reason::Move { ply, error }))?;
                // A move's time is the entry's: checked without looking the entry over.
                latest = later(latest, *received).map_err(|reason| raw.error(*place, reason))?;
                entries.push(Entry::Move(MoveEntry {
                    text: long,
                    received: *received,
                    conditional: *conditional,
                }));
                continue;
            }
            RawItem::Event(index) => {
                let (event, seat, argument) = raw.event(*index);
                Entry::Event(
                    read_event(game, event.name, seat, argument, event.at)
                        .map_err(|reason| raw.error(event.place, Reason::Event(reason)))?,
                )
            }
            RawItem::Organiser(act) => Entry::Organiser(act.entry.clone()),
        };
        latest =
            in_order(latest, &entry).map_err(|reason| raw.error(raw.item_place(item), reason))?;
        entries.push(entry);
    }
    Ok((entries, eliminations))
}

/// Plays the move whose text is at `text` in `raw`: its long notation when `texts` says so,
/// else an empty text.
#[inline]
fn play(
    raw: &RawGame,
    game: &mut dyn AnyGame,
    text: &Range<usize>,
    texts: bool,
) -> Result<String, MoveError> {
    let text = raw.move_text(text);
    if texts {
        return game.play_long(text);
    }
    game.replay(text)?;
    Ok(String::new())
}

/// [`play`] in a game of more than two seats, adding the seats the move, the game's
/// `ply`th, put out of the game to `eliminations`.
fn play_counting_out(
    raw: &RawGame,
    game: &mut dyn AnyGame,
    text: &Range<usize>,
    texts: bool,
    eliminations: &mut Vec<(usize, Seat)>,
    ply: usize,
) -> Result<String, MoveError> {
    let playing = playing_seats(game);
    let long = play(raw, game, text, texts)?;
    let out = playing.into_iter().filter(|seat| !game.is_playing(*seat));
    eliminations.extend(out.map(|seat| (ply - 1, seat)));
    Ok(long)
}

/// The seats still in `game`.
fn playing_seats(game: &dyn AnyGame) -> Vec<Seat> {
    (0..game.seat_names().len() as u8)
        .map(Seat)
        .filter(|seat| game.is_playing(*seat))
        .collect()
}

/// The latest time once `entry` is read after entries whose latest time is `latest`;
/// refused when the entry's time is earlier (a vacation's time, its start, may lie ahead and
/// is not counted). The times read are whole seconds, as the archive writes them.
fn in_order(latest: Option<DateTime<Utc>>, entry: &Entry) -> Result<Option<DateTime<Utc>>, Reason> {
    later(latest, entry.ordered_time())
}

/// The latest time once an entry at `time` (if it has one) is read after entries whose
/// latest time is `latest`; refused when `time` is earlier. Inlined always: it runs for
/// every move.
#[inline(always)]
fn later(
    latest: Option<DateTime<Utc>>,
    time: Option<DateTime<Utc>>,
) -> Result<Option<DateTime<Utc>>, Reason> {
    match (latest, time) {
        (Some(before), Some(now)) if now < before => Err(out_of_order(now, before)),
        (_, Some(now)) => Ok(Some(now)),
        (before, None) => Ok(before),
    }
}

/// Why a time `now` may not follow the time `before`.
#[cold]
fn out_of_order(now: DateTime<Utc>, before: DateTime<Utc>) -> Reason {
    Reason::Order(format!(
        "{} comes after {}",
        ccsnt_text(now),
        ccsnt_text(before)
    ))
}

impl SealPlaces {
    /// Where `section` begins.
    pub fn of(&self, section: crate::Section) -> Place {
        match section {
            crate::Section::Setup => self.setup,
            crate::Section::Play => self.play,
            crate::Section::Result => self.result,
        }
    }
}

impl RawGame {
    /// Where `item`, one of the game's items, is.
    fn item_place(&self, item: &RawItem) -> Place {
        match item {
            RawItem::Move { place, .. } => *place,
            RawItem::Event(index) => self.event(*index).0.place,
            RawItem::Organiser(act) => act.place,
        }
    }
}

fn read_event(
    game: &dyn AnyGame,
    name: &str,
    seat: &str,
    argument: Option<&str>,
    at: Option<DateTime<Utc>>,
) -> Result<Event, String> {
    let seats = game.seat_names();
    let seat = find_seat(seats, seat).ok_or_else(|| {
        format!(
            "no seat `{seat}` in {} (seats: {})",
            game.variant(),
            seats.join(", ")
        )
    })?;
    let kind = EventKind::parse(name, argument, seats)?;
    if let EventKind::Eliminated { heir } = kind {
        check_elimination(game, seat, heir)?;
    }
    Ok(Event { kind, seat, at })
}

/// An elimination must name a seat the rules have put out of the game by then, and an heir
/// still in it.
fn check_elimination(game: &dyn AnyGame, seat: Seat, heir: Seat) -> Result<(), String> {
    let names = game.seat_names();
    let name = |seat: Seat| names.get(seat.index()).copied().unwrap_or("?");
    if game.is_playing(seat) {
        return Err(format!("{} is still in the game here", name(seat)));
    }
    if !game.is_playing(heir) {
        return Err(format!(
            "{} is out of the game and takes over no army",
            name(heir)
        ));
    }
    Ok(())
}

/// The player in each of `seats`, the value of the first tag naming it
/// ([`seat_tag`](crate::text::seat_tag); `?` when there is none), and the tags a record
/// keeps of `raw`'s: all but the derived ones and the seat tags. One pass over the tags.
fn players_and_kept_tags(raw: &RawGame, seats: &[&str]) -> (Vec<String>, Vec<(String, String)>) {
    let mut players = vec![None; seats.len()];
    let mut kept = Vec::with_capacity(raw.tag_count());
    for Tag { name, value, .. } in raw.tags() {
        if derived_index(name).is_some() {
            continue;
        }
        match seats.iter().position(|seat| is_seat_tag(name, seat)) {
            Some(seat) => {
                players[seat].get_or_insert(value);
            }
            None => kept.push((name.to_string(), value.to_string())),
        }
    }
    let players = players
        .into_iter()
        .map(|player| player.unwrap_or("?").to_string())
        .collect();
    (players, kept)
}

/// True for a tag the archive writes from the record's own fields, given the names of the
/// game's seats.
pub fn is_derived_tag(name: &str, seats: &[&str]) -> bool {
    derived_index(name).is_some() || seats.iter().any(|seat| is_seat_tag(name, seat))
}

/// True when `name` is the tag naming the player in `seat`,
/// [`seat_tag`](crate::text::seat_tag) of it: compared without writing it when the seat's
/// name begins with ASCII.
fn is_seat_tag(name: &str, seat: &str) -> bool {
    match (seat.as_bytes().first(), name.as_bytes().first()) {
        (Some(first), Some(tag_first)) if first.is_ascii() => {
            name.len() == seat.len()
                && *tag_first == first.to_ascii_uppercase()
                && name[1..] == seat[1..]
        }
        _ => crate::text::seat_tag(seat) == name,
    }
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
    derived: &DerivedTags<'_>,
    game: &dyn AnyGame,
    entries: &[Entry],
) -> Result<Option<GameResult>, String> {
    let tag = derived
        .get("Result")
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
    let termination = derived.get("Termination").map(|tag| tag.value.trim());
    let results = match written {
        "*" => None,
        text => Some(GameResult::parse_score(text, seats).ok_or_else(|| {
            format!("`{text}` does not give a result to each of the {seats} seats")
        })?),
    };
    if let Some(outcome) = game.outcome() {
        let decided = GameResult::from(&outcome);
        let agrees = results.is_none_or(|_| decided.score_text() == written)
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
    check_result(game, &GameResult { rule, results }, entries).map(Some)
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
/// be the rules' draw (among the seats still playing: a nation already out keeps its loss).
/// Other rule names (abandonment, a variant's own) are taken as recorded. Gives the result
/// as the rules state it: a score text does not tell every result apart (for three seats,
/// `0-1/2-1/2` is a shared win or a draw between the two seats left), the rules do.
pub fn check_result(
    game: &dyn AnyGame,
    result: &GameResult,
    entries: &[Entry],
) -> Result<GameResult, String> {
    let seats = game.seat_names().len();
    if result.results.len() != seats {
        return Err(format!(
            "{} seat results for a game of {seats} seats",
            result.results.len()
        ));
    }
    if let Some(outcome) = game.outcome() {
        return agreeing(&outcome, result).ok_or_else(|| {
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
    let by_seat = |outcome: &dyn Fn(Seat) -> Outcome, event: fn(&EventKind) -> bool| {
        let recorded = last_event_seat(entries, event);
        let fits = |seat: Seat| agreeing(&outcome(seat), result);
        match recorded {
            Some(seat) => fits(seat),
            None => (0..seats).find_map(|i| fits(Seat(i as u8))),
        }
        .ok_or_else(|| format!("{} does not give {} here", rule, result.score_text()))
    };
    match rule {
        "resignation" => by_seat(&|seat| game.resign(seat), |k| *k == EventKind::Resigned),
        "timeout" | "timeout-vs-insufficient-material" => {
            by_seat(&|seat| game.timeout(seat), |k| *k == EventKind::TimedOut)
        }
        "agreement" => {
            let agreed = game.draw(EndRule::Agreement);
            agreeing(&agreed, result).ok_or_else(|| {
                format!(
                    "an agreement gives {} here (a draw among the seats still playing)",
                    agreed.score_text()
                )
            })
        }
        _ => match Claim::parse(rule) {
            Some(claim) => {
                let upheld = game.claim(claim).map_err(|e| e.to_string())?;
                agreeing(&upheld, result)
                    .ok_or_else(|| format!("a {rule} claim gives {}", upheld.score_text()))
            }
            None => Ok(result.clone()),
        },
    }
}

/// The rules' `outcome` as a result, when `result` says the same: the same rule and the same
/// score.
fn agreeing(outcome: &Outcome, result: &GameResult) -> Option<GameResult> {
    let same_score =
        || outcome.results == result.results || outcome.score_text() == result.score_text();
    (outcome.rule.as_str() == result.rule && same_score()).then(|| GameResult::from(outcome))
}

/// The seat of the last event of the kind `matches` selects.
fn last_event_seat(entries: &[Entry], matches: fn(&EventKind) -> bool) -> Option<Seat> {
    entries.iter().rev().find_map(|entry| match entry {
        Entry::Event(event) if matches(&event.kind) => Some(event.seat),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_tags_are_found_by_their_index() {
        for (index, name) in DERIVED_TAGS.iter().enumerate() {
            assert_eq!(derived_index(name), Some(index), "{name}");
        }
        for name in ["White", "Event", "result", "FENs", ""] {
            assert_eq!(derived_index(name), None, "{name}");
        }
    }
}
