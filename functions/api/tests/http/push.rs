//! Web Push: a player's subscription is sent a notice of every event of a game, encrypted
//! for it and signed with the server's VAPID key, on SQLite and DynamoDB Local. The push
//! service and the browser are one Python process on loopback
//! (`push_receiver/receive.py`) that checks each message's VAPID token with `cryptography`
//! and decrypts it with the subscription's private key by `http_ece`, independently of the
//! crates the server sends with. The interpreter is `$MISSIVE_PYTHON` (`python3`), with
//! the packages of `infra/python-requirements.txt`.

use crate::common;

use std::process::Stdio;
use std::time::Duration;

use common::{Options, Server};
use missive_auth::VapidKey;
use missive_notify::PushIdentity;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout};

/// The receiver's process and what it prints.
struct Receiver {
    _process: Child,
    lines: Lines<BufReader<ChildStdout>>,
    /// Its first line: the endpoints and the subscription's keys.
    subscription: Value,
}

impl Receiver {
    /// Starts the receiver, trusting the VAPID public key `key`.
    async fn start(key: &str) -> Receiver {
        let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/push_receiver/receive.py"
        );
        let mut process = tokio::process::Command::new(python)
            .args([script, key])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the push receiver starts");
        let mut lines = BufReader::new(process.stdout.take().unwrap()).lines();
        let first = lines.next_line().await.unwrap().expect(
            "the push receiver's subscription (pip install -r infra/python-requirements.txt)",
        );
        Receiver {
            _process: process,
            lines,
            subscription: serde_json::from_str(&first).unwrap(),
        }
    }

    /// The next message the receiver took (within a minute).
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.lines.next_line())
            .await
            .expect("a push message within a minute")
            .unwrap()
            .expect("the receiver is running");
        serde_json::from_str(&line).unwrap()
    }
}

async fn a_push_subscription_decrypts_every_event_of_a_game(kind: Kind) {
    let key = VapidKey::generate();
    let options = Options {
        mailing: true,
        push: Some(PushIdentity {
            key: key.clone(),
            contact: "mailto:ops@example.org".into(),
        }),
        ..Options::default()
    };
    let server = Server::start_with(kind, options).await;
    let (status, published) = server
        .call(reqwest::Method::GET, "/v1/push/key", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(published["key"], key.public_key());
    let mut receiver = Receiver::start(&key.public_key()).await;
    let subscription = receiver.subscription.clone();
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let keys = json!({"p256dh": subscription["p256dh"], "auth": subscription["auth"]});
    for endpoint in [&subscription["endpoint"], &subscription["gone"]] {
        let body = json!({"endpoint": endpoint, "keys": keys});
        let (status, body) = ann.post("/v1/players/me/push", body).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["endpoint"], *endpoint);
    }
    // Keys of the wrong size, and an endpoint that is no address, are refused.
    for wrong in [
        json!({"endpoint": subscription["endpoint"], "keys": {"p256dh": "AAAA", "auth": keys["auth"]}}),
        json!({"endpoint": subscription["endpoint"], "keys": {"p256dh": keys["p256dh"], "auth": "AAAA"}}),
        json!({"endpoint": "not an address", "keys": keys}),
    ] {
        let (status, body) = ann.post("/v1/players/me/push", wrong).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }

    // Fool's mate, with a message on the way.
    let game = common::start_game(&[ann.clone(), bob.clone()], "chess").await;
    ann.play(&game, "f2f3", 0).await;
    let (status, body) = bob
        .post(
            &format!("/v1/games/{game}/messages"),
            json!({ "text": "good luck" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    bob.play(&game, "e7e5", 1).await;
    ann.play(&game, "g2g4", 2).await;
    bob.play(&game, "d8h4", 3).await;

    // Every event of ann's feed comes, in order, decrypted; the gone subscription is
    // removed at its first message, whenever that is sent beside the other's.
    let (_, feed, _) = common::read_events(&ann, "").await;
    assert_eq!(feed.last().unwrap()["type"], "game-over", "{feed:?}");
    let mut notices: Vec<Value> = Vec::new();
    let mut gone = false;
    while notices.len() < feed.len() || !gone {
        let message = receiver.next().await;
        assert!(message.get("error").is_none(), "{message}");
        gone |= message["gone"] == true;
        if let Some(notice) = message.get("notice")
            && !notices.iter().any(|seen| seen["id"] == notice["id"])
        {
            notices.push(notice.clone());
        }
    }
    for (notice, event) in notices.iter().zip(&feed) {
        assert_eq!(
            (
                &notice["id"],
                &notice["cursor"],
                &notice["type"],
                &notice["game"]
            ),
            (
                &event["id"],
                &event["cursor"],
                &event["type"],
                &event["game"]
            ),
        );
    }
    let texts: Vec<&str> = notices
        .iter()
        .map(|n| n["text"].as_str().unwrap())
        .collect();
    assert!(texts.contains(&"bob: good luck"), "{texts:?}");
    assert!(texts.contains(&"bob played Qh4#"), "{texts:?}");
    let left = subscriptions_once_one_is_left(&ann).await;
    let left: Vec<&Value> = left.as_array().unwrap().iter().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0]["endpoint"], subscription["endpoint"]);
    // Webhooks and push subscriptions are listed apart.
    let (_, hooks) = ann.get("/v1/players/me/hooks").await;
    assert_eq!(hooks, json!([]));
    let id = left[0]["id"].as_str().unwrap();
    let (status, _) = server
        .call(
            reqwest::Method::DELETE,
            &format!("/v1/players/me/push/{id}"),
            Some(&ann.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

/// A server without a VAPID key has no push key to give.
async fn a_server_without_a_vapid_key_says_so(kind: Kind) {
    let server = Server::start(kind).await;
    let (status, body) = server
        .call(reqwest::Method::GET, "/v1/push/key", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "no-push-key");
}

missive_store::contract_tests!(
    a_push_subscription_decrypts_every_event_of_a_game,
    a_server_without_a_vapid_key_says_so,
);

/// `player`'s push subscriptions once at most one is left (the gone one's removal follows
/// the push service's 410 by a moment), or as they are after a minute.
async fn subscriptions_once_one_is_left(player: &common::Player<'_>) -> Value {
    let mut listed = Value::Null;
    for _ in 0..600 {
        let (status, subscriptions) = player.get("/v1/players/me/push").await;
        assert_eq!(status, StatusCode::OK);
        listed = subscriptions;
        if listed.as_array().is_some_and(|all| all.len() <= 1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    listed
}
