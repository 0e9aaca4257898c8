//! Seeded random playouts of dynamo under every combination of options: no panic, every
//! legal move reads back from its own long and short notation, position text round-trips,
//! and replaying the moves from the start gives the same game.

use missive_rules::dynamo::Dynamo;
use missive_rules::{Notation, Options, Position, variant};
use rand::{Rng, SeedableRng, rngs::StdRng};

const OPTION_SETS: [&str; 4] = [
    "",
    "en-passant=on",
    "owner-promotes=on",
    "en-passant=on,owner-promotes=on",
];

fn check_position(position: &Dynamo, options: &Options) {
    let text = position.to_text();
    let reread = Dynamo::from_text(&text, options).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(reread.to_text(), text);
    assert_eq!(&reread, position, "{text}");
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    for &mv in &moves {
        for notation in [Notation::Long, Notation::Short] {
            let written = position.write_move(mv, notation);
            assert_eq!(
                position.parse_move(&written),
                Ok(mv),
                "{written} ({notation:?}) in {text}"
            );
        }
    }
}

#[test]
fn random_playouts_round_trip_and_replay() {
    let mut rng = StdRng::seed_from_u64(2024);
    let mut plies = 0;
    for game_no in 0..32 {
        let option_text = OPTION_SETS[game_no % OPTION_SETS.len()];
        let options = Options::parse(option_text, Dynamo::option_specs()).unwrap();
        let mut game = variant("dynamo")
            .unwrap()
            .new_game(option_text, None)
            .unwrap();
        let mut position = <Dynamo as Position>::start(&options);
        for _ in 0..100 {
            check_position(&position, &options);
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let text = position.write_move(mv, Notation::Long);
            game.play(&text).unwrap();
            position.play(mv);
            assert_eq!(game.position_text(), position.to_text());
            plies += 1;
        }
        let mut replay = variant("dynamo")
            .unwrap()
            .new_game(option_text, None)
            .unwrap();
        for played in game.played() {
            replay.play(&played.short).unwrap();
        }
        assert_eq!(replay.position_text(), game.position_text());
        assert_eq!(replay.played(), game.played());
    }
    assert!(plies > 2000, "only {plies} plies played");
}

/// The pieces of a position text, sorted: what a removal or a promotion changes.
fn material(text: &str) -> Vec<char> {
    let placement = text.split(' ').next().unwrap_or_default();
    let mut pieces: Vec<char> = placement
        .chars()
        .filter(char::is_ascii_alphabetic)
        .collect();
    pieces.sort_unstable();
    pieces
}

/// Pawns can be pushed backwards, so a pawn move does not end what a repetition can reach;
/// a change of material does, and the rules window a game is taken up from starts there
/// (at most one move before the last, so that it holds a move).
#[test]
fn the_window_reaches_back_to_the_last_change_of_material() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut shortened = 0;
    for game_no in 0..24 {
        let option_text = OPTION_SETS[game_no % OPTION_SETS.len()];
        let mut game = variant("dynamo")
            .unwrap()
            .new_game(option_text, None)
            .unwrap();
        let mut materials = vec![material(&game.position_text())];
        for ply in 1..=200 {
            let legal = game.legal_moves(Notation::Long);
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            let text = &legal[rng.random_range(0..legal.len())];
            game.play(text).unwrap();
            materials.push(material(&game.position_text()));
            let changed = (1..materials.len())
                .rev()
                .find(|&at| materials[at] != materials[at - 1])
                .unwrap_or(0);
            let window = game.window();
            assert_eq!(
                window.ply,
                changed.min(ply - 1),
                "game {game_no}, ply {ply}"
            );
            assert_eq!(window.ply + window.moves.len(), ply);
            shortened += usize::from(changed > 0);
        }
    }
    assert!(
        shortened > 500,
        "only {shortened} windows after a change of material"
    );
}
