//! Properties over seeded random playouts and arbitrary text: no panic, every move
//! round-trips through both of its printed notations, position text round-trips, and
//! replaying a game's moves gives the same game.

use missive_rules::xiangqi::{START_FEN, Xiangqi};
use missive_rules::{Game, Notation, Options, Position, variant};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{SeedableRng, rngs::StdRng};

const GAMES: u64 = 24;
const MAX_PLIES: usize = 200;

/// Checks one position: text round trip and both notations of every legal move.
fn check_position(position: &Xiangqi) {
    let fen = position.to_text();
    let back = Xiangqi::from_text(&fen, &Options::default()).expect("own FEN reads");
    assert_eq!(&back, position, "{fen}");
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    for &mv in &moves {
        for notation in [Notation::Long, Notation::Short] {
            let text = position.write_move(mv, notation);
            assert_eq!(position.parse_move(&text), Ok(mv), "{fen}: {text}");
        }
    }
    let _ = position.outcome();
}

/// A random game from the start: the long notation of its moves.
fn random_game(seed: u64) -> Game<Xiangqi> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(Xiangqi::start(), Options::default());
    while game.moves().len() < MAX_PLIES {
        check_position(game.position());
        let moves = game.legal_moves();
        let Some(&mv) = moves.choose(&mut rng) else {
            break;
        };
        game.play_move(mv);
    }
    game
}

#[test]
fn random_playouts_round_trip_and_replay() {
    let mut ended = 0;
    for seed in 0..GAMES {
        let game = random_game(seed);
        ended += usize::from(game.outcome().is_some());
        for notation in [Notation::Long, Notation::Short] {
            let mut replay = variant("xiangqi")
                .expect("registered")
                .new_game("", None)
                .expect("start");
            let history = game.history();
            for (position, mv) in history.iter().zip(game.moves()) {
                replay
                    .play(&position.write_move(*mv, notation))
                    .expect("replays");
            }
            assert_eq!(replay.position_text(), game.position().to_text());
            assert_eq!(replay.outcome(), game.outcome(), "seed {seed}");
        }
    }
    assert!(ended > 0, "no random game ended");
}

proptest! {
    #[test]
    fn any_text_is_refused_or_read_without_panic(text in "[ -~]{0,90}") {
        let _ = Xiangqi::from_fen(&text);
        let _ = Xiangqi::start().parse_move(&text);
    }

    #[test]
    fn mangled_fens_never_panic(
        placement in "[rnbakcpRNBAKCPhe1-9/]{0,95}",
        rest in "( [wbr]( [-a-z]{1,3}( [-a-z0-9]{1,3}( [0-9]{1,4}( [0-9]{1,4})?)?)?)?)?",
    ) {
        if let Ok(position) = Xiangqi::from_fen(&format!("{placement}{rest}")) {
            check_position(&position);
        }
    }

    #[test]
    fn short_move_texts_never_panic(text in "[KAEHRCPGNBkaehrcp+\\-=.1-9a-i]{1,6}") {
        let start = Xiangqi::from_fen(START_FEN).expect("start");
        let _ = start.parse_move(&text);
    }
}
