//! A player's rating in a variant, as the ratings and leaderboard routes answer it.

use missive_domain::{RatingChange, RatingRecord};
use missive_tournament::rating::{PROVISIONAL_GAMES, Rating};
use serde::Serialize;
use utoipa::ToSchema;

/// A player's rating in one variant.
#[derive(Serialize, ToSchema)]
pub(crate) struct RatingView {
    player: String,
    variant: String,
    /// The Glicko-2 rating, rounded.
    rating: i64,
    /// The rating deviation, rounded.
    deviation: i64,
    /// Rated games played.
    games: u32,
    /// Whether it rests on fewer rated games than the provisional limit (10).
    provisional: bool,
    /// Every rated game's change, oldest first.
    history: Vec<RatingChange>,
}

impl From<RatingRecord> for RatingView {
    fn from(record: RatingRecord) -> RatingView {
        let rating = Rating {
            rating: record.rating,
            deviation: record.deviation,
            volatility: record.volatility,
            games: record.games,
        };
        RatingView {
            player: record.player,
            variant: record.variant,
            rating: rating.rounded(),
            deviation: record.deviation.round() as i64,
            games: record.games,
            provisional: record.games < PROVISIONAL_GAMES,
            history: record.history,
        }
    }
}
