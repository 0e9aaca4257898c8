//! A player's rating in a variant, as the ratings and leaderboard routes answer it, and
//! one change of it, as its history answers it.

use chrono::{DateTime, Utc};
use missive_domain::{GameId, RatingRecord};
use missive_tournament::rating::PROVISIONAL_GAMES;
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
}

impl RatingView {
    /// The view of `record` as it stands at `now`: its deviation widened by each full
    /// rating period since its last rated game ([`missive_game::rating_at`]).
    pub(crate) fn at(now: DateTime<Utc>) -> impl Fn(RatingRecord) -> RatingView {
        move |record| {
            let rating = missive_game::rating_at(&record, now);
            RatingView {
                rating: rating.rounded(),
                deviation: rating.deviation.round() as i64,
                games: record.games,
                provisional: record.games < PROVISIONAL_GAMES,
                player: record.player,
                variant: record.variant,
            }
        }
    }
}

/// One rated game's change to a rating.
#[derive(Serialize, ToSchema)]
pub(crate) struct RatingChange {
    /// The game.
    #[schema(value_type = missive_game::api_schema::GameId)]
    game: GameId,
    /// When it ended.
    at: DateTime<Utc>,
    /// The rating before it.
    before: f64,
    /// The rating after it.
    after: f64,
    /// The rating deviation before it.
    #[serde(default)]
    deviation_before: f64,
    /// The volatility before it.
    #[serde(default)]
    volatility_before: f64,
}

impl From<missive_domain::RatingChange> for RatingChange {
    fn from(change: missive_domain::RatingChange) -> RatingChange {
        RatingChange {
            game: change.game,
            at: change.at,
            before: change.before,
            after: change.after,
            deviation_before: change.deviation_before,
            volatility_before: change.volatility_before,
        }
    }
}
