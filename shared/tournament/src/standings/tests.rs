//! Standings worked out by hand: every total, Sonneborn-Berger and rank below was
//! computed on paper from the games listed.

use missive_rules::SeatResult::{self, Draw, Loss, SharedWin, Win};

use super::*;
use crate::pairing::round_robin;

/// A finished game.
fn finished(players: &[usize], results: &[SeatResult]) -> Game {
    Game {
        players: players.to_vec(),
        state: GameState::Finished(results.to_vec()),
    }
}

/// An unfinished game.
fn unfinished(players: &[usize]) -> Game {
    Game {
        players: players.to_vec(),
        state: GameState::Unfinished,
    }
}

/// Sixths of a point.
fn p(sixths: u32) -> Points {
    Points::from_sixths(sixths)
}

/// Sonneborn-Berger in 72nds.
fn sb(units: u64) -> SonnebornBerger {
    SonnebornBerger::from_72nds(units)
}

/// The order of the players, best first.
fn order(standings: &Standings) -> Vec<usize> {
    standings.rows.iter().map(|r| r.player).collect()
}

/// Each row as (player, rank, points, Sonneborn-Berger, wins, played, left), best first.
fn summary(standings: &Standings) -> Vec<(usize, u32, Points, SonnebornBerger, u32, u32, u32)> {
    standings
        .rows
        .iter()
        .map(|r| {
            (
                r.player,
                r.rank,
                r.points,
                r.sonneborn_berger,
                r.wins,
                r.played,
                r.left,
            )
        })
        .collect()
}

fn two(players: usize, withdrawn: &[usize], policy: Withdrawal, games: &[Game]) -> Standings {
    Standings::compute(players, SeatCount::Two, withdrawn, policy, games).unwrap()
}

// A, B, C, D (0 to 3), paired by Berger: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;

/// The four-player round robin, every game finished: A 2.5, B 2, C 1.5, D 0.
fn four_finished() -> Vec<Game> {
    vec![
        finished(&[A, D], &[Win, Loss]),
        finished(&[B, C], &[Draw, Draw]),
        finished(&[D, C], &[Loss, Win]),
        finished(&[A, B], &[Draw, Draw]),
        finished(&[B, D], &[Win, Loss]),
        finished(&[C, A], &[Loss, Win]),
    ]
}

#[test]
fn the_four_player_games_follow_the_pairing() {
    let pairs: Vec<Vec<usize>> = round_robin(4, false)
        .unwrap()
        .iter()
        .map(|p| p.seats.to_vec())
        .collect();
    let games: Vec<Vec<usize>> = four_finished().into_iter().map(|g| g.players).collect();
    assert_eq!(pairs, games);
}

#[test]
fn four_players_all_finished() {
    let standings = two(4, &[], Withdrawal::Forfeit, &four_finished());
    // SB: A 0 + 0.5×2 + 1.5 = 2.5; B 0.5×1.5 + 0.5×2.5 + 0 = 2; C 0.5×2 + 0 = 1; D 0.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(15), sb(180), 2, 3, 0),
            (B, 2, p(12), sb(144), 1, 3, 0),
            (C, 3, p(9), sb(72), 1, 3, 0),
            (D, 4, p(0), sb(0), 0, 3, 0),
        ]
    );
    assert!(
        standings
            .rows
            .iter()
            .all(|r| !r.withdrawn && r.head_to_head.is_none())
    );
}

/// The four-player games with D withdrawn before D-C and B-D ended, and A-B unfinished.
fn four_with_withdrawal() -> Vec<Game> {
    let mut games = four_finished();
    games[2] = unfinished(&[D, C]);
    games[3] = unfinished(&[A, B]);
    games[4] = unfinished(&[B, D]);
    games
}

