//! The WTDCF Laws (`trid-wtdcf`, seed 003), one test per rule with a position.
//! `docs/rules/trid-wtdcf.md` names these tests.

mod trid_common;

use missive_rules::trid::{Federation, RuleSet, Wtdcf, WtdcfLaws};
use missive_rules::{EndRule, Options, Position, perft, variant};
use trid_common::{after, legal, starting_with};

const BOARDS: &str = "QL1@W-S-up:w*,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b*";

fn read(text: &str) -> WtdcfLaws {
    trid_common::read(text, "")
}

fn setup(boards: &str, pieces: &str, turn: &str) -> WtdcfLaws {
    trid_common::setup(boards, pieces, turn)
}

fn setup_with(boards: &str, pieces: &str, turn: &str, options: &str) -> WtdcfLaws {
    trid_common::read(&format!("{boards} {pieces} {turn} - 0 1"), options)
}

fn start() -> WtdcfLaws {
    WtdcfLaws::start(&Options::default())
}

// §2: setup; perft.

#[test]
fn start_position_follows_section_2() {
    assert_eq!(start().to_text(), Wtdcf::START);
}

#[test]
fn only_the_main_board_pawns_move_at_the_start() {
    let moves = legal(&start());
    assert_eq!(moves.len(), 16, "{moves:?}");
    assert!(
        moves.iter().all(|m| m[1..].starts_with("2(2)-")),
        "{moves:?}"
    );
}

#[test]
fn start_perft_to_depth_4() {
    let position = start();
    for (depth, nodes) in (1..).zip([16, 256, 5_524, 117_011]) {
        assert_eq!(perft(&position, depth), nodes, "depth {depth}");
    }
}

// §3: moving the pieces, changing level.

#[test]
fn a_piece_may_change_level_at_any_point_of_its_path() {
    let cases = [
        ("", true),
        (",Nc3(2),Nd3(2)", true),
        (",Nc3(4),Nd3(4)", true),
        (",Nc3(2),Nd3(4)", false),
        (",Nc3(4),Nd3(2)", false),
    ];
    for (blockers, is_legal) in cases {
        let position = setup(BOARDS, &format!("Ka0(3),kf9(7),Rb3(2){blockers}"), "w");
        assert_eq!(
            legal(&position).contains(&"b3(2)-e3(2)".to_string()),
            is_legal,
            "blockers `{blockers}`"
        );
    }
}

#[test]
fn the_two_rule_sets_disagree_where_levels_change_mid_path() {
    let pieces = "Ka0(3),kf9(7),Rb3(2),Nc3(2),Nd3(2)";
    let fs = trid_common::setup::<Federation>(
        "QL1@W-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b",
        pieces,
        "w",
    );
    assert!(!legal(&fs).contains(&"b3(2)-e3(2)".to_string()));
    let wtdcf = setup(BOARDS, pieces, "w");
    assert!(legal(&wtdcf).contains(&"b3(2)-e3(2)".to_string()));
}

#[test]
fn a_piece_runs_off_the_edge_of_its_board_onto_the_square_above_or_below() {
    let position = setup(BOARDS, "Kb1(2),kf9(7),Re4(2),Ne5(6),Ne6(6)", "w");
    let rook = starting_with(&position, "e4(2)-");
    for mv in ["e4(2)-e5(4)", "e4(2)-e6(4)", "e4(2)-e7(6)"] {
        assert!(rook.contains(&mv.to_string()), "{mv} in {rook:?}");
    }
}

#[test]
fn a_move_goes_somewhere_seen_from_above_and_knights_jump() {
    let position = setup(BOARDS, "Kb1(2),kf9(7),Rc3(2),Nd4(4)", "w");
    assert!(!legal(&position).contains(&"c3(2)-c3(4)".to_string()));
    let knight = starting_with(&position, "d4(4)-");
    for mv in ["d4(4)-c6(4)", "d4(4)-c6(6)", "d4(4)-b5(4)", "d4(4)-e2(2)"] {
        assert!(knight.contains(&mv.to_string()), "{mv} in {knight:?}");
    }
}

// §3: moving an attack board.

#[test]
fn a_board_moves_when_one_square_holds_one_of_the_movers_pieces_not_the_king() {
    let cases = [
        ("", false),
        (",Na0(3)", true),
        (",Pa1(3)*", true),
        (",Na0(3),Pa1(3)*", false),
        (",na0(3)", false),
    ];
    for (riders, movable) in cases {
        let position = setup(BOARDS, &format!("Kd1(2),kf9(7){riders}"), "w");
        assert_eq!(
            !starting_with(&position, "QL1@").is_empty(),
            movable,
            "QL1 carrying `{riders}`"
        );
    }
    let king = setup(BOARDS, "Ka0(3),kf9(7)", "w");
    assert!(starting_with(&king, "QL1@").is_empty());
}

