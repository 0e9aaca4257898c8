//! `missive archive bench`: how fast finished games are read, and how fast they are
//! imported into a store, in the same run over the same text.
//!
//! The games are generated finished standard chess games (random legal moves, events and
//! move times, each exported with its digest). Reading replays every move through the rules
//! without storing anything; importing does what `missive archive import` does: read and
//! replay, check each game's digest, build its hash-chained log and store the games in
//! batches of [`FILE_IMPORT_BATCH`], each game all or nothing.
//!
//! Beside the time each pass took, the table gives the processor time the process spent
//! in it, per game: on a machine shared with other work it changes far less from run to
//! run than the time does.

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

/// How long a pass over the text took, the processor time the process spent in it, and
/// what it did with the games.
struct Pass {
    seconds: f64,
    processor: Option<f64>,
    done: usize,
    refused: usize,
}

impl Pass {
    /// A pass begun at `started`, when the process had used `processor` seconds of
    /// processor time, that ends now.
    fn ended(started: (Instant, Option<f64>), done: usize, refused: usize) -> Pass {
        Pass {
            seconds: started.0.elapsed().as_secs_f64(),
            processor: processor_seconds()
                .zip(started.1)
                .map(|(now, before)| now - before),
            done,
            refused,
        }
    }

    fn row(&self, name: &str, games: usize, bytes: usize) -> String {
        let per_game = match self.processor {
            Some(seconds) => format!("{:.1}", seconds * 1e6 / games.max(1) as f64),
            None => "-".to_string(),
        };
        format!(
            "{name:<24} {:>10.0} {:>8.1} {:>9.3} {per_game:>12} {:>9} {:>8}",
            games as f64 / self.seconds,
            bytes as f64 / 1e6 / self.seconds,
            self.seconds,
            self.done,
            self.refused
        )
    }
}

/// The time now and the processor time the process has used so far: where a pass starts.
fn pass_start() -> (Instant, Option<f64>) {
    (Instant::now(), processor_seconds())
}

/// The processor time, user and system, every thread of the process has used so far.
#[cfg(unix)]
fn processor_seconds() -> Option<f64> {
    // SAFETY: an all-zero rusage is a valid value for getrusage to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for getrusage to write.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return None;
    }
    let seconds = |time: libc::timeval| time.tv_sec as f64 + time.tv_usec as f64 / 1e6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

/// Processor time is not read this way here.
#[cfg(not(unix))]
fn processor_seconds() -> Option<f64> {
    None
}

/// Runs the bench and prints a table: games/s, MB/s, seconds, processor time per game,
/// games done and refused, for reading alone and for importing.
pub fn run(args: &ImportBenchArgs) -> Result<(), String> {
    let (text, games) = generated(args.games, args.plies)?;
    let runtime = runtime()?;
    let service = runtime.block_on(open(&args.store))?;
    let read = read_only(&text);
    // The text is copied before the pass, as a file's text is on disk before it is imported.
    let input = Cursor::new(text.clone());
    let started = pass_start();
    let (mut done, mut refused) = (0, 0);
    let mut reader = Reader::pipelined(input, &Registry).without_move_texts();
    let mut pipeline = ImportPipeline::new(&service, None);
    let mut count = |outcomes: Vec<ImportOutcome>| {
        for outcome in outcomes {
            match outcome.error {
                None => done += 1,
                Some(_) => refused += 1,
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
    let pass = Pass::ended(started, done, refused);
    println!(
        "{games} games, {:.1} MB, into {}",
        text.len() as f64 / 1e6,
        args.store.store
    );
    println!(
        "{:<24} {:>10} {:>8} {:>9} {:>12} {:>9} {:>8}",
        "pass", "games/s", "MB/s", "seconds", "CPU µs/game", "done", "refused"
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
    let input = Cursor::new(text.to_vec());
    let started = pass_start();
    let (mut done, mut refused) = (0, 0);
    for game in Reader::parallel(input, &Registry).without_move_texts() {
        match game {
            Ok(_) => done += 1,
            Err(_) => refused += 1,
        }
    }
    Pass::ended(started, done, refused)
}
