//! `missive tournament-bench`: what a round robin's start and its games' ends cost the
//! store: players join until the last place starts it (the join creating games for the
//! start's working time, the sweep's steps the rest), then rated games end by resignation,
//! each settling its ratings and its tournament.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use clap::Args;
use missive_domain::{
    GameId, TimeControl, Tournament, TournamentStart, TournamentState, WithdrawalScoring,
};
use missive_game::{Config, GameService, ManualClock, NewTournament, Quotas, ServiceError};
use missive_store::Usage;

use crate::store_commands::{StoreArgs, runtime};

/// Arguments of `missive tournament-bench`.
#[derive(Args)]
pub struct TournamentBenchArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Players of the round robin (30: 435 games).
    #[arg(long, default_value_t = 30)]
    players: u8,
    /// The variant of its games (`sanguo`, of three seats: 26 players play 2,600 games).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Seconds one start (the last join's, then each of the sweep's steps) creates games.
    #[arg(long, default_value_t = Quotas::default().start_time.as_secs_f64())]
    start_seconds: f64,
    /// Rated games ended by resignation after the start.
    #[arg(long, default_value_t = 50)]
    ends: usize,
}

/// `missive tournament-bench`: a rated round robin of `players` (not registered: the bench
/// measures the store), joined one by one, the last join starting it, then the sweep's
/// steps going on with the start until it runs; then `ends` of its games resigned. Prints
/// the time and store work of the start (and of the join's part of it) and of an ended
/// game on average (the resignation, the two ratings, the tournament's upkeep).
pub fn tournament_bench(args: &TournamentBenchArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let store = missive_settings::open_store(&args.store.store, args.store.opening())
            .await
            .map_err(|e| e.to_string())?;
        let limits = Quotas {
            start_time: Duration::try_from_secs_f64(args.start_seconds)
                .map_err(|e| format!("--start-seconds: {e}"))?,
            ..Quotas::default()
        };
        let service = GameService::new(store.clone(), Arc::new(ManualClock::new(Utc::now())))
            .with_config(Config {
                quotas: limits,
                ..Config::default()
            });
        let failed = |e: ServiceError| e.to_string();
        let tournament = service
            .create_tournament(NewTournament {
                organiser: "organiser".into(),
                name: "Bench round robin".into(),
                variant: args.variant.clone(),
                options: String::new(),
                time_control: TimeControl::DaysPerMove { days: 3 },
                rated: true,
                size: args.players,
                double: false,
                start: TournamentStart::WhenFull,
                withdrawal: WithdrawalScoring::Forfeit,
                timeouts_to_withdraw: None,
                invited: Vec::new(),
                plays: false,
            })
            .await
            .map_err(failed)?;
        let handles: Vec<String> = (0..args.players).map(|n| format!("bench{n}")).collect();
        for handle in &handles[..handles.len() - 1] {
            service
                .join_tournament(&tournament.id, handle)
                .await
                .map_err(failed)?;
        }
        let before = store.usage();
        let started = Instant::now();
        let joined = service
            .join_tournament(&tournament.id, &handles[handles.len() - 1])
            .await
            .map_err(failed)?;
        let join = started.elapsed().as_secs_f64();
        let steps = run(&service, &joined).await.map_err(failed)?;
        let start = (started.elapsed().as_secs_f64(), store.usage().since(before));
        println!(
            "start: {} games created in {:.3} s (the join answered {} after {:.3} s, then {steps} \
             sweep steps); {}",
            joined.games.len(),
            start.0,
            joined.state.as_str(),
            join,
            work(start.1, 1)
        );
        let running = service.tournament(&tournament.id).await.map_err(failed)?;
        let ends: Vec<(GameId, String)> = running
            .games
            .iter()
            .take(args.ends)
            .map(|g| (g.game.clone(), g.players[0].clone()))
            .collect();
        let before = store.usage();
        let started = Instant::now();
        for (game, player) in &ends {
            service.resign(game, player).await.map_err(failed)?;
        }
        let seconds = started.elapsed().as_secs_f64();
        let count = ends.len().max(1);
        println!(
            "ended game (resignation, ratings, tournament): {:.2} ms each over {}; {}",
            1000.0 * seconds / count as f64,
            ends.len(),
            work(store.usage().since(before), count)
        );
        Ok(())
    })
}

/// Goes on with the start of `tournament` as the sweep does, one step after the other,
/// until it runs: how many steps that took.
async fn run(service: &GameService, tournament: &Tournament) -> Result<usize, ServiceError> {
    let mut steps = 0;
    while service.tournament(&tournament.id).await?.state == TournamentState::Starting {
        service.start_due_tournament(&tournament.id).await?;
        steps += 1;
    }
    Ok(steps)
}

/// The store's work `usage` per one of `count` operations.
fn work(usage: Usage, count: usize) -> String {
    let per = |n: u64| n as f64 / count as f64;
    format!(
        "{:.1} reads, {:.1} records read, {:.1} writes each",
        per(usage.reads),
        per(usage.items_read),
        per(usage.writes)
    )
}
