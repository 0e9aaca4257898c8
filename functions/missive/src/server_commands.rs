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

/// Serves the API until interrupted.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    runtime()?.block_on(async {
        let app = args.settings.app(Arc::new(SystemClock)).await?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        eprintln!(
            "missive: serving http://{local} (store {}, mail to {})",
            args.settings.store,
            args.settings.outbox.display()
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
