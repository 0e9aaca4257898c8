//! Every legal move's ends lie on the diagram: each variant's start and a position well
//! into a game, with the moves' ends checked against the notation where it spells them
//! out, and the moves that share their ends (promotions, attack boards) kept apart.

use std::collections::BTreeSet;

use missive_rules::{AnyGame, LegalMove, Notation, registry};

/// A new game of `variant` from `position` (its start when `None`).
fn game(variant: &str, position: Option<&str>) -> Box<dyn AnyGame> {
    registry::variant(variant)
        .and_then(|v| v.new_game("", position))
        .unwrap_or_else(|e| panic!("{variant} starts: {e}"))
}

/// `game` after `plies` moves, each the legal move at a fixed step through the sorted list.
fn played(mut game: Box<dyn AnyGame>, plies: usize) -> Box<dyn AnyGame> {
    for ply in 0..plies {
        let legal = game.legal_moves(Notation::Long);
        let Some(choice) = legal.get((ply * 7 + 3) % legal.len().max(1)) else {
            break;
        };
        game.play(choice).expect("a legal move plays");
    }
    game
}

/// Checks what holds for every move of every variant, and returns the moves.
fn checked(game: &dyn AnyGame) -> Vec<LegalMove> {
    let diagram = game.diagram();
    let spots: BTreeSet<&str> = diagram.spots.iter().map(|s| s.name.as_str()).collect();
    let moves = game.legal_ends();
    let longs: Vec<String> = moves.iter().map(|m| m.long.clone()).collect();
    assert_eq!(
        longs,
        game.legal_moves(Notation::Long),
        "{}",
        game.variant()
    );
    let shorts: BTreeSet<String> = moves.iter().map(|m| m.short.clone()).collect();
    let expected: BTreeSet<String> = game.legal_moves(Notation::Short).into_iter().collect();
    assert_eq!(shorts, expected, "{}", game.variant());
    let to_move = game.to_move().expect("the game is on");
    for mv in &moves {
        let ends = &mv.ends;
        assert!(!ends.from.is_empty(), "{} has somewhere to start", mv.long);
        for spot in ends.from.iter().chain([&ends.to]) {
            assert!(
                spots.contains(spot.as_str()),
                "{}: {spot} is drawn",
                mv.long
            );
        }
        assert!(!ends.from.contains(&ends.to), "{} goes somewhere", mv.long);
        if let [from] = ends.from.as_slice() {
            let piece = diagram.pieces.iter().find(|p| &p.spot == from);
            assert_eq!(
                piece.map(|p| p.seat),
                Some(to_move),
                "{} moves a piece",
                mv.long
            );
        }
    }
    assert!(!moves.is_empty(), "{} has moves", game.variant());
    moves
}

/// The ends of the move written `long`.
fn ends_of<'a>(moves: &'a [LegalMove], long: &str) -> (Vec<&'a str>, &'a str) {
    let mv = moves
        .iter()
        .find(|m| m.long == long)
        .unwrap_or_else(|| panic!("{long} is legal"));
    let from = mv.ends.from.iter().map(String::as_str).collect();
    (from, mv.ends.to.as_str())
}

#[test]
fn every_variant_s_moves_start_and_end_on_the_diagram() {
    for variant in registry::variants() {
        let start = game(variant.id(), None);
        checked(start.as_ref());
        checked(played(start, 12).as_ref());
    }
}

