//! Move numbers as PGN writes them: every seat's move in turn order shares one number (a
//! round), `13.` for the first seat's move and `13...` for the others' (`13... Nf6`).
//!
//! A seat's `k`-th move is in round `k`, or `k + 1` for a seat that comes before the seat
//! that moved first in turn order (a game from a position with Black to move goes
//! `1... e5 2. Nf3`). So a number follows from how many moves each seat has made, which is
//! what the heads keep; seats that are out of a three-seat game simply stop counting.

use std::fmt;

use crate::Seat;

/// The number of one move: its round and the seat that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The round, from 1.
    pub round: u32,
    /// The seat moving.
    pub seat: Seat,
}

impl fmt::Display for MoveNumber {
    /// `13.` for the first seat, `13...` for any other.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seat {
            Seat(0) => write!(f, "{}.", self.round),
            _ => write!(f, "{}...", self.round),
        }
    }
}

/// Numbers the moves of a game as they are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNumbering {
    first: Seat,
    made: Vec<u32>,
}

impl MoveNumbering {
    /// The numbering of a game of `seats` seats whose first move is `first`'s.
    pub fn new(first: Seat, seats: usize) -> MoveNumbering {
        MoveNumbering {
            first,
            made: vec![0; seats],
        }
    }

    /// The numbering of a game whose seats have made `made[seat]` moves each, the first
    /// move being `first`'s.
    pub fn after(first: Seat, made: Vec<u32>) -> MoveNumbering {
        MoveNumbering { first, made }
    }

    /// The numbers of the moves `movers` made, in order, in a game of `seats` seats whose
    /// first move was `first`'s; then the numbering that goes on from there.
    pub fn numbered(
        first: Seat,
        seats: usize,
        movers: impl IntoIterator<Item = Seat>,
    ) -> (Vec<MoveNumber>, MoveNumbering) {
        let mut numbering = MoveNumbering::new(first, seats);
        let numbers = movers
            .into_iter()
            .map(|seat| numbering.number(seat))
            .collect();
        (numbers, numbering)
    }

    /// The number of `seat`'s next move.
    pub fn next(&self, seat: Seat) -> MoveNumber {
        let made = self.made.get(seat.index()).copied().unwrap_or(0);
        MoveNumber {
            round: made + 1 + u32::from(seat < self.first),
            seat,
        }
    }

    /// Numbers `seat`'s move and counts it.
    pub fn number(&mut self, seat: Seat) -> MoveNumber {
        let number = self.next(seat);
        if let Some(made) = self.made.get_mut(seat.index()) {
            *made += 1;
        }
        number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(first: u8, seats: usize, movers: &[u8]) -> Vec<String> {
        let mut numbering = MoveNumbering::new(Seat(first), seats);
        movers
            .iter()
            .map(|&seat| numbering.number(Seat(seat)).to_string())
            .collect()
    }

    #[test]
    fn rounds_of_two_and_of_three() {
        assert_eq!(
            texts(0, 2, &[0, 1, 0, 1, 0]),
            ["1.", "1...", "2.", "2...", "3."]
        );
        assert_eq!(texts(1, 2, &[1, 0, 1]), ["1...", "2.", "2..."]);
        assert_eq!(
            texts(0, 3, &[0, 1, 2, 0, 1, 2, 0]),
            ["1.", "1...", "1...", "2.", "2...", "2...", "3."]
        );
        // Wei is out after its first move: rounds of two from then on.
        assert_eq!(
            texts(0, 3, &[0, 1, 2, 0, 1, 0, 1]),
            ["1.", "1...", "1...", "2.", "2...", "3.", "3..."]
        );
        assert_eq!(texts(1, 3, &[1, 2, 0, 1]), ["1...", "1...", "2.", "2..."]);
    }

    #[test]
    fn the_moves_of_a_game_numbered_at_once() {
        let (numbers, numbering) = MoveNumbering::numbered(Seat(1), 2, [Seat(1), Seat(0)]);
        let texts: Vec<String> = numbers.iter().map(ToString::to_string).collect();
        assert_eq!(texts, ["1...", "2."]);
        assert_eq!(numbering.next(Seat(1)).to_string(), "2...");
    }

    #[test]
    fn the_next_number_of_a_game_under_way() {
        let numbering = MoveNumbering::after(Seat(0), vec![12, 12]);
        assert_eq!(numbering.next(Seat(0)).to_string(), "13.");
        let numbering = MoveNumbering::after(Seat(0), vec![13, 12]);
        assert_eq!(numbering.next(Seat(1)).to_string(), "13...");
    }
}
