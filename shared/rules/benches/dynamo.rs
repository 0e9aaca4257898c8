//! Dynamo perft speed: nodes per second from the start position and from a middlegame
//! where pushes and pulls abound.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use missive_rules::dynamo::{Dynamo, Rules};
use missive_rules::perft;
use std::hint::black_box;

const MIDDLEGAME: &str = "r1bqk2r/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 5";

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dynamo-perft");
    group.sample_size(10);
    let positions = [
        ("start-3", Dynamo::start(Rules::default()), 3),
        (
            "middlegame-3",
            Dynamo::from_fen(MIDDLEGAME, Rules::default()).expect("valid FEN"),
            3,
        ),
    ];
    for (name, position, depth) in positions {
        group.throughput(Throughput::Elements(perft(&position, depth)));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&position), depth)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
