//! `missive bench`: random games played through the game service, timed, with what each
//! move costs the store (and, when asked, what the notifier's attendance of each change
//! costs it).

use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use missive_auth::{Authority, SigningKey};
use missive_domain::{GameId, Head, TimeControl};
use missive_game::{Config, GameService, MoveRequest, SystemClock};
use missive_notify::Scheduler;
use missive_store::Usage;
use tokio::sync::Mutex;

use crate::store_commands::{
    RandomPlayout, StoreArgs, open, quantile_ms, runtime, seat_player, started_game,
};
use crate::sweep_bench::Counting;

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
    /// The variant played (`chess`; `sanguo` for three players).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// After each move, attend the change as the notifier does (the turn mail composed and
    /// handed to a mailer that only counts), and report what that costs the store apart.
    #[arg(long)]
    notifier: bool,
    /// Leave each move's feed items out of its commit, as the Lambda functions do
    /// (`MISSIVE_FEED_FROM_STREAM`); with `--notifier`, its attendance first writes them from
    /// the heads before and after the move, as the notifier does from the stream's record.
    #[arg(long)]
    feed_from_stream: bool,
    /// Print `ack GAME PLY MOVE` as soon as each move is accepted.
    #[arg(long)]
    print_acks: bool,
}

/// What one accepted move cost: its latency, its ply, the moves of the rules window the
/// game's head held when it was read, and what the store did meanwhile (exactly its own
/// work when one game is played at a time), then for the notifier's attendance.
struct Cost {
    latency: Duration,
    ply: u32,
    window: usize,
    usage: Usage,
    notifier: Usage,
}

/// How the games are played: the service, the notifier if the bench attends changes, and
/// what every game shares.
#[derive(Clone)]
struct Bench {
    service: GameService,
    notifier: Option<Scheduler>,
    /// Whether the notifier writes each move's feed items, which its commit left out.
    tells: bool,
    variant: Arc<str>,
    plies: u32,
    print_acks: bool,
}

