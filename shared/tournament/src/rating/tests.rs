use missive_rules::SeatResult::{self, Draw, Loss, SharedWin, Win};

use super::*;

/// A rating with no games.
pub(super) fn rating(rating: f64, deviation: f64, volatility: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility,
        games: 0,
    }
}

/// Whether `a` and `b` differ by less than `tolerance`.
fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() < tolerance
}

#[test]
fn glickmans_worked_example() {
    // Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to
    // 1550/100 and to 1700/300, and ends at 1464.06 / 151.52 / 0.05999. The paper works
    // with rounded steps (mu' = -0.2069, phi' = 0.8722: four places on the Glicko-2
    // scale, up to 0.0087 on this one) and prints five places of sigma', so the check
    // allows 0.01 and 0.00001.
    let player = rating(1500.0, 200.0, 0.06);
    let period = [
        (rating(1400.0, 30.0, 0.06), Outcome::Win),
        (rating(1550.0, 100.0, 0.06), Outcome::Loss),
        (rating(1700.0, 300.0, 0.06), Outcome::Loss),
    ];
    let after = rate_period(&player, &period).unwrap();
    assert!(close(after.rating, 1464.06, 0.01), "{}", after.rating);
    assert!(close(after.deviation, 151.52, 0.01), "{}", after.deviation);
    assert!(
        close(after.volatility, 0.05999, 0.000_01),
        "{}",
        after.volatility
    );
    assert_eq!(after.games, 0);
}

#[test]
fn a_newcomer_is_1500_350_006_and_provisional() {
    let newcomer = Rating::default();
    assert_eq!(newcomer, rating(1500.0, 350.0, 0.06));
    assert!(newcomer.is_provisional());
    assert_eq!(newcomer.to_string(), "1500?");
}

#[test]
fn ten_games_end_the_provisional_period() {
    let mut player = Rating {
        games: PROVISIONAL_GAMES - 1,
        ..Rating::default()
    };
    assert!(player.is_provisional());
    player.games = PROVISIONAL_GAMES;
    assert!(!player.is_provisional());
    player.rating = 1873.49;
    assert_eq!(player.rounded(), 1873);
    assert_eq!(player.to_string(), "1873");
    player.rating = 1873.5;
    assert_eq!(player.rounded(), 1874);
}

#[test]
fn two_newcomers_play_a_decisive_game() {
    let after = rate_game(&[Rating::default(), Rating::default()], &[Win, Loss]).unwrap();
    // The standard update: 1500 ± 162.31, deviation 290.32, for both.
    assert!(close(after[0].rating, 1662.31, 0.01), "{}", after[0].rating);
    assert!(close(after[1].rating, 1337.69, 0.01), "{}", after[1].rating);
    for player in &after {
        assert!(
            close(player.deviation, 290.32, 0.01),
            "{}",
            player.deviation
        );
        assert_eq!(player.games, 1);
    }
    assert!(close(after[0].rating + after[1].rating, 3000.0, 1e-9));
}

#[test]
fn a_draw_between_equals_moves_only_the_deviation() {
    let equal = rating(1700.0, 80.0, 0.06);
    let after = rate_game(&[equal, equal], &[Draw, Draw]).unwrap();
    for player in &after {
        assert!(close(player.rating, 1700.0, 1e-9));
        assert!(player.deviation < 80.0);
    }
}

#[test]
fn a_two_seat_game_is_one_period_against_the_opponent() {
    let white = rating(1820.0, 120.0, 0.05);
    let black = Rating {
        games: 12,
        ..rating(1650.0, 60.0, 0.07)
    };
    let after = rate_game(&[white, black], &[Loss, Win]).unwrap();
    let expected_white = rate_period(&white, &[(black, Outcome::Loss)]).unwrap();
    let expected_black = rate_period(&black, &[(white, Outcome::Win)]).unwrap();
    assert_eq!(
        after,
        vec![
            Rating {
                games: 1,
                ..expected_white
            },
            Rating {
                games: 13,
                ..expected_black
            },
        ]
    );
}