#[test]
fn chess_moves_end_on_their_squares_and_promotions_share_them() {
    let moves = checked(game("chess", None).as_ref());
    assert_eq!(ends_of(&moves, "e2e4"), (vec!["e2"], "e4"));
    assert_eq!(ends_of(&moves, "g1f3"), (vec!["g1"], "f3"));
    let castling = game("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    let moves = checked(castling.as_ref());
    assert_eq!(ends_of(&moves, "e1g1"), (vec!["e1"], "g1"));
    assert_eq!(ends_of(&moves, "e1c1"), (vec!["e1"], "c1"));
    let promotion = game("chess", Some("8/P7/8/8/8/8/8/k6K w - - 0 1"));
    let moves = checked(promotion.as_ref());
    let onto_a8: Vec<&str> = moves
        .iter()
        .filter(|m| m.ends.to == "a8")
        .map(|m| m.long.as_str())
        .collect();
    assert_eq!(onto_a8, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
}

/// The squares a dynamo long move names (`Ra1a5/Ba5E`, `Nb1/Bc3d5`): the primary piece's
/// one or two, then the pushed piece's, `E` for off the board.
fn dynamo_parts(long: &str) -> Vec<Vec<String>> {
    long.split('/')
        .map(|part| {
            let part = part.split('=').next().unwrap_or_default();
            let squares = part.trim_start_matches(|c: char| c.is_ascii_uppercase() && c != 'E');
            let mut names = Vec::new();
            let mut rest = squares;
            while !rest.is_empty() {
                let take = if rest.starts_with('E') { 1 } else { 2 };
                names.push(rest[..take].to_string());
                rest = &rest[take..];
            }
            names
        })
        .collect()
}

#[test]
fn dynamo_moves_end_where_the_primary_piece_or_the_pushed_one_does() {
    let mut seen_pushes = 0;
    for plies in [0, 12, 30] {
        let played = played(game("dynamo", None), plies);
        for mv in checked(played.as_ref()) {
            if mv.long.starts_with('O') {
                continue;
            }
            let parts = dynamo_parts(&mv.long);
            let primary = &parts[0];
            assert_eq!(mv.ends.from, [primary[0].clone()], "{}", mv.long);
            let expected = match (primary.get(1), parts.get(1)) {
                (Some(to), _) if to != "E" => to.clone(),
                (_, Some(pushed)) => {
                    seen_pushes += 1;
                    match pushed.get(1) {
                        Some(to) if to != "E" => to.clone(),
                        _ => pushed[0].clone(),
                    }
                }
                _ => panic!("{} moves nothing", mv.long),
            };
            assert_eq!(mv.ends.to, expected, "{}", mv.long);
        }
    }
    assert!(
        seen_pushes > 0,
        "station moves and moves off the board were seen"
    );
}

#[test]
fn tri_d_attack_boards_are_picked_up_by_their_squares_and_put_on_a_corner() {
    let text = "QL1@W-N-up:w,KL1@W-N-dn:w,QL3@N-S-up:b,KL3@N-S-dn:b Kc1(2),Pa4(3),kd8(6) w - 0 1";
    for variant in ["trid-fs", "trid-wtdcf"] {
        let moves = checked(game(variant, Some(text)).as_ref());
        let boards: Vec<&LegalMove> = moves.iter().filter(|m| m.long.contains('@')).collect();
        assert!(!boards.is_empty(), "{variant}: an attack board moves");
        for mv in boards {
            assert_eq!(mv.ends.from.len(), 4, "{}", mv.long);
            let corners = ["b1(2)", "b4(2)", "b3(4)", "b6(4)", "b5(6)", "b8(6)"];
            let corners_king = corners.map(|c| c.replacen('b', "e", 1));
            let to = mv.ends.to.as_str();
            let queen_side = mv.long.starts_with('Q');
            match queen_side {
                true => assert!(corners.contains(&to), "{}: {to}", mv.long),
                false => assert!(corners_king.iter().any(|c| c == to), "{}: {to}", mv.long),
            }
        }
        let queen = ends_of(&moves, "QL1@N-N-up");
        assert_eq!(queen.1, "b6(4)");
        assert!(queen.0.contains(&"a4(3)"), "{:?}", queen.0);
        assert_eq!(ends_of(&moves, "c1(2)-c2(2)"), (vec!["c1(2)"], "c2(2)"));
    }
}

#[test]
fn xiangqi_and_sanguo_moves_end_on_their_points() {
    let moves = checked(game("xiangqi", None).as_ref());
    let cannon = moves
        .iter()
        .find(|m| m.short.starts_with('C'))
        .expect("a cannon moves");
    assert_eq!(cannon.ends.from.len(), 1);
    for variant in ["xiangqi", "sanguo"] {
        let start = game(variant, None);
        let moves = checked(start.as_ref());
        for mv in moves {
            let mut after = start.clone();
            after.play(&mv.long).expect("a legal move plays");
            let marked = after.diagram().last_move;
            assert_eq!(marked[..2], [mv.ends.from[0].clone(), mv.ends.to.clone()]);
        }
    }
}