#[test]
fn four_players_forfeit_a_withdrawal() {
    let standings = two(4, &[D], Withdrawal::Forfeit, &four_with_withdrawal());
    // A 1 + 1 = 2; B 0.5 + forfeit 1 = 1.5; C 0.5 + forfeit 1 + 0 = 1.5; D 0 in three.
    // SB: A 0 + 1.5 = 1.5; B 0.5×1.5 + 1×0 = 0.75; C 0.5×1.5 + 0 + 0 = 0.75.
    // B and C: level on wins (one forfeit each) and head-to-head (their draw): rank 2 both.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(12), sb(108), 2, 2, 1),
            (B, 2, p(9), sb(54), 1, 2, 1),
            (C, 2, p(9), sb(54), 1, 3, 0),
            (D, 4, p(0), sb(0), 0, 3, 0),
        ]
    );
    assert_eq!(standings.row(B).unwrap().head_to_head, Some(Points::HALF));
    assert_eq!(standings.row(C).unwrap().head_to_head, Some(Points::HALF));
    assert!(standings.row(D).unwrap().withdrawn);
    assert_eq!(standings.cell(C, D), vec![Mark::Forfeit(Win)]);
    assert_eq!(standings.cell(D, C), vec![Mark::Forfeit(Loss)]);
    assert_eq!(standings.cell(D, A), vec![Mark::Played(Loss)]);
    assert_eq!(standings.cell(A, B), vec![Mark::Unfinished]);
}

#[test]
fn four_players_annul_a_withdrawal() {
    let standings = two(4, &[D], Withdrawal::Annul, &four_with_withdrawal());
    // A 1 + 1 = 2; B 0.5; C 0.5; D 0 in one (the loss to A stands).
    // SB: A 0 + 1×0.5 = 0.5; B 0.5×0.5 = 0.25; C 0.5×0.5 + 0 = 0.25.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(12), sb(36), 2, 2, 1),
            (B, 2, p(3), sb(18), 0, 1, 1),
            (C, 2, p(3), sb(18), 0, 2, 0),
            (D, 4, p(0), sb(0), 0, 1, 0),
        ]
    );
    assert_eq!(standings.cell(C, D), vec![Mark::Annulled]);
    assert_eq!(standings.cell(B, D), vec![Mark::Annulled]);
    assert_eq!(standings.cell(D, A), vec![Mark::Played(Loss)]);
}

/// The five-player round robin (Berger, one bye a round), every game finished.
fn five_finished() -> Vec<Game> {
    vec![
        finished(&[B, E], &[Win, Loss]),
        finished(&[C, D], &[Draw, Draw]),
        finished(&[E, C], &[Loss, Win]),
        finished(&[A, B], &[Win, Loss]),
        finished(&[C, A], &[Draw, Draw]),
        finished(&[D, E], &[Win, Loss]),
        finished(&[A, D], &[Win, Loss]),
        finished(&[B, C], &[Loss, Win]),
        finished(&[D, B], &[Draw, Draw]),
        finished(&[E, A], &[Loss, Win]),
    ]
}

#[test]
fn the_five_player_games_follow_the_pairing() {
    let pairs: Vec<Vec<usize>> = round_robin(5, false)
        .unwrap()
        .iter()
        .map(|p| p.seats.to_vec())
        .collect();
    let games: Vec<Vec<usize>> = five_finished().into_iter().map(|g| g.players).collect();
    assert_eq!(pairs, games);
}

#[test]
fn five_players_all_finished() {
    let standings = two(5, &[], Withdrawal::Annul, &five_finished());
    // A 3.5, C 3, D 2, B 1.5, E 0.
    // SB: A 1.5 + 0.5×3 + 2 + 0 = 5; C 0.5×2 + 0 + 0.5×3.5 + 1.5 = 4.25;
    //     D 0.5×3 + 0 + 0 + 0.5×1.5 = 2.25; B 0 + 0.5×2 = 1; E 0.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(21), sb(360), 3, 4, 0),
            (C, 2, p(18), sb(306), 2, 4, 0),
            (D, 3, p(12), sb(162), 1, 4, 0),
            (B, 4, p(9), sb(72), 1, 4, 0),
            (E, 5, p(0), sb(0), 0, 4, 0),
        ]
    );
}

