//! Seeded random three-player playouts of Three Kingdoms Xiangqi through the registry:
//! nothing panics, every legal move reads back from its own long and short notation, the
//! position text reads back to the same position, replaying the moves (in short notation)
//! gives the same game, and eliminations do happen along the way. Arbitrary texts are read
//! as positions and moves without panicking.

use missive_rules::sanguo::Sanguo;
use missive_rules::{AnyGame, EndRule, Notation, Options, Position, variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const GAMES: u64 = 40;
const MAX_PLIES: usize = 400;

fn new_game(options: &str) -> Box<dyn AnyGame> {
    variant("sanguo").unwrap().new_game(options, None).unwrap()
}

/// Checks the notation and text round-trips of `position`, then picks a move: a capture
/// most of the time when there is one (so that armies fall), any legal move otherwise.
fn check_and_pick(position: &Sanguo, options: &Options, rng: &mut StdRng) -> String {
    let text = position.to_text();
    assert_eq!(Sanguo::from_text(&text, options).unwrap().to_text(), text);
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    assert!(!legal.is_empty(), "{text}: the nation to move has no move");
    for &mv in &legal {
        for notation in [Notation::Long, Notation::Short] {
            let written = position.write_move(mv, notation);
            assert_eq!(position.parse_move(&written), Ok(mv), "{written} in {text}");
        }
    }
    let long: Vec<String> = legal
        .iter()
        .map(|&m| position.write_move(m, Notation::Long))
        .collect();
    let captures: Vec<&String> = legal
        .iter()
        .zip(&long)
        .filter(|(m, _)| position.piece_at(m.to).is_some())
        .map(|(_, l)| l)
        .collect();
    if !captures.is_empty() && rng.random_bool(0.8) {
        captures[rng.random_range(0..captures.len())].clone()
    } else {
        long[rng.random_range(0..long.len())].clone()
    }
}

#[test]
fn random_playouts_keep_every_round_trip_and_reach_eliminations() {
    let mut eliminations = 0;
    let mut rules = Vec::new();
    for seed in 0..GAMES {
        let options_text = if seed % 4 == 3 { "flags=off" } else { "" };
        let options = Options::parse(options_text, Sanguo::option_specs()).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = new_game(options_text);
        while game.outcome().is_none() && game.ply() < MAX_PLIES {
            let position = Sanguo::from_text(&game.position_text(), &options).unwrap();
            let chosen = check_and_pick(&position, &options, &mut rng);
            game.play(&chosen).unwrap();
        }
        let end = Sanguo::from_text(&game.position_text(), &options).unwrap();
        eliminations += 3 - end.nations_in_game().len();
        rules.extend(game.outcome().map(|o| o.rule));

        let mut replay = new_game(options_text);
        for played in game.played() {
            replay.play(&played.short).unwrap();
        }
        assert_eq!(replay.position_text(), game.position_text(), "seed {seed}");
        assert_eq!(replay.played(), game.played(), "seed {seed}");
        assert_eq!(replay.outcome(), game.outcome(), "seed {seed}");
    }
    assert!(
        eliminations >= GAMES as usize,
        "only {eliminations} eliminations"
    );
    for rule in [
        EndRule::LastGeneralStanding,
        EndRule::ThreefoldRepetition,
        EndRule::NoCaptureLimit,
    ] {
        assert!(rules.contains(&rule), "no playout ended by {rule}");
    }
}

proptest::proptest! {
    #[test]
    fn any_text_is_read_without_panic(text in "[-0-9A-Za-z:|/, ]{0,60}") {
        let options = Options::default();
        let _ = Sanguo::from_text(&text, &options);
        let start = Sanguo::start(&options);
        let _ = start.parse_move(&text);
    }

    #[test]
    fn near_start_texts_are_read_without_panic(cut in 0usize..200, insert in "[-0-9A-Za-z:|/, ]{0,4}") {
        let mut text = missive_rules::sanguo::START_TEXT.to_string();
        let at = cut.min(text.len());
        text.insert_str(at, &insert);
        if let Ok(position) = Sanguo::from_text(&text, &Options::default()) {
            proptest::prop_assert_eq!(Sanguo::from_text(&position.to_text(), &Options::default()), Ok(position));
        }
    }
}
