//! Missive's configuration from flags and environment, shared by `missive serve`, the other
//! store commands and every Lambda function: the store, the token signing key, the public
//! base URL, mail, the notifier's digest hour and the log format.
//!
//! It links neither the HTTP crates nor a store backend of its own: the binary that uses
//! it picks the backends (`missive-store`'s features), so the notifier and sweeper
//! functions carry the DynamoDB store only.

pub mod connections;
pub mod init_error;
pub mod logging;
mod signing;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use missive_archive::KeyPair;
use missive_auth::{Authority, SigningKey, VapidKey};
use missive_game::{Clock, Config, GameService};
use missive_mail::{Mailer, Metered, Outbox, Ses, Smtp};
use missive_notify::{HookSender, NotifyConfig, PushIdentity, Reach, Scheduler, SocketSender};
use missive_store::{Store, StoreError, StoreSetting};
use thiserror::Error;

// A build that aborts on panic would let one panicking request kill a Lambda sandbox
// (and `missive serve`) with every request in it: the workspace's profiles unwind.
#[cfg(panic = "abort")]
compile_error!("Missive must be built with panic = \"unwind\" (see the workspace Cargo.toml)");

pub use logging::LogFormat;
pub use signing::{ARCHIVE_KEY_FILE, KEY_FILE, VAPID_KEY_FILE, archive_key_set, replace_key_file};

/// What went wrong while reading the settings or building what they describe.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// The store could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A command that must not create a store found none where the setting points.
    #[error(
        "no database at {}: point --store (or MISSIVE_STORE) at the one `missive serve` uses",
        .path.display()
    )]
    NoStore {
        /// The path looked at.
        path: PathBuf,
    },
    /// The signing key is missing, unreadable or not a key.
    #[error("signing key: {0}")]
    Key(String),
    /// The mailer could not be set up.
    #[error("mail: {0}")]
    Mail(String),
    /// An environment variable holds what its setting cannot take (clap's message).
    #[error("{0}")]
    Environment(String),
}

/// Whether building from the settings may create a store (and its key file) that is not
/// there yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Create a missing SQLite file and key file (`missive serve`, or a command told to
    /// with `--create`).
    MayCreate,
    /// Refuse, naming the path looked at: the store must exist already.
    MustExist,
}

/// Opens the store `setting` names. With [`Opening::MustExist`], a SQLite setting whose
/// file is missing is refused with [`SettingsError::NoStore`] naming the path (a DynamoDB
/// table is never created here: `missive table create` does that).
pub async fn open_store(
    setting: &StoreSetting,
    opening: Opening,
) -> Result<Arc<dyn Store>, SettingsError> {
    if let (Opening::MustExist, StoreSetting::Sqlite(path)) = (opening, setting)
        && !path.exists()
    {
        return Err(SettingsError::NoStore { path: path.clone() });
    }
    Ok(setting.open().await?)
}

/// The archive key set, oldest first (the last signs): the one `given`
/// (`ed25519-secret:BASE64`, one a line), else for a SQLite `store` the data folder's,
/// created there only with [`Opening::MayCreate`] (empty if it is missing otherwise);
/// empty for DynamoDB without one given.
pub fn archive_keys(
    given: Option<&str>,
    store: &StoreSetting,
    opening: Opening,
) -> Result<Vec<KeyPair>, SettingsError> {
    if let Some(text) = given {
        return archive_key_set(text).map_err(|e| SettingsError::Key(format!("archive key: {e}")));
    }
    match store {
        StoreSetting::Sqlite(path) => {
            let folder = path.parent().unwrap_or(Path::new("."));
            signing::archive_keys_in_folder(folder, opening)
        }
        StoreSetting::DynamoDb(_) => Ok(Vec::new()),
    }
}

/// The game service over `store`, telling time by `clock`, signing the archives it exports
/// with the last of `archive_keys` (and accepting any of their signatures on import); with
/// none, its archives go out unsigned.
pub fn game_service(
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    archive_keys: Vec<KeyPair>,
) -> GameService {
    GameService::new(store, clock).with_archive_keys(archive_keys)
}

/// The reply setting, checked ([`missive_notify::links::check_reply_to`]).
fn reply_to(text: &str) -> Result<String, String> {
    missive_notify::links::check_reply_to(text).map(|()| text.to_string())
}

