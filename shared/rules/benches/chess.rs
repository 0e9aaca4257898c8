//! Chess benchmark: perft speed and game replay, side by side with shakmaty and
//! python-chess measured in the same run. Prints a table.
//!
//! `cargo bench -p missive-rules --bench chess` runs it in full; under `cargo test` (no
//! `--bench` argument) it runs a tiny smoke version so the harness itself stays tested.

use std::process::Command;
use std::time::Instant;

use missive_rules::chess::Chess;
use missive_rules::{Game, Notation, Options, Position, perft};
use shakmaty::{CastlingMode, Position as _};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const REPLAY_PLIES: usize = 200;

struct Sizes {
    start_depth: u32,
    kiwipete_depth: u32,
    python_start_depth: u32,
    python_kiwipete_depth: u32,
    replay_rounds: u32,
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let sizes = if full {
        Sizes {
            start_depth: 5,
            kiwipete_depth: 4,
            python_start_depth: 4,
            python_kiwipete_depth: 3,
            replay_rounds: 2_000,
        }
    } else {
        Sizes {
            start_depth: 2,
            kiwipete_depth: 1,
            python_start_depth: 0,
            python_kiwipete_depth: 0,
            replay_rounds: 3,
        }
    };
    let game = replay_game();
    println!(
        "{:<34} {:>14} {:>14} {:>14} {:>10} {:>10}",
        "measure", "missive", "shakmaty", "python-chess", "vs shak.", "vs py"
    );
    for (name, fen, depth, py_depth) in [
        (
            "perft start (Mnodes/s)",
            START,
            sizes.start_depth,
            sizes.python_start_depth,
        ),
        (
            "perft kiwipete (Mnodes/s)",
            KIWIPETE,
            sizes.kiwipete_depth,
            sizes.python_kiwipete_depth,
        ),
    ] {
        let ours = nodes_per_second(|| perft(&Chess::from_fen(fen).unwrap(), depth));
        let theirs = nodes_per_second(|| shakmaty_perft(&shakmaty_position(fen), depth));
        let python = (py_depth > 0).then(|| python_perft(fen, py_depth));
        row(
            &format!("{name} d{depth}"),
            ours / 1e6,
            theirs / 1e6,
            python.map(|p| p / 1e6),
            true,
        );
    }
    let ours = mean_micros(sizes.replay_rounds, || our_replay(&game));
    let theirs = mean_micros(sizes.replay_rounds, || shakmaty_replay(&game));
    let python = full.then(|| python_replay(&game));
    row(
        &format!("replay {REPLAY_PLIES} plies + legal (us)"),
        ours,
        theirs,
        python,
        false,
    );
}

fn row(name: &str, ours: f64, shakmaty: f64, python: Option<f64>, higher_is_better: bool) {
    let ratio = |other: f64| {
        if higher_is_better {
            ours / other
        } else {
            other / ours
        }
    };
    let py = python.map_or("-".to_string(), |p| format!("{p:.3}"));
    let py_ratio = python.map_or("-".to_string(), |p| format!("{:.1}x", ratio(p)));
    println!(
        "{name:<34} {ours:>14.3} {shakmaty:>14.3} {py:>14} {:>9.2}x {py_ratio:>10}",
        ratio(shakmaty)
    );
}

/// Best of three runs, in nodes per second.
fn nodes_per_second(mut run: impl FnMut() -> u64) -> f64 {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            let nodes = run();
            nodes as f64 / started.elapsed().as_secs_f64().max(1e-9)
        })
        .fold(0.0, f64::max)
}

fn mean_micros(rounds: u32, mut run: impl FnMut() -> usize) -> f64 {
    let started = Instant::now();
    let mut sink = 0;
    for _ in 0..rounds {
        sink += run();
    }
    std::hint::black_box(sink);
    started.elapsed().as_secs_f64() * 1e6 / f64::from(rounds)
}

/// A deterministic 200-ply game in SAN: pseudo-random moves that avoid ending the game.
fn replay_game() -> Vec<String> {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    'attempt: loop {
        let mut game = Game::new(Chess::start(), Options::default());
        let mut sans = Vec::new();
        while sans.len() < REPLAY_PLIES {
            let moves = game.legal_moves();
            if moves.is_empty() {
                seed = seed.wrapping_add(1);
                continue 'attempt;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            sans.push(game.position().write_move(mv, Notation::Short));
            game.play_move(mv);
        }
        return sans;
    }
}

/// Replays the SAN list from the start, validating each move, and lists the final moves.
fn our_replay(sans: &[String]) -> usize {
    let mut game = Game::new(Chess::start(), Options::default());
    for san in sans {
        game.play_text(san).expect("a legal move");
    }
    game.legal_moves().len()
}

fn shakmaty_position(fen: &str) -> shakmaty::Chess {
    let fen: shakmaty::fen::Fen = fen.parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

fn shakmaty_perft(position: &shakmaty::Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            shakmaty_perft(&child, depth - 1)
        })
        .sum()
}

fn shakmaty_replay(sans: &[String]) -> usize {
    let mut position = shakmaty::Chess::default();
    for san in sans {
        let mv = shakmaty::san::San::from_ascii(san.trim_end_matches(['+', '#']).as_bytes())
            .unwrap()
            .to_move(&position)
            .unwrap();
        position.play_unchecked(mv);
    }
    position.legal_moves().len()
}

const PYTHON_PERFT: &str = r#"
import sys, time, chess
def perft(b, d):
    if d == 0: return 1
    n = 0
    for m in b.legal_moves:
        b.push(m); n += perft(b, d - 1); b.pop()
    return n
b = chess.Board(sys.argv[1]); t = time.perf_counter(); n = perft(b, int(sys.argv[2]))
print(n / (time.perf_counter() - t))
"#;

const PYTHON_REPLAY: &str = r#"
import sys, time, chess
sans = sys.argv[1].split(); rounds = 20
t = time.perf_counter()
for _ in range(rounds):
    b = chess.Board()
    for s in sans: b.push_san(s)
    n = len(list(b.legal_moves))
print((time.perf_counter() - t) * 1e6 / rounds)
"#;

fn python(script: &str, args: &[&str]) -> f64 {
    let interpreter = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let output = Command::new(interpreter)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "python-chess (pip install chess): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("a number")
}

fn python_perft(fen: &str, depth: u32) -> f64 {
    python(PYTHON_PERFT, &[fen, &depth.to_string()])
}

fn python_replay(sans: &[String]) -> f64 {
    python(PYTHON_REPLAY, &[&sans.join(" ")])
}