/// The five-player games with E withdrawn before D-E and E-A ended.
fn five_with_withdrawal() -> Vec<Game> {
    let mut games = five_finished();
    games[5] = unfinished(&[D, E]);
    games[9] = unfinished(&[E, A]);
    games
}

#[test]
fn five_players_forfeit_a_withdrawal() {
    // The forfeits give what the board gave: the same totals, marked as forfeits.
    let standings = two(5, &[E], Withdrawal::Forfeit, &five_with_withdrawal());
    let finished = two(5, &[], Withdrawal::Forfeit, &five_finished());
    assert_eq!(summary(&standings), summary(&finished));
    assert_eq!(standings.cell(A, E), vec![Mark::Forfeit(Win)]);
    assert_eq!(standings.cell(E, D), vec![Mark::Forfeit(Loss)]);
    assert_eq!(standings.cell(E, C), vec![Mark::Played(Loss)]);
    assert!(standings.row(E).unwrap().withdrawn);
}

#[test]
fn five_players_annul_a_withdrawal() {
    let standings = two(5, &[E], Withdrawal::Annul, &five_with_withdrawal());
    // C 3, A 2.5, B 1.5, D 1, E 0 (two losses stand).
    // SB: C 0.5×1 + 0 + 0.5×2.5 + 1.5 = 3.25; A 1.5 + 0.5×3 + 1 = 4;
    //     B 0 + 0.5×1 = 0.5; D 0.5×3 + 0 + 0.5×1.5 = 2.25.
    assert_eq!(
        summary(&standings),
        vec![
            (C, 1, p(18), sb(234), 2, 4, 0),
            (A, 2, p(15), sb(288), 2, 3, 0),
            (B, 3, p(9), sb(36), 1, 4, 0),
            (D, 4, p(6), sb(162), 0, 3, 0),
            (E, 5, p(0), sb(0), 0, 2, 0),
        ]
    );
    assert_eq!(standings.cell(E, A), vec![Mark::Annulled]);
}

#[test]
fn sonneborn_berger_decides_over_head_to_head() {
    // B beat A, but A's wins came against the stronger players.
    let games = vec![
        finished(&[B, A], &[Win, Loss]),
        finished(&[A, C], &[Win, Loss]),
        finished(&[A, D], &[Win, Loss]),
        finished(&[E, A], &[Win, Loss]),
        finished(&[B, E], &[Win, Loss]),
        finished(&[C, B], &[Win, Loss]),
        finished(&[D, B], &[Win, Loss]),
        finished(&[C, E], &[Win, Loss]),
        finished(&[D, E], &[Win, Loss]),
        finished(&[C, D], &[Draw, Draw]),
    ];
    let standings = two(5, &[], Withdrawal::Forfeit, &games);
    // C and D 2.5, A and B 2, E 1.
    // SB: C 2 + 1 + 0.5×2.5 = 4.25 = D; A 2.5 + 2.5 = 5; B 2 + 1 = 3; E 2.
    // C and D: level on wins (2) and head-to-head (their draw): both first.
    assert_eq!(
        summary(&standings),
        vec![
            (C, 1, p(15), sb(306), 2, 4, 0),
            (D, 1, p(15), sb(306), 2, 4, 0),
            (A, 3, p(12), sb(360), 2, 4, 0),
            (B, 4, p(12), sb(216), 2, 4, 0),
            (E, 5, p(6), sb(144), 1, 4, 0),
        ]
    );
    assert_eq!(standings.row(C).unwrap().head_to_head, Some(Points::HALF));
    assert_eq!(standings.row(A).unwrap().head_to_head, None);
}

