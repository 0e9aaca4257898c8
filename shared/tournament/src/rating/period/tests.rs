use chrono::TimeZone;
use missive_rules::SeatResult::{Draw, Loss, Win};

use super::*;
use crate::rating::rate_game;
use crate::rating::tests::rating;

fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
}

#[test]
fn a_period_runs_from_monday_to_monday_utc() {
    // 2026-11-30 is a Monday.
    let week = Period::of(at(2026, 12, 2, 21, 50));
    assert_eq!(week.start(), at(2026, 11, 30, 0, 0));
    assert_eq!(week.end(), at(2026, 12, 7, 0, 0));
    assert_eq!(Period::of(at(2026, 11, 30, 0, 0)), week);
    assert_eq!(Period::of(at(2026, 12, 6, 23, 59)), week);
    assert_eq!(Period::of(at(2026, 12, 7, 0, 0)), week.next());
}

#[test]
fn since_counts_whole_periods_and_never_goes_negative() {
    let week = Period::of(at(2026, 11, 30, 12, 0));
    let later = week.next().next().next();
    assert_eq!(later.since(week), 3);
    assert_eq!(week.since(week), 0);
    assert_eq!(week.since(later), 0);
}

#[test]
fn an_idle_period_widens_the_deviation_by_the_volatility() {
    let before = rating(1500.0, 200.0, 0.06);
    let phi: f64 = 200.0 / 173.7178;
    let expected = (phi * phi + 0.06 * 0.06).sqrt() * 173.7178;
    let after = widened(&before, 1);
    assert!(
        (after.deviation - expected).abs() < 1e-9,
        "{}",
        after.deviation
    );
    assert_eq!((after.rating, after.volatility), (1500.0, 0.06));
    assert_eq!(widened(&before, 0), before);
    let twice = widened(&after, 1);
    assert_eq!(widened(&before, 2), twice);
}

#[test]
fn widening_stops_at_a_newcomers_deviation() {
    let after = widened(&rating(1500.0, 340.0, 0.06), 1_000_000);
    assert_eq!(after.deviation, 350.0);
}

#[test]
fn the_current_rating_widens_only_for_periods_that_have_ended() {
    let rated = Period::of(at(2026, 11, 30, 12, 0));
    let stored = rating(1700.0, 80.0, 0.06);
    assert_eq!(current(&stored, rated, at(2026, 12, 2, 0, 0)), stored);
    assert_eq!(current(&stored, rated, at(2026, 12, 13, 23, 0)), stored);
    let three_weeks_on = at(2026, 12, 21, 0, 0);
    assert_eq!(current(&stored, rated, three_weeks_on), widened(&stored, 2));
}

#[test]
fn one_game_in_a_period_rates_as_the_game_alone() {
    let ratings = [rating(1500.0, 200.0, 0.06), rating(1600.0, 120.0, 0.05)];
    let game = PeriodGame {
        players: vec![0, 1],
        results: vec![Win, Loss],
    };
    let together = rate_together(&ratings, &[game]).unwrap();
    assert_eq!(together, rate_game(&ratings, &[Win, Loss]).unwrap());
}

#[test]
fn a_periods_games_are_rated_at_once_from_the_ratings_at_its_start() {
    // Glickman's worked example as three games of one period.
    let ratings = [
        (1500.0, 200.0),
        (1400.0, 30.0),
        (1550.0, 100.0),
        (1700.0, 300.0),
    ]
    .into_iter()
    .chain([(1800.0, 90.0)])
    .map(|(r, d)| rating(r, d, 0.06))
    .collect::<Vec<_>>();
    let games = [
        PeriodGame {
            players: vec![0, 1],
            results: vec![Win, Loss],
        },
        PeriodGame {
            players: vec![2, 0],
            results: vec![Win, Loss],
        },
        PeriodGame {
            players: vec![0, 3],
            results: vec![Loss, Win],
        },
    ];
    let after = rate_together(&ratings, &games).unwrap();
    assert!(
        (after[0].rating - 1464.06).abs() < 0.01,
        "{}",
        after[0].rating
    );
    assert!((after[0].deviation - 151.52).abs() < 0.01);
    assert_eq!(after[0].games, 3);
    let period = [(ratings[0], Outcome::Win)];
    assert_eq!(
        after[2],
        Rating {
            games: 1,
            ..rate_period(&ratings[2], &period).unwrap()
        }
    );
    assert_eq!(after[4], widened(&ratings[4], 1));
}

#[test]
fn a_draw_of_three_counts_two_outcomes_per_player() {
    let ratings = [rating(1500.0, 350.0, 0.06); 3];
    let game = PeriodGame {
        players: vec![0, 1, 2],
        results: vec![Draw, Draw, Draw],
    };
    let after = rate_together(&ratings, &[game]).unwrap();
    assert_eq!(after, rate_game(&ratings, &[Draw, Draw, Draw]).unwrap());
}

#[test]
fn a_player_outside_the_ratings_is_refused() {
    let game = PeriodGame {
        players: vec![0, 5],
        results: vec![Win, Loss],
    };
    let ratings = [Rating::default(); 2];
    assert!(rate_together(&ratings, &[game]).is_err());
}
