//! Open challenges: a player's offer of a game to anyone, listed until enough players accept
//! it (then the game starts), its creator withdraws it, or it expires.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::{GameId, TimeControl};

/// A challenge's identity: a ULID in text, sortable by publication time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChallengeId(pub String);

impl std::fmt::Display for ChallengeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a challenge is in its life (expiry aside: an open challenge past its
/// `expires_at` is expired, whatever is stored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum ChallengeState {
    /// Listed: seats are left to take.
    Open,
    /// Every seat was taken: the game was created.
    Accepted {
        /// The game it became.
        game: GameId,
    },
    /// Its creator took it back.
    Withdrawn,
}

/// A challenge as stored. Its `revision` guards every change: the first record stored has
/// revision 1, and a replacement with revision `n` is stored only over revision `n - 1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// The challenge.
    pub id: ChallengeId,
    /// Raised by one at every change, from 1.
    pub revision: u64,
    /// The player who published it.
    pub creator: String,
    /// The variant id.
    pub variant: String,
    /// Canonical option text.
    pub options: String,
    /// The time control of the game.
    pub time_control: TimeControl,
    /// Whether the game's result counts for ratings.
    pub rated: bool,
    /// The least rating an accepting player needs in the variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<u32>,
    /// The highest rating an accepting player may have in the variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<u32>,
    /// The player in each seat, in turn order (`None` while the seat is open); the
    /// creator's among them.
    pub seats: Vec<Option<String>>,
    /// When it was published.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub created_at: DateTime<Utc>,
    /// When it stops being listed unless accepted or withdrawn before.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub expires_at: DateTime<Utc>,
    /// Where it is in its life.
    pub state: ChallengeState,
}

impl Challenge {
    /// Whether it is listed at `now`: open and not expired.
    pub fn is_open_at(&self, now: DateTime<Utc>) -> bool {
        self.state == ChallengeState::Open && now < self.expires_at
    }

    /// Whether a player rated `rating` in its variant may accept it: no lower than
    /// `min_rating`, no higher than `max_rating` (the rating rounded to a whole number).
    pub fn admits(&self, rating: f64) -> bool {
        let rating = rating.round();
        self.min_rating.is_none_or(|min| rating >= f64::from(min))
            && self.max_rating.is_none_or(|max| rating <= f64::from(max))
    }

    /// Whether `player` sits in one of its seats.
    pub fn seats_player(&self, player: &str) -> bool {
        self.seats.iter().flatten().any(|p| p == player)
    }
}

/// Which open challenges a list shows: all of them, or those of one variant, of one time
/// control, or both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChallengeFilter {
    /// Only challenges of this variant.
    pub variant: Option<String>,
    /// Only challenges with this time control.
    pub time_control: Option<TimeControl>,
}
