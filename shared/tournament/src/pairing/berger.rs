//! Round robins of two-seat games by Berger tables.
//!
//! Berger numbers the players 1 to n (n even; an odd field gets a dummy, and whoever meets
//! the dummy has a bye). Player n stays put; the others sit on a circle of m = n − 1.
//! In round r, player n meets the circle player a with 2a ≡ r + 1 (mod m), and the rest
//! pair off as a + k against a − k. Colours: player n has Black in odd rounds and White
//! in even ones; between two circle players u and v, u has White when (v − u) mod m is
//! odd. Since m is odd, exactly one of the two sees an odd difference, and each circle
//! player sees every difference 1..m−1 once: half Whites, half Blacks, plus the one game
//! with player n. This reproduces FIDE's published Berger tables.

use serde::{Deserialize, Serialize};

use super::{PairingError, check_field};

/// One game of a round robin: its round and its two players by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The round, counted from 1.
    pub round: u32,
    /// The players (indices into the player list) by seat: seat 0 (White) first.
    pub seats: [usize; 2],
}

/// Every game of a round robin of `players` players, round by round and board by board.
///
/// Single (`double == false`): every pair meets once, and each player's Whites minus
/// Blacks is −1, 0 or 1. Double: the single cycle is played again with colours swapped
/// (rounds m + 1 to 2m), so every pair meets twice, once with each colour, and every
/// player has as many Whites as Blacks. With an odd field one player has a bye in each
/// round: no game is listed for them. Refuses fewer than 2 or more than
/// [`super::MAX_PLAYERS`] players.
pub fn round_robin(players: usize, double: bool) -> Result<Vec<Pairing>, PairingError> {
    check_field(players, 2)?;
    let single = single_cycle(players);
    if !double {
        return Ok(single);
    }
    let rounds = circle_size(players) as u32;
    let second = single.iter().map(|pairing| Pairing {
        round: pairing.round + rounds,
        seats: [pairing.seats[1], pairing.seats[0]],
    });
    Ok(single.iter().copied().chain(second).collect())
}

/// The size m of Berger's circle: every player but the fixed one (the dummy, when the
/// field is odd). It is odd, and it is the number of rounds in one cycle.
fn circle_size(players: usize) -> usize {
    players + players % 2 - 1
}

/// One cycle of Berger's table, byes (games against the dummy) left out.
fn single_cycle(players: usize) -> Vec<Pairing> {
    let circle = circle_size(players);
    (1..=circle)
        .flat_map(|round| berger_round(circle, round))
        .filter(|pairing| pairing.seats.iter().all(|&player| player < players))
        .collect()
}

/// Round `round` of Berger's table for a circle of `circle` players, dummy included.
/// Players are indices: circle player a is index a − 1 and the fixed player is `circle`.
fn berger_round(circle: usize, round: usize) -> Vec<Pairing> {
    let number = round as u32;
    let fixed = circle;
    // 2(x + 1) ≡ round + 1, so x ≡ (round − 1) / 2; the inverse of 2 modulo m is (m + 1) / 2.
    let facing = (round - 1) * circle.div_ceil(2) % circle;
    let first = if round % 2 == 1 {
        [facing, fixed]
    } else {
        [fixed, facing]
    };
    let boards = (1..=circle / 2).map(|k| {
        let up = (facing + k) % circle;
        let down = (facing + circle - k) % circle;
        colours(circle, up, down)
    });
    std::iter::once(first)
        .chain(boards)
        .map(|seats| Pairing {
            round: number,
            seats,
        })
        .collect()
}

