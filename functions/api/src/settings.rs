//! The API's configuration from flags and environment: everything in
//! [`missive_settings::Settings`] (store, signing key, mail, public URL) plus what only the
//! HTTP API uses (CORS, rate limits, trusted proxies, the request timeout and the archive
//! import limit). The same settings serve `missive serve` and the Lambda function.

use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use missive_game::{Clock, Config};
use missive_notify::Scheduler;
use missive_settings::{Opening, SettingsError};

use crate::limits::{Rate, RateLimiter, TrustedProxies, TrustedProxy};
use crate::quotas::QuotaSettings;
use crate::{App, RequestLimits};

pub use missive_settings::KEY_FILE;

/// Everything the API needs to start.
#[derive(Args, Clone, Debug)]
#[group(id = "ApiSettings")]
pub struct Settings {
    /// What every Missive process shares: store, key, mail, public URL, logging.
    #[command(flatten)]
    pub base: missive_settings::Settings,
    /// Origins allowed by CORS, comma-separated; `*` for any; none by default.
    #[arg(long, env = "MISSIVE_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Requests per second each caller (player, else client address) may make on average;
    /// 0 turns rate limiting off.
    #[arg(long, env = "MISSIVE_RATE_PER_SECOND", default_value_t = 100.0)]
    pub rate_per_second: f64,
    /// Requests each caller may make at once.
    #[arg(long, env = "MISSIVE_RATE_BURST", default_value_t = 500)]
    pub rate_burst: u32,
    /// Proxies (addresses or CIDR blocks, comma-separated) whose `X-Forwarded-For` names
    /// the client; none by default, so the header is ignored.
    #[arg(long, env = "MISSIVE_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<TrustedProxy>,
    /// Seconds a request may take until its answer starts (408 beyond).
    #[arg(long, env = "MISSIVE_REQUEST_TIMEOUT", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout: u64,
    /// Largest archive `POST /v1/archive` accepts, in bytes (413 beyond). The Lambda
    /// function keeps it within what a synchronous invocation carries (see docs/api.md).
    #[arg(long, env = "MISSIVE_ARCHIVE_LIMIT", default_value_t = crate::archives::ARCHIVE_LIMIT)]
    pub archive_limit: usize,
    /// Event feed polls one player may hold waiting at once (per process); more are
    /// answered at once, as without `wait`.
    #[arg(long, env = "MISSIVE_POLLS_PER_PLAYER", default_value_t = RequestLimits::default().polls_per_player)]
    pub polls_per_player: usize,
    /// Event feed polls held waiting at once in all (per process); more are answered at
    /// once, as without `wait`.
    #[arg(long, env = "MISSIVE_POLLS_AT_ONCE", default_value_t = RequestLimits::default().polls_at_once)]
    pub polls_at_once: usize,
    /// The longest a feed poll (`GET /v1/events?wait=`) waits, 0 to 25 seconds: on Lambda
    /// a waiting poll holds a function instance, so the template lowers it (an app
    /// follows the feed over the WebSocket there).
    #[arg(long, env = "MISSIVE_FEED_WAIT", default_value_t = 25,
          value_parser = clap::value_parser!(u64).range(0..=25))]
    pub feed_wait: u64,
    /// The WebSocket address apps are told to follow the feed at (the `Event-Socket`
    /// header of feed answers; the template gives the WebSocket API's); none: this
    /// server's own `/v1/events/ws` under its public URL.
    #[arg(long, env = "MISSIVE_EVENTS_SOCKET")]
    pub events_socket: Option<String>,
    /// Limits on mails and imports per sender.
    #[command(flatten)]
    pub quotas: QuotaSettings,
}

impl Settings {
    /// The limits of these settings.
    pub fn limits(&self) -> RequestLimits {
        RequestLimits {
            request_timeout: Duration::from_secs(self.request_timeout),
            archive_body: self.archive_limit,
            polls_per_player: self.polls_per_player,
            polls_at_once: self.polls_at_once,
            feed_wait: Duration::from_secs(self.feed_wait),
        }
    }

    /// Opens the store (creating it only with [`Opening::MayCreate`]) and builds the
    /// application, telling time by `clock`.
    pub async fn app(&self, clock: Arc<dyn Clock>, opening: Opening) -> Result<App, SettingsError> {
        let store = self.base.open_store(opening).await?;
        let authority = self.base.authority(opening).await?;
        let mailer = self.base.mailer().await?;
        Ok(App {
            service: missive_settings::game_service(
                store,
                Arc::clone(&clock),
                self.base.archive_keys(opening)?,
            )
            .with_config(Config {
                quotas: self.quotas.limits(),
                local_hooks: self.base.local_hooks,
                feed_from_stream: self.base.feed_from_stream,
                ..Config::default()
            }),
            authority: Arc::new(authority),
            mailer,
            clock,
            public_url: self.base.public_base(),
            cors_origins: self.cors_origins.clone(),
            rate_limiter: Arc::new(RateLimiter::new(Rate {
                per_second: self.rate_per_second,
                burst: self.rate_burst,
            })),
            trusted_proxies: TrustedProxies::new(self.trusted_proxies.clone()),
            limits: self.limits(),
            polls: self.limits().polls(),
            push: self.base.push_identity(opening).await?,
            events_socket: self.events_socket.clone(),
        })
    }

    /// The notifier of `app`'s games: its service, authority, mailer, clock and public URL
    /// (which `missive serve` may have set from the address it listens on).
    pub fn notifier(&self, app: &App) -> Result<Scheduler, missive_settings::SettingsError> {
        let base = missive_settings::Settings {
            public_url: app.public_url.clone(),
            ..self.base.clone()
        };
        base.notifier(
            app.service.clone(),
            Arc::clone(&app.authority),
            Arc::clone(&app.mailer),
            Arc::clone(&app.clock),
            app.push.clone(),
        )
    }
}