#[test]
fn any_board_moves_for_the_side_whose_piece_pilots_it() {
    let position = setup(BOARDS, "Kd1(2),kd8(6),Na9(7)", "w");
    assert!(!starting_with(&position, "QL3@").is_empty());
}

#[test]
fn boards_move_to_the_other_corner_or_one_main_board_up_or_down_turned_round_or_not() {
    let from_start = setup(BOARDS, "Kd1(2),kf9(7),Na0(3)", "w");
    assert_eq!(
        starting_with(&from_start, "QL1@"),
        ["QL1@N-S-up", "QL1@N-S-up~", "QL1@W-N-up", "QL1@W-N-up~"],
        "the other corner of W, and N's corner two ranks on"
    );
    let turned = after(&from_start, &["QL1@W-N-up~"]);
    assert!(turned.to_text().contains("Nb5(3)"), "{}", turned.to_text());
    let boards = "QL1@N-S-up:w,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b*";
    let middle = setup(boards, "Kd1(2),kf9(7),Na2(5)", "w");
    assert_eq!(
        pins_of(&middle, "QL1@"),
        ["QL1@B-S-up", "QL1@N-N-up", "QL1@W-N-up", "QL1@W-S-up"],
        "N-N, and the corners of W and B within two ranks (not B-N, six ranks away)"
    );
    let boards = "QL1@W-N-up:w,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b*";
    let north = setup(boards, "Kd1(2),kf9(7),Na4(3)", "w");
    assert_eq!(
        pins_of(&north, "QL1@"),
        ["QL1@N-N-up", "QL1@N-S-up", "QL1@W-S-up"],
        "never past N to B-S, though it covers the same ranks"
    );
}

/// The board moves starting with `prefix` that do not turn the board round.
fn pins_of(position: &WtdcfLaws, prefix: &str) -> Vec<String> {
    starting_with(position, prefix)
        .into_iter()
        .filter(|m| !m.contains('~'))
        .collect()
}

#[test]
fn a_board_keeps_its_elevation_and_never_turns_over_at_its_corner() {
    let over = setup(BOARDS, "Kd1(2),kf9(7),Na0(3)", "w");
    let moves = starting_with(&over, "QL1@");
    assert!(moves.iter().all(|m| m.contains("-up")), "{moves:?}");
    assert!(
        !moves.iter().any(|m| m.starts_with("QL1@W-S-")),
        "{moves:?}"
    );
    let boards = "QL1@N-S-dn:w,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b*";
    let under = setup(boards, "Kd1(2),kf9(7),Na2(3)", "w");
    assert_eq!(
        pins_of(&under, "QL1@"),
        ["QL1@B-S-dn", "QL1@N-N-dn", "QL1@W-N-dn", "QL1@W-S-dn"]
    );
}

#[test]
fn a_board_never_carries_a_pawn_backwards() {
    let boards = "QL1@N-S-up:w,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b*";
    let position = setup(boards, "Kd1(2),kf9(7),Pa3(5)", "w");
    let moves = starting_with(&position, "QL1@");
    for allowed in ["QL1@W-N-up", "QL1@W-N-up~", "QL1@N-N-up~", "QL1@B-S-up"] {
        assert!(
            moves.contains(&allowed.to_string()),
            "{allowed} in {moves:?}"
        );
    }
    for refused in ["QL1@W-S-up", "QL1@W-S-up~"] {
        assert!(
            !moves.contains(&refused.to_string()),
            "{refused} in {moves:?}"
        );
    }
    let sideways = setup_with(boards, "Kd1(2),kf9(7),Pa3(5)", "w", PINS);
    assert!(
        starting_with(&sideways, "QL1@").contains(&"QL1@N-S-dn".to_string()),
        "same rank, under board-moves=pins"
    );
}

#[test]
fn a_board_stays_on_its_back_corner_while_an_enemy_pawn_stands_on_that_corner() {
    let free = setup(BOARDS, "Kd1(2),kf9(7),Na0(3)", "w");
    assert!(!starting_with(&free, "QL1@").is_empty());
    let guarded = setup(BOARDS, "Kd1(2),kf9(7),Na0(3),pb1(2)", "w");
    assert!(starting_with(&guarded, "QL1@").is_empty());
    let black = setup(BOARDS, "Kd1(2),kf9(7),na9(7),Pb8(6)", "b");
    assert!(starting_with(&black, "QL3@").is_empty());
}

