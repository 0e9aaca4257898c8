//! Rating periods in time: a week, UTC, from Monday 00:00 to the next Monday 00:00.
//!
//! Every rated game that ends in a period is rated with the period's other games when
//! the period closes ([`rate_together`]), each player from their rating at the period's
//! start. A rated player with no game in a period only has their deviation widened
//! ([`widened`]): phi' = sqrt(phi^2 + sigma^2) on the Glicko-2 scale, once per idle period,
//! never past a newcomer's 350.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc};
use missive_rules::SeatResult;
use serde::{Deserialize, Serialize};
use skillratings::glicko2::decay_deviation;

use super::{Outcome, Rating, RatingError, rate_period};
use crate::score::game_points;

/// The length of a rating period.
pub const PERIOD_DAYS: i64 = 7;

/// One rating period: the week starting on the Monday `start`, UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Period {
    start: NaiveDate,
}

impl Period {
    /// The period holding the instant `at` (a Monday 00:00 belongs to the week it starts).
    pub fn of(at: DateTime<Utc>) -> Period {
        let day = at.date_naive();
        let back = i64::from(day.weekday().num_days_from_monday());
        Period {
            start: day - Duration::days(back),
        }
    }

    /// The period holding the day `day` (a Monday is the first day of its period).
    pub fn of_day(day: NaiveDate) -> Period {
        Period::of(day.and_time(NaiveTime::MIN).and_utc())
    }

    /// The period's first day, a Monday.
    pub fn first_day(&self) -> NaiveDate {
        self.start
    }

    /// The instant the period starts: its Monday, 00:00 UTC.
    pub fn start(&self) -> DateTime<Utc> {
        self.start.and_time(NaiveTime::MIN).and_utc()
    }

    /// The instant the period ends, which is the next period's start.
    pub fn end(&self) -> DateTime<Utc> {
        self.next().start()
    }

    /// The period after this one.
    pub fn next(&self) -> Period {
        Period {
            start: self.start + Duration::days(PERIOD_DAYS),
        }
    }

    /// The period before this one.
    pub fn previous(&self) -> Period {
        Period {
            start: self.start - Duration::days(PERIOD_DAYS),
        }
    }

    /// How many periods `self` comes after `earlier`: 0 for the same period, and 0 too
    /// when `earlier` is in fact later.
    pub fn since(&self, earlier: Period) -> u32 {
        let days = (self.start - earlier.start).num_days().max(0);
        u32::try_from(days / PERIOD_DAYS).unwrap_or(u32::MAX)
    }
}

/// `rating` after `idle` rating periods without a game: its deviation widened once per
/// period (capped at 350), the rating, volatility and games as they were.
pub fn widened(rating: &Rating, idle: u32) -> Rating {
    let mut glicko = rating.glicko2();
    for _ in 0..idle {
        let next = decay_deviation(&glicko);
        if next.deviation == glicko.deviation {
            break;
        }
        glicko = next;
    }
    Rating {
        deviation: glicko.deviation,
        ..*rating
    }
}

/// The rating as shown at `now`: `rating`, last changed by the close of `rated`, widened
/// by every full period that has ended since without a game of the player's.
pub fn current(rating: &Rating, rated: Period, now: DateTime<Utc>) -> Rating {
    let idle = Period::of(now).since(rated).saturating_sub(1);
    widened(rating, idle)
}

/// One rated game of a period: the players by seat, as indices into the period's
/// ratings, and the game's results by seat.
#[derive(Clone, Debug, PartialEq)]
pub struct PeriodGame {
    /// The player in each seat: an index into the ratings given to [`rate_together`].
    pub players: Vec<usize>,
    /// Each seat's result: a game's result (see [`crate::score::game_points`]).
    pub results: Vec<SeatResult>,
}

/// Every player's rating after a period holding `games`, from `ratings` at the period's
/// start. A player with games is rated once on all their outcomes of the period, one
/// against every other seat of each game ([`Outcome::between`]), and their `games` grows
/// by their games; a player without one is [`widened`] by one period.
pub fn rate_together(ratings: &[Rating], games: &[PeriodGame]) -> Result<Vec<Rating>, RatingError> {
    let mut periods: Vec<Vec<(Rating, Outcome)>> = vec![Vec::new(); ratings.len()];
    let mut played = vec![0u32; ratings.len()];
    for game in games {
        game_points(&game.results)?;
        if game.players.len() != game.results.len() {
            return Err(RatingError::Count {
                ratings: game.players.len(),
                results: game.results.len(),
            });
        }
        for (seat, (&player, &own)) in game.players.iter().zip(&game.results).enumerate() {
            let slot = periods
                .get_mut(player)
                .ok_or(RatingError::Unusable { seat })?;
            for (other, (&opponent, &theirs)) in game.players.iter().zip(&game.results).enumerate()
            {
                if other != seat {
                    let rating = ratings
                        .get(opponent)
                        .ok_or(RatingError::Unusable { seat: other })?;
                    slot.push((*rating, Outcome::between(own, theirs)));
                }
            }
            played[player] += 1;
        }
    }
    ratings
        .iter()
        .zip(periods)
        .zip(played)
        .map(|((rating, period), games)| {
            if period.is_empty() {
                return Ok(widened(rating, 1));
            }
            let after = rate_period(rating, &period)?;
            Ok(Rating {
                games: rating.games.saturating_add(games),
                ..after
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
