//! The Federation Standard rules (`trid-fs`, seed 000), one test per rule with a position.
//! Section numbers are the seed's; `docs/rules/trid-fs.md` names these tests. Agreement
//! with Roth's engine and the games of the first readings are in `trid_fs_roth.rs`.

mod trid_common;

use missive_rules::trid::{Federation, FederationStandard, RuleSet};
use missive_rules::{
    Claim, EndRule, MoveError, Notation, Options, Position, perft, registry::variant,
};
use trid_common::{after, legal, starting_with};

const BOARDS: &str = "QL1@W-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b";

fn options(text: &str) -> Options {
    Options::parse(text, FederationStandard::option_specs()).unwrap()
}

fn read(text: &str, opts: &str) -> FederationStandard {
    trid_common::read(text, opts)
}

fn setup(boards: &str, pieces: &str, turn: &str) -> FederationStandard {
    trid_common::setup(boards, pieces, turn)
}

fn start() -> FederationStandard {
    FederationStandard::start(&Options::default())
}

// §2-3: the board and the start position.

#[test]
fn start_position_is_the_roth_standard_of_section_3() {
    let position = start();
    assert_eq!(position.to_text(), Federation::START);
    let squares: usize = missive_rules::trid::Cell::all()
        .map(|c| position.layout().column(c).count())
        .sum();
    assert_eq!(squares, 64, "48 main squares and 4 attack boards of 4");
}

#[test]
fn white_has_21_moves_at_the_start() {
    let moves = legal(&start());
    assert_eq!(moves.len(), 21, "{moves:?}");
    for expected in ["O-O", "b1(2)-c3(4)", "b2(2)-b4(4)", "e1(2)-d3(2)"] {
        assert!(moves.contains(&expected.to_string()), "{expected}");
    }
}

/// The rook pawns first matter at depth 3: once a knight has left b1(2) or e1(2), the pawn
/// a1(3) or f1(3) may step inward onto the empty square (2 knight moves x 21 replies each
/// side: 84 more leaves).
#[test]
fn start_perft_with_the_rook_pawn_rule() {
    let position = FederationStandard::start(&options("rook-pawn=on"));
    let expected = [21, 441, 10_172];
    for (depth, nodes) in (1..).zip(expected) {
        assert_eq!(perft(&position, depth), nodes, "depth {depth}");
    }
}

// §4: the highest-path rule.

#[test]
fn highest_path_ignores_boards_above_the_higher_end() {
    let cases = [
        ("Nc3(4)", "c1(2)-c4(2)", true),
        ("Nc3(4)", "c1(2)-c4(4)", false),
        ("Nc3(2)", "c1(2)-c4(2)", false),
        ("Nc3(2)", "c1(2)-c4(4)", true),
    ];
    for (blocker, mv, is_legal) in cases {
        let position = setup(BOARDS, &format!("Ke0(3),ke9(7),Rc1(2),{blocker}"), "w");
        assert_eq!(
            legal(&position).contains(&mv.to_string()),
            is_legal,
            "{mv} with {blocker}"
        );
    }
}

#[test]
fn a_line_ends_at_a_cell_without_squares() {
    let boards = "QL1@W-S-up:w,KL1@W-S-up:w,QL3@W-N-up:b,KL3@B-N-up:b";
    let position = setup(boards, "Ke0(3),ke9(7),Ra1(3)", "w");
    let rook = starting_with(&position, "a1(3)-");
    assert!(rook.contains(&"a1(3)-a0(3)".to_string()));
    assert!(!rook.iter().any(|m| m.contains("a4(") || m.contains("a5(")));
}

#[test]
fn pieces_may_end_on_any_level_of_the_destination_cell_and_knights_jump() {
    let moves = legal(&start());
    for mv in ["b2(2)-b3(2)", "b2(2)-b3(4)", "b1(2)-c3(2)", "b1(2)-c3(4)"] {
        assert!(moves.contains(&mv.to_string()), "{mv}");
    }
}

