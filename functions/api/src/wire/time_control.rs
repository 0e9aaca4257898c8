//! A time control, as bodies carry it and answers give it.

use missive_domain::TimeControl as Stored;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How much time a player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum TimeControl {
    /// A fixed number of days for every move.
    #[schema(title = "DaysPerMove")]
    DaysPerMove {
        /// Days per move.
        days: u16,
    },
    /// ICCF style: `days` for every `moves` moves, unused time carried over.
    #[schema(title = "IccfTimeControl")]
    Iccf {
        /// Moves per period.
        moves: u16,
        /// Days per period.
        days: u16,
    },
}

impl From<Stored> for TimeControl {
    fn from(stored: Stored) -> TimeControl {
        match stored {
            Stored::DaysPerMove { days } => TimeControl::DaysPerMove { days },
            Stored::Iccf { moves, days } => TimeControl::Iccf { moves, days },
        }
    }
}

impl From<TimeControl> for Stored {
    fn from(wire: TimeControl) -> Stored {
        match wire {
            TimeControl::DaysPerMove { days } => Stored::DaysPerMove { days },
            TimeControl::Iccf { moves, days } => Stored::Iccf { moves, days },
        }
    }
}
