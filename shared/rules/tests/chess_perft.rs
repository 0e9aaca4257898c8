//! Every row of the published chess perft table, up to a node budget that keeps the suite
//! fast (deeper rows run in the benchmark).

use missive_rules::{Options, Position, chess::Chess, perft};

const NODE_BUDGET: u64 = 5_000_000;

#[test]
fn published_perft_rows_match() {
    let table = include_str!("data/perft_chess.tsv");
    let mut checked = 0;
    for (line_no, line) in table
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let (fen, depth, nodes): (&str, u32, u64) = (
            fields[0],
            fields[1].parse().unwrap(),
            fields[2].parse().unwrap(),
        );
        if nodes > NODE_BUDGET {
            continue;
        }
        let position = Chess::from_text(fen, &Options::default())
            .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        assert_eq!(
            perft(&position, depth),
            nodes,
            "line {}: {fen} depth {depth}",
            line_no + 1
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} rows under the budget");
}
