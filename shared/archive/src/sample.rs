//! Random game records of any variant, for property tests, fuzz seeds and benchmarks:
//! random legal moves (a few marked as played from a conditional line), increasing receipt
//! times, events between moves, tags with awkward characters, and a result the rules accept.

use chrono::{DateTime, Utc};
use missive_rules::{AnyGame, EndRule, Notation, Seat};
use rand::prelude::*;
use rand::rngs::StdRng;

use crate::record::{Entry, Event, EventKind, GameRecord, GameResult, MoveEntry};
use crate::rules::{Rules, new_game};

/// Names that exercise the tag escapes and UTF-8.
const NAMES: &[&str] = &[
    "Alice",
    "Bob",
    "O'Brien, Seán",
    "Zhuge \"Kongming\" Liang",
    "back\\slash",
    "曹操",
    "?",
];

/// A random game of `variant` with at most `max_plies` moves, the same for the same `seed`.
/// `None` when `rules` has no such variant.
pub fn random_record(
    rules: &dyn Rules,
    variant: &str,
    seed: u64,
    max_plies: usize,
) -> Option<GameRecord> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = new_game(rules, variant, "", None).ok()?;
    let seats = game.seat_names().len();
    let mut clock = Clock::new(&mut rng);
    let mut entries = Vec::new();
    let plies = rng.random_range(0..=max_plies);
    for _ in 0..plies {
        let moves = game.legal_moves(Notation::Long);
        let Some(text) = moves.choose(&mut rng) else {
            break;
        };
        if rng.random_bool(0.05) {
            entries.push(random_event(&mut rng, &mut clock, seats));
        }
        game.play(text).ok()?;
        entries.push(Entry::Move(MoveEntry {
            text: text.clone(),
            received: rng.random_bool(0.95).then(|| clock.tick(&mut rng)),
            conditional: rng.random_bool(0.05),
        }));
    }
    let result = random_result(&mut rng, &mut clock, game.as_ref(), &mut entries);
    Some(GameRecord {
        variant: variant.to_string(),
        options: String::new(),
        players: (0..seats)
            .map(|_| NAMES.choose(&mut rng).unwrap_or(&"?").to_string())
            .collect(),
        start: None,
        tags: random_tags(&mut rng),
        entries,
        result,
        signature: None,
    })
}

fn random_tags(rng: &mut StdRng) -> Vec<(String, String)> {
    let mut tags = vec![
        (
            "Event".to_string(),
            format!("Correspondence cup {}", rng.random_range(1..50)),
        ),
        ("Site".to_string(), "missive".to_string()),
        ("Date".to_string(), "2026.11.29".to_string()),
        ("Round".to_string(), rng.random_range(1..9).to_string()),
        ("TimeControl".to_string(), "1/3".to_string()),
        ("GameId".to_string(), format!("g{}", rng.random::<u32>())),
    ];
    if rng.random_bool(0.3) {
        tags.push((
            "Annotator".to_string(),
            NAMES.choose(rng).unwrap_or(&"?").to_string(),
        ));
    }
    tags
}

/// Times that only move forward, by minutes to days.
struct Clock(DateTime<Utc>);

impl Clock {
    fn new(rng: &mut StdRng) -> Clock {
        Clock(
            DateTime::from_timestamp(1_780_000_000 + rng.random_range(0..10_000_000), 0)
                .unwrap_or_default(),
        )
    }

    fn tick(&mut self, rng: &mut StdRng) -> DateTime<Utc> {
        self.0 += chrono::Duration::seconds(rng.random_range(30..3 * 86_400));
        self.0
    }
}

fn random_event(rng: &mut StdRng, clock: &mut Clock, seats: usize) -> Entry {
    let kind = match rng.random_range(0..6) {
        0 => EventKind::DrawOffered,
        1 => EventKind::DrawDeclined,
        2 => EventKind::Vacation {
            days: rng.random_range(1..30),
        },
        3 => EventKind::DrawWithdrawn,
        4 => EventKind::ClaimRefused("fifty-moves".to_string()),
        _ => EventKind::Claimed("threefold-repetition".to_string()),
    };
    event(
        kind,
        Seat(rng.random_range(0..seats) as u8),
        Some(clock.tick(rng)),
    )
}

fn event(kind: EventKind, seat: Seat, at: Option<DateTime<Utc>>) -> Entry {
    Entry::Event(Event { kind, seat, at })
}

/// The board's result when the moves ended the game, else a resignation, a timeout, an
/// agreed draw or no result yet, with the events that lead to it.
fn random_result(
    rng: &mut StdRng,
    clock: &mut Clock,
    game: &dyn AnyGame,
    entries: &mut Vec<Entry>,
) -> Option<GameResult> {
    if let Some(outcome) = game.outcome() {
        return Some(GameResult::from(&outcome));
    }
    let seats = game.seat_names().len();
    let seat = Seat(rng.random_range(0..seats) as u8);
    let outcome = match rng.random_range(0..4) {
        0 => {
            entries.push(event(EventKind::Resigned, seat, Some(clock.tick(rng))));
            game.resign(seat)
        }
        1 => {
            entries.push(event(EventKind::TimedOut, seat, Some(clock.tick(rng))));
            game.timeout(seat)
        }
        2 => {
            let other = Seat(((seat.index() + 1) % seats) as u8);
            entries.push(event(EventKind::DrawOffered, seat, Some(clock.tick(rng))));
            entries.push(event(EventKind::DrawAccepted, other, Some(clock.tick(rng))));
            game.draw(EndRule::Agreement)
        }
        _ => return None,
    };
    Some(GameResult::from(&outcome))
}
