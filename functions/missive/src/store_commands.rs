//! The store tools: `table create`, `check` and `upgrade`, for any store setting, and what
//! the benches share: started games and random playouts.

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use missive_domain::{GameId, TimeControl};
use missive_game::{GameService, NewGame, SeatRequest, SystemClock};
use missive_rules::{Notation, registry};
use missive_settings::Opening;
use missive_store::{DynamoDbStore, StoreSetting};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

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

/// Creates and starts a game of `variant` under `time_control` whose seats hold
/// `SEAT-N` (N = `index`, SEAT the variant's name of the seat: `white-N` and `black-N` at
/// chess), the first creating it and inviting the others, each signed up first (an
/// invitation is for a player), then taking their seats.
pub(crate) async fn started_game(
    service: &GameService,
    index: usize,
    variant: &str,
    time_control: TimeControl,
) -> Result<GameId, String> {
    let seats = registry::variant(variant)
        .map_err(|e| e.to_string())?
        .seat_names();
    let invited: Vec<String> = (1..seats.len())
        .map(|seat| seat_player(variant, seat, index))
        .collect();
    for player in &invited {
        service
            .confirm_sign_up(player, &format!("{player}@example.org"))
            .await
            .map_err(|e| format!("signing {player} up: {e}"))?;
    }
    let mut requests = vec![SeatRequest::Creator];
    requests.extend(invited.iter().map(|player| SeatRequest::Invite {
        player: player.clone(),
    }));
    let id = service
        .create_game(NewGame {
            creator: seat_player(variant, 0, index),
            variant: variant.into(),
            options: String::new(),
            start_position: None,
            seats: requests,
            time_control,
            rated: false,
            private: false,
        })
        .await
        .map_err(|e| e.to_string())?;
    for player in &invited {
        service
            .join(&id, player, None)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(id)
}

/// The player [`started_game`] seats in `seat` of game `index` of `variant`.
pub(crate) fn seat_player(variant: &str, seat: usize, index: usize) -> String {
    let name = registry::variant(variant)
        .ok()
        .and_then(|v| v.seat_names().get(seat).copied())
        .unwrap_or("seat");
    format!("{name}-{index}")
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
