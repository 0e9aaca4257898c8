//! The store tools: `table create`, `check` and `bench`, for any store setting.

use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use missive_domain::{GameId, TimeControl};
use missive_game::{GameService, MoveRequest, NewGame, SeatRequest, SystemClock};
use missive_rules::{Notation, registry};
use missive_settings::Opening;
use missive_store::{DynamoDbStore, StoreSetting, Usage};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::Mutex;

/// Where the games are: `--store sqlite:PATH` or `--store dynamodb:TABLE`.
#[derive(Args)]
pub struct StoreArgs {
    /// The store: `sqlite:PATH` or `dynamodb:TABLE`.
    #[arg(long, env = missive_store::ENV_VAR)]
    pub store: StoreSetting,
    /// Create the SQLite file if there is none (without it, a missing file is an error
    /// naming the path).
    #[arg(long)]
    create: bool,
    /// The archive key (`ed25519-secret:BASE64`, or several, one a line, the last signing)
    /// exports are signed with and imports checked against; without it, a SQLite store's
    /// archive key file, if there is one.
    #[arg(long, env = "MISSIVE_ARCHIVE_KEY", hide_env_values = true)]
    archive_key: Option<String>,
}

/// `missive table ...`.
#[derive(Subcommand)]
pub enum TableCommand {
    /// Create the DynamoDB table from infra/table.json (nothing happens if it exists).
    Create(StoreArgs),
}

/// Arguments of `missive bench`.
#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Games played side by side.
    #[arg(long, default_value_t = 64)]
    games: usize,
    /// Moves per game at most (random legal moves; a game may end sooner).
    #[arg(long, default_value_t = 40)]
    plies: u32,
    /// Games in flight at once.
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Print `ack GAME PLY MOVE` as soon as each move is accepted.
    #[arg(long)]
    print_acks: bool,
}

/// `missive table create`: creates the DynamoDB table the setting names.
pub fn table(command: &TableCommand) -> Result<(), String> {
    let TableCommand::Create(args) = command;
    let StoreSetting::DynamoDb(table) = &args.store else {
        return Err("table create is for dynamodb:TABLE stores (SQLite creates its own)".into());
    };
    runtime()?.block_on(async {
        let store = DynamoDbStore::connect(table).await;
        let created = store.create_table().await.map_err(|e| e.to_string())?;
        println!(
            "table {table} {}",
            if created { "created" } else { "exists already" }
        );
        Ok(())
    })
}

/// `missive check`: replays every stored game and compares it with its head.
pub fn check(args: &StoreArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let service = open(args).await?;
        let report = service.check_all().await.map_err(|e| e.to_string())?;
        for (game, problem) in &report.problems {
            println!("{game}: {problem}");
        }
        println!(
            "{} games, {} moves checked, {} inconsistent",
            report.games,
            report.moves,
            report.problems.len()
        );
        if report.problems.is_empty() {
            Ok(())
        } else {
            Err("some games do not replay to their head".into())
        }
    })
}

/// `missive upgrade`: rewrites every head an earlier version wrote with what this one keeps.
pub fn upgrade(args: &StoreArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let service = open(args).await?;
        let upgraded = service.upgrade_all().await.map_err(|e| e.to_string())?;
        println!("{upgraded} games and tournaments upgraded");
        Ok(())
    })
}

/// What one accepted move cost: its latency, its ply, the moves of the rules window the
/// game's head held when it was read, and what the store did meanwhile (exactly its own
/// work when one game is played at a time).
struct Cost {
    latency: Duration,
    ply: u32,
    window: usize,
    usage: Usage,
}

/// `missive bench`: plays random games through the service and reports accepted moves
/// per second, latency per move, and the store's work per move (round trips, records and
/// bytes read) early in the games and late in them.
pub fn bench(args: &BenchArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let service = open(&args.store).await?;
        let games = create_games(&service, args.games).await?;
        let before = service.store_usage().round_trips;
        let queue = Arc::new(Mutex::new(games.into_iter().enumerate()));
        let started = Instant::now();
        let workers: Vec<_> = (0..args.concurrency.max(1))
            .map(|_| {
                let (service, queue) = (service.clone(), Arc::clone(&queue));
                let (plies, print_acks) = (args.plies, args.print_acks);
                tokio::spawn(async move {
                    let mut costs = Vec::new();
                    loop {
                        let Some((index, game)) = queue.lock().await.next() else {
                            return Ok::<_, String>(costs);
                        };
                        play_random_game(&service, &game, index, plies, print_acks, &mut costs)
                            .await?;
                    }
                })
            })
            .collect();
        let mut costs = Vec::new();
        for worker in workers {
            costs.extend(worker.await.map_err(|e| e.to_string())??);
        }
        let elapsed = started.elapsed();
        let round_trips = service.store_usage().round_trips - before;
        report(&costs, elapsed, round_trips);
        report_reads(&costs, args.plies);
        Ok(())
    })
}