#[test]
fn wins_decide_when_sonneborn_berger_is_level() {
    let games = vec![
        finished(&[A, C], &[Win, Loss]),
        finished(&[D, A], &[Win, Loss]),
        finished(&[A, B], &[Draw, Draw]),
        finished(&[B, C], &[Draw, Draw]),
        finished(&[D, B], &[Draw, Draw]),
        finished(&[C, D], &[Win, Loss]),
    ];
    let standings = two(4, &[], Withdrawal::Forfeit, &games);
    // Everyone 1.5 and SB 2.25 (A 1.5 + 0.75; B 0.5×4.5; C 0.75 + 1.5; D 1.5 + 0.75).
    // B drew all three: no win, last. A, C, D beat each other in a circle: head-to-head
    // 1 each, so they share first, listed in the player list's order.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(9), sb(162), 1, 3, 0),
            (C, 1, p(9), sb(162), 1, 3, 0),
            (D, 1, p(9), sb(162), 1, 3, 0),
            (B, 4, p(9), sb(162), 0, 3, 0),
        ]
    );
    for player in [A, C, D] {
        assert_eq!(
            standings.row(player).unwrap().head_to_head,
            Some(Points::ONE)
        );
    }
    assert_eq!(standings.row(B).unwrap().head_to_head, None);
}

#[test]
fn head_to_head_decides_when_wins_are_level() {
    // P (index 1) beat Q (index 0); both 1.5, SB 2, one win each.
    let (q, pp, r, s) = (0, 1, 2, 3);
    let games = vec![
        finished(&[pp, q], &[Win, Loss]),
        finished(&[r, pp], &[Win, Loss]),
        finished(&[pp, s], &[Draw, Draw]),
        finished(&[q, s], &[Win, Loss]),
        finished(&[r, q], &[Draw, Draw]),
        finished(&[s, r], &[Draw, Draw]),
    ];
    let standings = two(4, &[], Withdrawal::Forfeit, &games);
    // R 2 (SB 1.5 + 0.75 + 0.5); P 1.5 (1.5 + 0.5×1); Q 1.5 (1 + 0.5×2); S 1.
    assert_eq!(
        summary(&standings),
        vec![
            (r, 1, p(12), sb(198), 1, 3, 0),
            (pp, 2, p(9), sb(144), 1, 3, 0),
            (q, 3, p(9), sb(144), 1, 3, 0),
            (s, 4, p(6), sb(126), 0, 3, 0),
        ]
    );
    assert_eq!(standings.row(pp).unwrap().head_to_head, Some(Points::ONE));
    assert_eq!(standings.row(q).unwrap().head_to_head, Some(Points::ZERO));
}

#[test]
fn adjudicated_games_count_like_finished_ones() {
    let mut games = four_finished();
    for game in &mut games {
        if let GameState::Finished(results) = &game.state {
            game.state = GameState::Adjudicated(results.clone());
        }
    }
    assert_eq!(
        summary(&two(4, &[], Withdrawal::Forfeit, &games)),
        summary(&two(4, &[], Withdrawal::Forfeit, &four_finished()))
    );
}

#[test]
fn a_game_of_two_withdrawn_players_is_annulled_even_under_forfeit() {
    let games = vec![unfinished(&[A, B]), unfinished(&[A, C])];
    let standings = two(3, &[A, B], Withdrawal::Forfeit, &games);
    assert_eq!(standings.cell(A, B), vec![Mark::Annulled]);
    assert_eq!(standings.cell(C, A), vec![Mark::Forfeit(Win)]);
    assert_eq!(standings.row(A).unwrap().played, 1);
    assert_eq!(standings.row(B).unwrap().played, 0);
}

/// The four three-seat tables of A, B, C, D, the last unfinished.
fn three_seat_games() -> Vec<Game> {
    vec![
        finished(&[A, B, C], &[Win, Loss, Loss]),
        finished(&[A, B, D], &[SharedWin, SharedWin, Loss]),
        finished(&[A, C, D], &[Draw, Draw, Draw]),
        unfinished(&[B, C, D]),
    ]
}