/// Everything a Missive process needs to reach its games and mail its players.
#[derive(Args, Clone, Debug)]
pub struct Settings {
    /// The store: sqlite:PATH or dynamodb:TABLE.
    #[arg(long, env = "MISSIVE_STORE", default_value = "sqlite:./missive.db")]
    pub store: StoreSetting,
    /// The signing key (hs256:BASE64 or ed25519:BASE64), or several, one a line, oldest
    /// first: the last signs, all verify. Without it (and without --signing-key-parameter),
    /// the key file in the data folder (next to the SQLite file) is used, generated on
    /// first start.
    #[arg(long, env = "MISSIVE_SIGNING_KEY", hide_env_values = true)]
    pub signing_key: Option<String>,
    /// The name of an SSM parameter (a SecureString) holding the signing key (or several,
    /// one a line, the last signing), read once at start-up: what the Lambda functions use.
    #[arg(
        long,
        env = "MISSIVE_SIGNING_KEY_PARAMETER",
        conflicts_with = "signing_key"
    )]
    pub signing_key_parameter: Option<String>,
    /// The key exported games are signed with (`ed25519-secret:BASE64`, from `missive
    /// archive keygen`), or several, one a line, oldest first: the last signs, all are
    /// trusted on import. Without it, a SQLite deployment uses the archive key file in the
    /// data folder (generated on first start) and a DynamoDB one exports unsigned games.
    #[arg(long, env = "MISSIVE_ARCHIVE_KEY", hide_env_values = true)]
    pub archive_key: Option<String>,
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
    /// Offer replies by mail: `reply@example.org` makes turn mails go out with a
    /// `Reply-To` of `reply+TOKEN@example.org`, where a reply with the move plays it (the
    /// mail reaching that address must be handed to Missive: `missive serve`'s inbox
    /// folder, or the inbound function). None: turn mails offer no reply.
    #[arg(long, env = "MISSIVE_REPLY_TO", value_parser = reply_to)]
    pub reply_to: Option<String>,
    /// Token issuer and audience name.
    #[arg(long, env = "MISSIVE_ISSUER", default_value = "missive")]
    pub issuer: String,
    /// The hour (UTC, 0 to 23) from which daily digests are sent.
    #[arg(long, env = "MISSIVE_DIGEST_HOUR", default_value_t = 7,
          value_parser = clap::value_parser!(u32).range(0..24))]
    pub digest_hour: u32,
    /// Seconds a webhook's address has to answer a delivery.
    #[arg(long, env = "MISSIVE_HOOK_TIMEOUT", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=60))]
    pub hook_timeout: u64,
    /// The VAPID key Web Push messages are signed with (`vapid:BASE64URL`, a P-256
    /// scalar). Without it (and without --vapid-key-parameter), a SQLite deployment uses
    /// the VAPID key file in the data folder (generated on first start) and a DynamoDB one
    /// sends no Web Push.
    #[arg(long, env = "MISSIVE_VAPID_KEY", hide_env_values = true)]
    pub vapid_key: Option<String>,
    /// The name of an SSM parameter (a SecureString) holding the VAPID key, read once at
    /// start-up: what the Lambda functions use.
    #[arg(
        long,
        env = "MISSIVE_VAPID_KEY_PARAMETER",
        conflicts_with = "vapid_key"
    )]
    pub vapid_key_parameter: Option<String>,
    /// The contact Web Push messages name for push services (`mailto:` or `https:`);
    /// empty: `mailto:` and the address of the mail sender.
    #[arg(long, env = "MISSIVE_PUSH_CONTACT", default_value = "")]
    pub push_contact: String,
    /// The stage endpoint of the API Gateway WebSocket API
    /// (`https://{api}.execute-api.{region}.amazonaws.com/{stage}`), whose `@connections`
    /// API events are posted to; none: no WebSocket connections are sent events (what
    /// `missive serve` does, which serves its WebSocket itself).
    #[arg(long, env = "MISSIVE_SOCKET_ENDPOINT")]
    pub socket_endpoint: Option<String>,
    /// Let players register webhooks on plain `http://` and on loopback or private hosts
    /// (a server on one machine with its receivers beside it); never in the cloud.
    #[arg(long, env = "MISSIVE_LOCAL_HOOKS")]
    pub local_hooks: bool,
    /// Leave the feed items of a change that appends entries (a move, a message) out of
    /// its commit, for the notifier reading the table's stream to write after it, so that a
    /// move's transaction holds no feed item: what the Lambda functions do, whose table's
    /// stream feeds the notifier function. Nowhere else: without that reader the items are
    /// never written (`missive serve` refuses it).
    #[arg(long, env = "MISSIVE_FEED_FROM_STREAM")]
    pub feed_from_stream: bool,
    /// Log lines as `json` or `text` (text has colours only on a terminal); the Lambda
    /// functions default to json, the commands to text.
    #[arg(long, env = "MISSIVE_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
}

