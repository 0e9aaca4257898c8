use chrono::TimeZone;
use missive_rules::SeatResult::{Draw, Loss, Win};

use super::*;
use crate::rating::period::widened;
use crate::rating::rate_game;

/// An instant in the week of Monday 2026-11-30, `weeks` weeks on, `hour` o'clock.
fn week(weeks: i64, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, hour, 0, 0).unwrap() + chrono::Duration::weeks(weeks)
}

fn game(
    players: [&'static str; 2],
    results: [SeatResult; 2],
    at: DateTime<Utc>,
) -> EndedGame<&'static str> {
    EndedGame {
        players: players.to_vec(),
        results: results.to_vec(),
        at,
    }
}

#[test]
fn one_game_replays_as_the_game_rated_alone() {
    let games = [game(["ann", "bob"], [Win, Loss], week(0, 9))];
    let ratings = replay(&games, Period::of(week(0, 0))).unwrap();
    let alone = rate_game(&[Rating::default(); 2], &[Win, Loss]).unwrap();
    assert_eq!(ratings["ann"], alone[0]);
    assert_eq!(ratings["bob"], alone[1]);
}

#[test]
fn a_players_idle_periods_widen_their_deviation_and_pending_games_wait() {
    let games = [
        game(["ann", "bob"], [Win, Loss], week(0, 9)),
        game(["ann", "cat"], [Draw, Draw], week(3, 9)),
        game(["cat", "bob"], [Win, Loss], week(9, 9)),
    ];
    let through = Period::of(week(5, 0));
    let ratings = replay(&games, through).unwrap();
    let first = rate_game(&[Rating::default(); 2], &[Win, Loss]).unwrap();
    assert_eq!(ratings["bob"], widened(&first[1], 5));
    let ann = widened(&first[0], 2);
    let third = rate_game(&[ann, Rating::default()], &[Draw, Draw]).unwrap();
    assert_eq!(ratings["ann"], widened(&third[0], 2));
    assert_eq!(ratings["cat"], widened(&third[1], 2));
    assert_eq!(ratings.len(), 3);
}

#[test]
fn the_order_games_come_in_does_not_matter() {
    let mut games = vec![
        game(["ann", "bob"], [Win, Loss], week(0, 9)),
        game(["bob", "cat"], [Draw, Draw], week(0, 10)),
        game(["cat", "ann"], [Win, Loss], week(1, 9)),
    ];
    let through = Period::of(week(1, 0));
    let forward = replay(&games, through).unwrap();
    games.reverse();
    assert_eq!(replay(&games, through).unwrap(), forward);
}
