//! The archive tools: `missive archive convert|verify|keygen`, `import|export` between
//! archives and the game store, `key` (the store's archive key) and `bench` (import speed).

use std::fs::File;
use std::io::{self, BufReader, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use missive_archive::{
    ExportOptions, Format, Imported, KeyPair, PublicKey, Reader, Registry, export, sign, verify,
};
use missive_domain::{Cursor, GameId};
use missive_game::{FILE_IMPORT_BATCH, GameService, ImportBatches, ImportOutcome, WorkTime};

use crate::import_bench::{self, ImportBenchArgs};
use crate::rules_commands::NotationArg;
use crate::store_commands::{StoreArgs, open, runtime};

/// `missive archive ...`.
#[derive(Subcommand)]
pub enum ArchiveCommand {
    /// Read every game of FILE (archive or PGN), replay it through the rules and write it to
    /// stdout in the chosen format; rejected games are reported on stderr.
    Convert(ConvertArgs),
    /// Check each game's digest and, with --key, its signature (a server's public key, as
    /// `missive archive key` or `GET /v1/archive/key` give it).
    Verify(VerifyArgs),
    /// Print a new Ed25519 key pair: the secret key line, then the public key line.
    Keygen,
    /// Store every finished game of FILE (archive or PGN) as an imported game: each stored
    /// game's new id on stdout, each rejected game on stderr with game, line and column.
    Import(ImportArgs),
    /// Write stored games to stdout as one archive: a player's finished games, one game, or
    /// every game in the store, signed with the archive key. Operators see every game,
    /// private ones too.
    Export(ExportArgs),
    /// Print the public half of the store's archive key that signs (`ed25519:<base64>`, the
    /// last of its set): what the server's new signatures are checked with.
    Key(StoreArgs),
    /// Generate finished games, then read them without storing and import them into the
    /// store, in the same run: games/s for each.
    Bench(ImportBenchArgs),
}

/// Arguments of `missive archive import`.
#[derive(Args)]
pub struct ImportArgs {
    /// The archive or PGN file (`-` for stdin).
    file: PathBuf,
    /// The player importing: the seats the archive gives this name become theirs (others
    /// keep the archive's names).
    #[arg(long, value_name = "HANDLE")]
    player: Option<String>,
    #[command(flatten)]
    store: StoreArgs,
}

/// Arguments of `missive archive export`.
#[derive(Args)]
pub struct ExportArgs {
    /// Every finished game of this player, oldest first.
    #[arg(long, value_name = "HANDLE", conflicts_with = "game")]
    player: Option<String>,
    /// This game only.
    #[arg(long, value_name = "ID")]
    game: Option<String>,
    #[command(flatten)]
    store: StoreArgs,
}

/// Arguments of `missive archive convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// The archive or PGN file (`-` for stdin).
    file: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value_t = FormatArg::Archive)]
    to: FormatArg,
    /// The move notation of the output.
    #[arg(long, value_enum, default_value_t = NotationArg::Short)]
    notation: NotationArg,
    /// Sign each game with the secret key in this file (`ed25519-secret:...`).
    #[arg(long, value_name = "SECRET_KEY_FILE")]
    sign: Option<PathBuf>,
}

/// Arguments of `missive archive verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// The archive file (`-` for stdin).
    file: PathBuf,
    /// The server's public key (`ed25519:<base64>`), or a file holding it.
    #[arg(long, value_name = "PUB")]
    key: Option<String>,
}

/// The `--to` flag's values.
#[derive(Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// The archive: times, events, digest and signature.
    Archive,
    /// Plain PGN: tags, moves and result only.
    Pgn,
}

/// Runs an archive subcommand.
pub fn run(command: &ArchiveCommand) -> Result<(), String> {
    match command {
        ArchiveCommand::Convert(args) => convert(args),
        ArchiveCommand::Verify(args) => verify_file(args),
        ArchiveCommand::Import(args) => import(args),
        ArchiveCommand::Export(args) => export_games(args),
        ArchiveCommand::Key(args) => print_key(args),
        ArchiveCommand::Bench(args) => import_bench::run(args),
        ArchiveCommand::Keygen => {
            let pair = KeyPair::generate();
            println!("{}", pair.secret_text());
            println!("{}", pair.public().to_text());
            Ok(())
        }
    }
}

fn convert(args: &ConvertArgs) -> Result<(), String> {
    let options = ExportOptions {
        format: match args.to {
            FormatArg::Archive => Format::Archive,
            FormatArg::Pgn => Format::Pgn,
        },
        notation: args.notation.into(),
    };
    let key = args
        .sign
        .as_deref()
        .map(|path| KeyPair::from_text(&read_text(path)?).map_err(|e| e.to_string()))
        .transpose()?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let summary = each_game(&args.file, Reading::Whole, |game| {
        let mut record = game.record;
        if let Some(key) = &key {
            sign(&mut record, key, &Registry).map_err(|e| e.to_string())?;
        }
        let text = export(&record, options, &Registry).map_err(|e| e.to_string())?;
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())
    })?;
    out.flush().map_err(|e| e.to_string())?;
    summary.finish("converted")
}

fn verify_file(args: &VerifyArgs) -> Result<(), String> {
    let key = args
        .key
        .as_deref()
        .map(|key| {
            let text = if Path::new(key).is_file() {
                read_text(Path::new(key))?
            } else {
                key.to_string()
            };
            PublicKey::from_text(&text).map_err(|e| e.to_string())
        })
        .transpose()?;
    let summary = each_game(&args.file, Reading::Whole, |game| {
        let failures = verify(&game, key.as_ref());
        if failures.is_empty() {
            println!("{}: ok", describe(&game));
            return Ok(());
        }
        let reasons: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
        Err(format!("{}: {}", describe(&game), reasons.join("; ")))
    })?;
    summary.finish("verified")
}

