//! Ratings: a player's Glicko-2 rating in one variant, how each rated game changed it, and
//! the rated games waiting for their rating period to close.

use chrono::{DateTime, NaiveDate, Utc};
use missive_rules::SeatResult;
use serde::{Deserialize, Serialize};

use crate::GameId;

/// One rated game's change to a rating. The games of one rating period change it together:
/// each of them has the period's change (`before` at the period's start, `after` at its
/// close).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The game.
    pub game: GameId,
    /// When it ended.
    pub at: DateTime<Utc>,
    /// The rating before it.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The rating deviation before it.
    #[serde(default)]
    pub deviation_before: f64,
    /// The volatility before it.
    #[serde(default)]
    pub volatility_before: f64,
}

/// A player's rating in a variant, as stored: written over its revision (1 creates it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingRecord {
    /// The player.
    pub player: String,
    /// The variant.
    pub variant: String,
    /// Raised by one at every change.
    pub revision: u64,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// Every rated game's change, oldest first.
    pub history: Vec<RatingChange>,
    /// Whether its history was rated in weekly rating periods; `false` for a history rated
    /// game by game (by a version before rating periods), until the upgrade rates it again.
    #[serde(default)]
    pub in_periods: bool,
}

impl RatingRecord {
    /// Whether `game` has changed this rating already.
    pub fn has_rated(&self, game: &GameId) -> bool {
        self.history.iter().any(|change| &change.game == game)
    }
}

/// A rated game that ended, kept with its rating period until the period closes and rates
/// it with the period's other games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedGame {
    /// The game's variant.
    pub variant: String,
    /// The first day (a Monday) of the rating period it is rated in.
    pub period: NaiveDate,
    /// The game.
    pub game: GameId,
    /// Its players, by seat.
    pub players: Vec<String>,
    /// Each seat's result.
    pub results: Vec<SeatResult>,
    /// When it ended.
    pub ended: DateTime<Utc>,
}

/// How far a variant's rating periods have closed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodsClosed {
    /// The variant.
    pub variant: String,
    /// The first day (a Monday) of the last rating period closed: every period up to it
    /// has rated its games.
    pub through: NaiveDate,
}
