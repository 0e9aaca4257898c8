//! Rating periods, on SQLite and on DynamoDB Local: rated games are kept with the week they
//! end in and rated together when the week closes, each player from their rating at the
//! week's start; a player idle for a week has their deviation widened. Three weeks with an
//! idle player are compared with the PyPI package `glicko2` 2.1.0 (run by
//! `MISSIVE_PYTHON`, as in shared/tournament/tests/glicko2_peer.rs; skipped without it).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use chrono::{DateTime, Datelike, NaiveTime, TimeDelta, Utc};
use common::{Setup, chess_game, invite, setup};
use missive_domain::{RatingChange, RatingRecord};
use missive_game::{NewGame, PERIOD_GRACE, SeatRequest, rating_at};
use missive_store::contract_tests;
use missive_store::testing::Kind;
use missive_tournament::rating::Rating;
use serde_json::{Value, json};

/// The players, in the order the peer takes them.
const PLAYERS: [&str; 4] = ["ann", "bob", "cyd", "dan"];

/// Three weeks of games: (white, black, white's score) by index into [`PLAYERS`]. Dan
/// plays in the first and the third week only.
const WEEKS: [&[(usize, usize, f64)]; 3] = [
    &[(0, 1, 1.0), (2, 3, 0.5), (0, 2, 1.0)],
    &[(1, 2, 1.0), (0, 1, 0.5)],
    &[(3, 0, 1.0), (2, 1, 1.0)],
];

/// A rated chess game of `white` (who creates it) and `black`, ended at once: `score` 1
/// by black's resignation, 0 by white's, 1/2 by agreement.
async fn rated_game(s: &Setup, white: &str, black: &str, score: f64) {
    s.sign_up(&[white, black]).await;
    let game = NewGame {
        creator: white.into(),
        rated: true,
        ..chess_game(vec![SeatRequest::Creator, invite(black)])
    };
    let id = s.service.create_game(game).await.unwrap();
    s.service.join(&id, black, None).await.unwrap();
    if score == 1.0 {
        s.service.resign(&id, black).await.unwrap();
    } else if score == 0.0 {
        s.service.resign(&id, white).await.unwrap();
    } else {
        s.service.offer_draw(&id, white).await.unwrap();
        s.service.accept_draw(&id, black).await.unwrap();
    }
}

/// The moment the week holding `now` closes: the next Monday, 00:00 UTC, and the grace.
fn week_close(now: DateTime<Utc>) -> DateTime<Utc> {
    let ahead = 7 - i64::from(now.weekday().num_days_from_monday());
    let monday = (now.date_naive() + TimeDelta::days(ahead)).and_time(NaiveTime::MIN);
    monday.and_utc() + PERIOD_GRACE
}

/// Moves the clock to the close of its week and closes the periods due: how many closed.
async fn close_week(s: &Setup) -> u32 {
    let now = s.clock_now();
    s.advance(week_close(now) - now);
    s.service.close_rating_periods(s.clock_now()).await.unwrap()
}

/// Every player's rating as shown now (a newcomer's when they have none).
async fn shown(s: &Setup) -> Vec<Rating> {
    let mut ratings = Vec::new();
    for player in PLAYERS {
        let records = s.service.ratings_of(player).await.unwrap();
        let rating = records
            .first()
            .map_or_else(Rating::default, |r| rating_at(r, s.clock_now()));
        ratings.push(rating);
    }
    ratings
}

/// The games of each week, as the peer's season takes them: per player, their
/// `[opponent, score]` pairs.
fn season_periods() -> Vec<Vec<Vec<(usize, f64)>>> {
    WEEKS
        .iter()
        .map(|games| {
            let mut period = vec![Vec::new(); PLAYERS.len()];
            for &(white, black, score) in *games {
                period[white].push((black, score));
                period[black].push((white, 1.0 - score));
            }
            period
        })
        .collect()
}

/// The peer's ratings after each week: per week, per player, `[rating, deviation,
/// volatility]`, from newcomers.
fn peer_season(python: &str) -> Value {
    let request = json!({
        "periods": [],
        "seasons": [{
            "players": vec![[1500.0, 350.0, 0.06]; PLAYERS.len()],
            "periods": season_periods(),
        }],
    });
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tournament/tests/glicko2_peer.py"
    );
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let mut input = child.stdin.take().unwrap();
    input.write_all(request.to_string().as_bytes()).unwrap();
    drop(input);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the glicko2 peer failed");
    let answers: Value = serde_json::from_slice(&output.stdout).unwrap();
    answers["seasons_corrected"][0].clone()
}