impl Settings {
    /// The settings from the environment alone, as a Lambda function reads them (`name` is
    /// the program name in error messages); a variable its setting cannot take is an
    /// [`SettingsError::Environment`] naming it.
    pub fn from_env(name: &str) -> Result<Settings, SettingsError> {
        /// A command line with no arguments: every setting from the environment.
        #[derive(clap::Parser)]
        struct FromEnv {
            #[command(flatten)]
            settings: Settings,
        }
        <FromEnv as clap::Parser>::try_parse_from([name])
            .map(|parsed| parsed.settings)
            .map_err(|e| SettingsError::Environment(e.render().to_string().trim().to_string()))
    }

    /// Opens the store, as [`open_store`] does.
    pub async fn open_store(&self, opening: Opening) -> Result<Arc<dyn Store>, SettingsError> {
        open_store(&self.store, opening).await
    }

    /// The signing key set, oldest first: the one given, else the SSM parameter's, else
    /// (SQLite only) the data folder's, created there only with [`Opening::MayCreate`].
    pub async fn signing_keys(&self, opening: Opening) -> Result<Vec<SigningKey>, SettingsError> {
        if let Some(text) = &self.signing_key {
            return SigningKey::parse_set(text).map_err(|e| SettingsError::Key(e.to_string()));
        }
        if let Some(name) = &self.signing_key_parameter {
            return signing::from_parameter(name).await;
        }
        match &self.store {
            StoreSetting::Sqlite(path) => {
                signing::in_folder(path.parent().unwrap_or(Path::new(".")), opening)
            }
            StoreSetting::DynamoDb(_) => Err(SettingsError::Key(
                "a DynamoDB deployment needs MISSIVE_SIGNING_KEY or MISSIVE_SIGNING_KEY_PARAMETER"
                    .into(),
            )),
        }
    }

    /// The archive key set, as [`archive_keys`] finds it.
    pub fn archive_keys(&self, opening: Opening) -> Result<Vec<KeyPair>, SettingsError> {
        archive_keys(self.archive_key.as_deref(), &self.store, opening)
    }

    /// The VAPID key: the one given, else the SSM parameter's, else (SQLite only) the data
    /// folder's, created there only with [`Opening::MayCreate`]; `None` for a DynamoDB
    /// deployment given none.
    pub async fn vapid_key(&self, opening: Opening) -> Result<Option<VapidKey>, SettingsError> {
        if let Some(text) = &self.vapid_key {
            return VapidKey::parse(text)
                .map(Some)
                .map_err(|e| SettingsError::Key(e.to_string()));
        }
        if let Some(name) = &self.vapid_key_parameter {
            return signing::vapid_from_parameter(name).await.map(Some);
        }
        match &self.store {
            StoreSetting::Sqlite(path) => {
                signing::vapid_in_folder(path.parent().unwrap_or(Path::new(".")), opening)
            }
            StoreSetting::DynamoDb(_) => Ok(None),
        }
    }

    /// What Web Push messages are signed with: the VAPID key ([`Settings::vapid_key`]) and
    /// the contact; `None` without a key.
    pub async fn push_identity(
        &self,
        opening: Opening,
    ) -> Result<Option<PushIdentity>, SettingsError> {
        let contact = match self.push_contact.as_str() {
            "" => format!("mailto:{}", sender_address(&self.mail_from)),
            given => given.to_string(),
        };
        Ok(self
            .vapid_key(opening)
            .await?
            .map(|key| PushIdentity { key, contact }))
    }

    /// The sender of events to WebSocket connections through the `@connections` API of
    /// `--socket-endpoint`, if one is given.
    pub async fn sockets(&self, service: &GameService) -> Option<SocketSender> {
        let endpoint = self.socket_endpoint.as_deref()?;
        let gateway = connections::Connections::connect(endpoint).await;
        Some(SocketSender::new(service.clone(), Arc::new(gateway)))
    }

    /// The token authority: the signing key set, with the issuer as issuer and audience.
    pub async fn authority(&self, opening: Opening) -> Result<Authority, SettingsError> {
        Authority::with_keys(
            &self.signing_keys(opening).await?,
            &self.issuer,
            &self.issuer,
        )
        .map_err(|e| SettingsError::Key(e.to_string()))
    }

