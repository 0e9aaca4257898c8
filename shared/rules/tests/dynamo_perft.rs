//! Perft of the dynamo start position to depth 3, with the root moves whose counts were
//! checked by hand (the reasoning is in docs/rules/dynamo.md, "Perft").

use missive_rules::dynamo::Dynamo;
use missive_rules::{AnyGame, Notation, Options, Position, perft, variant};

fn start() -> Dynamo {
    <Dynamo as Position>::start(&Options::default())
}

fn game_after(moves: &[&str]) -> Box<dyn AnyGame> {
    game_with("", moves)
}

fn game_with(options: &str, moves: &[&str]) -> Box<dyn AnyGame> {
    let mut game = variant("dynamo").unwrap().new_game(options, None).unwrap();
    for mv in moves {
        game.play(mv).unwrap();
    }
    game
}

fn divide(moves: &[&str], depth: u32) -> Vec<(String, u64)> {
    game_after(moves).divide(depth)
}

fn count_of(rows: &[(String, u64)], mv: &str) -> u64 {
    rows.iter()
        .find(|(m, _)| m == mv)
        .unwrap_or_else(|| panic!("{mv} is not a root move"))
        .1
}

#[test]
fn start_position_perft_to_depth_three() {
    let start = start();
    assert_eq!(perft(&start, 1), 77);
    assert_eq!(perft(&start, 2), 5_910);
    assert_eq!(perft(&start, 3), 437_320);
}

#[test]
fn depth_three_under_pawn_push_any_has_sixteen_more_nodes() {
    // On each file a pawn that stepped twice may push the enemy pawn that stepped twice
    // onto the next square, moving or staying: 8 x 2 moves more.
    assert_eq!(game_with("pawn-push=any", &[]).perft(3), 437_336);
    let any = game_with("pawn-push=any", &["Pe2e4", "Pe7e5"]).legal_moves(Notation::Long);
    let friendly = game_after(&["Pe2e4", "Pe7e5"]).legal_moves(Notation::Long);
    let extra: Vec<&String> = any.iter().filter(|m| !friendly.contains(m)).collect();
    assert_eq!(extra, ["Pe4/Pe5e6", "Pe4e5/Pe5e6"]);
    assert_eq!(any.len(), friendly.len() + 2);
}

#[test]
fn depth_one_by_piece() {
    // 16 pawn steps, 6 per knight, 6 per rook, 8 per bishop, 12 for the queen, 9 for the king.
    let rows = divide(&[], 1);
    let by_letter = |c: char| rows.iter().filter(|(m, _)| m.starts_with(c)).count();
    assert_eq!(
        ['P', 'N', 'R', 'B', 'Q', 'K'].map(by_letter),
        [16, 12, 12, 16, 12, 9]
    );
}

#[test]
fn depth_two_deficits_are_the_open_d_and_e_files() {
    // Each reply count is 77 (the mirror image of the start) except after the moves that
    // clear d2 while the queen stays on d1 (Ke8d7/Pd7c6 would leave the black king to be
    // pulled off by Qd1), and after Qd1e2/Pe2f3 (the ten black moves that clear e7).
    let rows = divide(&[], 2);
    let clearing_d2 = [
        "Bc1/Pd2E",
        "Bc1/Pd2e3",
        "Bc1E/Pd2E",
        "Ke1/Pd2E",
        "Ke1/Pd2c3",
        "Nb1/Pd2E",
        "Nb1/Pd2f3",
        "Nb1E/Pd2E",
        "Qd1/Pd2E",
    ];
    for (mv, count) in &rows {
        let expected = if clearing_d2.contains(&mv.as_str()) {
            76
        } else if mv == "Qd1e2/Pe2f3" {
            67
        } else {
            77
        };
        assert_eq!(*count, expected, "{mv}");
    }
}

#[test]
fn depth_three_below_a2a3_and_other_root_moves() {
    let rows = divide(&[], 3);
    assert_eq!(count_of(&rows, "Pa2a3"), 5_908);
    assert_eq!(count_of(&rows, "Pe2e4"), 5_553);
    assert_eq!(count_of(&rows, "Ng1f3"), 6_143);
    assert_eq!(count_of(&rows, "Ke1/Pe2E"), 5_405);
    assert_eq!(count_of(&rows, "Ra1E/Pa2E"), 5_294);
    // Below 1. a3: 77 white moves after a quiet reply (a3 takes one pawn step and the
    // bishop's b2 push, gives the rook a step, a push and keeps two pulls, gives the
    // knight a push off the board and a pull); 75 after a7a5 (the rook's push of a3 is
    // blocked); 76 and 67 after the black mirror images of the depth-two deficits.
    let below = divide(&["Pa2a3"], 2);
    let histogram = |n: u64| below.iter().filter(|(_, c)| *c == n).count();
    assert_eq!(
        [histogram(77), histogram(76), histogram(75), histogram(67)],
        [66, 9, 1, 1]
    );
    assert_eq!(count_of(&below, "Pa7a5"), 75);
    assert_eq!(count_of(&below, "Qd8e7/Pe7f6"), 67);
    assert_eq!(66 * 77 + 9 * 76 + 75 + 67, 5_908);
}
