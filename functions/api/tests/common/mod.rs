//! A real server on a loopback port over a fresh store, with a manual clock, an outbox in
//! the temporary folder and a known signing key; and HTTP clients signed in through it.

#![allow(dead_code)]

pub mod browser;
pub mod inbox;
pub mod links;
pub mod polls;
pub mod raw;
pub mod sockets;
pub mod tournaments;

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use missive_api::server::ServerConfig;
use missive_api::{App, RateLimiter, RequestLimits, TrustedProxies};
use missive_auth::{Authority, SigningKey};
use missive_game::{Config, GameService, ManualClock, Quotas};
use missive_mail::Outbox;
use missive_notify::Scheduler;
use missive_store::testing::{Kind, TestStore, unique_name};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// The issuer and audience the test server uses.
pub const ISSUER: &str = "missive-test";

/// How a test server is set up beyond its store.
pub struct Options {
    /// Each caller's allowance (off unless a test turns it on).
    pub limiter: RateLimiter,
    /// Whether a notifier follows the service's changes, as in `missive serve`.
    pub mailing: bool,
    /// How connections are treated.
    pub server: ServerConfig,
    /// The router's request timeout and body limits.
    pub limits: RequestLimits,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: TrustedProxies,
    /// The service's limits on mails and imports.
    pub quotas: Quotas,
    /// Whether the public URL is the server's own loopback address (for clients that
    /// follow the URLs it gives out) rather than `http://missive.test`.
    pub reachable_url: bool,
    /// How long the following notifier's webhook deliveries wait for an answer.
    pub hook_timeout: std::time::Duration,
    /// The reply setting of the following notifier (`reply@example.org`): its turn mails
    /// then offer replies by mail.
    pub reply_to: Option<String>,
    /// What the API sends its own mail with (sign-up, sign-in), instead of the outbox.
    pub mailer: Option<Arc<dyn missive_mail::Mailer>>,
    /// The token key set, oldest first (the last signs); empty: one fresh key.
    pub signing_keys: Vec<SigningKey>,
    /// The archive key set, oldest first (the last signs); empty: [`archive_key`] alone.
    pub archive_keys: Vec<missive_archive::KeyPair>,
    /// What Web Push messages are signed with (none: no Web Push).
    pub push: Option<missive_notify::PushIdentity>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limiter: RateLimiter::off(),
            mailing: false,
            server: ServerConfig::default(),
            limits: RequestLimits::default(),
            trusted_proxies: TrustedProxies::default(),
            quotas: test_limits(),
            reachable_url: false,
            hook_timeout: HOOK_TIMEOUT,
            reply_to: None,
            mailer: None,
            signing_keys: Vec::new(),
            archive_keys: Vec::new(),
            push: None,
        }
    }
}

/// The key test servers sign their archives with.
pub fn archive_key() -> missive_archive::KeyPair {
    missive_archive::KeyPair::from_seed([42; 32])
}

/// A running server.
pub struct Server {
    pub base: String,
    pub addr: std::net::SocketAddr,
    pub clock: Arc<ManualClock>,
    /// The key that signs its tokens (the last of its set).
    pub key: SigningKey,
    pub outbox: PathBuf,
    pub http: reqwest::Client,
    /// The application the server runs, for minting links as the server would.
    pub app: App,
    store: Arc<TestStore>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.outbox);
    }
}

impl Server {
    /// Starts a server over a fresh store of `kind`, without rate limits.
    pub async fn start(kind: Kind) -> Server {
        Server::start_with(kind, Options::default()).await
    }

    /// Starts a server over a fresh store of `kind` with `limiter`.
    pub async fn start_limited(kind: Kind, limiter: RateLimiter) -> Server {
        let options = Options {
            limiter,
            ..Options::default()
        };
        Server::start_with(kind, options).await
    }

    /// Starts a server over a fresh store of `kind`, without rate limits, that mails
    /// players as `missive serve` does: a notifier follows the service's changes and
    /// writes turn mails to the outbox.
    pub async fn start_mailing(kind: Kind) -> Server {
        let options = Options {
            mailing: true,
            ..Options::default()
        };
        Server::start_with(kind, options).await
    }

    /// Starts a mailing server (see [`Server::start_mailing`]) whose public URL is its own
    /// loopback address, as a browser test needs: the links it mails lead to it, and the
    /// pages take the forms a browser sends from them (their `Origin` is the public URL's).
    pub async fn start_browsable(kind: Kind) -> Server {
        let options = Options {
            mailing: true,
            reachable_url: true,
            ..Options::default()
        };
        Server::start_with(kind, options).await
    }