/// A rook crosses d1 and c1, where nothing is at level 1 or below, on its way from e1(1) to
/// b1(1) and a1(1) under White's boards turned down: such a cell does not block (a king
/// stands above the path on c1(2)). The first reading (`paths=main-first`) found no path.
#[test]
fn a_cell_with_no_square_at_or_below_the_path_does_not_block() {
    let text = "QL1@W-S-dn:w,KL1@W-S-dn:w,QL3@B-N-up:b,KL3@B-N-up:b Kc1(2),kb9(7),Re1(1) w - 0 1";
    let along = |opts: &str| {
        starting_with(&read(text, opts), "e1(1)-")
            .into_iter()
            .filter(|m| m.ends_with("1(1)"))
            .collect::<Vec<_>>()
    };
    assert_eq!(along(""), ["e1(1)-a1(1)", "e1(1)-b1(1)", "e1(1)-f1(1)"]);
    assert_eq!(along("paths=main-first"), ["e1(1)-f1(1)"]);
}

// §5: Paths A and B over an attack board that stands above a main board.

/// Path A crosses each cell on its highest square at or below the higher end: from a2(3)
/// that is b2(3) on the attack board, not b2(2) beneath it, and with the higher end on an
/// attack board there is no Path B. The first reading kept Path A on the main board.
#[test]
fn path_a_crosses_the_highest_square_at_or_below_the_higher_end() {
    let boards = "QL1@N-S-dn:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b";
    let cases = [
        ("", true, true),
        (",Nb2(2)", true, true),
        (",Nb2(3)", false, true),
    ];
    for (blocker, roth, main_first) in cases {
        let text = format!("{boards} Ke0(3),ke9(7),Ra2(3){blocker} w - 0 1");
        for (opts, is_legal) in [("", roth), ("paths=main-first", main_first)] {
            assert_eq!(
                legal(&read(&text, opts)).contains(&"a2(3)-d2(2)".to_string()),
                is_legal,
                "blocker `{blocker}`, options `{opts}`"
            );
        }
    }
}

/// From a main-board top (b5(4) to b2(2): level 4) Path B runs one level higher, over the
/// attack board at b3(5); either open path is enough. To b2(5) the top is the attack board
/// and only Path A is tried.
#[test]
fn path_a_or_path_b_either_one_suffices() {
    let boards = "QL1@N-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b";
    let cases = [
        ("", true, true),
        (",Nb3(4)", true, true),
        (",Nb3(5)", true, false),
        (",Nb3(4),Nb3(5)", false, false),
    ];
    for (blockers, low, high) in cases {
        let moves = legal(&setup(
            boards,
            &format!("Ke0(3),ke9(7),Rb5(4){blockers}"),
            "w",
        ));
        for (mv, is_legal) in [("b5(4)-b2(2)", low), ("b5(4)-b2(5)", high)] {
            assert_eq!(
                moves.contains(&mv.to_string()),
                is_legal,
                "{mv} with blockers `{blockers}`"
            );
        }
    }
}

#[test]
fn check_follows_both_paths_too() {
    let boards = "QL1@N-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b";
    for blocker in ["Nb3(4)", "Nb3(5)"] {
        let position = setup(boards, &format!("Kb2(2),ke9(7),rb5(4),{blocker}"), "w");
        assert!(position.outcome().is_none());
        assert!(
            !legal(&position).is_empty() && is_check(&position),
            "one open path is enough for check ({blocker})"
        );
    }
    let shielded = setup(boards, "Kb2(2),ke9(7),rb5(4),Nb3(4),Nb3(5)", "w");
    assert!(!is_check(&shielded));
    let under = "QL1@W-S-dn:w,KL1@W-S-dn:w,QL3@B-N-up:b,KL3@B-N-up:b Ka1(1),kb9(7),re1(1) w - 0 1";
    assert!(is_check(&read(under, "")), "no square at level 1 on d1, c1");
    assert!(!is_check(&read(under, "paths=main-first")));
}

fn is_check(position: &FederationStandard) -> bool {
    position.is_check()
}

// §6: promotion.

#[test]
fn white_promotes_on_rank_8_and_black_on_rank_1() {
    let white = setup(BOARDS, "Ke0(3),ke9(7),Pc7(6)", "w");
    assert_eq!(
        starting_with(&white, "c7(6)-"),
        [
            "c7(6)-c8(6)=B",
            "c7(6)-c8(6)=N",
            "c7(6)-c8(6)=Q",
            "c7(6)-c8(6)=R"
        ]
    );
    let black = setup(BOARDS, "Ke0(3),ke9(7),pd2(2)", "b");
    assert_eq!(starting_with(&black, "d2(2)-").len(), 4);
    assert!(
        starting_with(&black, "d2(2)-")
            .iter()
            .all(|m| m.starts_with("d2(2)-d1(2)="))
    );
}

