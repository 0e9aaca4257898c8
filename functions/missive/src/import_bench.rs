//! `missive archive bench`: how fast finished games are read, and how fast they are
//! imported into a store, in the same run over the same text.
//!
//! The games are generated finished standard chess games (random legal moves, events and
//! move times, each exported with its digest). Reading replays every move through the rules
//! without storing anything; importing does what `missive archive import` does: read and
//! replay, check each game's digest, build its hash-chained log and store the games in
//! batches of [`FILE_IMPORT_BATCH`], each game all or nothing.

use std::io::Cursor;
use std::time::Instant;

use clap::Args;
use missive_archive::{ExportOptions, Reader, Registry, export, sample::random_record};
use missive_game::{FILE_IMPORT_BATCH, ImportOutcome, ImportPipeline};

use crate::store_commands::{StoreArgs, open, runtime};

/// Arguments of `missive archive bench`.
#[derive(Args)]
pub struct ImportBenchArgs {
    /// The store imported into (a fresh one measures the store, not its earlier games).
    #[command(flatten)]
    store: StoreArgs,
    /// Finished games to generate.
    #[arg(long, default_value_t = 10_000)]
    games: usize,
    /// Moves per game at most (a game may end sooner).
    #[arg(long, default_value_t = 160)]
    plies: usize,
}

/// How long a pass over the text took, and what it did with the games.
struct Pass {
    seconds: f64,
    done: usize,
    refused: usize,
}

impl Pass {
    fn row(&self, name: &str, games: usize, bytes: usize) -> String {
        format!(
            "{name:<24} {:>10.0} {:>8.1} {:>9.3} {:>9} {:>8}",
            games as f64 / self.seconds,
            bytes as f64 / 1e6 / self.seconds,
            self.seconds,
            self.done,
            self.refused
        )
    }
}

/// Runs the bench and prints a table: games/s, MB/s, seconds, games done and refused for
/// reading alone and for importing.
pub fn run(args: &ImportBenchArgs) -> Result<(), String> {
    let (text, games) = generated(args.games, args.plies)?;
    let runtime = runtime()?;
    let service = runtime.block_on(open(&args.store))?;
    let read = read_only(&text);
    let started = Instant::now();
    let mut pass = Pass {
        seconds: 0.0,
        done: 0,
        refused: 0,
    };
    let mut reader = Reader::pipelined(Cursor::new(text.clone()), &Registry).without_move_texts();
    let mut pipeline = ImportPipeline::new(&service, None);
    let mut count = |outcomes: Vec<ImportOutcome>| {
        for outcome in outcomes {
            match outcome.error {
                None => pass.done += 1,
                Some(_) => pass.refused += 1,
            }
        }
    };
    loop {
        let batch: Vec<_> = reader.by_ref().take(FILE_IMPORT_BATCH).collect();
        if batch.is_empty() {
            break;
        }
        count(runtime.block_on(pipeline.push(batch)));
    }
    count(runtime.block_on(pipeline.finish()));
    pass.seconds = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} MB, into {}",
        text.len() as f64 / 1e6,
        args.store.store
    );
    println!(
        "{:<24} {:>10} {:>8} {:>9} {:>9} {:>8}",
        "pass", "games/s", "MB/s", "seconds", "done", "refused"
    );
    println!("{}", read.row("read and replay", games, text.len()));
    println!("{}", pass.row("import into the store", games, text.len()));
    Ok(())
}

/// `count` finished chess games as archive text (seeds from 0 on, unfinished ones skipped).
fn generated(count: usize, plies: usize) -> Result<(Vec<u8>, usize), String> {
    let mut text = Vec::new();
    let mut games = 0;
    let mut seed = 0;
    while games < count {
        let record =
            random_record(&Registry, "chess", seed, plies).ok_or("chess is not registered")?;
        seed += 1;
        if record.result.is_none() {
            continue;
        }
        let game =
            export(&record, ExportOptions::default(), &Registry).map_err(|e| e.to_string())?;
        text.extend_from_slice(game.as_bytes());
        games += 1;
    }
    Ok((text, games))
}

/// Reads and replays every game of `text`, storing nothing.
fn read_only(text: &[u8]) -> Pass {
    let started = Instant::now();
    let (mut done, mut refused) = (0, 0);
    for game in Reader::parallel(Cursor::new(text.to_vec()), &Registry).without_move_texts() {
        match game {
            Ok(_) => done += 1,
            Err(_) => refused += 1,
        }
    }
    Pass {
        seconds: started.elapsed().as_secs_f64(),
        done,
        refused,
    }
}