    /// Starts a server over a fresh store of `kind`, without rate limits, whose service
    /// keeps `quotas`.
    pub async fn start_with_limits(kind: Kind, quotas: Quotas) -> Server {
        let options = Options {
            quotas,
            ..Options::default()
        };
        Server::start_with(kind, options).await
    }

    /// Starts a server over a fresh store of `kind`, set up as `options` say, served as
    /// `missive serve` serves it.
    pub async fn start_with(kind: Kind, options: Options) -> Server {
        let store = Arc::new(TestStore::new(kind).await);
        let clock = Arc::new(ManualClock::new(
            Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap(),
        ));
        Server::start_over(store, clock, options).await
    }

    /// Starts another server over this one's store and clock, set up as `options` say, as
    /// a restart with other settings (another key set) would: what one server minted the
    /// other reads as far as their keys allow. This one keeps running.
    pub async fn restart(&self, options: Options) -> Server {
        Server::start_over(Arc::clone(&self.store), Arc::clone(&self.clock), options).await
    }

    /// Starts a server over `store`, telling time by `clock`, set up as `options` say.
    async fn start_over(
        store: Arc<TestStore>,
        clock: Arc<ManualClock>,
        options: Options,
    ) -> Server {
        let mut keys = options.signing_keys;
        if keys.is_empty() {
            keys.push(SigningKey::generate());
        }
        let key = keys.last().unwrap().clone();
        let mut archive_keys = options.archive_keys;
        if archive_keys.is_empty() {
            archive_keys.push(archive_key());
        }
        let outbox = std::env::temp_dir().join(unique_name("missive-outbox"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let public_url = match options.reachable_url {
            true => format!("http://{addr}"),
            false => "http://missive.test".into(),
        };
        let config = Config {
            quotas: options.quotas,
            local_hooks: true,
            ..Config::default()
        };
        let app = App {
            service: GameService::new(Arc::clone(&store.store), clock.clone())
                .with_config(config)
                .with_archive_keys(archive_keys),
            authority: Arc::new(Authority::with_keys(&keys, ISSUER, ISSUER).unwrap()),
            mailer: options
                .mailer
                .unwrap_or_else(|| Arc::new(Outbox::new(&outbox, "missive@example.org"))),
            clock: clock.clone(),
            public_url,
            cors_origins: vec!["https://app.example.org".into()],
            rate_limiter: Arc::new(options.limiter),
            trusted_proxies: options.trusted_proxies,
            limits: options.limits,
            polls: options.limits.polls(),
            push: options.push,
            events_socket: None,
        };
        let app = if options.mailing {
            follow_changes(app, options.hook_timeout, options.reply_to)
        } else {
            app
        };
        let router = app.clone().router();
        let config = options.server;
        tokio::spawn(missive_api::server::serve(
            listener,
            router,
            config,
            std::future::pending(),
        ));
        Server {
            base: format!("http://{addr}"),
            addr,
            clock,
            key,
            outbox,
            http: reqwest::Client::new(),
            app,
            store,
        }
    }

    /// An HTTP client that does not follow redirects.
    pub fn http_without_redirects(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    }

    /// The newest mail to `email` in the outbox, as written.
    pub fn newest_mail(&self, email: &str) -> String {
        self.newest_mail_to(email).expect("a mail for the address")
    }

    /// The server's clock.
    pub fn clock_now(&self) -> chrono::DateTime<Utc> {
        use missive_game::Clock;
        self.clock.now()
    }

    /// Moves the clock to the close of the rating week it is in (the next Monday, 00:00
    /// UTC, and the grace after it) and sweeps: every rated game ended so far has changed
    /// its players' ratings. Games still being played may time out.
    pub async fn close_rating_week(&self) {
        use chrono::Datelike;
        let now = self.clock_now();
        let ahead = 7 - i64::from(now.weekday().num_days_from_monday());
        let monday = (now.date_naive() + chrono::TimeDelta::days(ahead))
            .and_time(chrono::NaiveTime::MIN)
            .and_utc();
        self.clock
            .advance(monday + missive_game::PERIOD_GRACE - now);
        let report = notifier(&self.app).sweep().await.unwrap();
        assert!(report.failures.is_empty(), "{report:?}");
    }

    /// The server's clock in seconds since the epoch.
    pub fn clock_seconds(&self) -> i64 {
        self.clock_now().timestamp()
    }

    /// Sends a request; checks the answer is never a 500, errors have the error shape
    /// and every answer carries a request id. Returns the status and the JSON body (null
    /// when empty).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        self.send(request).await
    }

    /// Sends a prepared request with the checks of [`Server::call`].
    pub async fn send(&self, request: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let response = request.send().await.unwrap();
        let status = response.status();
        assert!(
            response.headers().contains_key("x-request-id"),
            "no request id"
        );
        let text = response.text().await.unwrap();
        let body: Value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"))
        };
        assert!(!status.is_server_error(), "{status}: {body}");
        if status.is_client_error() {
            assert!(
                body["error"]["code"].is_string() && body["error"]["message"].is_string(),
                "error shape: {body}"
            );
        }
        (status, body)
    }

