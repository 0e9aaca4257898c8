//! Import throughput with full move validation, side by side with python-chess's PGN reader
//! on the same generated file in the same run. The import is the pipelined reader that
//! `missive archive` uses: one thread reads and splits the text into games while the other
//! replays every move through the rules. Prints a table; run once:
//! `cargo bench -p missive-archive --bench import` (`MISSIVE_PYTHON` names the interpreter,
//! `MISSIVE_BENCH_GAMES` the number of games, 10,000 by default). Under `cargo test` (no
//! `--bench` argument) it runs on 20 games so the harness itself stays tested.

use std::io::BufReader;
use std::process::Command;
use std::time::Instant;

use missive_archive::{ExportOptions, Reader, Registry, export, sample::random_record};

const PYTHON_READER: &str = r#"
import sys, time
import chess.pgn
start = time.perf_counter()
games = 0
moves = 0
with open(sys.argv[1], encoding="utf-8") as handle:
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if game.errors:
            raise SystemExit(f"python-chess rejected game {games + 1}: {game.errors}")
        games += 1
        moves += sum(1 for _ in game.mainline_moves())
print(games, moves, time.perf_counter() - start)
"#;

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let count: u64 = std::env::var("MISSIVE_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|_| full)
        .unwrap_or(if full { 10_000 } else { 20 });
    let path =
        std::env::temp_dir().join(format!("missive-bench-{count}-{}.pgn", std::process::id()));
    let mut text = String::new();
    for seed in 0..count {
        let record = random_record(&Registry, "chess", seed, 160).expect("chess is registered");
        text.push_str(&export(&record, ExportOptions::default(), &Registry).expect("exports"));
    }
    std::fs::write(&path, &text).expect("writes the bench file");
    let megabytes = text.len() as f64 / 1e6;

    let start = Instant::now();
    let file = std::fs::File::open(&path).expect("opens the bench file");
    let (mut games, mut plies) = (0u64, 0usize);
    for game in Reader::pipelined(BufReader::new(file), &Registry) {
        let game = game.expect("every generated game imports");
        games += 1;
        plies += game.record.moves().count();
    }
    let ours = start.elapsed().as_secs_f64();

    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let output = Command::new(&python)
        .args(["-c", PYTHON_READER])
        .arg(&path)
        .output()
        .expect("runs the Python interpreter");
    assert!(
        output.status.success(),
        "python-chess failed (pip install chess): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reply = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<&str> = reply.split_whitespace().collect();
    let (py_games, py_plies, theirs): (u64, usize, f64) = (
        fields[0].parse().expect("game count"),
        fields[1].parse().expect("move count"),
        fields[2].parse().expect("seconds"),
    );
    assert_eq!(
        (py_games, py_plies),
        (games, plies),
        "both readers see the same games"
    );

    println!("file: {games} games, {plies} plies, {megabytes:.1} MB");
    println!(
        "{:<22} {:>10} {:>12} {:>10}",
        "reader", "seconds", "games/s", "MB/s"
    );
    for (name, seconds) in [("missive-archive", ours), ("python-chess", theirs)] {
        println!(
            "{name:<22} {seconds:>10.3} {:>12.0} {:>10.2}",
            games as f64 / seconds,
            megabytes / seconds
        );
    }
    println!("ratio: {:.1}x python-chess", theirs / ours);
    let _ = std::fs::remove_file(&path);
}
