//! Webhooks over real HTTP: a receiver on loopback gets every event of a player's feed,
//! signed, in order; a receiver that fails, times out or answers slowly is retried with
//! backoff and finally given up on. On SQLite and DynamoDB Local.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use common::{Player, Server, hook_sender};
use hmac::{Hmac, Mac};
use missive_game::Config;
use missive_notify::reach::Names;
use missive_notify::{Reach, Scheduler};
use missive_store::testing::Kind;
use serde_json::{Value, json};
use sha2::Sha256;

/// How the receiver answers.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// 204 at once.
    Accept,
    /// 500 at once.
    Fail,
    /// 200 after `0` milliseconds.
    Slow(u64),
}

/// What a receiver got: each request's headers and body.
#[derive(Default)]
struct Inbox {
    mode: Option<Mode>,
    got: Vec<(HeaderMap, String)>,
}

/// A webhook receiver on a loopback port.
#[derive(Clone)]
struct Receiver {
    url: String,
    inbox: Arc<Mutex<Inbox>>,
}

impl Receiver {
    async fn start(mode: Mode) -> Receiver {
        let inbox = Arc::new(Mutex::new(Inbox {
            mode: Some(mode),
            got: Vec::new(),
        }));
        let router = Router::new()
            .route("/hook", post(receive))
            .with_state(Arc::clone(&inbox));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Receiver { url, inbox }
    }

    fn answer(&self, mode: Mode) {
        self.inbox.lock().unwrap().mode = Some(mode);
    }

    fn got(&self) -> Vec<(HeaderMap, String)> {
        self.inbox.lock().unwrap().got.clone()
    }

    /// Waits (at most half a minute) until `count` requests came.
    async fn wait_for(&self, count: usize) -> Vec<(HeaderMap, String)> {
        for _ in 0..300 {
            let got = self.got();
            if got.len() >= count {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{} requests, not {count}", self.got().len());
    }
}

async fn receive(
    State(inbox): State<Arc<Mutex<Inbox>>>,
    headers: HeaderMap,
    body: String,
) -> StatusCode {
    let mode = {
        let mut inbox = inbox.lock().unwrap();
        inbox.got.push((headers, body));
        inbox.mode.unwrap_or(Mode::Accept)
    };
    match mode {
        Mode::Accept => StatusCode::NO_CONTENT,
        Mode::Fail => StatusCode::INTERNAL_SERVER_ERROR,
        Mode::Slow(millis) => {
            tokio::time::sleep(Duration::from_millis(millis)).await;
            StatusCode::OK
        }
    }
}

/// What a receiver does with a delivery, as docs/api.md tells it to: the signature over
/// `<t>.<body>` with the hook's secret, `t` within five minutes of its clock (`now`), an
/// event id it has not handled yet.
fn check(
    secret: &str,
    headers: &HeaderMap,
    body: &str,
    now: i64,
    handled: &mut HashSet<String>,
) -> Result<(), &'static str> {
    let header = headers["missive-signature"].to_str().unwrap();
    let (t, v1) = header
        .strip_prefix("t=")
        .and_then(|rest| rest.split_once(",v1="))
        .ok_or("no signature")?;
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if expected != v1 {
        return Err("bad signature");
    }
    if (now - t.parse::<i64>().unwrap()).abs() > 300 {
        return Err("stale");
    }
    let id = headers["missive-event-id"].to_str().unwrap().to_string();
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["id"], id.as_str());
    if !handled.insert(id) {
        return Err("replayed");
    }
    Ok(())
}

