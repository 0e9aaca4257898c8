//! The crosstable's cells: every player's games, each with its mark.

use missive_rules::{Seat, SeatResult};
use serde::{Deserialize, Serialize};

use super::input::Game;
use super::verdict::Verdict;
use crate::score::Points;

/// How one game stands for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// Finished or adjudicated: the player's result.
    Played(SeatResult),
    /// Decided by a withdrawal: the player's result ([`SeatResult::Loss`] for the
    /// withdrawn, a win or shared win for the others).
    Forfeit(SeatResult),
    /// Still being played.
    Unfinished,
    /// Annulled by a withdrawal: it counts for nobody.
    Annulled,
}

impl Mark {
    /// The crosstable's ASCII symbol: `1` win, `=` draw or shared win, `0` loss, `+` won
    /// by forfeit (alone or shared), `-` lost by forfeit, `*` unfinished, and nothing for
    /// an annulled game.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Played(SeatResult::Win) => "1",
            Mark::Played(SeatResult::SharedWin | SeatResult::Draw)
            | Mark::Forfeit(SeatResult::Draw) => "=",
            Mark::Played(SeatResult::Loss) => "0",
            Mark::Forfeit(SeatResult::Win | SeatResult::SharedWin) => "+",
            Mark::Forfeit(SeatResult::Loss) => "-",
            Mark::Unfinished => "*",
            Mark::Annulled => "",
        }
    }
}

/// One game in a player's row of the crosstable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The game's index in the list of games.
    pub game: usize,
    /// The player's seat.
    pub seat: Seat,
    /// The other players, by seat.
    pub opponents: Vec<usize>,
    /// How the game stands for the player.
    pub mark: Mark,
    /// The player's points from it, when it counts.
    pub score: Option<Points>,
}

/// Every player's entries (by player index), each in the order of the games.
pub(super) fn entries(players: usize, games: &[Game], verdicts: &[Verdict]) -> Vec<Vec<Entry>> {
    let mut rows = vec![Vec::new(); players];
    for (index, (game, verdict)) in games.iter().zip(verdicts).enumerate() {
        for (seat, &player) in game.players.iter().enumerate() {
            let (mark, score) = match verdict {
                Verdict::Counted {
                    results,
                    points,
                    forfeit,
                } => {
                    let result = results[seat];
                    let mark = if *forfeit {
                        Mark::Forfeit(result)
                    } else {
                        Mark::Played(result)
                    };
                    (mark, Some(points[seat]))
                }
                Verdict::Pending => (Mark::Unfinished, None),
                Verdict::Annulled => (Mark::Annulled, None),
            };
            rows[player].push(Entry {
                game: index,
                seat: Seat(seat as u8),
                opponents: game
                    .players
                    .iter()
                    .copied()
                    .filter(|&p| p != player)
                    .collect(),
                mark,
                score,
            });
        }
    }
    rows
}