#[test]
fn the_back_corner_rule_binds_only_the_player_whose_back_corner_it_is() {
    // Black pilots White's board off W-S over a black pawn: W-S is not Black's back corner.
    let black = setup(BOARDS, "Kd4(2),kf9(7),na0(3),pb1(2)", "b");
    assert_eq!(
        pins_of(&black, "QL1@"),
        [
            "QL1@N-S-up=B",
            "QL1@N-S-up=N",
            "QL1@N-S-up=Q",
            "QL1@N-S-up=R",
            "QL1@W-N-up=B",
            "QL1@W-N-up=N",
            "QL1@W-N-up=Q",
            "QL1@W-N-up=R"
        ]
    );
    // White pilots Black's board off B-N over a white pawn.
    let white = setup(BOARDS, "Kd1(2),kf9(7),Na9(7),Pb8(6)", "w");
    assert_eq!(
        pins_of(&white, "QL3@").len(),
        8,
        "{:?}",
        pins_of(&white, "QL3@")
    );
}

#[test]
fn a_pawn_left_on_its_last_rank_by_a_board_move_promotes_at_once() {
    let black = setup(BOARDS, "Kd4(2),kf9(7),na0(3),pb1(2)", "b");
    let promoted = after(&black, &["QL1@N-S-up=Q"]);
    let text = promoted.to_text();
    assert!(
        text.contains("qb1(2)") && !text.contains("pb1(2)"),
        "{text}"
    );
    let white = setup(BOARDS, "Kd1(2),kf9(7),Na9(7),Pb8(6)", "w");
    let promoted = after(&white, &["QL3@B-S-up~=N"]);
    assert!(
        promoted.to_text().contains("Nb8(6)"),
        "{}",
        promoted.to_text()
    );
    assert_eq!(promoted.halfmoves(), 0);
}

#[test]
fn a_board_move_promotes_its_riding_pawn_at_the_far_end() {
    let boards = "QL1@N-N-up:w,KL1@W-S-up:w*,QL3@W-S-dn:b,KL3@B-N-up:b*";
    let position = setup(boards, "Kd1(2),kf9(7),Pa7(5)", "w");
    let moves = starting_with(&position, "QL1@B-N-up");
    assert_eq!(
        moves,
        [
            "QL1@B-N-up=B",
            "QL1@B-N-up=N",
            "QL1@B-N-up=Q",
            "QL1@B-N-up=R",
            "QL1@B-N-up~"
        ]
    );
}

// Games recorded under the reading by pin level.

const PINS: &str = "board-moves=pins";

#[test]
fn board_moves_pins_keeps_the_reading_by_pin_level() {
    let from_start = setup_with(BOARDS, "Kd1(2),kf9(7),Na0(3)", "w", PINS);
    assert_eq!(
        starting_with(&from_start, "QL1@"),
        [
            "QL1@N-S-dn",
            "QL1@N-S-dn~",
            "QL1@N-S-up",
            "QL1@N-S-up~",
            "QL1@W-S-dn",
            "QL1@W-S-dn~"
        ]
    );
    let boards = "QL1@W-N-up:w,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b*";
    let north = setup_with(boards, "Kd1(2),kf9(7),Na4(3)", "w", PINS);
    assert_eq!(
        pins_of(&north, "QL1@"),
        [
            "QL1@B-S-dn",
            "QL1@N-N-dn",
            "QL1@N-N-up",
            "QL1@N-S-dn",
            "QL1@N-S-up",
            "QL1@W-N-dn"
        ]
    );
    let stranding = setup_with(BOARDS, "Kd1(2),kf9(7),Na9(7),Pb8(6)", "w", PINS);
    assert_eq!(
        starting_with(&stranding, "QL3@"),
        ["QL3@B-N-dn", "QL3@B-N-dn~"],
        "no board move leaves a pawn where it would promote"
    );
}

#[test]
fn games_recorded_under_the_reading_by_pin_level_replay_under_board_moves_pins() {
    let games = include_str!("data/wtdcf_games_board_moves_pins.tsv");
    let rows: Vec<&str> = games.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let [refused, moves, position] = row.split('\t').collect::<Vec<_>>()[..] else {
            panic!("three fields in {row}");
        };
        let moves: Vec<&str> = moves.split(' ').collect();
        let mut old = variant(Wtdcf::ID).unwrap().new_game(PINS, None).unwrap();
        for mv in &moves {
            old.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
        assert_eq!(old.position_text(), position);
        let mut new = variant(Wtdcf::ID).unwrap().new_game("", None).unwrap();
        let stopped = moves.iter().position(|mv| new.play(mv).is_err());
        assert_eq!(stopped, Some(refused.parse().unwrap()), "{row}");
    }
}

// §3: castling.

