//! What a result is worth, in exact integer units: [`Points`] count sixths of a point, so
//! halves (a two-seat draw, a shared win) and thirds (a three-seat draw) add up exactly.
//!
//! A game hands out one point: a win takes it, a shared win splits it between the two
//! winners, a draw splits it between every seat, and a loss takes nothing.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use missive_rules::SeatResult;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A number of points, stored as sixths of a point.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Points(u32);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// One point: a win.
    pub const ONE: Points = Points(6);
    /// Half a point: a two-seat draw, or a share of a win.
    pub const HALF: Points = Points(3);
    /// A third of a point: a three-seat draw.
    pub const THIRD: Points = Points(2);

    /// `sixths` sixths of a point.
    pub const fn from_sixths(sixths: u32) -> Points {
        Points(sixths)
    }

    /// The number of sixths of a point.
    pub const fn sixths(self) -> u32 {
        self.0
    }
}

impl Add for Points {
    type Output = Points;

    /// The sum of two numbers of points.
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl AddAssign for Points {
    /// Adds `other` to these points.
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl Sum for Points {
    /// The sum of every number of points, [`Points::ZERO`] for none.
    fn sum<I: Iterator<Item = Points>>(points: I) -> Points {
        points.fold(Points::ZERO, Add::add)
    }
}

/// Hundredths for each remainder in sixths, rounded to nearest, trailing zeros dropped.
const SIXTHS_AS_DECIMALS: [&str; 6] = ["", ".17", ".33", ".5", ".67", ".83"];

impl fmt::Display for Points {
    /// ASCII decimal with at most two places, trailing zeros dropped: `0`, `1`, `2.5`,
    /// `0.33`, `1.67`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 6;
        let part = SIXTHS_AS_DECIMALS[(self.0 % 6) as usize];
        write!(f, "{whole}{part}")
    }
}

/// The number of seats at a game: every game of a tournament has the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatCount {
    /// Two seats: chess, xiangqi and the other duels.
    Two,
    /// Three seats: Three Kingdoms Xiangqi.
    Three,
}

impl SeatCount {
    /// The seat count of a game with `seats` seats, if it is two or three.
    pub fn of(seats: usize) -> Option<SeatCount> {
        match seats {
            2 => Some(SeatCount::Two),
            3 => Some(SeatCount::Three),
            _ => None,
        }
    }

    /// The number of seats: 2 or 3.
    pub fn get(self) -> usize {
        match self {
            SeatCount::Two => 2,
            SeatCount::Three => 3,
        }
    }
}

/// What `result` is worth at a game of `seats` seats: a win 1, a shared win 1/2, a draw
/// 1/2 at two seats and 1/3 at three, a loss 0.
pub fn points(seats: SeatCount, result: SeatResult) -> Points {
    match (result, seats) {
        (SeatResult::Win, _) => Points::ONE,
        (SeatResult::SharedWin, _) | (SeatResult::Draw, SeatCount::Two) => Points::HALF,
        (SeatResult::Draw, SeatCount::Three) => Points::THIRD,
        (SeatResult::Loss, _) => Points::ZERO,
    }
}

/// Why a game's results cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ScoreError {
    /// A game has two or three seats.
    #[error("{found} results: a game has two or three seats")]
    SeatCount {
        /// The number of results given.
        found: usize,
    },
    /// The results do not hand out exactly one point between them (two wins, a lone
    /// shared win, a draw beside a loss...).
    #[error("the results {results:?} do not add up to one point")]
    DoesNotAddUp {
        /// The results given, by seat.
        results: Vec<SeatResult>,
    },
}

