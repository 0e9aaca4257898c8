//! Helpers shared by the integration tests.

use missive_rules::{Options, Position, perft};

/// Checks every row (`FEN<TAB>depth<TAB>nodes`) of a published perft table whose node
/// count is within `budget`, and that every FEN reads and prints back unchanged. Returns
/// how many rows were counted.
pub fn check_perft_table<P: Position>(table: &str, budget: u64) -> usize {
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
        let position = P::from_text(fen, &Options::default())
            .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        assert_eq!(
            position.to_text(),
            fen,
            "line {}: FEN round trip",
            line_no + 1
        );
        if nodes > budget {
            continue;
        }
        assert_eq!(
            perft(&position, depth),
            nodes,
            "line {}: {fen} depth {depth}",
            line_no + 1
        );
        checked += 1;
    }
    checked
}
