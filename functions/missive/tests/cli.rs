//! The `missive` command's rules tools, run as a user runs them.

use std::process::{Command, Output};

fn missive(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(args)
        .output()
        .expect("missive runs")
}

fn stdout(args: &[&str]) -> String {
    let output = missive(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn failure(args: &[&str]) -> String {
    let output = missive(args);
    assert!(!output.status.success(), "{args:?} should fail");
    assert!(output.stdout.is_empty());
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn variants_lists_each_id_with_a_description() {
    let out = stdout(&["variants"]);
    let chess = out
        .lines()
        .find(|l| l.starts_with("chess "))
        .expect("chess is listed");
    assert!(chess.len() > 20);
}

#[test]
fn moves_lists_the_legal_moves_sorted() {
    let long = stdout(&["moves", "--variant", "chess"]);
    let lines: Vec<&str> = long.lines().collect();
    assert_eq!(lines.len(), 20);
    assert!(lines.windows(2).all(|w| w[0] < w[1]));
    let short = stdout(&[
        "moves",
        "--variant",
        "chess",
        "--moves",
        "e4 e5",
        "--notation",
        "short",
    ]);
    assert!(short.lines().any(|l| l == "Ke2"));
    assert!(short.lines().any(|l| l == "Qh5"));
}

#[test]
fn moves_prints_nothing_when_the_game_is_over() {
    assert_eq!(
        stdout(&["moves", "--variant", "chess", "--moves", "f3 e5 g4 Qh4#"]),
        ""
    );
}

#[test]
fn perft_ends_with_the_node_count() {
    assert_eq!(
        stdout(&["perft", "--variant", "chess", "--depth", "3"]),
        "8902\n"
    );
    let divide = stdout(&["perft", "--variant", "chess", "--depth", "2", "--divide"]);
    let lines: Vec<&str> = divide.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(lines[0], "a2a3 20");
    assert_eq!(lines[20], "400");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(
        stdout(&[
            "perft",
            "--variant",
            "chess",
            "--position",
            kiwipete,
            "--depth",
            "2"
        ]),
        "2039\n"
    );
}

#[test]
fn play_prints_position_side_and_outcome() {
    assert_eq!(
        stdout(&["play", "--variant", "chess", "e4", "c5"]),
        "position: rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\nto move: white\n"
    );
    let mate = stdout(&["play", "--variant", "chess", "f2f3", "e5", "g4", "Qh4"]);
    assert!(
        mate.ends_with("outcome: checkmate: black wins (0-1)\n"),
        "{mate}"
    );
}

#[test]
fn errors_name_the_move_its_index_and_the_reason() {
    let err = failure(&["play", "--variant", "chess", "e4", "e5", "Ke3"]);
    assert!(
        err.contains("move 3 `Ke3`") && err.contains("no king"),
        "{err}"
    );
    let err = failure(&["moves", "--variant", "chess", "--moves", "e4 ??"]);
    assert!(err.contains("move 2 `??`"), "{err}");
}

#[test]
fn setup_errors_are_explained() {
    assert!(
        failure(&["moves", "--variant", "shogi"]).contains("unknown variant `shogi` (known: chess")
    );
    assert!(
        failure(&["moves", "--variant", "chess", "--options", "flags=off"]).contains("no options")
    );
    assert!(
        failure(&["moves", "--variant", "chess", "--position", "8/8 w - -"])
            .contains("piece placement")
    );
}

#[test]
fn board_draws_the_position_reached_as_svg() {
    let out = stdout(&[
        "board",
        "--variant",
        "chess",
        "--moves",
        "e4 e5",
        "--seat",
        "black",
    ]);
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(out.trim_end().ends_with("</svg>"));
    assert!(out.contains("data-spot=\"e5\""));
    assert!(out.contains("white to move, last move e7 to e5"));
    let letters = stdout(&["board", "--variant", "xiangqi", "--letters"]);
    // Letters are drawn as the outlines of letters: `R` (U+0052), never 俥 (U+4FE5).
    assert!(letters.contains("id=\"glyph-52\"") && !letters.contains("glyph-4fe5"));
}

#[test]
fn board_names_the_seats_when_one_is_unknown() {
    let err = failure(&["board", "--variant", "sanguo", "--seat", "qin"]);
    assert!(
        err.contains("unknown seat `qin`: the seats are shu, wu, wei"),
        "{err}"
    );
}

/// Three Kingdoms Xiangqi: Shu's chariot stands over Wu's general; Wu's chariot is on Wei's
/// half. `wei_rook` adds a Wei chariot so that Wei still has a move afterwards.
fn sanguo_capture_position(wei_rook: bool) -> String {
    let wei_back_rank = if wei_rook { "Rb2Kb5" } else { "3Kb5" };
    format!("9/9/9/9/3Kr5|9/4Rr4/9/9/4Kg4|9/9/9/5Rg3/{wei_back_rank} shu - 0 0")
}

#[test]
fn sanguo_capturing_a_general_takes_over_its_army() {
    let out = stdout(&[
        "play",
        "--variant",
        "sanguo",
        "--position",
        &sanguo_capture_position(true),
        "wu:e4-wu:e1",
    ]);
    // Wu is out; its chariot on Wei's half now moves for Shu (`Rgr`); Wei is next.
    assert_eq!(
        out,
        "position: 9/9/9/9/3Kr5|9/9/9/9/4Rr4|9/9/9/5Rgr3/Rb2Kb5 wei wu 0 1\nto move: wei\n"
    );
}

#[test]
fn sanguo_a_nation_left_without_a_move_is_out_and_the_last_general_wins() {
    let out = stdout(&[
        "play",
        "--variant",
        "sanguo",
        "--position",
        &sanguo_capture_position(false),
        "wu:e4-wu:e1",
    ]);
    // Wu's general is taken; Wei, its general boxed in by the chariot Shu just took over,
    // has no move and is out too: Shu's is the last general standing.
    assert!(out.contains(" shu wu,wei "), "{out}");
    assert!(
        out.ends_with("outcome: last-general-standing: shu wins (1-0-0)\n"),
        "{out}"
    );
}
