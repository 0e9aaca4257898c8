//! Differential test against Fairy-Stockfish (PyPI `pyffish`): `peers/xiangqi.py` plays
//! seeded random games and records, for every position, its FEN, its legal moves, the move
//! played, the FEN after it, its WXF and whether it gives check. Every record must match
//! this crate exactly. The interpreter is `$MISSIVE_PYTHON` (default `python3`); without
//! pyffish the test fails and says how to install it.

use std::process::Command;

use missive_rules::xiangqi::Xiangqi;
use missive_rules::{EndRule, Position};
use serde_json::Value;

const SEED: u64 = 20_260_601;
const POSITIONS: usize = 2000;

fn reference_records() -> Vec<Value> {
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/xiangqi.py");
    let output = Command::new(&python)
        .args([script, &SEED.to_string(), &POSITIONS.to_string()])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{python}` ({e}): set MISSIVE_PYTHON to a Python 3 interpreter \
                 and `pip install pyffish`"
            )
        });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} failed ({}): {stderr}\n(the test needs Fairy-Stockfish's bindings: \
         pip install pyffish)",
        output.status
    );
    String::from_utf8(output.stdout)
        .expect("the script prints UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("the script prints JSON lines"))
        .collect()
}

fn text(record: &Value, key: &str) -> Option<String> {
    record[key].as_str().map(str::to_string)
}

fn sorted_moves(position: &Xiangqi) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| position.coordinates(*m)).collect();
    texts.sort();
    texts
}

/// The legal moves, FEN round trip, and the outcome when no move is left.
fn check_position(position: &Xiangqi, fen: &str, record: &Value) {
    assert_eq!(position.to_fen(), fen, "FEN round trip");
    let theirs: Vec<String> = record["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("move text").to_string())
        .collect();
    let ours = sorted_moves(position);
    if ours != theirs {
        let only = |a: &[String], b: &[String]| -> Vec<String> {
            a.iter().filter(|m| !b.contains(m)).cloned().collect()
        };
        panic!(
            "legal moves differ in {fen}\n  only Fairy-Stockfish: {:?}\n  only ours: {:?}",
            only(&theirs, &ours),
            only(&ours, &theirs)
        );
    }
    if ours.is_empty() {
        let outcome = position.outcome().expect("no legal move ends the game");
        assert!(
            matches!(outcome.rule, EndRule::Checkmate | EndRule::NoLegalMove),
            "{fen}: {outcome:?}"
        );
    }
}

/// The played move: the FEN after it, check, and WXF. Returns whether Fairy-Stockfish's
/// WXF could be compared (it numbers soldiers of crowded files differently).
fn check_played(position: &Xiangqi, fen: &str, record: &Value, played: &str) -> bool {
    let mv = position
        .parse_move(played)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut after = position.clone();
    after.play(mv);
    assert_eq!(
        Some(after.to_fen()),
        text(record, "after"),
        "{fen}: position after {played}"
    );
    assert_eq!(
        Some(after.is_check()),
        record["check"].as_bool(),
        "{fen}: does {played} give check?"
    );
    let ours = position.wxf(mv);
    assert_eq!(
        position.parse_move(&ours),
        Ok(mv),
        "{fen}: {ours} reads back"
    );
    let theirs = text(record, "wxf").expect("wxf").replace('=', ".");
    if theirs.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    assert_eq!(ours, theirs, "{fen}: WXF of {played}");
    true
}

#[test]
fn legal_moves_fen_check_and_wxf_match_fairy_stockfish() {
    let records = reference_records();
    assert!(
        records.len() >= POSITIONS,
        "only {} positions from the script",
        records.len()
    );
    let mut compared_wxf = 0;
    for record in &records {
        let fen = text(record, "fen").expect("fen");
        let position = Xiangqi::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check_position(&position, &fen, record);
        if let Some(played) = text(record, "played") {
            compared_wxf += usize::from(check_played(&position, &fen, record, &played));
        }
    }
    assert!(
        compared_wxf * 10 >= records.len() * 9,
        "only {compared_wxf} WXF texts compared"
    );
}
