//! Properties every registered variant must have, checked on seeded random playouts
//! through the variant-agnostic interface (`AnyGame`):
//! - no panic, whatever legal moves are played;
//! - every legal move, printed in long and in short notation, reads back as itself;
//! - the position text round-trips and gives back the same legal moves;
//! - replaying the move list (long or short) from the start reproduces the game exactly.

use missive_rules::{AnyGame, Notation, registry};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions examined per variant (all legal moves of each are round-tripped).
const POSITIONS_PER_VARIANT: usize = 1_500;
/// Plies after which a playout stops if the game has not ended.
const MAX_PLIES: usize = 300;

fn new_game(id: &str, position: Option<&str>) -> Box<dyn AnyGame> {
    registry::variant(id)
        .and_then(|v| v.new_game("", position))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Every legal move reads back from both of its printed forms as the same move.
fn check_notation_round_trip(game: &dyn AnyGame) {
    let longs = game.legal_moves(Notation::Long);
    let shorts = game.legal_moves(Notation::Short);
    assert_eq!(
        longs.len(),
        shorts.len(),
        "{}: one short form per move",
        game.position_text()
    );
    for long in &longs {
        let mut child = game.clone_box();
        let played = child
            .play(long)
            .unwrap_or_else(|e| panic!("{} at {}: {e}", long, game.position_text()));
        assert_eq!(&played.long, long);
        let mut again = game.clone_box();
        let replayed = again.play(&played.short).unwrap_or_else(|e| {
            panic!("short `{}` at {}: {e}", played.short, game.position_text())
        });
        assert_eq!(
            replayed.long,
            *long,
            "short `{}` at {}",
            played.short,
            game.position_text()
        );
        let mut quiet = game.clone_box();
        assert_eq!(quiet.play_long(&played.short).as_ref(), Ok(long));
        assert_eq!(quiet.position_text(), child.position_text());
    }
}

/// The position text reads back to a position that prints the same and moves the same.
fn check_position_round_trip(id: &str, options: &str, game: &dyn AnyGame) {
    let text = game.position_text();
    let copy = registry::variant(id)
        .and_then(|v| v.new_game(options, Some(&text)))
        .unwrap_or_else(|e| panic!("{id}: `{text}` does not read back: {e}"));
    assert_eq!(copy.position_text(), text);
    if game.outcome().is_none() && copy.outcome().is_none() {
        assert_eq!(
            copy.legal_moves(Notation::Long),
            game.legal_moves(Notation::Long),
            "{text}"
        );
    }
}

/// Replaying the moves in either notation from the start reproduces the game.
fn check_replay(id: &str, game: &dyn AnyGame) {
    for notation in [Notation::Long, Notation::Short] {
        let mut replay = new_game(id, None);
        for played in game.played() {
            let text = match notation {
                Notation::Long => &played.long,
                Notation::Short => &played.short,
            };
            replay
                .play(text)
                .unwrap_or_else(|e| panic!("{id}: replaying {text}: {e}"));
        }
        assert_eq!(replay.position_text(), game.position_text());
        assert_eq!(replay.outcome(), game.outcome());
        assert_eq!(replay.played(), game.played());
    }
}

#[test]
fn every_variant_survives_random_playouts_with_round_trips() {
    for variant in registry::variants() {
        let id = variant.id();
        let mut rng = StdRng::seed_from_u64(0x5eed ^ id.len() as u64);
        let mut positions = 0;
        while positions < POSITIONS_PER_VARIANT {
            let mut game = new_game(id, None);
            while game.ply() < MAX_PLIES && positions < POSITIONS_PER_VARIANT {
                check_notation_round_trip(game.as_ref());
                check_position_round_trip(id, "", game.as_ref());
                positions += 1;
                let moves = game.legal_moves(Notation::Long);
                if moves.is_empty() {
                    break;
                }
                let pick = &moves[rng.random_range(0..moves.len())];
                game.play(pick).unwrap();
            }
            check_replay(id, game.as_ref());
        }
    }
}