fn three(withdrawn: &[usize], policy: Withdrawal) -> Standings {
    Standings::compute(4, SeatCount::Three, withdrawn, policy, &three_seat_games()).unwrap()
}

#[test]
fn three_seats_with_a_table_left() {
    let standings = three(&[], Withdrawal::Forfeit);
    // A 1 + 1/2 + 1/3 = 11/6; B 1/2; C 1/3; D 1/3.
    // SB (72nds): A 6×(3+2) + 3×(3+2) + 2×(2+2) = 53; B 3×(11+2) = 39;
    // C 2×(11+2) = 26; D 0 + 2×(11+2) = 26. C and D level, head-to-head 1/3 each.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(11), sb(53), 1, 3, 0),
            (B, 2, p(3), sb(39), 0, 2, 1),
            (C, 3, p(2), sb(26), 0, 2, 1),
            (D, 3, p(2), sb(26), 0, 2, 1),
        ]
    );
    assert_eq!(standings.row(C).unwrap().head_to_head, Some(Points::THIRD));
}

#[test]
fn three_seats_forfeit_one_withdrawal() {
    let standings = three(&[D], Withdrawal::Forfeit);
    // B and C share the win of the last table: B 1, C 5/6, D 1/3.
    // SB (72nds): A 6×(6+5) + 3×(6+2) + 2×(5+2) = 104; B 3×(11+2) + 3×(5+2) = 60;
    // C 2×(11+2) + 3×(6+2) = 50; D 2×(11+5) = 32.
    assert_eq!(
        summary(&standings),
        vec![
            (A, 1, p(11), sb(104), 1, 3, 0),
            (B, 2, p(6), sb(60), 0, 3, 0),
            (C, 3, p(5), sb(50), 0, 3, 0),
            (D, 4, p(2), sb(32), 0, 3, 0),
        ]
    );
    assert_eq!(
        standings.row(A).unwrap().sonneborn_berger.to_string(),
        "1.44"
    );
    let last = &standings.entries[B][2];
    assert_eq!(last.game, 3);
    assert_eq!(last.seat, missive_rules::Seat(0));
    assert_eq!(last.opponents, vec![C, D]);
    assert_eq!(last.mark, Mark::Forfeit(SharedWin));
    assert_eq!(last.score, Some(Points::HALF));
    assert_eq!(standings.entries[D][2].mark, Mark::Forfeit(Loss));
}

#[test]
fn three_seats_forfeit_two_withdrawals() {
    let standings = three(&[C, D], Withdrawal::Forfeit);
    // B wins the last table alone.
    let row = standings.row(B).unwrap();
    assert_eq!((row.points, row.wins), (p(9), 1));
    assert_eq!(standings.entries[B][2].mark, Mark::Forfeit(Win));
    assert_eq!(standings.entries[C][2].mark, Mark::Forfeit(Loss));
}

#[test]
fn three_seats_annul_a_withdrawal() {
    let standings = three(&[D], Withdrawal::Annul);
    // The last table counts for nobody: the totals of the unfinished case, nothing left.
    let left: Vec<u32> = standings.rows.iter().map(|r| r.left).collect();
    assert_eq!(left, [0, 0, 0, 0]);
    assert_eq!(standings.row(B).unwrap().points, p(3));
    assert_eq!(standings.entries[C][2].mark, Mark::Annulled);
    assert_eq!(standings.entries[C][2].score, None);
}

#[test]
fn cells_list_every_game_between_two_players() {
    let games = vec![
        finished(&[A, B], &[Win, Loss]),
        finished(&[B, A], &[Draw, Draw]),
        unfinished(&[A, B]),
    ];
    let standings = two(2, &[], Withdrawal::Forfeit, &games);
    assert_eq!(
        standings.cell(A, B),
        vec![Mark::Played(Win), Mark::Played(Draw), Mark::Unfinished]
    );
    assert_eq!(standings.cell(A, A), vec![]);
    assert_eq!(standings.cell(7, A), vec![]);
    assert_eq!(standings.row(7), None);
}

