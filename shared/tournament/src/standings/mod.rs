//! The crosstable of a round robin: every player's points, tiebreaks and rank, and every
//! player's games.
//!
//! Rules:
//! - A finished or adjudicated game counts as it ended, whoever withdrew later.
//! - An unfinished game of a withdrawn player follows the organiser's [`Withdrawal`]:
//!   [`Withdrawal::Forfeit`] makes the withdrawn players lose it and the others win it
//!   (the one who stayed wins; at a three-seat table where one withdrew, the two others
//!   share the win, half a point each); when every player of the game withdrew, it is
//!   annulled. [`Withdrawal::Annul`] makes it count for nobody.
//! - Games played counts the games that count (finished, adjudicated, forfeited); games
//!   left counts the unfinished ones still to be played.
//! - Wins counts outright wins ([`SeatResult::Win`](missive_rules::SeatResult::Win)),
//!   forfeit wins included; a shared win is half a point and is not a win here.
//! - Sonneborn-Berger sums, over the games that count (forfeits included), the player's
//!   score in the game times the opponent's total (two seats), or times the mean of the
//!   two opponents' totals (three seats).
//! - The order: points, then Sonneborn-Berger, then wins, then head-to-head, then the
//!   player list's order. Head-to-head is applied once, to each group level on the three
//!   before it: each member's points from the counted games in which another member sat.
//!   Players level on all four share a rank.

mod crosstable;
mod input;
mod ranking;
mod tally;
mod text;
mod verdict;

use serde::{Deserialize, Serialize};

pub use crosstable::{Entry, Mark};
pub use input::{Game, GameState, StandingsError, Withdrawal};
pub use tally::SonnebornBerger;

use crate::score::{Points, SeatCount};
use verdict::Field;

/// One player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The player's index.
    pub player: usize,
    /// The rank, counted from 1; players level on every criterion share one, and the next
    /// rank skips as many as share it (1, 2, 2, 4).
    pub rank: u32,
    /// Points from the games that count.
    pub points: Points,
    /// Sonneborn-Berger.
    pub sonneborn_berger: SonnebornBerger,
    /// Outright wins, forfeits included.
    pub wins: u32,
    /// Head-to-head points, present when the player was level with others on points,
    /// Sonneborn-Berger and wins.
    pub head_to_head: Option<Points>,
    /// The games that count.
    pub played: u32,
    /// The games still being played.
    pub left: u32,
    /// Whether the player withdrew.
    pub withdrawn: bool,
}

/// The standings and crosstable of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The number of seats at every game.
    pub seats: SeatCount,
    /// Every player's line, best first.
    pub rows: Vec<Row>,
    /// Every player's games (by player index), in the order of the games.
    pub entries: Vec<Vec<Entry>>,
}

impl Standings {
    /// The standings of `players` players (indices 0 to `players` − 1) over `games`, all
    /// seating `seats`, where `withdrawn` players left and `policy` says what becomes of
    /// their unfinished games. Refuses games with the wrong number of players, unknown or
    /// repeated players, or results that are not one per seat or do not add up to one
    /// point, and unknown withdrawn players.
    pub fn compute(
        players: usize,
        seats: SeatCount,
        withdrawn: &[usize],
        policy: Withdrawal,
        games: &[Game],
    ) -> Result<Standings, StandingsError> {
        let mut withdrew = vec![false; players];
        for &player in withdrawn {
            let flag = withdrew
                .get_mut(player)
                .ok_or(StandingsError::UnknownWithdrawn { player, players })?;
            *flag = true;
        }
        let field = Field {
            players,
            seats,
            withdrawn: &withdrew,
            policy,
        };
        let verdicts = field.verdicts(games)?;
        let tally = tally::Tally::count(players, seats, games, &verdicts);
        let rows = ranking::places(&tally, games, &verdicts)
            .into_iter()
            .map(|place| Row {
                player: place.player,
                rank: place.rank,
                points: tally.points[place.player],
                sonneborn_berger: tally.sonneborn_berger[place.player],
                wins: tally.wins[place.player],
                head_to_head: place.head_to_head,
                played: tally.played[place.player],
                left: tally.left[place.player],
                withdrawn: withdrew[place.player],
            })
            .collect();
        Ok(Standings {
            seats,
            rows,
            entries: crosstable::entries(players, games, &verdicts),
        })
    }

    /// `player`'s line, if the player is in the list.
    pub fn row(&self, player: usize) -> Option<&Row> {
        self.rows.iter().find(|row| row.player == player)
    }

    /// The crosstable's cell of `player` against `opponent`: the marks, from `player`'s
    /// side, of the games in which both sat, in the order of the games. Empty for
    /// unknown players and for a player against themself.
    pub fn cell(&self, player: usize, opponent: usize) -> Vec<Mark> {
        self.entries
            .get(player)
            .into_iter()
            .flatten()
            .filter(|entry| entry.opponents.contains(&opponent))
            .map(|entry| entry.mark)
            .collect()
    }
}

#[cfg(test)]
mod tests;