impl StoreArgs {
    /// How the store may be opened: a SQLite file that is not there is created only with
    /// `--create`, else opening it is an error.
    pub(crate) fn opening(&self) -> Opening {
        if self.create {
            Opening::MayCreate
        } else {
            Opening::MustExist
        }
    }
}

/// The game service over the store the arguments name, on the system clock; a SQLite
/// file that is not there is created only with `--create`.
pub(crate) async fn open(args: &StoreArgs) -> Result<GameService, String> {
    let opening = args.opening();
    let store = missive_settings::open_store(&args.store, opening)
        .await
        .map_err(|e| e.to_string())?;
    let keys = missive_settings::archive_keys(args.archive_key.as_deref(), &args.store, opening)
        .map_err(|e| e.to_string())?;
    Ok(missive_settings::game_service(
        store,
        Arc::new(SystemClock),
        keys,
    ))
}

/// A runtime for the store commands.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

/// Creates `count` started chess games between `white-N` and `black-N`.
async fn create_games(service: &GameService, count: usize) -> Result<Vec<GameId>, String> {
    let mut games = Vec::with_capacity(count);
    for index in 0..count {
        games.push(started_game(service, index, TimeControl::DaysPerMove { days: 14 }).await?);
    }
    Ok(games)
}

/// Creates and starts a chess game of `white-N` and `black-N` (N = `index`) under
/// `time_control`, signing `black-N` up first (an invitation is for a player).
pub(crate) async fn started_game(
    service: &GameService,
    index: usize,
    time_control: TimeControl,
) -> Result<GameId, String> {
    let black = format!("black-{index}");
    service
        .confirm_sign_up(&black, &format!("{black}@example.org"))
        .await
        .map_err(|e| format!("signing {black} up: {e}"))?;
    let id = service
        .create_game(NewGame {
            creator: format!("white-{index}"),
            variant: "chess".into(),
            options: String::new(),
            start_position: None,
            seats: vec![
                SeatRequest::Creator,
                SeatRequest::Invite {
                    player: black.clone(),
                },
            ],
            time_control,
            rated: false,
            private: false,
        })
        .await
        .map_err(|e| e.to_string())?;
    service
        .join(&id, &black, None)
        .await
        .map_err(|e| e.to_string())?;
    Ok(id)
}