/// Each seat's points for a game's `results` (by seat), checked to be a game's result:
/// two or three seats whose points add up to exactly one point.
pub fn game_points(results: &[SeatResult]) -> Result<Vec<Points>, ScoreError> {
    let seats = SeatCount::of(results.len()).ok_or(ScoreError::SeatCount {
        found: results.len(),
    })?;
    let scored: Vec<Points> = results.iter().map(|&r| points(seats, r)).collect();
    if scored.iter().copied().sum::<Points>() == Points::ONE {
        Ok(scored)
    } else {
        Err(ScoreError::DoesNotAddUp {
            results: results.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use SeatResult::{Draw, Loss, SharedWin, Win};

    use super::*;

    #[test]
    fn two_seats_score_one_half_nothing() {
        assert_eq!(points(SeatCount::Two, Win), Points::ONE);
        assert_eq!(points(SeatCount::Two, Draw), Points::HALF);
        assert_eq!(points(SeatCount::Two, SharedWin), Points::HALF);
        assert_eq!(points(SeatCount::Two, Loss), Points::ZERO);
    }

    #[test]
    fn three_seats_score_one_half_third_nothing() {
        assert_eq!(points(SeatCount::Three, Win), Points::ONE);
        assert_eq!(points(SeatCount::Three, SharedWin), Points::HALF);
        assert_eq!(points(SeatCount::Three, Draw), Points::THIRD);
        assert_eq!(points(SeatCount::Three, Loss), Points::ZERO);
    }

    #[test]
    fn points_display_as_short_decimals() {
        let shown: Vec<String> = (0..=13)
            .map(|s| Points::from_sixths(s).to_string())
            .collect();
        assert_eq!(
            shown,
            [
                "0", "0.17", "0.33", "0.5", "0.67", "0.83", "1", "1.17", "1.33", "1.5", "1.67",
                "1.83", "2", "2.17"
            ]
        );
        assert_eq!(Points::from_sixths(6 * 435 + 3).to_string(), "435.5");
    }

    #[test]
    fn points_add_up() {
        let mut total = Points::ONE + Points::HALF;
        total += Points::THIRD;
        assert_eq!(total.sixths(), 11);
        let sum: Points = [Points::THIRD; 3].into_iter().sum();
        assert_eq!(sum, Points::ONE);
        assert_eq!(std::iter::empty::<Points>().sum::<Points>(), Points::ZERO);
        assert!(Points::HALF < Points::ONE && Points::THIRD < Points::HALF);
    }

    #[test]
    fn points_serialise_as_sixths() {
        assert_eq!(serde_json::to_string(&Points::HALF).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Points>("8").unwrap().sixths(), 8);
        assert_eq!(
            serde_json::to_string(&SeatCount::Three).unwrap(),
            "\"three\""
        );
    }

    #[test]
    fn seat_counts_are_two_or_three() {
        assert_eq!(SeatCount::of(2), Some(SeatCount::Two));
        assert_eq!(SeatCount::of(3), Some(SeatCount::Three));
        for seats in [0, 1, 4] {
            assert_eq!(SeatCount::of(seats), None);
        }
        assert_eq!(SeatCount::Two.get(), 2);
        assert_eq!(SeatCount::Three.get(), 3);
    }

    #[test]
    fn every_real_outcome_scores() {
        let third = Points::THIRD;
        let cases: [(&[SeatResult], &[Points]); 6] = [
            (&[Win, Loss], &[Points::ONE, Points::ZERO]),
            (&[Draw, Draw], &[Points::HALF, Points::HALF]),
            (&[Loss, Win], &[Points::ZERO, Points::ONE]),
            (
                &[Loss, Win, Loss],
                &[Points::ZERO, Points::ONE, Points::ZERO],
            ),
            (
                &[SharedWin, Loss, SharedWin],
                &[Points::HALF, Points::ZERO, Points::HALF],
            ),
            (&[Draw, Draw, Draw], &[third, third, third]),
        ];
        for (results, expected) in cases {
            assert_eq!(game_points(results).unwrap(), expected, "{results:?}");
        }
    }

    #[test]
    fn impossible_outcomes_are_refused() {
        for results in [
            &[Win, Win][..],
            &[Loss, Loss],
            &[Win, Draw],
            &[Win, Draw, Loss],
            &[SharedWin, Loss, Loss],
            &[Draw, Draw, Loss],
            &[Win, SharedWin, Loss],
        ] {
            assert_eq!(
                game_points(results),
                Err(ScoreError::DoesNotAddUp {
                    results: results.to_vec()
                })
            );
        }
        for results in [&[][..], &[Win], &[Win, Loss, Loss, Loss]] {
            assert_eq!(
                game_points(results),
                Err(ScoreError::SeatCount {
                    found: results.len()
                })
            );
        }
        assert_eq!(
            game_points(&[Win, Win]).unwrap_err().to_string(),
            "the results [Win, Win] do not add up to one point"
        );
    }
}
