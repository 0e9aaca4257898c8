//! Ratings: a player's Glicko-2 rating in one variant, and how each rated game changed it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::GameId;

/// One rated game's change to a rating.
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
}

impl RatingRecord {
    /// Whether `game` has changed this rating already.
    pub fn has_rated(&self, game: &GameId) -> bool {
        self.history.iter().any(|change| &change.game == game)
    }
}
