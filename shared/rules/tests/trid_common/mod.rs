//! Helpers shared by the Tri-D rule tests: positions from text, legal moves in long
//! notation, playing moves by text.

use missive_rules::trid::{RuleSet, TriD};
use missive_rules::{Notation, Options, Position};

/// Reads a position text of rule set `R` under the options `opts` (`k=v,...`).
pub fn read<R: RuleSet>(text: &str, opts: &str) -> TriD<R> {
    let options = Options::parse(opts, R::option_specs()).unwrap();
    TriD::<R>::from_text(text, &options).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A position with `boards`, `pieces`, side to move `turn`, no en passant, fresh counters.
pub fn setup<R: RuleSet>(boards: &str, pieces: &str, turn: &str) -> TriD<R> {
    read(&format!("{boards} {pieces} {turn} - 0 1"), "")
}

/// The legal moves in long notation, sorted.
pub fn legal<P: Position>(position: &P) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves
        .into_iter()
        .map(|m| position.write_move(m, Notation::Long))
        .collect();
    texts.sort();
    texts
}

/// The legal moves whose long notation starts with `prefix`.
pub fn starting_with<P: Position>(position: &P, prefix: &str) -> Vec<String> {
    legal(position)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

/// The position after playing `moves` (any notation) from `position`.
pub fn after<P: Position>(position: &P, moves: &[&str]) -> P {
    let mut position = position.clone();
    for text in moves {
        let mv = position
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", position.to_text()));
        position.play(mv);
    }
    position
}