/// Plays up to `plies` random legal moves in `game`, timing each submission.
async fn play_random_game(
    service: &GameService,
    game: &GameId,
    index: usize,
    plies: u32,
    print_acks: bool,
    costs: &mut Vec<Cost>,
) -> Result<(), String> {
    let mut playout = RandomPlayout::new("chess", index)?;
    for ply in 0..plies {
        let Some((seat, text)) = playout.next_move() else {
            return Ok(());
        };
        let text = &text;
        let request = MoveRequest {
            player: format!("{}-{index}", if seat == 0 { "white" } else { "black" }),
            expected_ply: ply,
            key: format!("{game}-{ply}"),
            text: text.clone(),
            offer_draw: false,
            message: None,
        };
        let window = playout.window_moves();
        let (sent, usage) = (Instant::now(), service.store_usage());
        service
            .submit_move(game, &request)
            .await
            .map_err(|e| format!("{game} ply {ply}: {e}"))?;
        costs.push(Cost {
            latency: sent.elapsed(),
            ply,
            window,
            usage: service.store_usage().since(usage),
        });
        playout.played(text)?;
        if print_acks {
            println!("ack {game} {ply} {text}");
            std::io::stdout().flush().map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

fn report(costs: &[Cost], elapsed: Duration, round_trips: u64) {
    let mut sorted: Vec<Duration> = costs.iter().map(|c| c.latency).collect();
    sorted.sort();
    let at = |q: f64| quantile_ms(&sorted, q);
    let moves = sorted.len().max(1) as f64;
    println!(
        "{} moves accepted in {:.2} s: {:.0} moves/s, latency p50 {:.2} ms, p99 {:.2} ms, \
         {:.2} round trips per move",
        sorted.len(),
        elapsed.as_secs_f64(),
        sorted.len() as f64 / elapsed.as_secs_f64(),
        at(0.50),
        at(0.99),
        round_trips as f64 / moves,
    );
}

/// The store's reads per move in the first ten plies of the games and in the last ten
/// before `plies`, as records and bytes; then the bytes of each by the length of the rules
/// window the head held (the moves since the last capture or pawn move, which the head
/// keeps for the repetition rules), so that moves with the same window are compared.
fn report_reads(costs: &[Cost], plies: u32) {
    let late_from = plies.saturating_sub(10);
    let ranges = [("plies 0-9", 0..10), ("last 10 plies", late_from..plies)];
    for (name, range) in &ranges {
        let moves: Vec<&Cost> = costs.iter().filter(|c| range.contains(&c.ply)).collect();
        let per_move = PerMove(&moves);
        println!(
            "{name}: {} moves, per move {:.2} reads, {:.2} records and {:.0} bytes read, \
             {:.2} writes",
            moves.len(),
            per_move.mean(|u| u.reads),
            per_move.mean(|u| u.items_read),
            per_move.mean(|u| u.bytes_read),
            per_move.mean(|u| u.writes),
        );
    }
    for (low, high) in [(0, 4), (5, 9), (10, 19), (20, 49), (50, usize::MAX)] {
        let cells: Vec<String> = ranges
            .iter()
            .map(|(name, range)| {
                let moves: Vec<&Cost> = costs
                    .iter()
                    .filter(|c| range.contains(&c.ply) && (low..=high).contains(&c.window))
                    .collect();
                let per_move = PerMove(&moves);
                format!(
                    "{name} {} moves, {:.2} records and {:.0} bytes read per move",
                    moves.len(),
                    per_move.mean(|u| u.items_read),
                    per_move.mean(|u| u.bytes_read)
                )
            })
            .collect();
        let window = match high {
            usize::MAX => format!("{low}+"),
            _ => format!("{low}-{high}"),
        };
        println!("window of {window} moves: {}", cells.join("; "));
    }
}

/// The costs of some moves.
struct PerMove<'a>(&'a [&'a Cost]);

impl PerMove<'_> {
    /// The mean of `field` of the moves' store work (0 without moves).
    fn mean(&self, field: fn(&Usage) -> u64) -> f64 {
        let total: u64 = self.0.iter().map(|c| field(&c.usage)).sum();
        total as f64 / self.0.len().max(1) as f64
    }
}

/// The `q` quantile of `sorted` durations, in milliseconds (0 when empty).
pub fn quantile_ms(sorted: &[Duration], q: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * q) as usize).min(sorted.len().saturating_sub(1)))
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// A local game advanced by random legal moves, seeded: the moves a load generator sends.
pub struct RandomPlayout {
    rng: StdRng,
    game: Box<dyn missive_rules::AnyGame>,
}

impl RandomPlayout {
    /// A fresh game of `variant`, its choices seeded by `seed`.
    pub fn new(variant: &str, seed: usize) -> Result<RandomPlayout, String> {
        let game = registry::variant(variant)
            .and_then(|v| v.new_game("", None))
            .map_err(|e| e.to_string())?;
        Ok(RandomPlayout {
            rng: StdRng::seed_from_u64(seed as u64),
            game,
        })
    }

    /// The seat to move and a random legal move (long notation); `None` once the game is over.
    pub fn next_move(&mut self) -> Option<(u8, String)> {
        let seat = self.game.to_move()?;
        let legal = self.game.legal_moves(Notation::Long);
        let text = legal
            .get(self.rng.random_range(0..legal.len().max(1)))?
            .clone();
        Some((seat.0, text))
    }

    /// How many moves the game's rules window holds: those since the last capture or pawn
    /// move (or the start), which a head keeps for the repetition rules.
    pub fn window_moves(&self) -> usize {
        self.game.window().moves.len()
    }

    /// Plays `text`, the move the server accepted.
    pub fn played(&mut self, text: &str) -> Result<(), String> {
        self.game.play(text).map(|_| ()).map_err(|e| e.to_string())
    }
}
