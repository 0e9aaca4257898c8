//! `missive`: the command for players, organisers and operators.
//!
//! Rules tools (`variants`, `moves`, `perft`, `play`, `board`) work on every registered
//! variant with the same flags. Archive tools (`archive convert|verify|keygen`) read and write
//! game archives; `archive import|export` move games between archives and the store. Store
//! tools (`table create`, `check`, `bench`) take the store as `--store sqlite:PATH` or
//! `--store dynamodb:TABLE` (or `MISSIVE_STORE`) and create no SQLite file unless told to
//! (`--create`). `serve` runs the HTTP API on one machine (creating its database and key
//! on first start); `key rotate|list|remove` manage the key files beside its database
//! (token keys, or archive keys with `--archive`); `token` prints an access token for a
//! player of an existing store;
//! `loadtest` plays games over HTTP. Errors go to stderr with a non-zero exit status.

mod archive_commands;
mod board_commands;
mod import_bench;
mod key_commands;
mod loadtest;
mod move_bench;
mod push_commands;
mod rules_commands;
mod server_commands;
mod store_commands;
mod sweep_bench;
mod tournament_bench;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Missive: correspondence chess for standard chess, Dynamo chess, Tri-Dimensional chess
/// and Xiangqi variants: the rules tools, archives, the store tools, the local server.
#[derive(Parser)]
#[command(name = "missive", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the variant ids with a one-line description each.
    Variants,
    /// Print the legal moves of a position, one per line, sorted.
    Moves(rules_commands::MovesArgs),
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(rules_commands::PerftArgs),
    /// Apply moves and print the resulting position, side to move and outcome.
    Play(rules_commands::PlayArgs),
    /// Draw the position reached as an SVG picture on stdout, the last move highlighted.
    Board(board_commands::BoardArgs),
    /// Manage the DynamoDB table.
    #[command(subcommand)]
    Table(store_commands::TableCommand),
    /// Replay every stored game through the rules and compare it with its head.
    Check(store_commands::StoreArgs),
    /// Bring every stored game up to what this version keeps (after an upgrade; harmless
    /// to run again).
    Upgrade(store_commands::StoreArgs),
    /// Play random games through the game service and report moves/s and latency.
    Bench(move_bench::BenchArgs),
    /// Measure what one sweep of the notifier costs the store with many games waiting.
    SweepBench(sweep_bench::SweepBenchArgs),
    /// Start a round robin of unregistered players and end some of its rated games: the
    /// time and store work of the start and of each game's end.
    TournamentBench(tournament_bench::TournamentBenchArgs),
    /// Serve the HTTP API on one machine (SQLite by default, created on first start; mail to
    /// ./outbox/); SIGTERM or Ctrl-C stops it after the requests in flight.
    Serve(server_commands::ServeArgs),
    /// Play many games at once over HTTP against a running API and report moves/s.
    Loadtest(loadtest::LoadtestArgs),
    /// Print an access token for a registered player (of an existing store: none is created).
    Token(server_commands::TokenArgs),
    /// The key files of a local store: rotate in a fresh key, list the keys, remove a
    /// retired one (token keys; archive keys with --archive).
    #[command(subcommand)]
    Key(key_commands::KeyCommand),
    /// Game archives: convert, verify, make signing keys, import into and export from the
    /// store.
    #[command(subcommand)]
    Archive(archive_commands::ArchiveCommand),
    /// Web Push: make a VAPID key for a deployment's SSM parameter.
    #[command(subcommand)]
    Push(push_commands::PushCommand),
}

/// The allocator: many threads (the server's workers, an import's reader, preparer and
/// store writer) allocate small values all the time, which the system allocator serialises.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Variants => rules_commands::variants(),
        Command::Moves(args) => rules_commands::moves(&args),
        Command::Perft(args) => rules_commands::perft(&args),
        Command::Play(args) => rules_commands::play(&args),
        Command::Board(args) => board_commands::board(&args),
        Command::Table(command) => store_commands::table(&command),
        Command::Check(args) => store_commands::check(&args),
        Command::Bench(args) => move_bench::bench(&args),
        Command::Upgrade(args) => store_commands::upgrade(&args),
        Command::SweepBench(args) => sweep_bench::sweep_bench(&args),
        Command::TournamentBench(args) => tournament_bench::tournament_bench(&args),
        Command::Archive(command) => archive_commands::run(&command),
        Command::Serve(args) => server_commands::serve(&args),
        Command::Token(args) => server_commands::token(&args),
        Command::Key(command) => key_commands::run(&command),
        Command::Push(command) => push_commands::run(&command),
        Command::Loadtest(args) => loadtest::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("missive: {message}");
            ExitCode::FAILURE
        }
    }
}
