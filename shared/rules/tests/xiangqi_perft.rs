//! Every row of the published xiangqi perft table, up to a node budget that keeps the
//! suite fast (deeper rows run in the benchmark).

mod support;

use missive_rules::xiangqi::Xiangqi;

const NODE_BUDGET: u64 = 5_000_000;

#[test]
fn published_perft_rows_match() {
    let checked =
        support::check_perft_table::<Xiangqi>(include_str!("data/perft_xiangqi.tsv"), NODE_BUDGET);
    assert!(checked >= 45, "only {checked} rows under the budget");
}