/// Two circle players in seat order: `u` takes White when (`v` − `u`) mod `circle` is odd.
fn colours(circle: usize, u: usize, v: usize) -> [usize; 2] {
    if (v + circle - u) % circle % 2 == 1 {
        [u, v]
    } else {
        [v, u]
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;

    /// The games as Berger's 1-based numbers, round by round, for comparing with FIDE's tables.
    fn numbered(players: usize) -> Vec<Vec<(usize, usize)>> {
        let games = round_robin(players, false).unwrap();
        let rounds = games.iter().map(|p| p.round).max().unwrap();
        (1..=rounds)
            .map(|round| {
                games
                    .iter()
                    .filter(|p| p.round == round)
                    .map(|p| (p.seats[0] + 1, p.seats[1] + 1))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn four_players_follow_fides_table() {
        assert_eq!(
            numbered(4),
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)],
            ]
        );
    }

    #[test]
    fn six_players_follow_fides_table() {
        assert_eq!(
            numbered(6),
            vec![
                vec![(1, 6), (2, 5), (3, 4)],
                vec![(6, 4), (5, 3), (1, 2)],
                vec![(2, 6), (3, 1), (4, 5)],
                vec![(6, 5), (1, 4), (2, 3)],
                vec![(3, 6), (4, 2), (5, 1)],
            ]
        );
    }

    #[test]
    fn eight_players_follow_fides_table() {
        assert_eq!(
            numbered(8),
            vec![
                vec![(1, 8), (2, 7), (3, 6), (4, 5)],
                vec![(8, 5), (6, 4), (7, 3), (1, 2)],
                vec![(2, 8), (3, 1), (4, 7), (5, 6)],
                vec![(8, 6), (7, 5), (1, 4), (2, 3)],
                vec![(3, 8), (4, 2), (5, 1), (6, 7)],
                vec![(8, 7), (1, 6), (2, 5), (3, 4)],
                vec![(4, 8), (5, 3), (6, 2), (7, 1)],
            ]
        );
    }

    #[test]
    fn an_odd_field_leaves_out_the_dummys_games() {
        // Five players pair as six, and player 6 is the bye.
        assert_eq!(
            numbered(5),
            vec![
                vec![(2, 5), (3, 4)],
                vec![(5, 3), (1, 2)],
                vec![(3, 1), (4, 5)],
                vec![(1, 4), (2, 3)],
                vec![(4, 2), (5, 1)],
            ]
        );
    }

    #[test]
    fn two_players_meet_once_or_twice() {
        assert_eq!(
            round_robin(2, false).unwrap(),
            vec![Pairing {
                round: 1,
                seats: [0, 1]
            }]
        );
        assert_eq!(
            round_robin(2, true).unwrap(),
            vec![
                Pairing {
                    round: 1,
                    seats: [0, 1]
                },
                Pairing {
                    round: 2,
                    seats: [1, 0]
                },
            ]
        );
    }

    #[test]
    fn bad_fields_are_refused() {
        for players in [0, 1] {
            assert_eq!(
                round_robin(players, false),
                Err(PairingError::TooFewPlayers {
                    players,
                    minimum: 2
                })
            );
        }
        assert_eq!(
            round_robin(65, true),
            Err(PairingError::TooManyPlayers {
                players: 65,
                maximum: 64
            })
        );
    }

    /// Checks every property of a round robin of `players`; `double` for two cycles.
    fn check(players: usize, double: bool) {
        let games = round_robin(players, double).unwrap();
        let meetings = if double { 2 } else { 1 };
        assert_eq!(games.len(), meetings * players * (players - 1) / 2);

        let cycle = circle_size(players) as u32;
        let rounds = cycle * meetings as u32;
        assert!(games.iter().all(|p| (1..=rounds).contains(&p.round)));
        assert!(games.windows(2).all(|w| w[0].round <= w[1].round));

        // Nobody twice in a round, and one bye a round in an odd field.
        for round in 1..=rounds {
            let seated: Vec<usize> = games
                .iter()
                .filter(|p| p.round == round)
                .flat_map(|p| p.seats)
                .collect();
            let distinct: HashSet<usize> = seated.iter().copied().collect();
            assert_eq!(distinct.len(), seated.len(), "{players}: round {round}");
            assert_eq!(seated.len(), players - players % 2);
        }

        // Every ordered pair (White, Black): once per cycle for one of the two orders.
        let mut ordered: HashMap<(usize, usize), usize> = HashMap::new();
        for p in &games {
            assert!(p.seats.iter().all(|&s| s < players));
            assert_ne!(p.seats[0], p.seats[1]);
            *ordered.entry((p.seats[0], p.seats[1])).or_default() += 1;
        }
        for a in 0..players {
            for b in a + 1..players {
                let ab = ordered.get(&(a, b)).copied().unwrap_or(0);
                let ba = ordered.get(&(b, a)).copied().unwrap_or(0);
                if double {
                    assert_eq!((ab, ba), (1, 1), "{players}: {a} and {b}");
                } else {
                    assert_eq!(ab + ba, 1, "{players}: {a} and {b}");
                }
            }
        }

        // Colour balance.
        for player in 0..players {
            let whites = games.iter().filter(|p| p.seats[0] == player).count() as i64;
            let blacks = games.iter().filter(|p| p.seats[1] == player).count() as i64;
            if double {
                assert_eq!(whites, blacks, "{players}: player {player}");
            } else {
                assert!((whites - blacks).abs() <= 1, "{players}: player {player}");
            }
        }

        // The second cycle is the first with colours swapped.
        if double {
            let (first, second) = games.split_at(games.len() / 2);
            for (a, b) in first.iter().zip(second) {
                assert_eq!(b.round, a.round + cycle);
                assert_eq!(b.seats, [a.seats[1], a.seats[0]]);
            }
        }
    }

    #[test]
    fn single_round_robins_from_2_to_30() {
        for players in 2..=30 {
            check(players, false);
        }
    }

    #[test]
    fn double_round_robins_from_2_to_30() {
        for players in 2..=30 {
            check(players, true);
        }
    }

    #[test]
    fn the_largest_fields_pair() {
        check(63, false);
        check(64, true);
    }

    #[test]
    fn thirty_players_play_435_games() {
        assert_eq!(round_robin(30, false).unwrap().len(), 435);
        assert_eq!(round_robin(30, true).unwrap().len(), 870);
    }

    #[test]
    fn the_pairings_are_the_same_every_time() {
        assert_eq!(round_robin(17, true), round_robin(17, true));
    }
}
