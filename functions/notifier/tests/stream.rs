//! The notifier's handler fed DynamoDB stream events as Lambda delivers them, over a game
//! in DynamoDB Local: a repeated event sends one mail, the end of a game tells both players
//! once, an unreadable record is reported as the batch's failure, a change delivers the
//! players' events to their webhooks.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use missive_domain::GameId;
use missive_game::Config;
use missive_notify::HookSender;
use missive_notify::testing::Setup;
use missive_store::testing::Kind;
use serde_json::{Value, json};

/// A chess game in DynamoDB Local where ann played 1. e4 and bob is to move.
async fn setup() -> (Setup, GameId) {
    let setup = Setup::new(Kind::DynamoDb).await;
    let game = setup.chess().await;
    setup.play(&game, "ann", "e4", 0).await;
    (setup, game)
}

/// A stream record of the game table, as Lambda delivers it.
fn record(sequence: &str, name: &str, keys: Value, old: Option<Value>, new: Value) -> Value {
    let mut change = json!({
        "ApproximateCreationDateTime": 1_894_003_200,
        "Keys": keys,
        "NewImage": new,
        "SequenceNumber": sequence,
        "SizeBytes": 300,
        "StreamViewType": "NEW_AND_OLD_IMAGES",
    });
    if let Some(old) = old {
        change["OldImage"] = old;
    }
    json!({
        "eventID": format!("event-{sequence}"),
        "eventName": name,
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/missive/stream/2030-01-07T00:00:00.000",
        "dynamodb": change,
    })
}

/// The records one move commit writes: the move's insert and the head's change.
fn move_commit(game: &GameId, head_ply: Value) -> Value {
    let pk = json!({ "S": format!("GAME#{game}") });
    let head_keys = json!({ "PK": pk, "SK": { "S": "HEAD" } });
    let move_keys = json!({ "PK": pk, "SK": { "S": "MOVE#000000" } });
    let head = |ply: Value, player: &str| {
        json!({
            "PK": pk, "SK": { "S": "HEAD" }, "ply": ply, "revision": { "N": "3" },
            "wait_player": { "S": player }, "wait_deadline": { "N": "1894262400000" },
        })
    };
    json!({ "Records": [
        record("100", "INSERT", move_keys.clone(), None, json!({
            "PK": pk, "SK": { "S": "MOVE#000000" }, "long": { "S": "e2e4" },
        })),
        record(
            "101",
            "MODIFY",
            head_keys,
            Some(head(json!({ "N": "0" }), "ann")),
            head(head_ply, "bob"),
        ),
    ]})
}

/// Hands `event` to the handler twice, as a Lambda retry would; both times without failure.
async fn deliver_twice(s: &Setup, event: &Value) {
    for _ in 0..2 {
        let event = serde_json::from_value(event.clone()).unwrap();
        let answer = missive_notifier::handle(&s.notifier, event).await;
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({ "batchItemFailures": [] })
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_stream_event_sends_one_mail() {
    let (s, game) = setup().await;
    let event = move_commit(&game, json!({ "N": "1" }));
    deliver_twice(&s, &event).await;
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "bob@example.org");
    assert!(mails[0].text.contains("ann played 1. e4"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_record_is_the_batch_item_failure() {
    let (s, game) = setup().await;
    let event = move_commit(&game, json!({ "S": "one" }));
    let event = serde_json::from_value(event).unwrap();
    let answer = missive_notifier::handle(&s.notifier, event).await;
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        json!({ "batchItemFailures": [{ "itemIdentifier": "101" }] })
    );
    assert!(s.take_mail().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_game_tells_each_player_once() {
    let (s, game) = setup().await;
    s.take_mail();
    s.service.resign(&game, "bob").await.unwrap();
    let pk = json!({ "S": format!("GAME#{game}") });
    let keys = json!({ "PK": pk, "SK": { "S": "HEAD" } });
    let old = json!({
        "PK": pk, "SK": { "S": "HEAD" }, "ply": { "N": "1" }, "revision": { "N": "3" },
        "wait_player": { "S": "bob" }, "wait_deadline": { "N": "1894262400000" },
    });
    let new = json!({
        "PK": pk, "SK": { "S": "HEAD" }, "ply": { "N": "1" }, "revision": { "N": "4" },
    });
    let event = json!({ "Records": [record("200", "MODIFY", keys, Some(old), new)] });
    deliver_twice(&s, &event).await;
    let mut told: Vec<String> = s
        .take_mail()
        .into_iter()
        .filter(|mail| mail.text.contains("Game over:"))
        .map(|mail| mail.to)
        .collect();
    told.sort();
    assert_eq!(told, ["ann@example.org", "bob@example.org"]);
}

/// A webhook receiver on a loopback port that accepts everything: its address and the
/// bodies it got.
async fn receiver() -> (String, Arc<Mutex<Vec<Value>>>) {
    async fn receive(State(got): State<Arc<Mutex<Vec<Value>>>>, body: String) -> StatusCode {
        got.lock()
            .unwrap()
            .push(serde_json::from_str(&body).unwrap());
        StatusCode::NO_CONTENT
    }
    let got = Arc::new(Mutex::new(Vec::new()));
    let router = Router::new()
        .route("/hook", post(receive))
        .with_state(Arc::clone(&got));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, got)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_event_delivers_the_players_webhooks() {
    let (s, game) = setup().await;
    let (url, got) = receiver().await;
    let local = Config {
        local_hooks: true,
        ..Config::default()
    };
    let service = s.service.clone().with_config(local);
    service.register_hook("bob", &url).await.unwrap();
    let reach = missive_notify::Reach::system(true);
    let hooks = HookSender::new(service, s.clock.clone(), Duration::from_secs(5), reach).unwrap();
    let notifier = s.notifier.clone().with_hooks(hooks);
    let event = serde_json::from_value(move_commit(&game, json!({ "N": "1" }))).unwrap();
    let answer = missive_notifier::handle(&notifier, event).await;
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        json!({ "batchItemFailures": [] })
    );
    let kinds: Vec<Value> = got
        .lock()
        .unwrap()
        .iter()
        .map(|e| e["type"].clone())
        .collect();
    assert_eq!(
        kinds,
        [json!("game-started"), json!("moved"), json!("your-turn")]
    );
}
