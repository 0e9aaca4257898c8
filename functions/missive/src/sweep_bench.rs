//! `missive sweep-bench`: what one sweep of the notifier costs the store, with many games
//! waiting for a move and none due, then with some due.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use clap::Args;
use missive_auth::{Authority, SigningKey};
use missive_domain::TimeControl;
use missive_game::{GameService, ManualClock};
use missive_mail::{Mail, MailError, Mailer};
use missive_notify::{Scheduler, SweepReport};
use missive_store::Usage;

use crate::store_commands::{StoreArgs, runtime, started_game};

/// Arguments of `missive sweep-bench`.
#[derive(Args)]
pub struct SweepBenchArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Games waiting for a move.
    #[arg(long, default_value_t = 10_000)]
    games: usize,
    /// How many of them are due (their reminder time reached) in the second sweep.
    #[arg(long, default_value_t = 100)]
    due: usize,
}

/// A mailer that only counts: the bench measures the store, not the mail.
#[derive(Default)]
pub(crate) struct Counting(pub(crate) AtomicUsize);

#[async_trait::async_trait]
impl Mailer for Counting {
    async fn send(&self, _: &Mail) -> Result<(), MailError> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// `missive sweep-bench`: creates `games` games waiting for a move, three days per move
/// (`due` of them started 50 hours earlier, so their reminder at 80% of the turn comes
/// eight hours later), lets a first sweep attend every turn, then reports the store's work
/// for a sweep an hour later with nothing due and for one eight hours later with `due`
/// reminders due. The players are not registered, so no mail is composed: the claims and
/// the wake-ups are what the store sees.
pub fn sweep_bench(args: &SweepBenchArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let store = missive_settings::open_store(&args.store.store, args.store.opening())
            .await
            .map_err(|e| e.to_string())?;
        let start = Utc::now();
        let clock = Arc::new(ManualClock::new(start - Duration::hours(50)));
        let service = GameService::new(store.clone(), clock.clone());
        let authority = Authority::new(&SigningKey::generate(), "missive", "missive")
            .map_err(|e| e.to_string())?;
        let mailer = Arc::new(Counting::default());
        let notifier = Scheduler::new(
            service.clone(),
            Arc::new(authority),
            mailer.clone(),
            clock.clone(),
            "http://127.0.0.1:8080",
        );
        let created = Instant::now();
        for index in 0..args.games {
            if index == args.due.min(args.games) {
                clock.set(start);
            }
            started_game(
                &service,
                index,
                "chess",
                TimeControl::DaysPerMove { days: 3 },
            )
            .await?;
        }
        eprintln!(
            "{} games created in {:.1} s",
            args.games,
            created.elapsed().as_secs_f64()
        );
        let first = measured(&notifier, &store, &clock, start).await?;
        println!("first sweep (every turn mail):  {first}");
        let idle = measured(&notifier, &store, &clock, start + Duration::hours(1)).await?;
        println!("sweep with nothing due:         {idle}");
        let due = measured(&notifier, &store, &clock, start + Duration::hours(8)).await?;
        println!("sweep with {} reminders due:    {due}", args.due);
        println!("mails sent: {}", mailer.0.load(Ordering::Relaxed));
        Ok(())
    })
}

/// A sweep at `at` and what it cost.
struct Measured {
    report: SweepReport,
    usage: Usage,
    seconds: f64,
    shards: u32,
}

impl std::fmt::Display for Measured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.report;
        let units = |milli: u64| milli as f64 / 1000.0;
        write!(
            f,
            "{} due, {} turn mails, {} reminders, {} time-outs; {} reads ({} shards), \
             {} records read, {} writes of {} records; {:.1} read units, {:.1} write units \
             ({:.1} of them the indexes'); {:.3} s",
            r.due,
            r.turns,
            r.reminders,
            r.timeouts,
            self.usage.reads,
            self.shards,
            self.usage.items_read,
            self.usage.writes,
            self.usage.items_written,
            units(self.usage.read_milliunits),
            units(self.usage.write_milliunits),
            units(self.usage.index_write_milliunits),
            self.seconds
        )
    }
}

/// Runs one sweep at `at` and measures it.
async fn measured(
    notifier: &Scheduler,
    store: &Arc<dyn missive_store::Store>,
    clock: &ManualClock,
    at: DateTime<Utc>,
) -> Result<Measured, String> {
    clock.set(at);
    let before = store.usage();
    let started = Instant::now();
    let report = notifier.sweep().await.map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let after = store.usage();
    if let Some(failure) = report.failures.first() {
        return Err(failure.clone());
    }
    Ok(Measured {
        usage: after.since(before),
        report,
        seconds,
        shards: store.wake_shards(),
    })
}