#[test]
fn a_board_move_promotes_its_riding_pawn() {
    let boards = "QL1@N-N-up:w,KL1@W-S-up:w,QL3@W-S-dn:b,KL3@B-N-up:b";
    let position = setup(boards, "Ke0(3),ke9(7),Pa7(5)", "w");
    let moves = legal(&position);
    assert!(moves.contains(&"QL1@B-N-dn=Q".to_string()));
    assert!(!moves.contains(&"QL1@B-N-dn".to_string()));
    assert!(matches!(
        position.parse_move("QL1@B-N-dn"),
        Err(MoveError::Illegal { reason, .. }) if reason.contains("promotion")
    ));
    assert!(moves.contains(&"QL1@W-N-up".to_string()));
    let queen = after(&position, &["QL1@B-N-dn=Q"]);
    assert!(queen.to_text().contains("Qa9(5)"), "{}", queen.to_text());
    let turning = read(&position.to_text(), "half-turns=on");
    let knight = after(&turning, &["QL1@B-N-dn~=N"]);
    assert!(knight.to_text().contains("Nb8(5)"), "{}", knight.to_text());
}

// §7: attack-board moves.

#[test]
fn a_board_moves_when_empty_or_carrying_exactly_one_own_pawn() {
    let cases = [
        ("", true),
        (",Pa1(3)*", true),
        (",Na1(3)", false),
        (",Pa1(3)*,Pb1(3)*", false),
        (",nb0(3)", false),
    ];
    for (riders, movable) in cases {
        let position = setup(BOARDS, &format!("Kd1(2),ke9(7),Pc2(2)*{riders}"), "w");
        assert_eq!(
            !starting_with(&position, "QL1@").is_empty(),
            movable,
            "QL1 carrying `{riders}`"
        );
    }
}

#[test]
fn only_the_owner_moves_a_board() {
    let boards = "QL1@W-S-up:b,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b";
    let position = setup(boards, "Kd1(2),ke9(7),Pc2(2)*", "w");
    assert!(starting_with(&position, "QL1@").is_empty());
    assert!(!starting_with(&position, "KL1@").is_empty());
}

#[test]
fn a_board_moves_only_while_its_owner_has_a_pawn() {
    let without = setup(BOARDS, "Kd1(2),ke9(7)", "w");
    assert!(starting_with(&without, "QL1@").is_empty());
    let with = setup(BOARDS, "Kd1(2),ke9(7),Pc2(2)*", "w");
    assert!(!starting_with(&with, "QL1@").is_empty());
}

#[test]
fn boards_move_along_the_pin_graph() {
    let from_start = setup(BOARDS, "Kd1(2),ke9(7),Pc2(2)*", "w");
    assert_eq!(
        starting_with(&from_start, "QL1@"),
        ["QL1@N-S-dn", "QL1@N-S-up", "QL1@W-S-dn"]
    );
    let boards = "QL1@N-S-up:w,KL1@W-S-up:w,QL3@W-N-up:b,KL3@B-N-up:b";
    let middle = setup(boards, "Kd1(2),ke9(7),Pc2(2)*", "w");
    assert_eq!(
        starting_with(&middle, "QL1@"),
        [
            "QL1@B-S-dn",
            "QL1@B-S-up",
            "QL1@N-S-dn",
            "QL1@W-N-dn",
            "QL1@W-S-dn",
            "QL1@W-S-up"
        ],
        "within two ranks, not onto QL3's pin W-N-up"
    );
}

/// §7-4 "the board may invert", read as Roth's engine does: the board goes to its corner's
/// other elevation (up <-> dn), empty or carrying its pawn, and the rider keeps its place on
/// the board, one level below or above. No half turns by default.
#[test]
fn a_board_inverts_to_the_other_elevation_carrying_its_rider() {
    let position = setup(BOARDS, "Kd1(2),ke9(7),Pa1(3)*", "w");
    assert_eq!(
        starting_with(&position, "QL1@"),
        ["QL1@N-S-dn", "QL1@N-S-up", "QL1@W-S-dn"]
    );
    for (mv, rider) in [("QL1@W-S-dn", "Pa1(1)"), ("QL1@N-S-dn", "Pa3(3)")] {
        let text = after(&position, &[mv]).to_text();
        assert!(text.contains(&format!("{rider},")), "{mv}: {text}");
    }
    let empty = setup(BOARDS, "Kd1(2),ke9(7),Pc2(2)*", "w");
    assert!(starting_with(&empty, "QL1@").contains(&"QL1@W-S-dn".to_string()));
}