/// `missive bench`: plays random games through the service and reports accepted moves
/// per second, latency per move, and the store's work per move (round trips, records and
/// bytes read and written, the capacity billed) early in the games and late in them.
pub fn bench(args: &BenchArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let config = Config {
            feed_from_stream: args.feed_from_stream,
            ..Config::default()
        };
        let service = open(&args.store).await?.with_config(config);
        let notifier = args.notifier.then(|| notifier(&service)).transpose()?;
        let games = create_games(&service, &args.variant, args.games, notifier.is_some()).await?;
        let bench = Bench {
            service: service.clone(),
            notifier,
            tells: args.notifier && args.feed_from_stream,
            variant: args.variant.as_str().into(),
            plies: args.plies,
            print_acks: args.print_acks,
        };
        let before = service.store_usage().round_trips;
        let queue = Arc::new(Mutex::new(games.into_iter().enumerate()));
        let started = Instant::now();
        let workers: Vec<_> = (0..args.concurrency.max(1))
            .map(|_| {
                let (bench, queue) = (bench.clone(), Arc::clone(&queue));
                tokio::spawn(async move {
                    let mut costs = Vec::new();
                    loop {
                        let Some((index, game)) = queue.lock().await.next() else {
                            return Ok::<_, String>(costs);
                        };
                        bench.play_random_game(&game, index, &mut costs).await?;
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
        report_work(&costs, args.plies, args.notifier);
        Ok(())
    })
}

/// A notifier over `service` whose mail only counts.
fn notifier(service: &GameService) -> Result<Scheduler, String> {
    let authority =
        Authority::new(&SigningKey::generate(), "missive", "missive").map_err(|e| e.to_string())?;
    Ok(Scheduler::new(
        service.clone(),
        Arc::new(authority),
        Arc::new(Counting::default()),
        Arc::new(SystemClock),
        "http://127.0.0.1:8080",
    ))
}

/// Creates `count` started games of `variant` (14 days per move); with `registered`, the
/// creators signed up too, so that every turn has a registered player to mail.
async fn create_games(
    service: &GameService,
    variant: &str,
    count: usize,
    registered: bool,
) -> Result<Vec<GameId>, String> {
    let mut games = Vec::with_capacity(count);
    for index in 0..count {
        if registered {
            let creator = seat_player(variant, 0, index);
            service
                .confirm_sign_up(&creator, &format!("{creator}@example.org"))
                .await
                .map_err(|e| format!("signing {creator} up: {e}"))?;
        }
        let days = TimeControl::DaysPerMove { days: 14 };
        games.push(started_game(service, index, variant, days).await?);
    }
    Ok(games)
}

impl Bench {
    /// The head of `game` when the notifier tells each change (what the stream's record of
    /// a change carries, read here apart from the work measured), else none.
    async fn head(&self, game: &GameId) -> Result<Option<Head>, String> {
        if !self.tells {
            return Ok(None);
        }
        let head = self.service.store().head(game).await;
        head.map_err(|e| format!("{game}: {e}"))
    }

    /// Plays up to `plies` random legal moves in `game`, timing each submission, then
    /// attending the change as the notifier would.
    async fn play_random_game(
        &self,
        game: &GameId,
        index: usize,
        costs: &mut Vec<Cost>,
    ) -> Result<(), String> {
        let mut playout = RandomPlayout::new(&self.variant, index)?;
        for ply in 0..self.plies {
            let Some((seat, text)) = playout.next_move() else {
                return Ok(());
            };
            let request = MoveRequest {
                player: seat_player(&self.variant, seat.into(), index),
                expected_ply: ply,
                key: format!("{game}-{ply}"),
                text: text.clone(),
                offer_draw: false,
                message: None,
            };
            let window = playout.window_moves();
            let before = self.head(game).await?;
            let (sent, usage) = (Instant::now(), self.service.store_usage());
            self.service
                .submit_move(game, &request)
                .await
                .map_err(|e| format!("{game} ply {ply}: {e}"))?;
            let latency = sent.elapsed();
            let moved = self.service.store_usage().since(usage);
            let after = self.head(game).await?;
            let attending = self.service.store_usage();
            if let Some(notifier) = &self.notifier {
                let attended = async {
                    if let (Some(before), Some(after)) = (before, after) {
                        notifier.tell_change(&before, &after).await?;
                    }
                    notifier.game_changed(game).await
                };
                attended
                    .await
                    .map_err(|e| format!("{game} ply {ply}, the notifier: {e}"))?;
            }
            costs.push(Cost {
                latency,
                ply,
                window,
                usage: moved,
                notifier: self.service.store_usage().since(attending),
            });
            playout.played(&text)?;
            if self.print_acks {
                println!("ack {game} {ply} {text}");
                std::io::stdout().flush().map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
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

/// The plies the reports look at: the first ten of the games and the last ten before
/// `plies`.
fn ranges(plies: u32) -> [(&'static str, std::ops::Range<u32>); 2] {
    let late_from = plies.saturating_sub(10);
    [("plies 0-9", 0..10), ("last 10 plies", late_from..plies)]
}

/// The store's reads per move in the first ten plies of the games and in the last ten
/// before `plies`, as records and bytes; then the bytes of each by the length of the rules
/// window the head held (the moves since the last capture or pawn move, which the head
/// keeps for the repetition rules), so that moves with the same window are compared.
fn report_reads(costs: &[Cost], plies: u32) {
    let ranges = ranges(plies);
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

/// The store's whole work per move in the first and the last ten plies: requests, records
/// and bytes read and written, and the capacity billed (DynamoDB's read and write request
/// units, the indexes' part of the writes); then the same for the notifier's attendances.
fn report_work(costs: &[Cost], plies: u32, notifier: bool) {
    let parts: &[(&str, Part)] = if notifier {
        &[("move", |c| &c.usage), ("notifier", |c| &c.notifier)]
    } else {
        &[("move", |c| &c.usage)]
    };
    for (part, usage) in parts {
        for (name, range) in &ranges(plies) {
            let moves: Vec<&Cost> = costs.iter().filter(|c| range.contains(&c.ply)).collect();
            println!("{part}, {name}: {}", Work::of(&moves, *usage));
        }
    }
}

/// Which part of a move's cost a report looks at: the move's or the notifier's.
type Part = fn(&Cost) -> &Usage;

/// The mean work of some moves, as [`report_work`] prints it.
struct Work(Usage, usize);

impl Work {
    fn of(moves: &[&Cost], usage: Part) -> Work {
        Work(moves.iter().map(|cost| *usage(cost)).sum(), moves.len())
    }
}

impl std::fmt::Display for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Work(total, moves) = self;
        let mean = |value: u64| value as f64 / (*moves).max(1) as f64;
        write!(
            f,
            "{moves} moves, per move {:.2} requests; {:.2} reads of {:.2} records, {:.0} bytes; \
             {:.2} writes of {:.2} records, {:.0} bytes; {:.2} read units, {:.2} write units \
             ({:.2} of them the indexes')",
            mean(total.round_trips),
            mean(total.reads),
            mean(total.items_read),
            mean(total.bytes_read),
            mean(total.writes),
            mean(total.items_written),
            mean(total.bytes_written),
            mean(total.read_milliunits) / 1000.0,
            mean(total.write_milliunits) / 1000.0,
            mean(total.index_write_milliunits) / 1000.0,
        )
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
