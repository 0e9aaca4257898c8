//! Who plays whom: round robins of two-seat games ([`round_robin`], Berger tables) and of
//! three-seat tables ([`tables_of_three`], every triple of players once).
//!
//! Players are indices into the tournament's player list, counted from 0.

mod berger;
mod triples;

use thiserror::Error;

pub use berger::{Pairing, round_robin};
pub use triples::{Table, tables_of_three};

/// The largest field a round robin is paired for.
pub const MAX_PLAYERS: usize = 64;

/// Why a round robin cannot be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PairingError {
    /// Fewer players than one game seats.
    #[error("{players} players are too few: the round robin needs at least {minimum}")]
    TooFewPlayers {
        /// The players asked for.
        players: usize,
        /// The fewest players this kind of round robin takes.
        minimum: usize,
    },
    /// More players than [`MAX_PLAYERS`].
    #[error("{players} players are too many: a round robin takes at most {maximum}")]
    TooManyPlayers {
        /// The players asked for.
        players: usize,
        /// [`MAX_PLAYERS`].
        maximum: usize,
    },
}

/// `Ok` when `players` is between `minimum` and [`MAX_PLAYERS`].
fn check_field(players: usize, minimum: usize) -> Result<(), PairingError> {
    if players < minimum {
        Err(PairingError::TooFewPlayers { players, minimum })
    } else if players > MAX_PLAYERS {
        Err(PairingError::TooManyPlayers {
            players,
            maximum: MAX_PLAYERS,
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_is_checked_at_both_ends() {
        assert_eq!(
            check_field(1, 2),
            Err(PairingError::TooFewPlayers {
                players: 1,
                minimum: 2
            })
        );
        assert_eq!(check_field(2, 2), Ok(()));
        assert_eq!(check_field(64, 3), Ok(()));
        assert_eq!(
            check_field(65, 2),
            Err(PairingError::TooManyPlayers {
                players: 65,
                maximum: 64
            })
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let few = PairingError::TooFewPlayers {
            players: 2,
            minimum: 3,
        };
        assert_eq!(
            few.to_string(),
            "2 players are too few: the round robin needs at least 3"
        );
        let many = PairingError::TooManyPlayers {
            players: 70,
            maximum: 64,
        };
        assert_eq!(
            many.to_string(),
            "70 players are too many: a round robin takes at most 64"
        );
    }
}
