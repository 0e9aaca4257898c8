//! The notifier's handler fed DynamoDB stream events as Lambda delivers them, over a game
//! in DynamoDB Local: a repeated event sends one mail, a move whose feed items its commit
//! left to the stream is told once however often its record comes, the end of a game
//! tells both players once, an unreadable record is reported as the batch's failure, a
//! change delivers the players' events to their webhooks.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use missive_domain::{GameId, Head};
use missive_game::Config;
use missive_notify::HookSender;
use missive_notify::testing::Setup;
use missive_store::testing::Kind;
use serde_json::{Value, json};

/// A chess game in DynamoDB Local where ann played 1. e4 and bob is to move, and the
/// stream's event of that move.
async fn setup() -> (Setup, GameId, Value) {
    let setup = Setup::new(Kind::DynamoDb).await;
    let game = setup.chess().await;
    let before = head(&setup, &game).await;
    setup.play(&game, "ann", "e4", 0).await;
    let event = event_since(&setup, &before).await;
    (setup, game, event)
}

/// The head of `game` as stored.
async fn head(s: &Setup, game: &GameId) -> Head {
    s.service.store().head(game).await.unwrap().unwrap()
}

/// The stream's event of the change of a game's head from `before` to the head stored now.
async fn event_since(s: &Setup, before: &Head) -> Value {
    let after = head(s, &before.id).await;
    json!({ "Records": [record("101", before, &after)] })
}

/// The image of `head` as the table's stream carries it.
fn image(head: &Head) -> Value {
    let mut image = json!({
        "PK": { "S": format!("GAME#{}", head.id) }, "SK": { "S": "HEAD" },
        "ply": { "N": head.ply.to_string() }, "revision": { "N": head.revision.to_string() },
        "events": { "N": head.events.to_string() },
        "body": { "S": serde_json::to_string(head).unwrap() },
    });
    if let Some(waiting) = &head.waiting {
        image["wait_player"] = json!({ "S": waiting.player });
    }
    image
}

/// The stream record of the change of a head from `old` to `new`, as Lambda delivers it.
fn record(sequence: &str, old: &Head, new: &Head) -> Value {
    let keys = json!({ "PK": { "S": format!("GAME#{}", new.id) }, "SK": { "S": "HEAD" } });
    json!({
        "eventID": format!("event-{sequence}"),
        "eventName": "MODIFY",
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/missive/stream/2030-01-07T00:00:00.000",
        "dynamodb": {
            "ApproximateCreationDateTime": 1_894_003_200,
            "Keys": keys,
            "NewImage": image(new),
            "OldImage": image(old),
            "SequenceNumber": sequence,
            "SizeBytes": 300,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    })
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

/// The kinds of the events of `player`'s feed, oldest first.
async fn kinds(s: &Setup, player: &str) -> Vec<String> {
    let read = s.service.events(player, None, Duration::ZERO, 100).await;
    let kind =
        |event: &missive_game::EventView| serde_json::to_value(event).unwrap()["type"].clone();
    read.unwrap()
        .events
        .iter()
        .map(|e| kind(e).as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_stream_event_sends_one_mail() {
    let (s, _, event) = setup().await;
    deliver_twice(&s, &event).await;
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "bob@example.org");
    assert!(mails[0].text.contains("ann played 1. e4"));
}

/// A move whose commit left its feed items to the stream: its record, delivered twice (a
/// retry), tells them once, in order, before the turn mail goes out once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_left_to_the_stream_is_told_once() {
    let mut s = Setup::new(Kind::DynamoDb).await;
    let game = s.chess().await;
    let config = Config {
        feed_from_stream: true,
        ..Config::default()
    };
    s.service = s.service.clone().with_config(config);
    let before = head(&s, &game).await;
    s.play(&game, "ann", "e4", 0).await;
    let event = event_since(&s, &before).await;
    assert_eq!(kinds(&s, "bob").await, ["game-started"]);
    deliver_twice(&s, &event).await;
    assert_eq!(
        kinds(&s, "bob").await,
        ["game-started", "moved", "your-turn"]
    );
    assert_eq!(kinds(&s, "ann").await, ["game-started", "your-turn"]);
    assert_eq!(s.take_mail().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_record_is_the_batch_item_failure() {
    let (s, _, mut event) = setup().await;
    event["Records"][0]["dynamodb"]["NewImage"]["ply"] = json!({ "S": "one" });
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
    let (s, game, _) = setup().await;
    s.take_mail();
    let before = head(&s, &game).await;
    s.service.resign(&game, "bob").await.unwrap();
    let event = event_since(&s, &before).await;
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
    let (s, _, event) = setup().await;
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
    let event = serde_json::from_value(event).unwrap();
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