#[test]
fn marks_have_ascii_symbols() {
    let symbols: Vec<&str> = [
        Mark::Played(Win),
        Mark::Played(SharedWin),
        Mark::Played(Draw),
        Mark::Played(Loss),
        Mark::Forfeit(Win),
        Mark::Forfeit(SharedWin),
        Mark::Forfeit(Draw),
        Mark::Forfeit(Loss),
        Mark::Unfinished,
        Mark::Annulled,
    ]
    .into_iter()
    .map(Mark::symbol)
    .collect();
    assert_eq!(symbols, ["1", "=", "=", "0", "+", "+", "=", "-", "*", ""]);
}

#[test]
fn no_games_leaves_everyone_level() {
    let standings = two(3, &[], Withdrawal::Forfeit, &[]);
    let ranks: Vec<(usize, u32, Option<Points>)> = standings
        .rows
        .iter()
        .map(|r| (r.player, r.rank, r.head_to_head))
        .collect();
    assert_eq!(
        ranks,
        vec![
            (0, 1, Some(Points::ZERO)),
            (1, 1, Some(Points::ZERO)),
            (2, 1, Some(Points::ZERO))
        ]
    );
    assert!(
        Standings::compute(0, SeatCount::Two, &[], Withdrawal::Annul, &[])
            .unwrap()
            .rows
            .is_empty()
    );
}

#[test]
fn bad_input_is_refused() {
    let compute = |seats, withdrawn: &[usize], games: &[Game]| {
        Standings::compute(3, seats, withdrawn, Withdrawal::Forfeit, games).unwrap_err()
    };
    assert_eq!(
        compute(SeatCount::Two, &[3], &[]),
        StandingsError::UnknownWithdrawn {
            player: 3,
            players: 3
        }
    );
    assert_eq!(
        compute(SeatCount::Two, &[], &[unfinished(&[0, 1, 2])]),
        StandingsError::SeatCount {
            game: 0,
            found: 3,
            expected: 2
        }
    );
    assert_eq!(
        compute(
            SeatCount::Two,
            &[],
            &[unfinished(&[0, 1]), unfinished(&[0, 5])]
        ),
        StandingsError::UnknownPlayer {
            game: 1,
            player: 5,
            players: 3
        }
    );
    assert_eq!(
        compute(SeatCount::Three, &[], &[unfinished(&[0, 1, 0])]),
        StandingsError::PlayerTwice { game: 0, player: 0 }
    );
    assert_eq!(
        compute(SeatCount::Three, &[], &[finished(&[0, 1, 2], &[Win, Loss])]),
        StandingsError::ResultCount {
            game: 0,
            results: 2,
            seats: 3
        }
    );
    let error = compute(SeatCount::Two, &[], &[finished(&[0, 1], &[Win, Win])]);
    assert!(matches!(error, StandingsError::Results { game: 0, .. }));
    assert_eq!(
        error.to_string(),
        "the game at index 0: the results [Win, Win] do not add up to one point"
    );
}

#[test]
fn standings_round_trip_through_json() {
    let standings = three(&[D], Withdrawal::Forfeit);
    let json = serde_json::to_string(&standings).unwrap();
    assert_eq!(serde_json::from_str::<Standings>(&json).unwrap(), standings);
    let game = serde_json::to_string(&three_seat_games()[1]).unwrap();
    assert_eq!(
        game,
        r#"{"players":[0,1,3],"state":{"finished":["shared-win","shared-win","loss"]}}"#
    );
}

