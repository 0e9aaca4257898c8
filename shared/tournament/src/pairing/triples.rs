//! Round robins of three-seat tables: every unordered triple of players plays one game.
//!
//! Seats are handed out in two passes. First, triple by triple in lexicographic order,
//! each table takes the seating (of the six) that puts its players where they have sat
//! least so far. Then, while swapping two players of one table lowers the sum over all
//! players and seats of the squared seat counts, the swap is made; the sum falls with
//! every swap, so this ends. For every field from 3 to [`super::MAX_PLAYERS`] (all are
//! tested) the result is the best possible: each player's counts in seats 0, 1 and 2
//! differ by at most 1, and are equal when the player's number of tables,
//! (n − 1)(n − 2)/2, is a multiple of 3 (that is, when n is not).

use serde::{Deserialize, Serialize};

use super::{PairingError, check_field};

/// One game of three: its players by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Table {
    /// The players (indices into the player list) by seat: seat 0 first.
    pub seats: [usize; 3],
}

/// Every table of a three-seat round robin of `players` players: one per unordered triple,
/// so every player meets every pair of the others exactly once, listed in lexicographic
/// order of the triples, seated so that each player's counts in the three seats differ by
/// at most 1. Deterministic. No rounds: the tables are all played at once. Refuses fewer
/// than 3 or more than [`super::MAX_PLAYERS`] players.
pub fn tables_of_three(players: usize) -> Result<Vec<Table>, PairingError> {
    check_field(players, 3)?;
    let mut counts = SeatCounts(vec![[0; 3]; players]);
    let mut tables: Vec<Table> = triples(players)
        .map(|triple| counts.seat_least_used(triple))
        .collect();
    counts.even_out(&mut tables);
    Ok(tables)
}

/// Every triple `a < b < c` of players, in lexicographic order.
fn triples(players: usize) -> impl Iterator<Item = [usize; 3]> {
    (0..players).flat_map(move |a| {
        (a + 1..players).flat_map(move |b| (b + 1..players).map(move |c| [a, b, c]))
    })
}

/// The six seatings of a table: position `i` of a triple sits in seat `SEATINGS[s][i]`.
const SEATINGS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The seat pairs whose players a table can swap.
const SWAPS: [(usize, usize); 3] = [(0, 1), (0, 2), (1, 2)];

/// How often each player has sat in each seat, over the tables seated so far.
struct SeatCounts(Vec<[u32; 3]>);

impl SeatCounts {
    /// Seats `triple` where its players have sat least (the first such seating among
    /// [`SEATINGS`]), and counts it.
    fn seat_least_used(&mut self, triple: [usize; 3]) -> Table {
        let cost =
            |seating: &[usize; 3]| -> u32 { (0..3).map(|i| self.0[triple[i]][seating[i]]).sum() };
        let mut best = SEATINGS[0];
        for seating in &SEATINGS[1..] {
            if cost(seating) < cost(&best) {
                best = *seating;
            }
        }
        let mut seats = [0; 3];
        for (i, &seat) in best.iter().enumerate() {
            seats[seat] = triple[i];
            self.0[triple[i]][seat] += 1;
        }
        Table { seats }
    }

    /// Swaps players within tables while a swap evens out the counts (lowers the sum of
    /// squared counts), until none does.
    fn even_out(&mut self, tables: &mut [Table]) {
        let mut swapped = true;
        while swapped {
            swapped = false;
            for table in tables.iter_mut() {
                for (i, j) in SWAPS {
                    if self.swap_evens_out(table, i, j) {
                        self.swap(table, i, j);
                        swapped = true;
                    }
                }
            }
        }
    }

    /// Whether moving the player in seat `i` to seat `j` and the one in `j` to `i` lowers
    /// the sum of squared counts. With p the first player's counts and q the second's, the
    /// sum changes by 2(p_j − p_i + 1) + 2(q_i − q_j + 1): it falls exactly when
    /// (p_i − p_j) + (q_j − q_i) > 2.
    fn swap_evens_out(&self, table: &Table, i: usize, j: usize) -> bool {
        let p = self.0[table.seats[i]].map(i64::from);
        let q = self.0[table.seats[j]].map(i64::from);
        (p[i] - p[j]) + (q[j] - q[i]) > 2
    }