/// Registers a hook to `url` for `player`: its id and secret.
async fn register(player: &Player<'_>, url: &str) -> (String, String) {
    let (status, body) = player
        .post("/v1/players/me/hooks", json!({ "url": url }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["state"], "active");
    (
        body["id"].as_str().unwrap().to_string(),
        body["secret"].as_str().unwrap().to_string(),
    )
}

/// An event without its `cursor` (which says when it was read).
fn unread(mut event: Value) -> Value {
    event.as_object_mut().unwrap().remove("cursor");
    event
}

/// Every event of `player`'s feed.
async fn feed_of(player: &Player<'_>) -> Vec<Value> {
    let response = player
        .server
        .http
        .get(format!("{}/v1/events", player.server.base))
        .bearer_auth(&player.token)
        .send()
        .await
        .unwrap();
    let text = response.text().await.unwrap();
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

async fn a_webhook_gets_every_event_of_a_game_as_the_feed_did(kind: Kind) {
    let receiver = Receiver::start(Mode::Accept).await;
    let server = Server::start_mailing(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let (hook, secret) = register(&bob, &receiver.url).await;
    let game = common::start_game(&[ann.clone(), bob.clone()], "chess").await;
    ann.play(&game, "e2e4", 0).await;
    bob.play(&game, "e7e5", 1).await;
    let (status, body) = ann
        .post(
            &format!("/v1/games/{game}/messages"),
            json!({ "text": "well played" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = ann
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let feed = feed_of(&bob).await;
    let kinds: Vec<&str> = feed.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["game-started", "moved", "your-turn", "message", "game-over"]
    );
    let got = receiver.wait_for(feed.len()).await;
    let sent: Vec<Value> = got
        .iter()
        .map(|(_, body)| unread(serde_json::from_str(body).unwrap()))
        .collect();
    let expected: Vec<Value> = feed.into_iter().map(unread).collect();
    assert_eq!(sent, expected);
    let now = server.clock_seconds();
    let mut handled = HashSet::new();
    for (headers, body) in &got {
        assert_eq!(headers["missive-hook-id"], hook.as_str());
        assert_eq!(headers["content-type"], "application/json");
        check(&secret, headers, body, now, &mut handled).unwrap();
    }
    // A delivery captured and sent again is told from a real one: its event was handled;
    // with its time changed its signature fails; later on its time is too old.
    let (headers, body) = &got[1];
    assert_eq!(
        check(&secret, headers, body, now, &mut handled),
        Err("replayed")
    );
    let mut changed = headers.clone();
    let signature = changed["missive-signature"].to_str().unwrap().to_string();
    let (_, v1) = signature.split_once(",v1=").unwrap();
    let forged = format!("t={},v1={v1}", now + 60);
    changed.insert("missive-signature", forged.parse().unwrap());
    assert_eq!(
        check(&secret, &changed, body, now, &mut HashSet::new()),
        Err("bad signature")
    );
    assert_eq!(
        check(&secret, headers, body, now + 600, &mut HashSet::new()),
        Err("stale")
    );
    assert_eq!(
        check("another", headers, body, now, &mut HashSet::new()),
        Err("bad signature")
    );

    // A delivery is logged once its answer has come back, after the receiver counted it.
    let mut log = Vec::new();
    for _ in 0..100 {
        let (status, page) = bob
            .get(&format!("/v1/players/me/hooks/{hook}/deliveries"))
            .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        log = page.as_array().unwrap().clone();
        if log.len() >= got.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(log.len(), got.len());
    assert!(
        log.iter().all(|d| d["status"] == 204 && d["attempt"] == 1),
        "{log:?}"
    );
    // The list never shows the secret; another player's hook is not there for them.
    let (_, hooks) = bob.get("/v1/players/me/hooks").await;
    assert_eq!(hooks[0]["id"], hook.as_str());
    assert!(hooks[0].get("secret").is_none());
    let (status, _) = ann
        .get(&format!("/v1/players/me/hooks/{hook}/deliveries"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// One sweep of `notifier` (which sends to webhooks), its webhook deliveries done: how many
/// hooks it had attended.
async fn swept(notifier: &Scheduler) -> usize {
    let hooks = notifier.sweep().await.unwrap().hooks;
    assert!(notifier.hooks_settled(Duration::from_secs(60)).await);
    hooks
}

async fn a_receiver_that_fails_or_times_out_is_retried_then_given_up(kind: Kind) {
    let receiver = Receiver::start(Mode::Fail).await;
    let server = Server::start(kind).await;
    let sender = hook_sender(&server.app);
    let sweeper = common::notifier(&server.app).with_hooks(sender.clone());
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let (hook, _) = register(&bob, &receiver.url).await;
    let game = common::start_game(&[ann.clone(), bob.clone()], "chess").await;
    ann.play(&game, "e2e4", 0).await;
    let state = || async {
        let (_, hooks) = bob.get("/v1/players/me/hooks").await;
        hooks[0].clone()
    };

    // A failure: retried after 30 s, not before.
    assert_eq!(sender.attend_players(&["bob"]).await.unwrap(), 0);
    assert_eq!(receiver.got().len(), 1);
    let failed = state().await;
    assert_eq!(failed["failures"], 1);
    swept(&sweeper).await;
    assert_eq!(receiver.got().len(), 1);
    // No answer within the timeout: another failure, an hour's backoff at most.
    receiver.answer(Mode::Slow(5_000));
    server.clock.advance(chrono::Duration::seconds(31));
    assert_eq!(swept(&sweeper).await, 1);
    assert_eq!(state().await["failures"], 2);
    // A slow answer within the timeout is a delivery: every event goes, in order, and the
    // same event is sent again each time with its attempt counted.
    receiver.answer(Mode::Slow(200));
    server.clock.advance(chrono::Duration::seconds(61));
    swept(&sweeper).await;
    let got = receiver.got();
    assert_eq!(got.len(), 5);
    let ids: Vec<String> = got
        .iter()
        .map(|(headers, _)| headers["missive-event-id"].to_str().unwrap().to_string())
        .collect();
    assert_eq!(ids[0], ids[1]);
    assert_eq!(ids[0], ids[2]);
    let (_, log) = bob
        .get(&format!("/v1/players/me/hooks/{hook}/deliveries"))
        .await;
    let attempts: Vec<(Value, Value)> = log
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|d| (d["attempt"].clone(), d["status"].clone()))
        .collect();
    assert_eq!(
        attempts,
        [
            (json!(1), json!(500)),
            (json!(2), Value::Null),
            (json!(3), json!(200)),
            (json!(1), json!(200)),
            (json!(1), json!(200))
        ]
    );
    assert!(
        log[3]["error"]
            .as_str()
            .unwrap()
            .contains("no answer in time"),
        "{log}"
    );
    assert_eq!(state().await["failures"], 0);

    // Ten failures in a row disable the hook: nothing is sent to it any more.
    receiver.answer(Mode::Fail);
    bob.play(&game, "e7e5", 1).await;
    ann.play(&game, "g1f3", 2).await;
    for _ in 0..10 {
        server.clock.advance(chrono::Duration::hours(2));
        swept(&sweeper).await;
    }
    let disabled = state().await;
    assert_eq!(
        (&disabled["state"], &disabled["failures"]),
        (&json!("disabled"), &json!(10))
    );
    let before = receiver.got().len();
    server.clock.advance(chrono::Duration::hours(2));
    swept(&sweeper).await;
    sender.attend_players(&["bob"]).await.unwrap();
    assert_eq!(receiver.got().len(), before);
    // Removed, it is gone.
    let path = format!("/v1/players/me/hooks/{hook}");
    let (status, _) = server
        .call(reqwest::Method::DELETE, &path, Some(&bob.token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = server
        .call(reqwest::Method::DELETE, &path, Some(&bob.token), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A resolver that answers every name with one address.
struct Answers(IpAddr);

#[async_trait::async_trait]
impl Names for Answers {
    async fn lookup(&self, _host: &str) -> std::io::Result<Vec<IpAddr>> {
        Ok(vec![self.0])
    }
}

/// A listener on a loopback port that counts the connections made to it (and closes them):
/// its port and the count.
async fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&count);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            drop(stream);
        }
    });
    (port, count)
}

/// The newest delivery attempt logged for `player`'s hook `hook`.
async fn last_attempt(player: &Player<'_>, hook: &str) -> Value {
    let (status, log) = player
        .get(&format!("/v1/players/me/hooks/{hook}/deliveries"))
        .await;
    assert_eq!(status, StatusCode::OK, "{log}");
    log[0].clone()
}

async fn a_hook_whose_name_or_address_is_local_is_refused_at_delivery(kind: Kind) {
    let server = Server::start(kind).await;
    let (port, connections) = counting_listener().await;
    let loopback = IpAddr::from([127, 0, 0, 1]);
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    // A name registered with local hooks off, that resolves to this machine when delivered.
    let public_only = server.app.service.clone().with_config(Config {
        quotas: common::test_limits(),
        ..Config::default()
    });
    let url = format!("https://hooks.example.test:{port}/");
    let hook = public_only
        .register_hook("bob", &url)
        .await
        .unwrap()
        .hook
        .id;
    // An address that spells this machine, as registered under looser rules.
    let literal = format!("https://[::ffff:127.0.0.1]:{port}/");
    let (other, _) = register(&ann, &literal).await;
    let game = common::start_game(&[ann.clone(), bob.clone()], "chess").await;
    ann.play(&game, "e2e4", 0).await;

    let reach = Reach {
        local: false,
        names: Arc::new(Answers(loopback)),
    };
    let sender = common::hook_sender_reaching(&server.app, reach);
    assert_eq!(sender.attend_players(&["bob", "ann"]).await.unwrap(), 0);
    assert_eq!(connections.load(Ordering::SeqCst), 0);
    let refused = last_attempt(&bob, &hook).await;
    let why = refused["error"].as_str().unwrap();
    assert!(
        why.contains("127.0.0.1") && why.contains("not a public address"),
        "{why}"
    );
    assert!(!why.contains("hooks.example.test"), "{why}");
    assert_eq!(refused["status"], Value::Null);
    let refused = last_attempt(&ann, &other).await;
    let why = refused["error"].as_str().unwrap();
    assert!(why.contains("loopback"), "{why}");
    assert!(!why.contains(&port.to_string()), "{why}");
    let (_, hooks) = bob.get("/v1/players/me/hooks").await;
    assert_eq!(hooks[0]["failures"], 1);

    // With local hooks allowed, the same resolver's answer is where the delivery goes.
    server.clock.advance(chrono::Duration::seconds(31));
    let reach = Reach {
        local: true,
        names: Arc::new(Answers(loopback)),
    };
    let sender = common::hook_sender_reaching(&server.app, reach);
    sender.attend_players(&["bob"]).await.unwrap();
    assert!(connections.load(Ordering::SeqCst) >= 1);
}

/// A receiver that holds every request until it is opened: who sent what, in order, and
/// whether two requests of one hook were ever held at once.
#[derive(Clone)]
struct Gate {
    url: String,
    open: Arc<tokio::sync::watch::Sender<bool>>,
    got: Arc<Mutex<Vec<(String, Value)>>>,
    held: Arc<Mutex<HashMap<String, usize>>>,
    overlapped: Arc<AtomicBool>,
}

impl Gate {
    async fn start() -> Gate {
        let gate = Gate {
            url: String::new(),
            open: Arc::new(tokio::sync::watch::channel(false).0),
            got: Arc::default(),
            held: Arc::default(),
            overlapped: Arc::default(),
        };
        let router = Router::new()
            .route("/hook", post(hold))
            .with_state(gate.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Gate { url, ..gate }
    }

    fn got(&self) -> Vec<(String, Value)> {
        self.got.lock().unwrap().clone()
    }

    /// Waits (at most a minute) until `count` requests came.
    async fn wait_for(&self, count: usize) {
        for _ in 0..600 {
            if self.got().len() >= count {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{} requests, not {count}", self.got().len());
    }
}

async fn hold(State(gate): State<Gate>, headers: HeaderMap, body: String) -> StatusCode {
    let hook = headers["missive-hook-id"].to_str().unwrap().to_string();
    {
        let mut held = gate.held.lock().unwrap();
        let count = held.entry(hook.clone()).or_default();
        *count += 1;
        if *count > 1 {
            gate.overlapped.store(true, Ordering::SeqCst);
        }
        let event = serde_json::from_str(&body).unwrap();
        gate.got.lock().unwrap().push((hook.clone(), event));
    }
    let mut open = gate.open.subscribe();
    let _ = tokio::time::timeout(Duration::from_secs(120), open.wait_for(|open| *open)).await;
    *gate.held.lock().unwrap().get_mut(&hook).unwrap() -= 1;
    StatusCode::NO_CONTENT
}

/// Waits (at most half a minute) for a turn mail of `game` to `email`; whether it came.
async fn turn_mail_comes(server: &Server, email: &str, game: &str) -> bool {
    for _ in 0..300 {
        let mailed = common::inbox::mail_files(&server.outbox)
            .iter()
            .any(|path| {
                let mail = common::inbox::Read::file(path);
                mail.to.contains(email)
                    && mail.text.contains("Your move: ")
                    && mail.text.contains(game)
            });
        if mailed {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

async fn slow_webhooks_of_one_player_delay_nobody_s_mail(kind: Kind) {
    let gate = Gate::start().await;
    let options = common::Options {
        mailing: true,
        hook_timeout: Duration::from_secs(60),
        ..common::Options::default()
    };
    let server = Server::start_with(kind, options).await;
    let ann = server.player("ann").await;
    let dan = server.player("dan").await;
    let bob = server.player("bob").await;
    let cat = server.player("cat").await;
    let mut hooks = Vec::new();
    for _ in 0..4 {
        hooks.push(register(&ann, &gate.url).await.0);
    }
    let first = common::start_game(&[dan.clone(), ann.clone()], "chess").await;
    gate.wait_for(1).await;
    // While the receiver holds ann's deliveries, other games' mail goes out, and so does
    // the mail of ann's own game.
    let other = common::start_game(&[bob.clone(), cat.clone()], "chess").await;
    bob.play(&other, "e2e4", 0).await;
    assert!(turn_mail_comes(&server, "cat@example.org", &other).await);
    dan.play(&first, "e2e4", 0).await;
    assert!(turn_mail_comes(&server, "ann@example.org", &first).await);
    assert!(gate.got().len() <= hooks.len(), "{:?}", gate.got());

    // Let go, every hook gets ann's feed in its order, one request at a time.
    gate.open.send_replace(true);
    let feed: Vec<Value> = feed_of(&ann).await.into_iter().map(unread).collect();
    gate.wait_for(feed.len() * hooks.len()).await;
    let got = gate.got();
    for hook in &hooks {
        let sent: Vec<Value> = got
            .iter()
            .filter(|(id, _)| id == hook)
            .map(|(_, event)| unread(event.clone()))
            .collect();
        assert_eq!(sent, feed, "{hook}");
    }
    assert!(!gate.overlapped.load(Ordering::SeqCst));
}

missive_store::contract_tests!(
    a_webhook_gets_every_event_of_a_game_as_the_feed_did,
    a_receiver_that_fails_or_times_out_is_retried_then_given_up,
    a_hook_whose_name_or_address_is_local_is_refused_at_delivery,
    slow_webhooks_of_one_player_delay_nobody_s_mail,
);