#[test]
fn a_three_seat_game_is_one_period_against_both_others() {
    let seats = [
        rating(1500.0, 200.0, 0.06),
        rating(1600.0, 90.0, 0.05),
        rating(1400.0, 300.0, 0.08),
    ];
    let after = rate_game(&seats, &[SharedWin, Loss, SharedWin]).unwrap();
    let expected = [
        rate_period(
            &seats[0],
            &[(seats[1], Outcome::Win), (seats[2], Outcome::Draw)],
        ),
        rate_period(
            &seats[1],
            &[(seats[0], Outcome::Loss), (seats[2], Outcome::Loss)],
        ),
        rate_period(
            &seats[2],
            &[(seats[0], Outcome::Draw), (seats[1], Outcome::Win)],
        ),
    ];
    for (after, expected) in after.iter().zip(expected) {
        assert_eq!(
            *after,
            Rating {
                games: 1,
                ..expected.unwrap()
            }
        );
    }
    // The winners gain, the loser loses.
    assert!(after[0].rating > 1500.0 && after[2].rating > 1400.0 && after[1].rating < 1600.0);
}

#[test]
fn a_three_seat_draw_is_a_draw_against_both() {
    let seats = [Rating::default(); 3];
    let after = rate_game(&seats, &[Draw, Draw, Draw]).unwrap();
    for player in &after {
        assert!(close(player.rating, 1500.0, 1e-9));
    }
}

#[test]
fn outcomes_compare_results() {
    let order = [Win, SharedWin, Draw, Loss];
    for (i, &own) in order.iter().enumerate() {
        for (j, &other) in order.iter().enumerate() {
            let expected = match i.cmp(&j) {
                Ordering::Less => Outcome::Win,
                Ordering::Equal => Outcome::Draw,
                Ordering::Greater => Outcome::Loss,
            };
            assert_eq!(Outcome::between(own, other), expected, "{own:?} {other:?}");
        }
    }
}

#[test]
fn bad_games_are_refused() {
    let two = [Rating::default(); 2];
    assert_eq!(
        rate_game(&two, &[Win, Win]),
        Err(RatingError::Results(
            crate::score::ScoreError::DoesNotAddUp {
                results: vec![Win, Win]
            }
        ))
    );
    assert_eq!(
        rate_game(&two, &[Win]),
        Err(RatingError::Results(crate::score::ScoreError::SeatCount {
            found: 1
        }))
    );
    assert_eq!(
        rate_game(&two, &[Win, Loss, Loss]),
        Err(RatingError::Count {
            ratings: 2,
            results: 3
        })
    );
    let results: [SeatResult; 2] = [Win, Loss];
    for bad in [
        rating(f64::NAN, 100.0, 0.06),
        rating(1500.0, 0.0, 0.06),
        rating(1500.0, f64::INFINITY, 0.06),
        rating(1500.0, 100.0, -0.01),
        rating(1500.0, 100.0, f64::NAN),
    ] {
        assert_eq!(
            rate_game(&[Rating::default(), bad], &results),
            Err(RatingError::Unusable { seat: 1 })
        );
    }
}

#[test]
fn bad_periods_are_refused() {
    let player = Rating::default();
    assert_eq!(rate_period(&player, &[]), Err(RatingError::EmptyPeriod));
    let bad = rating(1500.0, -5.0, 0.06);
    assert_eq!(
        rate_period(&bad, &[(player, Outcome::Win)]),
        Err(RatingError::Unusable { seat: 0 })
    );
    assert_eq!(
        rate_period(&player, &[(player, Outcome::Win), (bad, Outcome::Draw)]),
        Err(RatingError::Unusable { seat: 2 })
    );
    assert_eq!(
        RatingError::Unusable { seat: 2 }.to_string(),
        "the rating in seat 2 is not usable: not finite, or not positive"
    );
}

#[test]
fn games_saturate() {
    let old = Rating {
        games: u32::MAX,
        ..Rating::default()
    };
    let after = rate_game(&[old, old], &[Draw, Draw]).unwrap();
    assert_eq!(after[0].games, u32::MAX);
}

#[test]
fn ratings_serialise_with_their_games() {
    let player = Rating {
        games: 3,
        ..rating(1612.5, 98.25, 0.0625)
    };
    let json = serde_json::to_string(&player).unwrap();
    assert_eq!(
        json,
        r#"{"rating":1612.5,"deviation":98.25,"volatility":0.0625,"games":3}"#
    );
    assert_eq!(serde_json::from_str::<Rating>(&json).unwrap(), player);
    assert_eq!(serde_json::to_string(&Outcome::Draw).unwrap(), "\"draw\"");
}
