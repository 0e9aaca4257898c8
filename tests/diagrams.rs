//! Properties every registered variant's diagram must have, checked on seeded random
//! playouts through `AnyGame`:
//! - spot names are unique, and every piece stands on a spot of its own;
//! - the pieces are exactly those of the position text;
//! - the last move's spots exist before or after it (an attack board's squares exist only
//!   where it stands), the first of them named in its long notation when that notation
//!   names a spot at all (castling `O-O` and Tri-D board moves `QL1@N-S-dn` name none, and
//!   mark at least two);
//! - the seats are the variant's, in turn order, and the seat to move is the game's.

use std::collections::HashSet;

use missive_rules::{AnyGame, Diagram, Notation, registry};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions examined per variant.
const POSITIONS_PER_VARIANT: usize = 400;
/// Plies after which a playout starts again.
const MAX_PLIES: usize = 200;

/// How many pieces the position text holds: one letter per piece in FEN, one upper-case
/// role letter per piece in the Three Kingdoms text (colour letters are lower case), one
/// comma-separated entry per piece in the Tri-D text's second field (`-` for none).
fn pieces_in_text(id: &str, text: &str) -> usize {
    let mut fields = text.split_whitespace();
    let placement = fields.next().unwrap_or("");
    match id {
        "sanguo" => placement.chars().filter(char::is_ascii_uppercase).count(),
        "trid-fs" | "trid-wtdcf" => {
            let pieces = fields.next().unwrap_or("-");
            pieces.split(',').filter(|p| *p != "-").count()
        }
        _ => placement.chars().filter(char::is_ascii_alphabetic).count(),
    }
}

/// Checks the diagram of `game`'s position; `last` is the last move's long notation with
/// the diagram before it.
fn check_diagram(id: &str, game: &dyn AnyGame, last: Option<(&str, &Diagram)>) -> Diagram {
    let diagram: Diagram = game.diagram();
    let context = game.position_text();
    assert_eq!(diagram.variant, id);
    let names: Vec<&str> = diagram.seats.iter().map(|s| s.name).collect();
    assert_eq!(names, game.seat_names(), "{context}");
    assert_eq!(diagram.to_move, game.to_move(), "{context}");
    let spots: HashSet<&str> = diagram.spots.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(spots.len(), diagram.spots.len(), "{id}: spot names repeat");
    let mut occupied = HashSet::new();
    for piece in &diagram.pieces {
        assert!(
            spots.contains(piece.spot.as_str()),
            "{context}: {}",
            piece.spot
        );
        assert!(
            occupied.insert(piece.spot.as_str()),
            "{context}: {}",
            piece.spot
        );
        assert!(piece.seat.index() < diagram.seats.len());
        assert!(!piece.glyph.is_empty() && piece.letter.is_ascii_alphabetic());
    }
    assert_eq!(
        diagram.pieces.len(),
        pieces_in_text(id, &context),
        "{context}"
    );
    let Some((long, before)) = last else {
        assert!(diagram.last_move.is_empty());
        return diagram;
    };
    for spot in &diagram.last_move {
        assert!(
            spots.contains(spot.as_str()) || before.spot(spot).is_some(),
            "{context}: last move {spot}"
        );
    }
    let names_a_spot = before.spots.iter().any(|s| long.contains(s.name.as_str()));
    if names_a_spot {
        assert!(
            diagram
                .last_move
                .first()
                .is_some_and(|from| long.contains(from.as_str())),
            "{context}: {long} marks {:?}",
            diagram.last_move
        );
    } else {
        assert!(diagram.last_move.len() >= 2, "{context}: {long}");
    }
    diagram
}

#[test]
fn every_variant_draws_every_position_of_random_playouts() {
    for variant in registry::variants() {
        let id = variant.id();
        let mut rng = StdRng::seed_from_u64(0xd1a6 ^ id.len() as u64);
        let mut positions = 0;
        while positions < POSITIONS_PER_VARIANT {
            let mut game = variant.new_game("", None).expect("the start");
            let mut last: Option<(String, Diagram)> = None;
            while game.ply() < MAX_PLIES && positions < POSITIONS_PER_VARIANT {
                let seen = last.as_ref().map(|(long, before)| (long.as_str(), before));
                let diagram = check_diagram(id, game.as_ref(), seen);
                positions += 1;
                let moves = game.legal_moves(Notation::Long);
                if moves.is_empty() {
                    break;
                }
                let pick = moves[rng.random_range(0..moves.len())].clone();
                game.play(&pick).expect("a legal move");
                last = Some((pick, diagram));
            }
        }
    }
}
