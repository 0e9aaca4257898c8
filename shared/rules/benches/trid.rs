//! Tri-D benchmarks: perft from the start (nodes per second) and replaying a 150-ply game
//! from its long notation, as the archive and the game service do.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use missive_rules::trid::FederationStandard;
use missive_rules::{Game, Notation, Options, Position, perft};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

const PLIES: usize = 150;

/// The long notation of a seeded random game that lasts at least 150 plies.
fn long_game() -> Vec<String> {
    (0..)
        .find_map(|seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut position = FederationStandard::start(&Options::default());
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

fn benches(c: &mut Criterion) {
    let start = FederationStandard::start(&Options::default());
    let mut group = c.benchmark_group("trid-fs");
    for (depth, nodes) in [(3, 10_088), (4, 230_320)] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("perft {depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(&start), depth), nodes))
        });
    }
    let game = long_game();
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

criterion_group! {
    name = trid;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(trid);
