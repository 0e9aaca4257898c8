//! Glicko-2 ratings, one per player per variant, computed by `skillratings`' Glicko-2.
//!
//! Rating periods: [`period`] has rating periods in time (a week, UTC), all of a period's
//! games rated at once and the deviation of a player idle for a period widened, which is
//! how the game service rates; [`rate_game`] rates one game alone as one rating period. In a two-seat game a
//! game gives one result against the opponent: win 1, draw 1/2, loss 0. In a
//! three-seat game it holds one result against each of the two others, from comparing
//! the two seats' results (better is a win, equal a draw, worse a loss, in the order
//! win, shared win, draw, loss). Every player's update is computed from the ratings
//! before the game (or the period). The system constant tau is 0.5 and the volatility iteration stops at
//! 0.000001, `skillratings`' defaults and Glickman's suggestions.

use std::cmp::Ordering;
use std::fmt;

use missive_rules::SeatResult;
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use thiserror::Error;

use crate::score::{ScoreError, game_points};

pub mod period;
pub mod replay;

/// A rating stays provisional while it has fewer rated games than this.
pub const PROVISIONAL_GAMES: u32 = 10;

/// A player's Glicko-2 rating in one variant.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating, on the Glicko scale (1500 for a newcomer).
    pub rating: f64,
    /// The rating deviation (350 for a newcomer).
    pub deviation: f64,
    /// The volatility (0.06 for a newcomer).
    pub volatility: f64,
    /// The rated games played.
    pub games: u32,
}

impl Default for Rating {
    /// A newcomer's rating: 1500, deviation 350, volatility 0.06, no games.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        }
    }
}

impl Rating {
    /// Whether the rating is provisional: fewer than [`PROVISIONAL_GAMES`] rated games.
    pub fn is_provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }

    /// The rating rounded to the nearest whole number, as shown.
    pub fn rounded(&self) -> i64 {
        self.rating.round() as i64
    }

    /// `Ok` when the rating, deviation and volatility are finite, and the last two
    /// positive: what Glicko-2 can work with.
    fn check(&self, seat: usize) -> Result<(), RatingError> {
        let usable = self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0;
        if usable {
            Ok(())
        } else {
            Err(RatingError::Unusable { seat })
        }
    }

    /// The rating as `skillratings` takes it.
    fn glicko2(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

impl fmt::Display for Rating {
    /// The rounded rating, with `?` after it while provisional: `1500?`, `1873`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.is_provisional() { "?" } else { "" };
        write!(f, "{}{mark}", self.rounded())
    }
}

/// One result in a rating period, from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The player won: 1.
    Win,
    /// A draw: 1/2.
    Draw,
    /// The player lost: 0.
    Loss,
}

impl Outcome {
    /// The outcome for a player whose result was `own` against one whose result was
    /// `other`: the better result (win, shared win, draw, loss, best first) wins.
    pub fn between(own: SeatResult, other: SeatResult) -> Outcome {
        match rank(own).cmp(&rank(other)) {
            Ordering::Less => Outcome::Win,
            Ordering::Equal => Outcome::Draw,
            Ordering::Greater => Outcome::Loss,
        }
    }

    /// The outcome as `skillratings` takes it.
    fn glicko2(self) -> Outcomes {
        match self {
            Outcome::Win => Outcomes::WIN,
            Outcome::Draw => Outcomes::DRAW,
            Outcome::Loss => Outcomes::LOSS,
        }
    }
}

/// A result's place among the results, best first.
fn rank(result: SeatResult) -> usize {
    match result {
        SeatResult::Win => 0,
        SeatResult::SharedWin => 1,
        SeatResult::Draw => 2,
        SeatResult::Loss => 3,
    }
}

/// Why ratings cannot be updated.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RatingError {
    /// The game's results are not a game's result.
    #[error(transparent)]
    Results(#[from] ScoreError),
    /// There are not as many ratings as results.
    #[error("{ratings} ratings for {results} results")]
    Count {
        /// The number of ratings given.
        ratings: usize,
        /// The number of results given.
        results: usize,
    },
    /// A rating is not finite, or its deviation or volatility is not positive.
    #[error("the rating in seat {seat} is not usable: not finite, or not positive")]
    Unusable {
        /// The seat (for a period: 0 for the player, 1 onwards for the opponents).
        seat: usize,
    },
    /// A rating period with no results.
    #[error("a rating period needs at least one result")]
    EmptyPeriod,
}

/// The ratings after one rated game: `ratings` and `results` by seat, two or three seats,
/// the results a game's result (see [`crate::score::game_points`]). Each player's rating
/// period holds one outcome against every other seat ([`Outcome::between`]), all from
/// the ratings before the game; every player's `games` grows by one.
pub fn rate_game(ratings: &[Rating], results: &[SeatResult]) -> Result<Vec<Rating>, RatingError> {
    game_points(results)?;
    if ratings.len() != results.len() {
        return Err(RatingError::Count {
            ratings: ratings.len(),
            results: results.len(),
        });
    }
    for (seat, rating) in ratings.iter().enumerate() {
        rating.check(seat)?;
    }
    let seats = ratings.iter().zip(results).enumerate();
    Ok(seats
        .map(|(seat, (rating, &own))| {
            let period: Vec<(Rating, Outcome)> = ratings
                .iter()
                .zip(results)
                .enumerate()
                .filter(|&(other, _)| other != seat)
                .map(|(_, (opponent, &theirs))| (*opponent, Outcome::between(own, theirs)))
                .collect();
            Rating {
                games: rating.games.saturating_add(1),
                ..updated(rating, &period)
            }
        })
        .collect())
}

/// `player`'s rating after one Glicko-2 rating period holding `period`: each opponent's
/// rating before the period with the outcome against them. `games` is left as it was:
/// the caller counts games. Refuses an empty period and unusable ratings.
pub fn rate_period(player: &Rating, period: &[(Rating, Outcome)]) -> Result<Rating, RatingError> {
    if period.is_empty() {
        return Err(RatingError::EmptyPeriod);
    }
    player.check(0)?;
    for (i, (opponent, _)) in period.iter().enumerate() {
        opponent.check(i + 1)?;
    }
    Ok(updated(player, period))
}

/// `player` after the rating period `period`, non-empty and of usable ratings.
fn updated(player: &Rating, period: &[(Rating, Outcome)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = period
        .iter()
        .map(|(opponent, outcome)| (opponent.glicko2(), outcome.glicko2()))
        .collect();
    let new = glicko2_rating_period(&player.glicko2(), &results, &Glicko2Config::new());
    Rating {
        rating: new.rating,
        deviation: new.deviation,
        volatility: new.volatility,
        games: player.games,
    }
}

#[cfg(test)]
mod tests;
