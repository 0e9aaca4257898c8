//! A game's moves written out as a score, numbered by rounds as PGN numbers them:
//! `1. e4 e5 2. Bc4 Nc6` in chess, rounds of three in Three Kingdoms (`1. a b c 2. d e f`),
//! `1... e5 2. Nf3` in a game whose first move was not the first seat's. A long game may be
//! cut to its last moves: the score then starts with `…` and the number of its first move
//! shown (`… 31... Kg7 32. Qd4`).
//!
//! Mails and pages write scores with this one function, [`score`], so a game reads the same
//! wherever it is shown.

use std::fmt;

use crate::{MoveNumbering, Seat};

/// A game's moves as a score: the moves shown, numbered, and how many were left out before
/// them. Its text (`Display`) is `…` and the moves when some were left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The moves left out at the start (0: the whole game is shown).
    pub left_out: usize,
    /// The moves shown, each round's number before its first move shown: `1. e4 e5 2. Bc4`.
    pub moves: String,
}

impl Score {
    /// Whether no move is shown (a game before its first move).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.left_out {
            0 => f.write_str(&self.moves),
            _ => write!(f, "… {}", self.moves),
        }
    }
}

/// The score of a game of `seats` seats whose first move was `first`'s, its `moves` given as
/// the seat that made each and its notation (short, for people), in order; with `last`, only
/// the last that many moves are shown. A round's number comes before its first move shown
/// (`12.` for the first seat's, `12...` for another seat's), so a score cut in the middle of
/// a round, or a game begun by the second seat, starts with `N...`.
pub fn score(seats: usize, first: Seat, moves: &[(Seat, &str)], last: Option<usize>) -> Score {
    let left_out = last.map_or(0, |last| moves.len().saturating_sub(last));
    let (numbers, _) = MoveNumbering::numbered(first, seats, moves.iter().map(|(seat, _)| *seat));
    let mut text = String::new();
    let mut round = None;
    for (number, (_, notation)) in numbers.iter().zip(moves).skip(left_out) {
        if !text.is_empty() {
            text.push(' ');
        }
        if round != Some(number.round) {
            text.push_str(&number.to_string());
            text.push(' ');
            round = Some(number.round);
        }
        text.push_str(notation);
    }
    Score {
        left_out,
        moves: text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chess moves in turn order from `first`'s.
    fn chess<'m>(first: u8, moves: &[&'m str]) -> Vec<(Seat, &'m str)> {
        moves
            .iter()
            .enumerate()
            .map(|(ply, mv)| (Seat(((usize::from(first) + ply) % 2) as u8), *mv))
            .collect()
    }

    #[test]
    fn chess_moves_go_in_pairs() {
        let moves = chess(0, &["e4", "e5", "Bc4", "Nc6", "Qh5"]);
        let score = score(2, Seat(0), &moves, None);
        assert_eq!(score.to_string(), "1. e4 e5 2. Bc4 Nc6 3. Qh5");
        assert_eq!(score.left_out, 0);
    }

    #[test]
    fn a_game_begun_by_black_starts_with_an_ellipsis_number() {
        let moves = chess(1, &["e5", "Nf3", "Nc6"]);
        assert_eq!(
            score(2, Seat(1), &moves, None).to_string(),
            "1... e5 2. Nf3 Nc6"
        );
    }

    #[test]
    fn three_kingdoms_moves_go_in_rounds_of_three() {
        let seats = [0, 1, 2, 0, 1, 2, 0, 1];
        let moves: Vec<(Seat, &str)> = seats
            .iter()
            .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
            .map(|(seat, mv)| (Seat(*seat), mv))
            .collect();
        assert_eq!(
            score(3, Seat(0), &moves, None).to_string(),
            "1. a b c 2. d e f 3. g h"
        );
        // Wei (seat 2) out after round 1: rounds of two, still numbered by rounds.
        let out: Vec<(Seat, &str)> = [0, 1, 2, 0, 1, 0]
            .iter()
            .zip(["a", "b", "c", "d", "e", "f"])
            .map(|(seat, mv)| (Seat(*seat), mv))
            .collect();
        assert_eq!(
            score(3, Seat(0), &out, None).to_string(),
            "1. a b c 2. d e 3. f"
        );
    }

    #[test]
    fn a_long_game_shows_its_last_moves_after_an_ellipsis() {
        let names: Vec<String> = (1..=60).map(|n| format!("m{n}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let moves = chess(0, &names);
        let cut = score(2, Seat(0), &moves, Some(5));
        assert_eq!(cut.left_out, 55);
        assert_eq!(cut.to_string(), "… 28... m56 29. m57 m58 30. m59 m60");
        let whole = score(2, Seat(0), &moves, Some(60));
        assert_eq!(whole.left_out, 0);
        assert!(whole.to_string().starts_with("1. m1 m2 2. m3"));
    }

    #[test]
    fn no_moves_no_score() {
        let score = score(2, Seat(0), &[], Some(20));
        assert!(score.is_empty());
        assert_eq!(score.to_string(), "");
    }
}