    /// Signs `handle` up through the outbox (the confirmation link's token exchanged):
    /// returns the signed-in player.
    pub async fn player(&self, handle: &str) -> Player<'_> {
        let email = format!("{handle}@example.org");
        let token = self.sign_up_token(handle, &email).await;
        let (status, body) = self.exchange(&token).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["handle"], handle);
        Player {
            server: self,
            handle: handle.to_string(),
            token: body["access_token"].as_str().unwrap().to_string(),
        }
    }

    /// Exchanges a sign-in or sign-up token for an access token.
    pub async fn exchange(&self, token: &str) -> (StatusCode, Value) {
        self.call(
            Method::POST,
            "/v1/auth/token",
            None,
            Some(json!({ "token": token })),
        )
        .await
    }

    /// Signs up `handle` at `email` and reads the token of the mail it brings from the
    /// outbox (a confirmation, or a sign-in link if the address is registered).
    pub async fn sign_up_token(&self, handle: &str, email: &str) -> String {
        let body = json!({ "handle": handle, "email": email });
        self.mailed_token("/v1/players", body, email).await
    }

    /// Asks for a sign-in link for `email` and reads its token from the outbox.
    pub async fn sign_in_token(&self, email: &str) -> String {
        self.mailed_token("/v1/auth/login", json!({ "email": email }), email)
            .await
    }

    /// Posts `body` to `path`, which must answer 202, and reads the token of the newest
    /// mail to `email` from the outbox.
    async fn mailed_token(&self, path: &str, body: Value, email: &str) -> String {
        let (status, answer) = self.call(Method::POST, path, None, Some(body)).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
        let text = self.newest_mail_to(email).expect("a mail for the address");
        text.lines()
            .find_map(|line| line.strip_prefix("X-Missive-Token: "))
            .expect("a token header")
            .to_string()
    }

    /// The newest mail in the outbox to `email`, as written.
    pub fn newest_mail_to(&self, email: &str) -> Option<String> {
        self.mails_to(email).pop()
    }

    /// Every mail in the outbox to `email`, oldest first.
    pub fn mails_to(&self, email: &str) -> Vec<String> {
        let mut mails: Vec<(PathBuf, String)> = inbox::mail_files(&self.outbox)
            .into_iter()
            .map(|path| {
                let text = std::fs::read_to_string(&path).unwrap();
                (path, text)
            })
            .filter(|(_, text)| text.contains(&format!("To: {email}\r\n")))
            .collect();
        mails.sort();
        mails.into_iter().map(|(_, text)| text).collect()
    }
}

/// The limits of the test server: the service's defaults, without the mails per client
/// address (every test client is 127.0.0.1).
pub fn test_limits() -> Quotas {
    Quotas {
        mails_per_client: 0,
        ..Quotas::default()
    }
}

/// `app` with a notifier following its service's changes, as `missive serve` runs it.
/// A notifier of `app`'s games, as `missive serve` runs one (its webhooks aside): what
/// a test sweeps with.
pub fn notifier(app: &App) -> Scheduler {
    Scheduler::new(
        app.service.clone(),
        Arc::clone(&app.authority),
        Arc::clone(&app.mailer),
        Arc::clone(&app.clock),
        &app.public_url,
    )
}

fn follow_changes(
    mut app: App,
    hook_timeout: std::time::Duration,
    reply_to: Option<String>,
) -> App {
    let (changes, feed) = tokio::sync::mpsc::unbounded_channel();
    app.service = app.service.with_changes(changes);
    let hooks = missive_notify::HookSender::new(
        app.service.clone(),
        Arc::clone(&app.clock),
        hook_timeout,
        missive_notify::Reach::system(true),
    )
    .unwrap()
    .with_push(app.push.clone());
    let notifier = notifier(&app).with_reply_to(reply_to).with_hooks(hooks);
    let never = tokio::sync::watch::channel(false).1;
    tokio::spawn(async move { notifier.follow(feed, never).await });
    app
}

/// What delivers `app`'s webhooks, as `missive serve` does with local hooks allowed, giving
/// up on an address after [`HOOK_TIMEOUT`].
pub fn hook_sender(app: &App) -> missive_notify::HookSender {
    hook_sender_reaching(app, missive_notify::Reach::system(true))
}