    /// Swaps the players in seats `i` and `j` of `table`, and counts it.
    fn swap(&mut self, table: &mut Table, i: usize, j: usize) {
        let (p, q) = (table.seats[i], table.seats[j]);
        self.0[p][i] -= 1;
        self.0[p][j] += 1;
        self.0[q][j] -= 1;
        self.0[q][i] += 1;
        table.seats.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Each player's counts in seats 0, 1 and 2.
    fn seat_counts(players: usize, tables: &[Table]) -> Vec<[u32; 3]> {
        let mut counts = vec![[0; 3]; players];
        for table in tables {
            for (seat, &player) in table.seats.iter().enumerate() {
                counts[player][seat] += 1;
            }
        }
        counts
    }

    /// Checks every property of the tables for `players`.
    fn check(players: usize) {
        let tables = tables_of_three(players).unwrap();
        assert_eq!(
            tables.len(),
            players * (players - 1) * (players - 2) / 6,
            "{players}"
        );
        let mut triples = HashSet::new();
        for table in &tables {
            assert!(table.seats.iter().all(|&p| p < players));
            let mut triple = table.seats;
            triple.sort_unstable();
            assert!(triple[0] < triple[1] && triple[1] < triple[2], "{players}");
            assert!(triples.insert(triple), "{players}: {triple:?} twice");
        }
        let each = (players - 1) * (players - 2) / 2;
        let bound = if each.is_multiple_of(3) { 0 } else { 1 };
        for (player, counts) in seat_counts(players, &tables).iter().enumerate() {
            assert_eq!(counts.iter().sum::<u32>() as usize, each);
            let spread = counts.iter().max().unwrap() - counts.iter().min().unwrap();
            assert!(
                spread <= bound,
                "{players}: player {player} sits {counts:?}"
            );
        }
    }

    #[test]
    fn three_to_nine_players_sit_evenly() {
        for players in 3..=9 {
            check(players);
        }
    }

    #[test]
    fn every_field_up_to_the_largest_sits_evenly() {
        for players in 10..=64 {
            check(players);
        }
    }

    #[test]
    fn three_players_play_one_table() {
        assert_eq!(
            tables_of_three(3).unwrap(),
            vec![Table { seats: [0, 1, 2] }]
        );
    }

    #[test]
    fn four_players_sit_once_in_each_seat_but_one() {
        let tables = tables_of_three(4).unwrap();
        assert_eq!(tables.len(), 4);
        for counts in seat_counts(4, &tables) {
            assert_eq!(counts, [1, 1, 1]);
        }
    }

    #[test]
    fn the_tables_are_the_same_every_time() {
        assert_eq!(tables_of_three(12), tables_of_three(12));
    }

    #[test]
    fn bad_fields_are_refused() {
        for players in 0..3 {
            assert_eq!(
                tables_of_three(players),
                Err(PairingError::TooFewPlayers {
                    players,
                    minimum: 3
                })
            );
        }
        assert_eq!(
            tables_of_three(65),
            Err(PairingError::TooManyPlayers {
                players: 65,
                maximum: 64
            })
        );
    }

    #[test]
    fn a_swap_is_made_only_when_it_evens_out() {
        let mut counts = SeatCounts(vec![[3, 1, 2], [1, 3, 2]]);
        let mut table = Table { seats: [0, 1, 9] };
        // Player 0 has sat in seat 0 twice more than in seat 1, player 1 the other way.
        assert!(counts.swap_evens_out(&table, 0, 1));
        counts.swap(&mut table, 0, 1);
        assert_eq!(table.seats, [1, 0, 9]);
        assert_eq!(counts.0, vec![[2, 2, 2], [2, 2, 2]]);
        assert!(!counts.swap_evens_out(&table, 0, 1));
    }
}
