//! Differential test against python-chess: the same random games, compared position by
//! position: FEN, the legal moves with their SAN, and the outcome flags.
//!
//! The games come from `peers/chess_games.py`, run with the interpreter named by
//! `MISSIVE_PYTHON` (default `python3`). A missing python-chess fails the test.

use std::process::Command;

use missive_rules::chess::{Chess, Color};
use missive_rules::{Game, Notation, Options, Position};
use serde_json::Value;

const SEED: u32 = 20261129;
const GAMES: u32 = 100;

fn peer_games() -> Vec<Value> {
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/chess_games.py");
    let output = Command::new(&python)
        .args([script, &SEED.to_string(), &GAMES.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        output.status.success(),
        "the python-chess peer failed (pip install chess): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn our_flags(game: &Game<Chess>) -> Value {
    let position = game.position();
    serde_json::json!({
        "check": position.is_check(),
        "checkmate": position.is_checkmate(),
        "stalemate": position.is_stalemate(),
        "insufficient_material": position.is_insufficient_material(),
        "white_insufficient": position.has_insufficient_material(Color::White),
        "black_insufficient": position.has_insufficient_material(Color::Black),
        "seventyfive_moves": position.is_seventy_five_moves(),
        "fivefold_repetition": Chess::history_outcome(game.history()).is_some(),
    })
}

fn our_moves(position: &Chess) -> Vec<Value> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut pairs: Vec<(String, String)> = moves
        .into_iter()
        .map(|m| {
            (
                position.write_move(m, Notation::Long),
                position.write_move(m, Notation::Short),
            )
        })
        .collect();
    pairs.sort();
    pairs
        .into_iter()
        .map(|(uci, san)| serde_json::json!([uci, san]))
        .collect()
}

#[test]
fn legal_moves_san_and_outcomes_match_python_chess() {
    let records = peer_games();
    let mut game: Option<Game<Chess>> = None;
    let mut positions = 0;
    for record in &records {
        if let Some(start) = record["start"].as_str() {
            game = Some(Game::new(
                Chess::from_fen(start).unwrap(),
                Options::default(),
            ));
            continue;
        }
        let game = game.as_mut().expect("a start line first");
        let fen = record["fen"].as_str().unwrap();
        let position = game.position();
        assert_eq!(
            position.to_fen(),
            fen,
            "FEN after {} plies",
            game.moves().len()
        );
        assert_eq!(
            Chess::from_fen(fen).unwrap().to_fen(),
            fen,
            "FEN round trip"
        );
        let context = format!("position {fen}");
        assert_eq!(
            our_moves(position),
            record["moves"].as_array().unwrap().clone(),
            "{context}"
        );
        assert_eq!(our_flags(game), record["flags"], "{context}");
        if let Some(uci) = record["played"].as_str() {
            game.play_text(uci)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
        }
        positions += 1;
    }
    assert!(positions > 10_000, "only {positions} positions compared");
}
