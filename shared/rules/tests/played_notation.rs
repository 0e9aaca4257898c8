//! The notations a game gives for the moves played ([`AnyGame::play`], [`AnyGame::played`],
//! written from the positions before and after each move) are those the position before
//! the move gives for its legal moves ([`AnyGame::legal_ends`]), in every variant, checks
//! and mates included.

use missive_rules::{AnyGame, PlayedMove, registry};

/// Plays up to `plies` moves of `game`, each a legal move at a step through the list that
/// depends on `seed`, checking each move's notations as it is played; the moves played.
fn play_checked(game: &mut dyn AnyGame, plies: usize, seed: usize) -> Vec<(String, String)> {
    let mut played = Vec::new();
    for ply in 0..plies {
        let legal = game.legal_ends();
        let Some(choice) = legal.get((ply * 7 + seed) % legal.len().max(1)) else {
            break;
        };
        let PlayedMove { long, short, .. } = game.play(&choice.long).expect("a legal move plays");
        assert_eq!(
            (&long, &short),
            (&choice.long, &choice.short),
            "{} ply {ply}",
            game.variant()
        );
        played.push((long, short));
    }
    played
}

#[test]
fn moves_played_read_as_the_legal_moves_wrote_them_in_every_variant() {
    for variant in registry::variants() {
        for seed in 0..6 {
            let mut game = variant.new_game("", None).expect("a variant starts");
            let played = play_checked(game.as_mut(), 120, seed);
            let again: Vec<(String, String)> = game
                .played()
                .into_iter()
                .map(|mv| (mv.long, mv.short))
                .collect();
            assert_eq!(again, played, "{} seed {seed}", variant.id());
        }
    }
}