/// What delivers `app`'s webhooks where `reach` allows, giving up on an address after
/// [`HOOK_TIMEOUT`].
pub fn hook_sender_reaching(app: &App, reach: missive_notify::Reach) -> missive_notify::HookSender {
    missive_notify::HookSender::new(
        app.service.clone(),
        Arc::clone(&app.clock),
        HOOK_TIMEOUT,
        reach,
    )
    .unwrap()
}

/// How long the test servers' webhook deliveries wait for an answer.
pub const HOOK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(1);

/// GETs `path` as text: status and body.
pub async fn text_of(server: &Server, path: &str) -> (StatusCode, String) {
    let response = server
        .http
        .get(format!("{}{path}", server.base))
        .send()
        .await
        .unwrap();
    (response.status(), response.text().await.unwrap())
}

/// One read of the feed: the status, the events (or the error body) and the
/// `Event-Cursor` header.
pub async fn read_events(
    player: &Player<'_>,
    query: &str,
) -> (StatusCode, Vec<Value>, Option<String>) {
    let url = format!("{}/v1/events?{query}", player.server.base);
    let response = player
        .server
        .http
        .get(url)
        .bearer_auth(&player.token)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let cursor = response
        .headers()
        .get("event-cursor")
        .map(|v| v.to_str().unwrap().to_string());
    let content_type = response.headers().get("content-type").cloned();
    let text = response.text().await.unwrap();
    if status != StatusCode::OK {
        let body: Value = serde_json::from_str(&text).unwrap();
        assert!(body["error"]["code"].is_string(), "{body}");
        return (status, vec![body], cursor);
    }
    assert_eq!(content_type.unwrap(), "application/x-ndjson");
    let events = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (status, events, cursor)
}

/// A signed-in player.
#[derive(Clone)]
pub struct Player<'s> {
    pub server: &'s Server,
    pub handle: String,
    pub token: String,
}

impl Player<'_> {
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.server
            .call(Method::GET, path, Some(&self.token), None)
            .await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.server
            .call(Method::POST, path, Some(&self.token), Some(body))
            .await
    }

    pub async fn put(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.server
            .call(Method::PUT, path, Some(&self.token), Some(body))
            .await
    }

    /// The game's state as this player sees it.
    pub async fn game(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("/v1/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    /// POSTs the archive `text` to the import route: status and body.
    pub async fn import(&self, text: &str) -> (StatusCode, Value) {
        let request = self
            .server
            .http
            .post(format!("{}/v1/archive", self.server.base))
            .header("content-type", "application/x-chess-pgn")
            .bearer_auth(&self.token)
            .body(text.to_string());
        self.server.send(request).await
    }

    /// Plays `text` at `ply`; panics unless accepted.
    pub async fn play(&self, id: &str, text: &str, ply: u64) -> Value {
        let (status, body) = self
            .post(
                &format!("/v1/games/{id}/moves"),
                json!({ "move": text, "expected_ply": ply }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{text} at {ply}: {body}");
        body
    }
}

/// Creates a chess game of 3 days a move by `creator`, who has white, inviting `invitee`
/// to black; returns its id (the game forms until the invitee joins).
pub async fn invite_to_chess(creator: &Player<'_>, invitee: &str) -> String {
    let (status, body) = creator
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": invitee }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// Creates a game of `variant` by `players[0]` with open seats the others join; returns
/// its id once it is active.
pub async fn start_game(players: &[Player<'_>], variant: &str) -> String {
    let mut seats = vec![json!({ "kind": "creator" })];
    seats.extend((1..players.len()).map(|_| json!({ "kind": "open" })));
    let (status, body) = players[0]
        .post(
            "/v1/games",
            json!({
                "variant": variant,
                "seats": seats,
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    for (index, player) in players.iter().enumerate().skip(1) {
        let (status, body) = player
            .post(&format!("/v1/games/{id}/join"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["seat"], index);
    }
    assert_eq!(players[0].game(&id).await["status"], "active");
    id
}

/// The seats of `variant` as the API lists them.
pub async fn seat_count(server: &Server, variant: &str) -> usize {
    let (_, variants) = server.call(Method::GET, "/v1/variants", None, None).await;
    variants
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == variant)
        .unwrap()["seats"]
        .as_array()
        .unwrap()
        .len()
}

/// Runs each listed async test (taking a [`Kind`]) once per store.
#[macro_export]
macro_rules! per_store {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(missive_store::testing::Kind::Sqlite).await;
                }
            )*
        }
        mod on_dynamodb {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(missive_store::testing::Kind::DynamoDb).await;
                }
            )*
        }
    };
}