/// Three weeks closed one by one: nothing is rated before its week closes, every rating,
/// deviation and volatility after each close is the peer's (the idle player's deviation
/// widened in the week he sat out), and closing again changes nothing.
async fn three_weeks_rate_as_glicko2_rating_periods(kind: Kind) {
    let s = setup(kind).await;
    let mut after_each = Vec::new();
    for games in WEEKS {
        for &(white, black, score) in games {
            rated_game(&s, PLAYERS[white], PLAYERS[black], score).await;
        }
        if after_each.is_empty() {
            assert_eq!(
                shown(&s).await,
                vec![Rating::default(); 4],
                "nothing is rated before its week closes"
            );
        }
        assert_eq!(close_week(&s).await, 1, "one week closes");
        after_each.push(shown(&s).await);
    }
    let dan = |week: usize| after_each[week][3];
    assert!(dan(1).deviation > dan(0).deviation, "dan sat out week 2");
    assert_eq!((dan(1).rating, dan(1).games), (dan(0).rating, 1));
    let records = s.service.ratings_of("ann").await.unwrap();
    let history = &records[0].history;
    assert_eq!(history.len(), 4, "one change a game: {history:?}");
    assert_eq!(
        (history[0].before, history[0].after),
        (history[1].before, history[1].after),
        "the games of one week share its change"
    );
    let again = s.service.close_rating_periods(s.clock_now()).await.unwrap();
    assert_eq!(again, 0);
    assert_eq!(
        shown(&s).await,
        after_each[2],
        "closing again changes nothing"
    );

    let Ok(python) = std::env::var("MISSIVE_PYTHON") else {
        println!("MISSIVE_PYTHON is not set: the glicko2 peer comparison is skipped");
        return;
    };
    let peer = peer_season(&python);
    for (week, ratings) in after_each.iter().enumerate() {
        for (player, ours) in ratings.iter().enumerate() {
            let theirs: Vec<f64> = peer[week][player]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let ours_all = [ours.rating, ours.deviation, ours.volatility];
            for (what, (a, b)) in ["rating", "deviation", "volatility"]
                .iter()
                .zip(ours_all.iter().zip(&theirs))
            {
                assert!(
                    (a - b).abs() < 1e-9,
                    "week {}, {}: {what} {a}, the peer's {b}",
                    week + 1,
                    PLAYERS[player]
                );
            }
        }
    }
}

/// A rated game that ends in a week already closed is rated with the next week.
async fn a_game_ending_in_a_closed_week_is_rated_with_the_next(kind: Kind) {
    let s = setup(kind).await;
    rated_game(&s, "ann", "bob", 1.0).await;
    close_week(&s).await;
    // Close this week early, as a sweep that ran ahead would; the game that ends now,
    // in that closed week, goes to the next one.
    let ahead = week_close(s.clock_now());
    assert_eq!(s.service.close_rating_periods(ahead).await.unwrap(), 1);
    rated_game(&s, "bob", "ann", 1.0).await;
    let records = s.service.ratings_of("bob").await.unwrap();
    assert_eq!(records[0].games, 1, "not rated yet: {records:?}");
    close_week(&s).await;
    close_week(&s).await;
    let records = s.service.ratings_of("bob").await.unwrap();
    assert_eq!(records[0].games, 2, "rated with the next week: {records:?}");
}

/// Every player's rating record.
async fn records(s: &Setup) -> Vec<RatingRecord> {
    let mut records = Vec::new();
    for player in PLAYERS {
        records.extend(s.service.ratings_of(player).await.unwrap());
    }
    records
}

/// Ratings rated game by game, as a version before rating periods left them, are rated
/// again by the upgrade exactly as the weekly closes rate them; a game of the week still
/// open is rated when it closes; upgrading again changes nothing.
async fn the_upgrade_rates_histories_rated_game_by_game_in_weeks(kind: Kind) {
    let s = setup(kind).await;
    for games in WEEKS {
        for &(white, black, score) in games {
            rated_game(&s, PLAYERS[white], PLAYERS[black], score).await;
        }
        close_week(&s).await;
    }
    rated_game(&s, "bob", "dan", 1.0).await;
    let weekly = records(&s).await;
    assert_eq!(weekly.len(), 4);
    for record in &weekly {
        let history = record.history.iter().map(|change| RatingChange {
            before: 1000.0,
            after: 1234.0,
            ..change.clone()
        });
        let game_by_game = RatingRecord {
            revision: record.revision + 1,
            rating: 1234.0,
            history: history.collect(),
            in_periods: false,
            ..record.clone()
        };
        s.test.store.put_rating(&game_by_game).await.unwrap();
    }
    s.service.upgrade_all().await.unwrap();
    let upgraded = records(&s).await;
    for (before, after) in weekly.iter().zip(&upgraded) {
        let revision = before.revision + 2;
        assert_eq!(
            after,
            &RatingRecord {
                revision,
                ..before.clone()
            }
        );
    }
    s.service.upgrade_all().await.unwrap();
    assert_eq!(
        records(&s).await,
        upgraded,
        "upgrading again changes nothing"
    );
    close_week(&s).await;
    let bob = s.service.ratings_of("bob").await.unwrap();
    assert_eq!(bob[0].games, upgraded[1].games + 1, "the open week's game");
}

contract_tests!(
    three_weeks_rate_as_glicko2_rating_periods,
    a_game_ending_in_a_closed_week_is_rated_with_the_next,
    the_upgrade_rates_histories_rated_game_by_game_in_weeks,
);
