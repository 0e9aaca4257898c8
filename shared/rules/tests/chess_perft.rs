//! Every row of the published chess perft table, up to a node budget that keeps the suite
//! fast (deeper rows run in the benchmark).

mod support;

use missive_rules::chess::Chess;

const NODE_BUDGET: u64 = 5_000_000;

#[test]
fn published_perft_rows_match() {
    let checked =
        support::check_perft_table::<Chess>(include_str!("data/perft_chess.tsv"), NODE_BUDGET);
    assert!(checked >= 40, "only {checked} rows under the budget");
}
