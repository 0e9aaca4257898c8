//! Xiangqi perft speed: legal move generation and making moves, in nodes per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use missive_rules::perft;
use missive_rules::xiangqi::{START_FEN, Xiangqi};

/// (name, FEN, depth, nodes) from the published table.
const CASES: &[(&str, &str, u32, u64)] = &[
    ("start-d4", START_FEN, 4, 3_290_240),
    (
        "middlegame-d4",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        4,
        1_339_047,
    ),
    (
        "endgame-d5",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        5,
        4_739_553,
    ),
];

fn perft_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi-perft");
    group.sample_size(10);
    for &(name, fen, depth, nodes) in CASES {
        let position = Xiangqi::from_fen(fen).expect("valid FEN");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(perft(black_box(&position), depth), nodes));
        });
    }
    group.finish();
}

criterion_group!(benches, perft_speed);
criterion_main!(benches);