#[test]
fn castling_king_side_and_queen_side() {
    let king_side = read(&Wtdcf::START.replace("Be1(2),", "").replace("Ne0(3),", ""));
    let castled = after(&king_side, &["O-O"]);
    assert!(
        castled.to_text().contains("Re1(2)"),
        "{}",
        castled.to_text()
    );
    assert!(
        castled.to_text().contains("Kf0(3)"),
        "{}",
        castled.to_text()
    );
    let queen_side = read(
        &Wtdcf::START
            .replace("Bb1(2),Qc1(2),", "")
            .replace("Nb0(3),", ""),
    );
    let castled = after(&queen_side, &["O-O-O"]);
    assert!(
        castled.to_text().contains("Rc1(2)"),
        "{}",
        castled.to_text()
    );
    assert!(
        castled.to_text().contains("Kb0(3)"),
        "{}",
        castled.to_text()
    );
    assert!(!legal(&start()).iter().any(|m| m.starts_with("O-O")));
}

#[test]
fn castling_conditions() {
    let base = "Kd1(2)*,Rf0(3)*,kd8(6)";
    let cases = [
        (BOARDS, base, true),
        (BOARDS, "Kd1(2),Rf0(3)*,kd8(6)", false),
        (BOARDS, "Kd1(2)*,Rf0(3),kd8(6)", false),
        (
            "QL1@W-S-up:w*,KL1@W-S-up:w,QL3@B-N-up:b*,KL3@B-N-up:b*",
            base,
            false,
        ),
        (BOARDS, "Kd1(2)*,Rf0(3)*,kd8(6),Ne0(3)", false),
        (BOARDS, "Kd1(2)*,Rf0(3)*,kd8(6),rd4(2)", false),
        (BOARDS, "Kd1(2)*,Rf0(3)*,kd8(6),rf1(3)", false),
    ];
    for (boards, pieces, allowed) in cases {
        let position = setup(boards, pieces, "w");
        assert_eq!(
            legal(&position).contains(&"O-O".to_string()),
            allowed,
            "{boards} {pieces}"
        );
    }
}

// §4: promotion.

#[test]
fn pawns_promote_on_the_far_back_rank_or_on_the_board_that_continues_their_file() {
    let plain = setup(BOARDS, "Kd1(2),kf9(7),Pc7(6)", "w");
    assert_eq!(starting_with(&plain, "c7(6)-").len(), 4);
    let continued = setup(BOARDS, "Kd1(2),kf9(7),Pb7(6)", "w");
    assert_eq!(
        starting_with(&continued, "b7(6)-"),
        ["b7(6)-b8(6)", "b7(6)-b8(7)"]
    );
    let on = after(&continued, &["b7(6)-b8(6)", "f9(7)-f8(7)"]);
    assert_eq!(starting_with(&on, "b8(6)-b9(7)").len(), 4);
    let boards = "QL1@W-S-up:w*,KL1@W-S-up:w*,QL3@N-N-up:b,KL3@B-N-up:b*";
    let open = setup(boards, "Kd1(2),kf9(7),Pb7(6)", "w");
    assert_eq!(starting_with(&open, "b7(6)-").len(), 4);
}

// §3: pawns.

#[test]
fn en_passant_lands_on_the_skipped_cell_nearest_the_pawns_level() {
    let position = setup(BOARDS, "Kb1(2),kf9(7),Pc2(2)*,pd4(4)", "w");
    let stepped = after(&position, &["c2(2)-c4(4)"]);
    assert!(
        stepped.to_text().contains("c3(2)/c4(4)"),
        "{}",
        stepped.to_text()
    );
    let taken = after(&stepped, &["d4(4)-c3(2)"]);
    assert!(!taken.to_text().contains("Pc4(4)"));
}

#[test]
fn en_passant_follows_a_path_like_any_capture() {
    let position = setup(BOARDS, "Kb1(2),kf9(7),Pc2(2)*,pd4(4),Nd4(2),Nc3(4)", "w");
    let stepped = after(&position, &["c2(2)-c4(4)"]);
    assert!(stepped.to_text().contains("c3(2)/c4(4)"));
    let replies = legal(&stepped);
    assert!(replies.contains(&"d4(4)-c3(4)".to_string()));
    assert!(
        !replies.contains(&"d4(4)-c3(2)".to_string()),
        "d4(2) and c3(4) shut the way down"
    );
}

// §5: winning.

#[test]
fn checkmate_wins_and_stalemate_draws() {
    let mate = setup(BOARDS, "Kb1(2),kf9(7),Qe7(6),Nd8(6)", "b");
    assert_eq!(mate.outcome().unwrap().rule, EndRule::Checkmate);
    let stalemate = setup(BOARDS, "Kb1(2),kf9(7),Qe7(6)", "b");
    assert_eq!(stalemate.outcome().unwrap().rule, EndRule::Stalemate);
}

#[test]
fn boards_carry_an_unmoved_flag_in_the_position_text() {
    let moved = after(&setup(BOARDS, "Kd1(2),kf9(7),Na0(3)", "w"), &["QL1@N-S-up"]);
    let text = moved.to_text();
    assert!(text.starts_with("QL1@N-S-up:w,KL1@W-S-up:w*"), "{text}");
    assert_eq!(read(&text), moved);
}
