//! Every registered variant can be taken up again from a game's window (`AnyGame::window`,
//! `Variant::resume`) and then decides everything the whole game decides: on seeded random
//! playouts that mostly return to earlier positions (so repetitions, claims and counters
//! matter), a game resumed at a ply goes on in lockstep with the original to the end.

use missive_rules::{AnyGame, EndRule, Notation, registry};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Playouts per variant.
const PLAYOUTS: usize = 12;
/// Plies after which a playout stops if the game has not ended.
const MAX_PLIES: usize = 240;
/// A playout is resumed at every ply that is a multiple of this.
const RESUME_EVERY: usize = 17;

/// What the two games must agree on at every ply.
fn state(game: &dyn AnyGame) -> String {
    format!(
        "ply {} | {} | to move {:?} | outcome {:?} | claims {:?} | legal {:?} | last move {:?}",
        game.ply(),
        game.position_text(),
        game.to_move(),
        game.outcome(),
        game.claimable(),
        game.legal_moves(Notation::Long),
        game.diagram().last_move,
    )
}

/// Whether the history rules have a say now: a claim may be made, or a repetition ended
/// the game.
fn decided_by_history(game: &dyn AnyGame) -> bool {
    let repeated = game.outcome().is_some_and(|outcome| {
        matches!(
            outcome.rule,
            EndRule::ThreefoldRepetition | EndRule::FivefoldRepetition | EndRule::PerpetualCheck
        )
    });
    repeated || !game.claimable().is_empty()
}

/// The board part of a position text (its first field), to steer playouts back to boards
/// seen before.
fn board(game: &dyn AnyGame) -> String {
    let text = game.position_text();
    text.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A legal move, preferring (four times in five) one that leads to a board seen before.
fn pick(game: &dyn AnyGame, seen: &[String], rng: &mut StdRng) -> Option<String> {
    let moves = game.legal_moves(Notation::Long);
    if moves.is_empty() {
        return None;
    }
    if rng.random_bool(0.8) {
        let back = moves.iter().find(|mv| {
            let mut child = game.clone_box();
            child.play(mv).is_ok() && seen.contains(&board(child.as_ref()))
        });
        if let Some(mv) = back {
            return Some(mv.clone());
        }
    }
    Some(moves[rng.random_range(0..moves.len())].clone())
}

#[test]
fn a_resumed_game_goes_on_exactly_as_the_whole_game() {
    for variant in registry::variants() {
        let id = variant.id();
        let mut rng = StdRng::seed_from_u64(0x2e5 ^ id.len() as u64);
        let (mut resumed_at, mut repetitions) = (0, 0);
        for _ in 0..PLAYOUTS {
            let mut game = variant.new_game("", None).unwrap();
            let mut seen = vec![board(game.as_ref())];
            let mut twins: Vec<Box<dyn AnyGame>> = Vec::new();
            while game.ply() < MAX_PLIES {
                if game.ply() % RESUME_EVERY == 0 {
                    let window = game.window();
                    let twin = variant
                        .resume("", &window)
                        .unwrap_or_else(|e| panic!("{id}: resuming {window:?}: {e}"));
                    twins.push(twin);
                    resumed_at += 1;
                }
                for twin in &twins {
                    assert_eq!(state(twin.as_ref()), state(game.as_ref()), "{id}");
                    repetitions += usize::from(decided_by_history(game.as_ref()));
                }
                let Some(mv) = pick(game.as_ref(), &seen, &mut rng) else {
                    break;
                };
                game.play(&mv).unwrap();
                for twin in &mut twins {
                    twin.play(&mv).unwrap();
                }
                seen.push(board(game.as_ref()));
            }
        }
        assert!(resumed_at > PLAYOUTS, "{id}: resumed {resumed_at} times");
        assert!(repetitions > 0, "{id}: no repetition came up");
    }
}

#[test]
fn a_window_reaches_back_no_further_than_the_last_irreversible_move() {
    let chess = registry::variant("chess").unwrap();
    let mut game = chess.new_game("", None).unwrap();
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"] {
        game.play(mv).unwrap();
    }
    let window = game.window();
    assert_eq!(window.ply, 2, "the window starts after the last pawn move");
    assert_eq!(window.moves, ["g1f3", "b8c6", "f3g1", "c6b8"]);
    game.play("d2d4").unwrap();
    let window = game.window();
    assert_eq!(
        (window.ply, window.moves.len()),
        (6, 1),
        "the last move is kept"
    );
}
