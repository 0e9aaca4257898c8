//! `missive serve`: the API on one machine; `missive token`: an access token for scripts.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use missive_api::Settings;
use missive_api::server::{self, Drained, ServerConfig};
use missive_game::SystemClock;
use missive_inbound::{Replies, folder};
use missive_settings::{LogFormat, Opening, logging};
use tokio::sync::watch;

/// Where to listen, how to treat connections and how to configure the API.
#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "MISSIVE_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Seconds between sweeps (time-outs, reminders, digests, turn mails not yet sent).
    #[arg(long, env = "MISSIVE_SWEEP_EVERY", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    sweep_every: u64,
    /// Seconds a client has to send a whole request head, from the connection's start or
    /// the end of the previous answer (so also how long a kept-alive connection may idle).
    #[arg(long, env = "MISSIVE_HEADER_TIMEOUT", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout: u64,
    /// Seconds an answer's bytes may make no progress (the client reads none) before the
    /// connection is closed.
    #[arg(long, env = "MISSIVE_WRITE_TIMEOUT", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    write_timeout: u64,
    /// Connections open at once. A connection beyond them closes the stalest one that
    /// runs no handler; when every one runs a handler it is answered 503. Lowered at start
    /// to the process's file limit (`ulimit -n`, raised to its hard limit if allowed) less
    /// the files kept for the store and logs (`FILE_RESERVE`).
    #[arg(long, env = "MISSIVE_MAX_CONNECTIONS", default_value_t = 512,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_connections: u64,
    /// Connections open at once from one client address (trusted proxies are exempt).
    #[arg(long, env = "MISSIVE_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_connections_per_client: u64,
    /// Largest request head (request line and headers) in bytes; 431 beyond.
    #[arg(long, env = "MISSIVE_MAX_HEADER_BYTES", default_value_t = 64 * 1024,
          value_parser = clap::value_parser!(u64).range(1024..))]
    max_header_bytes: u64,
    /// Seconds to let requests in flight finish after SIGTERM or SIGINT (Ctrl-C) before
    /// closing what is left.
    #[arg(long, env = "MISSIVE_DRAIN_SECONDS", default_value_t = 20)]
    drain_seconds: u64,
    /// The folder replies to turn mails are put in as `.eml` files (see --reply-to): each
    /// is played once and moved to `done/` (or `failed/`, with a `.reason` file).
    #[arg(long, env = "MISSIVE_INBOX", default_value = "./inbox")]
    inbox: PathBuf,
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

impl ServeArgs {
    /// How the server treats connections.
    fn server_config(&self) -> ServerConfig {
        ServerConfig {
            header_timeout: Duration::from_secs(self.header_timeout),
            write_timeout: Duration::from_secs(self.write_timeout),
            max_connections: within_file_limit(
                usize::try_from(self.max_connections).unwrap_or(usize::MAX),
            ),
            max_connections_per_client: usize::try_from(self.max_connections_per_client)
                .unwrap_or(usize::MAX),
            max_header_bytes: usize::try_from(self.max_header_bytes).unwrap_or(usize::MAX),
            drain: Duration::from_secs(self.drain_seconds),
            trusted_proxies: missive_api::TrustedProxies::new(
                self.settings.trusted_proxies.clone(),
            ),
        }
    }
}

/// Serves the API until SIGTERM or SIGINT, with the notifier and the sweeper running
/// beside it: every change the service commits goes to the notifier, and a sweep runs
/// every `--sweep-every` seconds. On the signal it stops accepting connections and
/// sweeping (between two games), lets requests in flight finish within the drain time,
/// lets the notifier mail the changes committed by then and finish the webhook deliveries
/// under way (within the drain time again), and exits; a second signal exits at once
/// (status 1). Replies put in the inbox folder are played every second, until the signal.
/// Mailed links go to `--public-url`, else to the address the server listens on. With
/// `--log-format json` every line it writes is JSON, its start (`event: serving`), stop
/// (`stopped`, `cut`) and failure to start (`failed`, status 1) included.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    let format = args.settings.base.log_format.unwrap_or(LogFormat::Text);
    logging::init(format);
    let result = runtime()?.block_on(run_server(args, format));
    if let (Err(message), LogFormat::Json) = (&result, format) {
        // Said as JSON here, so that no plain line follows it on stderr.
        tracing::error!(event = "failed", error = %message, "not serving");
        std::process::exit(1);
    }
    result
}

