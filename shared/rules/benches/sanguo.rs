//! Perft speed of Three Kingdoms Xiangqi (nodes per second), from the start and from a
//! middle-game position with one nation out and a captured army on the board.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use missive_rules::sanguo::Sanguo;
use missive_rules::{Options, Position, perft};

/// A position from a random playout: Wu out, its soldiers and horse serving Shu.
const MIDDLE: &str = "9/9/9/2Hr6/4Kr4|2Egr6/Pr8/9/9/5Agr3|Pgr8/9/5Kb1Pr1/9/9 wei wu 55 240";

fn perft_speed(c: &mut Criterion) {
    let options = Options::defaults(Sanguo::option_specs());
    let cases = [
        ("start", Sanguo::start(&options), 3),
        (
            "middle",
            Sanguo::from_text(MIDDLE, &options).expect("valid"),
            4,
        ),
    ];
    let mut group = c.benchmark_group("sanguo-perft");
    group.sample_size(10);
    for (name, position, depth) in cases {
        group.throughput(Throughput::Elements(perft(&position, depth)));
        group.bench_function(format!("{name}-depth-{depth}"), |b| {
            b.iter(|| perft(black_box(&position), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_speed);
criterion_main!(benches);
