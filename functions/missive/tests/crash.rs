//! Kill -9 in the middle of a stream of moves to SQLite: every move acknowledged before
//! the kill is in the file afterwards, and every game replays to its head.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;

use missive_domain::GameId;
use missive_game::{GameService, SystemClock};
use missive_store::SqliteStore;
use missive_store::prelude::*;
use missive_store::testing::temp_db_path;

/// Acknowledgements to wait for before the kill.
const ACKS_BEFORE_KILL: usize = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_writer_loses_no_acknowledged_move() {
    let path = temp_db_path();
    let mut writer = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args([
            "bench",
            "--games",
            "64",
            "--plies",
            "300",
            "--concurrency",
            "16",
        ])
        .arg("--print-acks")
        .arg(format!("--store=sqlite:{}", path.display()))
        .arg("--create")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the writer");
    let mut lines = BufReader::new(writer.stdout.take().unwrap()).lines();
    let mut acks = Vec::new();
    while acks.len() < ACKS_BEFORE_KILL {
        let line = lines.next().expect("the writer stopped early").unwrap();
        acks.push(line);
    }
    writer.kill().expect("kill -9 the writer"); // SIGKILL on Unix
    // Lines printed before the kill were acknowledged too.
    acks.extend(lines.map_while(Result::ok));
    let status = writer.wait().unwrap();
    assert!(!status.success(), "the writer was killed, not finished");

    let store = Arc::new(SqliteStore::open(&path).unwrap());
    for ack in &acks {
        let fields: Vec<&str> = ack.split(' ').collect();
        let ["ack", game, ply, text] = fields[..] else {
            panic!("unexpected line {ack:?}");
        };
        let stored = store.load(&GameId(game.into())).await.unwrap().unwrap();
        let ply: usize = ply.parse().unwrap();
        assert_eq!(
            stored.moves.get(ply).map(|m| m.long.as_str()),
            Some(text),
            "{ack}"
        );
    }
    let service = GameService::new(store, Arc::new(SystemClock));
    let report = service.check_all().await.unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(report.moves >= acks.len());
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
