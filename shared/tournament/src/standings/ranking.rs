//! The order of the standings: points, then Sonneborn-Berger, then wins, then
//! head-to-head, then the player list's order; and the ranks, shared by full ties.

use std::cmp::Reverse;

use super::input::Game;
use super::tally::Tally;
use super::verdict::Verdict;
use crate::score::Points;

/// One place in the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    /// The player's index.
    pub player: usize,
    /// The rank, counted from 1: one more than the number of players strictly ahead.
    pub rank: u32,
    /// Head-to-head points, for players level on points, Sonneborn-Berger and wins.
    pub head_to_head: Option<Points>,
}

/// Every player's place, best first.
///
/// Players level on points, Sonneborn-Berger and wins are ordered once by head-to-head:
/// each one's points from the counted games in which another of them sat. Players still
/// level after that share a rank and are listed in the player list's order.
pub(super) fn places(tally: &Tally, games: &[Game], verdicts: &[Verdict]) -> Vec<Place> {
    let level_key = |&player: &usize| {
        (
            Reverse(tally.points[player]),
            Reverse(tally.sonneborn_berger[player]),
            Reverse(tally.wins[player]),
        )
    };
    let mut order: Vec<usize> = (0..tally.points.len()).collect();
    order.sort_by_key(level_key);

    let mut places = Vec::with_capacity(order.len());
    for level in order.chunk_by(|a, b| level_key(a) == level_key(b)) {
        let mut group: Vec<(usize, Option<Points>)> = match level {
            [single] => vec![(*single, None)],
            _ => level
                .iter()
                .map(|&p| (p, Some(head_to_head(p, level, games, verdicts))))
                .collect(),
        };
        group.sort_by_key(|&(player, h2h)| (Reverse(h2h), player));
        let first = places.len();
        for (i, &(player, head_to_head)) in group.iter().enumerate() {
            let tied_with_previous = i > 0 && group[i - 1].1 == head_to_head;
            let rank = if tied_with_previous {
                places.last().map_or(1, |p: &Place| p.rank)
            } else {
                (first + i + 1) as u32
            };
            places.push(Place {
                player,
                rank,
                head_to_head,
            });
        }
    }
    places
}

/// `player`'s points from the counted games in which another player of `group` sat.
fn head_to_head(player: usize, group: &[usize], games: &[Game], verdicts: &[Verdict]) -> Points {
    games
        .iter()
        .zip(verdicts)
        .filter_map(|(game, verdict)| match verdict {
            Verdict::Counted { points, .. } => Some((game, points)),
            Verdict::Pending | Verdict::Annulled => None,
        })
        .filter(|(game, _)| {
            game.players.contains(&player)
                && game
                    .players
                    .iter()
                    .any(|&other| other != player && group.contains(&other))
        })
        .flat_map(|(game, points)| {
            game.players
                .iter()
                .zip(points)
                .filter(|&(&p, _)| p == player)
                .map(|(_, &scored)| scored)
        })
        .sum()
}
