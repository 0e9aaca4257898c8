//! Tri-D benchmarks, for both rule sets: perft from the start (nodes per second) and replaying a 150-ply game
//! from its long notation, as the archive and the game service do.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use missive_rules::trid::{Federation, RuleSet, TriD, Wtdcf};
use missive_rules::{Game, Notation, Options, Position, perft};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

const PLIES: usize = 150;

/// The long notation of a seeded random game of rule set `R` that lasts 150 plies.
fn long_game<R: RuleSet>() -> Vec<String> {
    (0..)
        .find_map(|seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut position = TriD::<R>::start(&Options::default());
            let mut moves = Vec::new();
            let mut texts = Vec::new();
            for _ in 0..PLIES {
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() || position.outcome().is_some() {
                    return None;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                texts.push(position.write_move(mv, Notation::Long));
                position.play(mv);
            }
            Some(texts)
        })
        .expect("some seed gives a long game")
}

/// Perft at two depths (with their node counts) and the replay of a 150-ply game.
fn bench_rule_set<R: RuleSet>(c: &mut Criterion, perfts: [(u32, u64); 2]) {
    let start = TriD::<R>::start(&Options::default());
    let mut group = c.benchmark_group(R::ID);
    for (depth, nodes) in perfts {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("perft {depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(&start), depth), nodes))
        });
    }
    let game = long_game::<R>();
    group.throughput(Throughput::Elements(PLIES as u64));
    group.bench_function("replay 150 plies", |b| {
        b.iter(|| {
            let mut replay = Game::new(start.clone(), Options::default());
            for text in &game {
                replay.play_text(black_box(text)).expect("the game replays");
            }
            replay
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_rule_set::<Federation>(c, [(3, 10_088), (4, 230_320)]);
    bench_rule_set::<Wtdcf>(c, [(3, 5_524), (4, 117_011)]);
}

criterion_group! {
    name = trid;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(trid);
