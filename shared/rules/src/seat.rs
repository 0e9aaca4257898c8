//! Seats: who sits where in a game of two or three players.

use std::fmt;

/// A seat in turn order, counted from 0: in chess 0 is White and 1 is Black; in Three
/// Kingdoms Xiangqi 0 is Shu, 1 Wu, 2 Wei. The names come from the position type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index into per-seat arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}
