//! Random playouts of both Tri-D rule sets: no panic, every legal move round-trips through
//! both of its notations, position text round-trips, replay is deterministic, and the games
//! reach attack-board moves.

use missive_rules::trid::{FederationStandard, Move, RuleSet, TriD, WtdcfLaws};
use missive_rules::{Notation, Options, Position, registry::variant};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const PLIES: usize = 150;

/// Plays one seeded random game, checking every position on the way; returns the moves
/// in long notation and how many attack-board moves were played.
fn playout<R: RuleSet>(seed: u64, options: &Options) -> (Vec<String>, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = TriD::<R>::start(options);
    let mut played = Vec::new();
    let mut board_moves = 0;
    let mut moves = Vec::new();
    for _ in 0..PLIES {
        if position.outcome().is_some() {
            break;
        }
        let text = position.to_text();
        assert_eq!(
            TriD::<R>::from_text(&text, options).unwrap(),
            position,
            "{text}"
        );
        moves.clear();
        position.legal_moves(&mut moves);
        for mv in &moves {
            for notation in [Notation::Long, Notation::Short] {
                let written = position.write_move(*mv, notation);
                assert_eq!(
                    position.parse_move(&written),
                    Ok(*mv),
                    "{written} in {text}"
                );
            }
        }
        let mv = moves[rng.random_range(0..moves.len())];
        board_moves += usize::from(matches!(mv, Move::Board { .. }));
        played.push(position.write_move(mv, Notation::Long));
        position.play(mv);
    }
    (played, board_moves)
}

/// Plays `games` seeded games of rule set `R` (options from `options_of(seed)`), replays
/// each twice through the registry, and returns how many board moves were played.
fn playouts<R: RuleSet>(games: u64, options_of: impl Fn(u64) -> &'static str) -> usize {
    let mut board_moves = 0;
    for seed in 0..games {
        let options_text = options_of(seed);
        let options = Options::parse(options_text, R::option_specs()).unwrap();
        let (moves, boards) = playout::<R>(seed, &options);
        board_moves += boards;
        let replay = || {
            let mut game = variant(R::ID)
                .unwrap()
                .new_game(options_text, None)
                .unwrap();
            for mv in &moves {
                game.play(mv).unwrap();
            }
            (game.position_text(), game.played())
        };
        assert_eq!(replay(), replay(), "{} seed {seed}", R::ID);
    }
    board_moves
}

#[test]
fn federation_playouts_keep_every_invariant_and_move_attack_boards() {
    let games = 16;
    let boards = playouts::<missive_rules::trid::Federation>(games, |seed| {
        if seed % 2 == 0 { "" } else { "rook-pawn=on" }
    });
    assert!(boards >= games as usize, "only {boards} board moves");
}

#[test]
fn wtdcf_playouts_keep_every_invariant_and_move_attack_boards() {
    let games = 12;
    let boards = playouts::<missive_rules::trid::Wtdcf>(games, |seed| {
        if seed % 2 == 0 {
            ""
        } else {
            "board-moves=pins"
        }
    });
    assert!(boards >= games as usize, "only {boards} board moves");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn reading_any_text_never_panics(text in "\\PC{0,80}") {
        let options = Options::default();
        let _ = FederationStandard::from_text(&text, &options);
        let _ = FederationStandard::start(&options).parse_move(&text);
        let _ = WtdcfLaws::from_text(&text, &options);
        let _ = WtdcfLaws::start(&options).parse_move(&text);
    }

    #[test]
    fn reading_mangled_start_texts_never_panics(cut in 0usize..400, insert in "[a-fA-Z0-9()@:*/,~=-]{0,6}") {
        let start = FederationStandard::start(&Options::default()).to_text();
        let cut = cut.min(start.len());
        let text = format!("{}{insert}{}", &start[..cut], &start[cut..]);
        let _ = FederationStandard::from_text(&text, &Options::default());
        let _ = WtdcfLaws::from_text(&text, &Options::default());
    }
}