#[test]
fn the_order_ignores_the_order_of_the_games() {
    let mut games = five_finished();
    games.reverse();
    assert_eq!(
        order(&two(5, &[], Withdrawal::Annul, &games)),
        vec![A, C, D, B, E]
    );
}

#[test]
fn two_seat_text_has_the_table_and_the_grid() {
    let names: Vec<String> = ["Alice", "Bob", "Carol", "Dan"].map(String::from).to_vec();
    let standings = two(4, &[D], Withdrawal::Forfeit, &four_with_withdrawal());
    assert_eq!(
        standings.render_text(&names),
        "\
Rank  Player           Points    SB  Wins  Played  Left  1  2  3  4
   1  Alice                 2  1.50     2       2     1  X  *  1  1
   2  Bob                 1.5  0.75     1       2     1  *  X  =  +
   2  Carol               1.5  0.75     1       3     0  0  =  X  +
   4  Dan (withdrawn)       0  0.00     0       3     0  0  -  -  X
1 win, = draw, 0 loss, + won by forfeit, - lost by forfeit, * unfinished; annulled games are left out
"
    );
}

#[test]
fn two_seat_text_shows_every_game_of_a_pair_and_leaves_out_annulled_ones() {
    let games = vec![
        finished(&[A, B], &[Win, Loss]),
        finished(&[B, A], &[Draw, Draw]),
        unfinished(&[A, C]),
        unfinished(&[C, B]),
    ];
    let standings = two(3, &[C], Withdrawal::Annul, &games);
    assert_eq!(
        standings.render_text(&[]),
        "\
Rank  Player                Points    SB  Wins  Played  Left   1   2  3
   1  Player 1                 1.5  0.75     1       2     0   X  1=
   2  Player 2                 0.5  0.75     0       2     0  0=   X
   3  Player 3 (withdrawn)       0  0.00     0       0     0          X
1 win, = draw, 0 loss, + won by forfeit, - lost by forfeit, * unfinished; annulled games are left out
"
    );
}

#[test]
fn three_seat_text_lists_every_players_tables() {
    let names: Vec<String> = ["Alice", "Bob", "Carol"].map(String::from).to_vec();
    let standings = three(&[D], Withdrawal::Forfeit);
    assert_eq!(
        standings.render_text(&names),
        "\
Rank  Player                Points    SB  Wins  Played  Left
   1  Alice                   1.83  1.44     1       3     0
   2  Bob                        1  0.83     0       3     0
   3  Carol                   0.83  0.69     0       3     0
   4  Player 4 (withdrawn)    0.33  0.44     0       3     0

Alice:
  game 1, seat 0, with Bob and Carol: 1
  game 2, seat 0, with Bob and Player 4: 0.5
  game 3, seat 0, with Carol and Player 4: 0.33

Bob:
  game 1, seat 1, with Alice and Carol: 0
  game 2, seat 1, with Alice and Player 4: 0.5
  game 4, seat 0, with Carol and Player 4: 0.5 (forfeit)

Carol:
  game 1, seat 2, with Alice and Bob: 0
  game 3, seat 1, with Alice and Player 4: 0.33
  game 4, seat 1, with Bob and Player 4: 0.5 (forfeit)

Player 4 (withdrawn):
  game 2, seat 2, with Alice and Bob: 0
  game 3, seat 2, with Alice and Carol: 0.33
  game 4, seat 2, with Bob and Carol: 0 (forfeit)
"
    );
}

#[test]
fn three_seat_text_names_unfinished_and_annulled_tables() {
    let names: Vec<String> = ["Alice", "Bob", "Carol", "Dan"].map(String::from).to_vec();
    let pending = three(&[], Withdrawal::Forfeit).render_text(&names);
    assert!(pending.contains("  game 4, seat 0, with Carol and Dan: unfinished\n"));
    let annulled = three(&[D], Withdrawal::Annul).render_text(&names);
    assert!(annulled.contains("  game 4, seat 2, with Bob and Carol: annulled\n"));
}
