//! `missive loadtest`: plays many games at once over HTTP against a running API (such as
//! `missive serve`) and reports accepted moves per second, latency and errors.
//!
//! Each game has two fresh players (signed up over HTTP; their access tokens minted with
//! the server's signing key, found like the server finds it). Moves are random legal ones,
//! chosen from a local replay of the game, so only the move submissions are timed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use missive_auth::{Authority, Grant, Purpose};
use missive_rules::registry;
use missive_settings::{Opening, Settings};
use serde_json::{Value, json};

use crate::store_commands::{RandomPlayout, quantile_ms};

/// What to run.
#[derive(Args)]
pub struct LoadtestArgs {
    /// The API's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Games played at once.
    #[arg(long, default_value_t = 64)]
    games: usize,
    /// Moves per game at most (a game still on after them is resigned).
    #[arg(long, default_value_t = 60)]
    plies: u32,
    /// The variant played.
    #[arg(long, default_value = "chess")]
    variant: String,
    #[command(flatten)]
    settings: Settings,
}

/// One game's figures.
#[derive(Default)]
struct Played {
    latencies: Vec<Duration>,
    errors: Vec<String>,
}

/// Runs the load test and prints its figures.
pub fn run(args: &LoadtestArgs) -> Result<(), String> {
    registry::variant(&args.variant).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let authority = Arc::new(
            args.settings
                .authority(Opening::MustExist)
                .await
                .map_err(|e| e.to_string())?,
        );
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(args.games)
            .build()
            .map_err(|e| e.to_string())?;
        let run = ulid::Ulid::new().to_string()[16..].to_lowercase();
        let started = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for index in 0..args.games {
            let game = Game {
                http: http.clone(),
                url: args.url.trim_end_matches('/').to_string(),
                authority: Arc::clone(&authority),
                variant: args.variant.clone(),
                names: [format!("w{run}x{index}"), format!("b{run}x{index}")],
            };
            let plies = args.plies;
            tasks.spawn(async move {
                let mut played = Played::default();
                if let Err(error) = game.play(index, plies, &mut played).await {
                    played.errors.push(error);
                }
                played
            });
        }
        let mut latencies = Vec::new();
        let mut errors = Vec::new();
        while let Some(done) = tasks.join_next().await {
            let played = done.map_err(|e| e.to_string())?;
            latencies.extend(played.latencies);
            errors.extend(played.errors);
        }
        let elapsed = started.elapsed();
        latencies.sort();
        println!(
            "{} games, {} moves accepted in {:.2} s: {:.0} moves/s, latency p50 {:.2} ms, \
             p99 {:.2} ms, max {:.2} ms, {} errors",
            args.games,
            latencies.len(),
            elapsed.as_secs_f64(),
            latencies.len() as f64 / elapsed.as_secs_f64(),
            quantile_ms(&latencies, 0.50),
            quantile_ms(&latencies, 0.99),
            quantile_ms(&latencies, 1.0),
            errors.len()
        );
        for error in errors.iter().take(5) {
            eprintln!("error: {error}");
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("{} errors", errors.len()))
        }
    })
}

/// One game's players and connection.
struct Game {
    http: reqwest::Client,
    url: String,
    authority: Arc<Authority>,
    variant: String,
    names: [String; 2],
}

impl Game {
    async fn call(&self, token: Option<&str>, path: &str, body: Value) -> Result<Value, String> {
        let mut request = self.http.post(format!("{}{path}", self.url)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(|e| e.to_string())?;
        let status = response.status();
        let text = response.text().await.map_err(|e| e.to_string())?;
        if !status.is_success() {
            return Err(format!("{path}: {status} {text}"));
        }
        Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn play(&self, index: usize, plies: u32, played: &mut Played) -> Result<(), String> {
        let mut tokens = Vec::new();
        for name in &self.names {
            let email = format!("{name}@loadtest.invalid");
            self.call(
                None,
                "/v1/players",
                json!({ "handle": name, "email": email }),
            )
            .await?;
            let grant = Grant {
                purpose: Purpose::Access,
                subject: name.clone(),
                lifetime: 3600,
                move_link: None,
            };
            let now = chrono::Utc::now().timestamp();
            tokens.push(
                self.authority
                    .mint(&grant, now)
                    .map_err(|e| e.to_string())?,
            );
        }
        let created = self
            .call(
                Some(&tokens[0]),
                "/v1/games",
                json!({
                    "variant": self.variant,
                    "seats": [{ "kind": "creator" }, { "kind": "invite", "player": self.names[1] }],
                    "time_control": { "kind": "days-per-move", "days": 3 },
                }),
            )
            .await?;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        self.call(Some(&tokens[1]), &format!("/v1/games/{id}/join"), json!({}))
            .await?;
        let mut playout = RandomPlayout::new(&self.variant, index)?;
        for ply in 0..plies {
            let Some((seat, text)) = playout.next_move() else {
                return Ok(());
            };
            let sent = Instant::now();
            let response = self
                .http
                .post(format!("{}/v1/games/{id}/moves", self.url))
                .bearer_auth(&tokens[usize::from(seat)])
                .header("idempotency-key", format!("{id}-{ply}"))
                .json(&json!({ "move": text, "expected_ply": ply }))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            let _ = response.bytes().await;
            if status != reqwest::StatusCode::CREATED {
                return Err(format!("{id} ply {ply}: {status}"));
            }
            played.latencies.push(sent.elapsed());
            playout.played(&text)?;
        }
        self.call(
            Some(&tokens[0]),
            &format!("/v1/games/{id}/resign"),
            json!({}),
        )
        .await
        .map(|_| ())
    }
}