/// [`serve`]'s work: binds the address first (so a port taken leaves no store or key file
/// behind), then opens the store and serves until the signal.
async fn run_server(args: &ServeArgs, format: LogFormat) -> Result<(), String> {
    if args.settings.base.feed_from_stream {
        return Err(
            "MISSIVE_FEED_FROM_STREAM leaves feed items to the reader of a DynamoDB \
                    table's stream, which missive serve is not: its feeds would stay empty"
                .into(),
        );
    }
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let mut app = args
        .settings
        .app(Arc::new(SystemClock), Opening::MayCreate)
        .await
        .map_err(|e| e.to_string())?;
    if app.public_url.is_empty() {
        app.public_url = format!("http://{local}");
    }
    let (changes, feed) = tokio::sync::mpsc::unbounded_channel();
    app.service = app.service.with_changes(changes);
    let notifier = args.settings.notifier(&app).map_err(|e| e.to_string())?;
    let follower = notifier.clone();
    let hooks = notifier.clone();
    let replies = Replies::new(
        app.service.clone(),
        Arc::clone(&app.authority),
        notifier.clone(),
    );
    let (stop_mail, mail_stopped) = watch::channel(false);
    let following = tokio::spawn(async move { follower.follow(feed, mail_stopped).await });
    let (stop, stopped) = watch::channel(false);
    let period = Duration::from_secs(args.sweep_every);
    let reading = stopped.clone();
    let sweeping = tokio::spawn(async move { notifier.sweep_every(period, stopped).await });
    let inbox = args.inbox.clone();
    let watching = tokio::spawn(async move {
        folder::watch(&replies, &inbox, INBOX_EVERY, reading).await;
    });
    announce(
        format,
        "serving",
        &format!(
            "serving http://{local} (store {}, mail to {}, links to {})",
            args.settings.base.store,
            args.settings.base.mail_destination(),
            app.public_url,
        ),
    );
    let polls = app.polls.clone();
    let signalled = async move {
        let signal = shutdown_signal().await;
        tracing::info!(signal, "stopping");
        let _ = stop.send(true);
        polls.stop();
        tokio::spawn(cut_on_second_signal(format));
    };
    let config = args.server_config();
    let drain = config.drain;
    let drained = server::serve(listener, app.router(), config, signalled).await;
    let _ = stop_mail.send(true);
    let finished = tokio::time::timeout(drain, async {
        let _ = sweeping.await;
        let _ = watching.await;
        let _ = following.await;
        hooks.hooks_settled(drain).await
    })
    .await;
    let outcome = match (drained, finished) {
        (Drained::All, Ok(true)) => "stopped".to_string(),
        (Drained::Cut(open), _) => format!("stopped; {open} connections cut after {drain:?}"),
        (Drained::All, Ok(false) | Err(_)) => {
            "stopped; mail or webhook deliveries still going out were cut".to_string()
        }
    };
    announce(format, "stopped", &outcome);
    Ok(())
}

/// Says what the server is doing: one JSON log line with `event` when logs are JSON, else
/// a plain `missive: ...` line on stderr (the first of which names the address).
fn announce(format: LogFormat, event: &'static str, text: &str) {
    match format {
        LogFormat::Json => tracing::info!(event, "{text}"),
        LogFormat::Text => eprintln!("missive: {text}"),
    }
}

/// After the first signal, waits for another and then exits at once with status 1,
/// cutting the drain short (what was committed stays committed; unsent mail is sent by a
/// later sweep).
async fn cut_on_second_signal(format: LogFormat) {
    let signal = shutdown_signal().await;
    announce(
        format,
        "cut",
        &format!("{signal} again: stopped without waiting for the drain"),
    );
    std::process::exit(1);
}

/// How often the inbox folder is looked at.
const INBOX_EVERY: Duration = Duration::from_secs(1);

/// File descriptors kept out of the connections' share of the file limit: the store
/// (SQLite's database, journal and write-ahead log, or DynamoDB's HTTP connections), the
/// key file, the outbox, logs, the listener and the runtime's own.
pub const FILE_RESERVE: usize = 64;

/// `wanted` connections, or fewer if the process's file limit (its soft limit raised to the
/// hard limit first, where allowed) less [`FILE_RESERVE`] cannot hold them (at least 1);
/// a lowered value is logged.
fn within_file_limit(wanted: usize) -> usize {
    let Some(files) = raise_file_limit() else {
        return wanted;
    };
    let room = files.saturating_sub(FILE_RESERVE).max(1);
    if wanted > room {
        tracing::warn!(
            wanted,
            effective = room,
            file_limit = files,
            reserve = FILE_RESERVE,
            "max connections lowered to fit the file limit"
        );
        eprintln!(
            "missive: max connections {room} (not {wanted}): the file limit is {files}, \
             {FILE_RESERVE} kept for the store and logs"
        );
    }
    wanted.min(room)
}

/// Raises the soft limit on open files to the hard limit if allowed, and returns the soft
/// limit in force (`None` if it cannot be read, or is unlimited).
#[cfg(unix)]
fn raise_file_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid rlimit for getrlimit and setrlimit to read and write.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit = raised;
        }
    }
    (limit.rlim_cur != libc::RLIM_INFINITY)
        .then(|| usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

/// Files are not limited this way here.
#[cfg(not(unix))]
fn raise_file_limit() -> Option<usize> {
    None
}

/// Waits for SIGTERM or SIGINT and names the one that came.
#[cfg(unix)]
async fn shutdown_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut terminate), Ok(mut interrupt)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        std::future::pending::<()>().await;
        unreachable!("a pending future never ends")
    };
    tokio::select! {
        _ = terminate.recv() => "SIGTERM",
        _ = interrupt.recv() => "SIGINT",
    }
}

/// Waits for Ctrl-C.
#[cfg(not(unix))]
async fn shutdown_signal() -> &'static str {
    let _ = tokio::signal::ctrl_c().await;
    "Ctrl-C"
}

/// Prints an access token for a registered player of an existing store (it creates no
/// database nor key file).
pub fn token(args: &TokenArgs) -> Result<(), String> {
    runtime()?.block_on(async {
        let app = args
            .settings
            .app(Arc::new(SystemClock), Opening::MustExist)
            .await
            .map_err(|e| e.to_string())?;
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