/// With `half-turns=on` (§7-2 "only the 180° rotation" read as turning the board round) a
/// board carrying its pawn may also arrive turned half round, or turn round on its own pin;
/// the rider goes to the diagonally opposite place. With the option off no `~` move exists
/// and none is read.
#[test]
fn half_turns_exist_only_with_the_option() {
    let text = format!("{BOARDS} Kd1(2),ke9(7),Pa1(3)* w - 0 1");
    let turning = read(&text, "half-turns=on");
    let moves = starting_with(&turning, "QL1@");
    assert_eq!(moves.len(), 7, "{moves:?}");
    for (mv, rider) in [("QL1@W-S-up~", "Pb0(3)"), ("QL1@N-S-dn~", "Pb2(3)")] {
        let after = after(&turning, &[mv]).to_text();
        assert!(after.contains(&format!("{rider},")), "{mv}: {after}");
    }
    let empty = read(
        &format!("{BOARDS} Kd1(2),ke9(7),Pc2(2)* w - 0 1"),
        "half-turns=on",
    );
    assert!(
        !starting_with(&empty, "QL1@")
            .iter()
            .any(|m| m.contains('~'))
    );
    let plain = read(&text, "");
    assert!(!legal(&plain).iter().any(|m| m.contains('~')));
    assert!(matches!(
        plain.parse_move("QL1@W-S-up~"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn riders_keep_their_square_colour() {
    let text = format!("{BOARDS} Kd1(2),ke9(7),Pa1(3)* w - 0 1");
    let colour = |square: missive_rules::trid::Square| (square.file() + square.rank()) % 2;
    for opts in ["", "half-turns=on"] {
        let position = read(&text, opts);
        for mv in starting_with(&position, "QL1@") {
            let next = after(&position, &[&mv]);
            let (rider, _) = next
                .layout()
                .riders(missive_rules::trid::BoardId::QL1)
                .next()
                .unwrap();
            assert_eq!(colour(rider), colour(square("a1(3)")), "{mv}");
        }
    }
}

fn square(text: &str) -> missive_rules::trid::Square {
    missive_rules::trid::Square::parse(text).unwrap()
}

#[test]
fn a_riding_pawn_counts_as_moved() {
    let position = setup(BOARDS, "Kd1(2),ke9(7),Pb1(3)*", "w");
    let carried = after(&position, &["QL1@N-S-dn"]);
    assert!(
        carried.to_text().contains("Pb3(3),"),
        "{}",
        carried.to_text()
    );
    let later = after(&carried, &["e9(7)-f9(7)"]);
    let pawn = starting_with(&later, "b3(3)-");
    assert!(pawn.contains(&"b3(3)-b4(4)".to_string()));
    assert!(!pawn.iter().any(|m| m.contains("b5(")), "{pawn:?}");
}

// §8: board capture.

#[test]
fn taking_the_last_piece_on_an_enemy_board_takes_the_board() {
    let position = setup(BOARDS, "Ke0(3),kb9(7),Nd7(6),pf8(7),Pc2(2)*", "w");
    let taken = after(&position, &["d7(6)-f8(7)"]);
    assert!(
        taken.to_text().contains("KL3@B-N-up:w"),
        "{}",
        taken.to_text()
    );
    let emptied = after(&taken, &["b9(7)-a9(7)", "f8(7)-d7(6)", "a9(7)-b9(7)"]);
    assert!(!starting_with(&emptied, "KL3@").is_empty());
}

#[test]
fn a_board_with_an_owner_piece_left_is_not_taken() {
    let position = setup(BOARDS, "Ke0(3),kb9(7),Nd7(6),pf8(7),pe8(7)", "w");
    let taken = after(&position, &["d7(6)-f8(7)"]);
    assert!(taken.to_text().contains("KL3@B-N-up:b"));
}

#[test]
fn an_empty_board_is_never_taken() {
    let position = setup(BOARDS, "Ke0(3),kb9(7),pe8(7)", "b");
    let emptied = after(&position, &["e8(7)-e7(6)"]);
    assert!(emptied.to_text().contains("KL3@B-N-up:b"));
    assert!(starting_with(&emptied, "KL3@").is_empty());
}

/// §8 "captures the last piece on the opponent's board", read as Roth's engine does: the
/// taken piece was the only piece on the board, the taking piece aside. Here White's pawn
/// also stands on Black's board, so taking f7(5) leaves the board Black's and White may not
/// move it; with `board-capture=owners-last` (no Black piece is left on it) it is White's.
#[test]
fn a_board_is_taken_only_when_the_taken_piece_was_alone_on_it() {
    let text = "QL1@W-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@N-N-up:b \
                Kb1(2),kb9(7),Ne5(4),Pe6(5),pf7(5),Pc2(2),pb7(6)* w - 0 1";
    let moves = ["e5(4)-f7(5)", "b9(7)-a9(7)", "f7(5)-d6(4)", "a9(7)-b9(7)"];
    for (opts, owner, movable) in [("", "b", false), ("board-capture=owners-last", "w", true)] {
        let taken = after(&read(text, opts), &moves[..1]);
        assert!(
            taken.to_text().contains(&format!("KL3@N-N-up:{owner}")),
            "{opts}: {}",
            taken.to_text()
        );
        let later = after(&taken, &moves[1..]);
        assert_eq!(!starting_with(&later, "KL3@").is_empty(), movable, "{opts}");
    }
}

// §9: castling on the start layout.

#[test]
fn king_side_castling_exchanges_king_and_rook() {
    let castled = after(&start(), &["O-O"]);
    let text = castled.to_text();
    assert!(text.contains("Re0(3),Kf0(3),"), "{text}");
    let black = after(&start(), &["e2(2)-e3(2)", "O-O"]);
    assert!(
        black.to_text().contains("re9(7),kf9(7)"),
        "{}",
        black.to_text()
    );
}

#[test]
fn queen_side_castling_needs_the_queens_square_empty() {
    assert!(!legal(&start()).contains(&"O-O-O".to_string()));
    let text = Federation::START
        .replace("Qb0(3),", "")
        .replace("Nb1(2)", "Qc3(4),Nb1(2)");
    let position = read(&text, "");
    assert!(legal(&position).contains(&"O-O-O".to_string()));
    let castled = after(&position, &["O-O-O"]);
    assert!(
        castled.to_text().contains("Kb0(3),Re0(3)"),
        "{}",
        castled.to_text()
    );
}

#[test]
fn castling_conditions() {
    let cases = [
        ("Ke0(3)*,Rf0(3)*,ke9(7)", true),
        ("Ke0(3),Rf0(3)*,ke9(7)", false),
        ("Ke0(3)*,Rf0(3),ke9(7)", false),
        ("Ke0(3)*,Rf0(3)*,ke9(7),re3(2)", false),
        ("Ke0(3)*,Rf0(3)*,ke9(7),bd2(2)", false),
    ];
    for (pieces, allowed) in cases {
        let position = setup(BOARDS, pieces, "w");
        assert_eq!(
            legal(&position).contains(&"O-O".to_string()),
            allowed,
            "{pieces}"
        );
    }
}

// §10: pawns.

#[test]
fn a_pawn_that_moved_has_no_double_step() {
    let position = setup(BOARDS, "Ke0(3),ke9(7),Pc2(2)", "w");
    assert_eq!(
        starting_with(&position, "c2(2)-"),
        ["c2(2)-c3(2)", "c2(2)-c3(4)"]
    );
}

#[test]
fn en_passant_lands_on_the_path_the_pawn_followed() {
    let position = setup(BOARDS, "Ke0(3),ke9(7),Pc2(2)*,pd4(4)", "w");
    for level in [4, 2] {
        let stepped = after(&position, &[&format!("c2(2)-c4({level})")]);
        let ep = format!("c3({level})/c4({level})");
        assert!(stepped.to_text().contains(&ep), "{}", stepped.to_text());
        let taken = after(&stepped, &[&format!("d4(4)-c3({level})")]);
        assert!(!taken.to_text().contains(&format!("Pc4({level})")));
        assert!(taken.to_text().contains(&format!("pc3({level})")));
    }
}

/// To b3(2) Path A (b2(2)) is blocked and Path B crosses b2(3); to b3(3) and b3(4) Path A
/// itself crosses b2(3). Each time the pawn may be taken on b2(3).
#[test]
fn en_passant_lands_on_path_b_when_path_a_was_blocked() {
    let boards = "QL1@N-S-dn:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b";
    let position = setup(boards, "Ke0(3),ke9(7),Pb1(2)*,Nb2(2),pc3(2)", "w");
    let steps = starting_with(&position, "b1(2)-b3");
    assert_eq!(steps, ["b1(2)-b3(2)", "b1(2)-b3(3)", "b1(2)-b3(4)"]);
    for step in steps {
        let stepped = after(&position, &[&step]);
        let landing = format!("b2(3)/{}", &step[6..]);
        assert!(stepped.to_text().contains(&landing), "{step}");
        assert!(legal(&stepped).contains(&"c3(2)-b2(3)".to_string()));
    }
}

#[test]
fn en_passant_only_on_the_next_move() {
    let position = setup(BOARDS, "Ke0(3),ke9(7),Pc2(2)*,pd4(4)", "w");
    let later = after(&position, &["c2(2)-c4(4)", "e9(7)-f9(7)", "e0(3)-f0(3)"]);
    assert!(!legal(&later).contains(&"d4(4)-c3(4)".to_string()));
}

// §11: the rook-pawn option.

#[test]
fn rook_pawns_step_and_capture_inward_only_with_the_option() {
    let text = format!("{BOARDS} Ke0(3),ke9(7),Pa1(3)*,nb0(3) w - 0 1");
    let off = read(&text, "");
    assert!(starting_with(&off, "a1(3)-").is_empty());
    let on = read(&text, "rook-pawn=on");
    assert_eq!(
        starting_with(&on, "a1(3)-"),
        ["a1(3)-b0(3)", "a1(3)-b1(2)", "a1(3)-b1(3)", "a1(3)-c1(2)"]
    );
    let inside = after(&on, &["a1(3)-b1(3)", "b0(3)-d1(2)"]);
    assert_eq!(starting_with(&inside, "b1(3)-"), ["b1(3)-b2(2)"]);
}

// Ends of the game.

#[test]
fn checkmate_and_stalemate() {
    let mate = setup(BOARDS, "Kb1(2),kf9(7),Qe7(6),Nd8(6)", "b");
    let outcome = mate.outcome().unwrap();
    assert_eq!(outcome.rule, EndRule::Checkmate);
    assert_eq!(outcome.winner().map(|s| s.0), Some(0));
    let stalemate = setup(BOARDS, "Kb1(2),kf9(7),Qe7(6)", "b");
    assert_eq!(stalemate.outcome().unwrap().rule, EndRule::Stalemate);
    assert!(stalemate.outcome().unwrap().is_draw());
}

#[test]
fn bare_kings_and_the_seventy_five_move_rule() {
    let bare = setup(BOARDS, "Kb1(2),ke9(7)", "w");
    assert_eq!(bare.outcome().unwrap().rule, EndRule::InsufficientMaterial);
    let text = format!("{BOARDS} Kb1(2),ke9(7),Rc1(2) w - 149 80");
    let late = after(&read(&text, ""), &["c1(2)-c2(2)"]);
    assert_eq!(late.outcome().unwrap().rule, EndRule::SeventyFiveMoves);
}

#[test]
fn repetition_draws_as_in_chess() {
    let mut game = variant("trid-fs").unwrap().new_game("", None).unwrap();
    let cycle = ["b1(2)-c3(2)", "b8(6)-c6(6)", "c3(2)-b1(2)", "c6(6)-b8(6)"];
    for mv in cycle.iter().cycle().take(8) {
        game.play(mv).unwrap();
    }
    assert!(game.claimable().contains(&Claim::ThreefoldRepetition));
    for mv in cycle.iter().cycle().take(8) {
        game.play(mv).unwrap();
    }
    assert_eq!(game.outcome().unwrap().rule, EndRule::FivefoldRepetition);
}

#[test]
fn board_moves_do_not_reset_the_move_counters() {
    let text = format!("{BOARDS} Kd1(2),ke9(7),Pa1(3) w - 0 1");
    let mut game = variant("trid-fs")
        .unwrap()
        .new_game("", Some(&text))
        .unwrap();
    let cycle = ["QL1@N-S-dn", "e9(7)-f9(7)", "QL1@W-S-up", "f9(7)-e9(7)"];
    for mv in cycle.iter().cycle().take(8) {
        game.play(mv).unwrap();
    }
    assert!(
        game.position_text().ends_with(" 8 5"),
        "{}",
        game.position_text()
    );
    assert!(game.claimable().contains(&Claim::ThreefoldRepetition));
}

// Notation.

#[test]
fn moves_print_in_long_and_short_notation() {
    let position = start();
    let cases = [
        ("b1(2)-c3(4)", "Nc3(4)"),
        ("b2(2)-b3(2)", "b3(2)"),
        ("O-O", "O-O"),
    ];
    for (long, short) in cases {
        let mv = position.parse_move(long).unwrap();
        assert_eq!(position.write_move(mv, Notation::Long), long);
        assert_eq!(position.write_move(mv, Notation::Short), short);
        assert_eq!(position.parse_move(short).unwrap(), mv);
    }
    let capture = setup(BOARDS, "Ke0(3),ke9(7),Pc4(4),pd5(6)", "w");
    let mv = capture.parse_move("c4(4)-d5(6)").unwrap();
    assert_eq!(capture.write_move(mv, Notation::Short), "cxd5(6)");
}

#[test]
fn short_notation_names_as_much_of_the_start_as_needed() {
    let files = setup(BOARDS, "Ka0(3),ke9(7),Rb2(2),Rd2(2)", "w");
    let mv = files.parse_move("b2(2)-c2(2)").unwrap();
    assert_eq!(files.write_move(mv, Notation::Short), "Rbc2(2)");
    let stacked = setup(BOARDS, "Ka0(3),ke9(7),Rc3(2),Rc3(4)", "w");
    let mv = stacked.parse_move("c3(4)-c2(2)").unwrap();
    assert_eq!(stacked.write_move(mv, Notation::Short), "Rc3(4)c2(2)");
    assert_eq!(stacked.parse_move("Rc3(4)c2(2)").unwrap(), mv);
}

#[test]
fn reading_moves_never_guesses() {
    let position = start();
    assert!(matches!(
        position.parse_move("Nc3"),
        Err(MoveError::Ambiguous { candidates, .. }) if candidates.len() == 2
    ));
    assert!(matches!(
        position.parse_move("zz"),
        Err(MoveError::Unreadable { .. })
    ));
    assert!(matches!(
        position.parse_move("Nc5(4)"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        position.parse_move("QL1@N-S-dn"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        position.parse_move("QL1@X-S-dn"),
        Err(MoveError::Unreadable { .. })
    ));
    let white = setup(BOARDS, "Ke0(3),ke9(7),Pc7(6)", "w");
    assert!(matches!(
        white.parse_move("c7(6)-c8(6)"),
        Err(MoveError::Illegal { reason, .. }) if reason.contains("promotion")
    ));
}

// Position text.

#[test]
fn position_text_errors_name_the_field() {
    let cases = [
        ("w - 0 1", "fields"),
        ("QL1@W-S-up:w Ke0(3),ke9(7) w - 0 1", "attack boards"),
        (
            "QL1@W-S-up:w,KL1@W-S-up:w,QL3@W-S-up:b,KL3@B-N-up:b Ke0(3),ke9(7) w - 0 1",
            "attack boards",
        ),
        ("BOARDS Ke0(3),ke9(7),Pa2(3) w - 0 1", "pieces"),
        ("BOARDS Ke0(3),Kd1(2),ke9(7) w - 0 1", "pieces"),
        ("BOARDS Ke0(3),ke9(7),Pc8(6) w - 0 1", "pieces"),
        ("BOARDS Ke0(3),ke9(7),Nc1(2)* w - 0 1", "pieces"),
        ("BOARDS Ke0(3),ke9(7) x - 0 1", "side to move"),
        ("BOARDS Ke0(3),ke9(7),Re3(2) w - 0 1", "side to move"),
        (
            "BOARDS Ke0(3),ke9(7),Pc4(4) b c3(2)/c5(4) 0 1",
            "en passant",
        ),
        ("BOARDS Ke0(3),ke9(7) w - x 1", "halfmove clock"),
        ("BOARDS Ke0(3),ke9(7) w - 0 0", "fullmove number"),
    ];
    for (text, field) in cases {
        let text = text.replace("BOARDS", BOARDS);
        let error = FederationStandard::from_text(&text, &Options::default()).unwrap_err();
        assert_eq!(error.field, field, "{text}: {error}");
    }
}

#[test]
fn position_text_round_trips_with_en_passant() {
    let position = after(
        &setup(BOARDS, "Ke0(3),ke9(7),Pc2(2)*,pd4(4)", "w"),
        &["c2(2)-c4(4)"],
    );
    let text = position.to_text();
    assert_eq!(read(&text, "").to_text(), text);
    assert_eq!(read(&text, ""), position);
}