fn import(args: &ImportArgs) -> Result<(), String> {
    let runtime = runtime()?;
    let service = runtime.block_on(open(&args.store))?;
    let importer = args.player.as_deref();
    let mut batches =
        ImportBatches::new(&service, importer, FILE_IMPORT_BATCH, WorkTime::UNLIMITED);
    let mut refused = 0;
    let mut report = |outcomes: Vec<ImportOutcome>| {
        for outcome in outcomes {
            if outcome.id.is_some() {
                println!("{outcome}");
            } else {
                refused += 1;
                eprintln!("{outcome}");
            }
        }
    };
    let read = each_game(&args.file, Reading::ForImport, |game| {
        report(runtime.block_on(batches.push(Ok(game))));
        Ok(())
    })?;
    report(runtime.block_on(batches.finish()));
    Summary {
        done: read.done - refused,
        failed: read.failed + refused,
    }
    .finish("imported")
}

fn print_key(args: &StoreArgs) -> Result<(), String> {
    let service = runtime()?.block_on(open(args))?;
    let key = service
        .archive_public_key()
        .ok_or("this store has no archive key (set MISSIVE_ARCHIVE_KEY, or run `missive serve`)")?;
    println!("{}", key.to_text());
    Ok(())
}

/// Every game `player` finished, most recent first, private ones too.
async fn finished_ids(service: &GameService, player: &str) -> Result<Vec<GameId>, String> {
    let mut ids = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let page = service
            .finished_by(player, cursor.as_ref(), 500, Some(player))
            .await
            .map_err(|e| e.to_string())?;
        ids.extend(page.items.into_iter().map(|summary| summary.id));
        match page.next {
            Some(next) => cursor = Some(next),
            None => return Ok(ids),
        }
    }
}

fn export_games(args: &ExportArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let service = open(&args.store).await?;
        let ids = match (&args.player, &args.game) {
            (_, Some(game)) => vec![GameId(game.clone())],
            (Some(player), None) => finished_ids(&service, player).await?,
            (None, None) => service.all_game_ids().await.map_err(|e| e.to_string())?,
        };
        let mut out = io::BufWriter::new(io::stdout().lock());
        for id in &ids {
            let text = service
                .operator_archive_text(id)
                .await
                .map_err(|e| format!("game {id}: {e}"))?;
            out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        }
        out.flush().map_err(|e| e.to_string())?;
        eprintln!("{} games exported", ids.len());
        Ok(())
    })
}

/// `game 3 (line 40, Alice - Bob)`.
fn describe(game: &Imported) -> String {
    format!(
        "game {} (line {}, {})",
        game.number,
        game.line,
        game.record.players.join(" - ")
    )
}

/// How many games went through and how many were rejected.
struct Summary {
    done: usize,
    failed: usize,
}

impl Summary {
    fn finish(&self, verb: &str) -> Result<(), String> {
        eprintln!("{} games {verb}, {} rejected", self.done, self.failed);
        if self.failed == 0 {
            Ok(())
        } else {
            Err(format!(
                "{} of {} games rejected",
                self.failed,
                self.done + self.failed
            ))
        }
    }
}

/// How a command reads its file.
#[derive(Clone, Copy)]
enum Reading {
    /// On every core ([`Reader::parallel`]), each record's moves with their long notation:
    /// to convert or verify.
    Whole,
    /// On two threads ([`Reader::pipelined`]), the moves without their texts
    /// ([`Reader::without_move_texts`]): a store's import, whose preparation and writer take
    /// the other cores, so that its reading takes no more processor time than one thread.
    ForImport,
}

/// Streams the games of `path` through `handle`, reporting every rejected game on stderr,
/// with a progress line when stderr is a terminal and the file is large, and the reader's
/// warning (text that is not UTF-8, read as Windows-1252) at the end, read as `reading` says.
fn each_game(
    path: &Path,
    reading: Reading,
    mut handle: impl FnMut(Imported) -> Result<(), String>,
) -> Result<Summary, String> {
    let (input, size): (Box<dyn io::BufRead + Send>, u64) = if path == Path::new("-") {
        (Box::new(BufReader::new(io::stdin())), 0)
    } else {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        (Box::new(BufReader::new(file)), size)
    };
    let progress = io::stderr().is_terminal() && size > PROGRESS_FROM;
    let mut reader = match reading {
        Reading::Whole => Reader::parallel(input, &Registry),
        Reading::ForImport => Reader::pipelined(input, &Registry).without_move_texts(),
    };
    let mut summary = Summary { done: 0, failed: 0 };
    while let Some(game) = reader.next() {
        let outcome = game.map_err(|e| e.to_string()).and_then(&mut handle);
        match outcome {
            Ok(()) => summary.done += 1,
            Err(message) => {
                summary.failed += 1;
                eprintln!("{message}");
            }
        }
        let games = summary.done + summary.failed;
        if progress && games.is_multiple_of(1000) {
            eprint!(
                "\r{:>3}% {games} games",
                reader.offset().saturating_mul(100) / size.max(1)
            );
        }
    }
    if progress {
        eprintln!();
    }
    if let Some(warning) = reader.warning() {
        eprintln!("warning: {warning}");
    }
    Ok(summary)
}

/// Files above this size get a progress line.
const PROGRESS_FROM: u64 = 4 * 1024 * 1024;

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}
