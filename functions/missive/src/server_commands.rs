//! `missive serve`: the API on one machine; `missive token`: an access token for scripts.

use std::net::SocketAddr;
use std::sync::Arc;

use clap::Args;
use missive_api::Settings;
use missive_game::SystemClock;

/// Where to listen and how to configure the API.
#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "MISSIVE_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Seconds between sweeps (time-outs, reminders, digests, turn mails not yet sent).
    #[arg(long, env = "MISSIVE_SWEEP_EVERY", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    sweep_every: u64,
    #[command(flatten)]
    settings: Settings,
}

/// Whom to mint an access token for.
#[derive(Args)]
pub struct TokenArgs {
    /// The player's handle.
    #[arg(long)]
    handle: String,
    #[command(flatten)]
    settings: Settings,
}

/// Serves the API until interrupted, with the notifier and the sweeper running beside it:
/// every change the service commits goes to the notifier, and a sweep runs every
/// `--sweep-every` seconds. Mailed links go to `--public-url`, else to the address the
/// server listens on.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    runtime()?.block_on(async {
        let mut app = args.settings.app(Arc::new(SystemClock)).await?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        if app.public_url.is_empty() {
            app.public_url = format!("http://{local}");
        }
        let (changes, feed) = tokio::sync::mpsc::unbounded_channel();
        app.service = app.service.with_changes(changes);
        let notifier = args.settings.notifier(&app);
        let follower = notifier.clone();
        tokio::spawn(async move { follower.follow(feed).await });
        let period = std::time::Duration::from_secs(args.sweep_every);
        tokio::spawn(async move { notifier.sweep_every(period).await });
        let mail = match (&args.settings.smtp_url, args.settings.ses) {
            (_, true) => "SES".to_string(),
            (Some(_), false) => "SMTP".to_string(),
            (None, false) => args.settings.outbox.display().to_string(),
        };
        eprintln!(
            "missive: serving http://{local} (store {}, mail to {mail}, links to {})",
            args.settings.store, app.public_url,
        );
        let service = app
            .router()
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        axum::serve(listener, service)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| e.to_string())
    })
}

/// Prints an access token for a registered player.
pub fn token(args: &TokenArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let app = args.settings.app(Arc::new(SystemClock)).await?;
        app.service
            .player(&args.handle)
            .await
            .map_err(|e| e.to_string())?;
        let token = missive_api::access_token(&app, &args.handle).map_err(|e| e.message.clone())?;
        println!("{token}");
        Ok(())
    })
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}
