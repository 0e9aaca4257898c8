//! Each player's totals over the games that count: points, wins, games played and left,
//! and Sonneborn-Berger.

use std::fmt;

use missive_rules::SeatResult;
use serde::{Deserialize, Serialize};

use super::input::Game;
use super::verdict::Verdict;
use crate::score::{Points, SeatCount};

/// A Sonneborn-Berger score, exact, in 72nds of a point squared: a game's score times the
/// opponent's total is a whole number of 36ths (points are sixths), and a three-seat
/// score times half the two opponents' totals a whole number of 72nds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SonnebornBerger(u64);

impl SonnebornBerger {
    /// `units` 72nds of a point squared.
    pub const fn from_72nds(units: u64) -> SonnebornBerger {
        SonnebornBerger(units)
    }

    /// The number of 72nds of a point squared.
    pub const fn in_72nds(self) -> u64 {
        self.0
    }
}

impl fmt::Display for SonnebornBerger {
    /// A decimal with two places, rounded half up: `0.00`, `4.50`, `2.33`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hundredths = (self.0 * 100 + 36) / 72;
        write!(f, "{}.{:02}", hundredths / 100, hundredths % 100)
    }
}

/// Every player's totals, by player index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Tally {
    /// Points from the games that count.
    pub points: Vec<Points>,
    /// Games won outright ([`SeatResult::Win`]), forfeits included.
    pub wins: Vec<u32>,
    /// Games that count.
    pub played: Vec<u32>,
    /// Games still being played.
    pub left: Vec<u32>,
    /// Sonneborn-Berger over the games that count.
    pub sonneborn_berger: Vec<SonnebornBerger>,
}

impl Tally {
    /// The totals of `players` players over `games` with their `verdicts` (one each, in
    /// order), all seating `seats`.
    pub fn count(players: usize, seats: SeatCount, games: &[Game], verdicts: &[Verdict]) -> Tally {
        let mut tally = Tally {
            points: vec![Points::ZERO; players],
            wins: vec![0; players],
            played: vec![0; players],
            left: vec![0; players],
            sonneborn_berger: vec![SonnebornBerger::default(); players],
        };
        for (game, verdict) in games.iter().zip(verdicts) {
            tally.add(game, verdict);
        }
        for (game, verdict) in games.iter().zip(verdicts) {
            tally.add_sonneborn_berger(seats, game, verdict);
        }
        tally
    }

    /// Counts one game's points, win, played or left.
    fn add(&mut self, game: &Game, verdict: &Verdict) {
        match verdict {
            Verdict::Counted {
                results, points, ..
            } => {
                for ((&player, &result), &scored) in game.players.iter().zip(results).zip(points) {
                    self.points[player] += scored;
                    self.played[player] += 1;
                    if result == SeatResult::Win {
                        self.wins[player] += 1;
                    }
                }
            }
            Verdict::Pending => {
                for &player in &game.players {
                    self.left[player] += 1;
                }
            }
            Verdict::Annulled => {}
        }
    }

    /// Adds one counted game to its players' Sonneborn-Berger: the player's score times
    /// the opponent's total (two seats), or times the mean of the two opponents' totals
    /// (three seats). Needs every total already counted.
    fn add_sonneborn_berger(&mut self, seats: SeatCount, game: &Game, verdict: &Verdict) {
        let Verdict::Counted { points, .. } = verdict else {
            return;
        };
        // In 72nds: sixths × sixths is 36ths; the two-seat product counts twice, and the
        // three-seat one (a sum of two totals) once, which halves it.
        let weight = match seats {
            SeatCount::Two => 2,
            SeatCount::Three => 1,
        };
        let total = |player: usize| u64::from(self.points[player].sixths());
        let all: u64 = game.players.iter().map(|&p| total(p)).sum();
        let products: Vec<u64> = game
            .players
            .iter()
            .zip(points)
            .map(|(&player, scored)| u64::from(scored.sixths()) * (all - total(player)) * weight)
            .collect();
        for (&player, product) in game.players.iter().zip(products) {
            self.sonneborn_berger[player].0 += product;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sonneborn_berger_shows_two_places() {
        let shown: Vec<String> = [0, 1, 36, 72, 324, 168, 100]
            .into_iter()
            .map(|u| SonnebornBerger::from_72nds(u).to_string())
            .collect();
        // 1/72 = 0.0139, 168/72 = 2.3333, 100/72 = 1.3889.
        assert_eq!(
            shown,
            ["0.00", "0.01", "0.50", "1.00", "4.50", "2.33", "1.39"]
        );
        assert_eq!(SonnebornBerger::from_72nds(9).in_72nds(), 9);
        // 0.125 rounds half up.
        assert_eq!(SonnebornBerger::from_72nds(9).to_string(), "0.13");
    }
}