    /// How mail goes out: SES if `--ses`, else SMTP if `--smtp-url`, else the outbox;
    /// each mail counted in the metrics ([`Metered`]).
    pub async fn mailer(&self) -> Result<Arc<dyn Mailer>, SettingsError> {
        let sender: Arc<dyn Mailer> = if self.ses {
            Arc::new(Ses::connect(&self.mail_from).await)
        } else if let Some(url) = &self.smtp_url {
            Arc::new(
                Smtp::new(url, &self.mail_from).map_err(|e| SettingsError::Mail(e.to_string()))?,
            )
        } else {
            Arc::new(Outbox::new(&self.outbox, &self.mail_from))
        };
        Ok(Arc::new(Metered(sender)))
    }

    /// Where mail goes, for a start-up line: `SES`, `SMTP` or the outbox folder.
    pub fn mail_destination(&self) -> String {
        match (&self.smtp_url, self.ses) {
            (_, true) => "SES".to_string(),
            (Some(_), false) => "SMTP".to_string(),
            (None, false) => self.outbox.display().to_string(),
        }
    }

    /// The public URL without a trailing slash.
    pub fn public_base(&self) -> String {
        self.public_url.trim_end_matches('/').to_string()
    }

    /// The notifier of `service`'s games, minting links with `authority`, sending with
    /// `mailer`, telling time by `clock`, with the digest hour of these settings, delivering
    /// to webhooks with their timeout, to public addresses only unless local hooks are on,
    /// and to Web Push subscriptions as `push`.
    pub fn notifier(
        &self,
        service: GameService,
        authority: Arc<Authority>,
        mailer: Arc<dyn Mailer>,
        clock: Arc<dyn Clock>,
        push: Option<PushIdentity>,
    ) -> Result<Scheduler, SettingsError> {
        let timeout = std::time::Duration::from_secs(self.hook_timeout);
        let reach = Reach::system(self.local_hooks);
        let hooks = HookSender::new(service.clone(), Arc::clone(&clock), timeout, reach)
            .map_err(|e| SettingsError::Mail(e.to_string()))?
            .with_push(push);
        let config = NotifyConfig {
            digest_hour: self.digest_hour,
        };
        Ok(
            Scheduler::new(service, authority, mailer, clock, &self.public_base())
                .with_config(config)
                .with_reply_to(self.reply_to.clone())
                .with_hooks(hooks),
        )
    }

    /// The notifier of a Lambda function, as [`Settings::lambda_parts`] makes it.
    pub async fn lambda_notifier(name: &str) -> Result<Scheduler, SettingsError> {
        Ok(Settings::lambda_parts(name).await?.notifier)
    }

    /// What a Lambda function works with: settings from the environment, logs set up as
    /// [`logging::init`] with JSON by default, the store and key opened (never created),
    /// the system clock.
    pub async fn lambda_parts(name: &str) -> Result<LambdaParts, SettingsError> {
        let settings = Settings::from_env(name)?;
        logging::init(settings.log_format.unwrap_or(LogFormat::Json));
        missive_metrics::install(name);
        let clock: Arc<dyn Clock> = Arc::new(missive_game::SystemClock);
        let store = settings.open_store(Opening::MustExist).await?;
        let authority = Arc::new(settings.authority(Opening::MustExist).await?);
        let mailer = settings.mailer().await?;
        let service = GameService::new(store, Arc::clone(&clock)).with_config(Config {
            feed_from_stream: settings.feed_from_stream,
            ..Config::default()
        });
        let push = settings.push_identity(Opening::MustExist).await?;
        let sockets = settings.sockets(&service).await;
        let notifier = settings
            .notifier(service.clone(), Arc::clone(&authority), mailer, clock, push)?
            .with_sockets(sockets);
        Ok(LambdaParts {
            service,
            authority,
            notifier,
        })
    }
}

/// What a Lambda function works with ([`Settings::lambda_parts`]).
pub struct LambdaParts {
    /// The game service over the store.
    pub service: GameService,
    /// The token authority of the signing key.
    pub authority: Arc<Authority>,
    /// The notifier, mailing with the settings' mailer.
    pub notifier: Scheduler,
}

/// The address of a mail sender (`Name <address>` or a bare address).
fn sender_address(from: &str) -> &str {
    match (from.rfind('<'), from.rfind('>')) {
        (Some(open), Some(close)) if open < close => &from[open + 1..close],
        _ => from.trim(),
    }
}
