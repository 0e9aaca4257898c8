//! Configuration from flags and environment: the store, the signing key, the public base
//! URL, mail and CORS. The same settings serve `missive serve` and the Lambda function.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use missive_auth::{Authority, SigningKey};
use missive_game::{Clock, GameService};
use missive_mail::{Mailer, Outbox, Ses, Smtp};
use missive_notify::{Notifier, NotifyConfig};
use missive_store::StoreSetting;

use crate::{App, Rate, RateLimiter};

/// Name of the key file written into the data folder on first local start.
pub const KEY_FILE: &str = "missive.key";

/// Everything the API needs to start.
#[derive(Args, Clone, Debug)]
pub struct Settings {
    /// The store: sqlite:PATH or dynamodb:TABLE.
    #[arg(long, env = "MISSIVE_STORE", default_value = "sqlite:./missive.db")]
    pub store: StoreSetting,
    /// The signing key (hs256:BASE64 or ed25519:BASE64). Without it, the key in the data
    /// folder (next to the SQLite file) is used, generated on first start.
    #[arg(long, env = "MISSIVE_SIGNING_KEY", hide_env_values = true)]
    pub signing_key: Option<String>,
    /// The URL the API is reached at, used in mailed links. Empty (the default): `missive
    /// serve` uses the address it listens on, the Lambda function `https://` and the
    /// request's host.
    #[arg(long, env = "MISSIVE_PUBLIC_URL", default_value = "")]
    pub public_url: String,
    /// The sender of mail.
    #[arg(
        long,
        env = "MISSIVE_MAIL_FROM",
        default_value = "Missive <missive@localhost>"
    )]
    pub mail_from: String,
    /// The folder mail is written to as .eml files (unless SES or SMTP is configured).
    #[arg(long, env = "MISSIVE_OUTBOX", default_value = "./outbox")]
    pub outbox: PathBuf,
    /// Send mail over SMTP: smtp://user:pass@host:587 (STARTTLS with `?tls=required`) or
    /// smtps://user:pass@host:465.
    #[arg(long, env = "MISSIVE_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Send mail through Amazon SES (v2 API, standard AWS settings) as the sender; what the
    /// Lambda functions do.
    #[arg(long, env = "MISSIVE_SES")]
    pub ses: bool,
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
    /// Token issuer and audience name.
    #[arg(long, env = "MISSIVE_ISSUER", default_value = "missive")]
    pub issuer: String,
    /// The hour (UTC, 0 to 23) from which daily digests are sent.
    #[arg(long, env = "MISSIVE_DIGEST_HOUR", default_value_t = 7,
          value_parser = clap::value_parser!(u32).range(0..24))]
    pub digest_hour: u32,
}

impl Settings {
    /// The signing key: the one given, else (SQLite only) the data folder's, created on
    /// first start.
    pub fn signing_key(&self) -> Result<SigningKey, String> {
        if let Some(text) = &self.signing_key {
            return SigningKey::parse(text).map_err(|e| e.to_string());
        }
        match &self.store {
            StoreSetting::Sqlite(path) => key_in_folder(path.parent().unwrap_or(Path::new("."))),
            StoreSetting::Dynamo(_) => {
                Err("a DynamoDB deployment needs MISSIVE_SIGNING_KEY or --signing-key".into())
            }
        }
    }

    /// The token authority: the signing key, with the issuer as issuer and audience.
    pub fn authority(&self) -> Result<Authority, String> {
        Authority::new(&self.signing_key()?, &self.issuer, &self.issuer).map_err(|e| e.to_string())
    }

    /// Opens the store and builds the application, telling time by `clock`.
    pub async fn app(&self, clock: Arc<dyn Clock>) -> Result<App, String> {
        let store = self.store.open().await.map_err(|e| e.to_string())?;
        let authority = self.authority()?;
        let mailer = self.mailer().await?;
        Ok(App {
            service: GameService::new(store, Arc::clone(&clock)),
            authority: Arc::new(authority),
            mailer,
            clock,
            public_url: self.public_url.trim_end_matches('/').to_string(),
            cors_origins: self.cors_origins.clone(),
            rate_limiter: Arc::new(RateLimiter::new(Rate {
                per_second: self.rate_per_second,
                burst: self.rate_burst,
            })),
        })
    }
}

impl Settings {
    /// How mail goes out: SES if `--ses`, else SMTP if `--smtp-url`, else the outbox.
    pub async fn mailer(&self) -> Result<Arc<dyn Mailer>, String> {
        Ok(if self.ses {
            Arc::new(Ses::connect(&self.mail_from).await)
        } else if let Some(url) = &self.smtp_url {
            Arc::new(Smtp::new(url, &self.mail_from).map_err(|e| e.to_string())?)
        } else {
            Arc::new(Outbox::new(&self.outbox, &self.mail_from))
        })
    }

    /// The notifier of `app`'s games: its service, authority, mailer, clock and public URL.
    pub fn notifier(&self, app: &App) -> Notifier {
        Notifier::new(
            app.service.clone(),
            Arc::clone(&app.authority),
            Arc::clone(&app.mailer),
            Arc::clone(&app.clock),
            &app.public_url,
        )
        .with_config(NotifyConfig {
            digest_hour: self.digest_hour,
        })
    }
}

/// The key in `folder`'s key file, written there with a fresh key if there is none.
fn key_in_folder(folder: &Path) -> Result<SigningKey, String> {
    let file = folder.join(KEY_FILE);
    match std::fs::read_to_string(&file) {
        Ok(text) => SigningKey::parse(&text).map_err(|e| format!("{}: {e}", file.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            let key = SigningKey::generate();
            std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
            write_private(&file, &key.to_text()).map_err(|e| format!("{}: {e}", file.display()))?;
            Ok(key)
        }
        Err(error) => Err(format!("{}: {error}", file.display())),
    }
}

#[cfg(unix)]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)?;
    out.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(file, text)
}
