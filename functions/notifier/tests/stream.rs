//! The notifier's handler fed DynamoDB stream events as Lambda delivers them, over a game
//! in DynamoDB Local: a repeated event sends one mail, an unreadable record is reported as
//! the batch's failure.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::DateTime;
use missive_auth::{Authority, SigningKey};
use missive_game::{GameService, ManualClock, MoveRequest, NewGame, SeatRequest};
use missive_mail::Outbox;
use missive_notify::Notifier;
use missive_store::testing::{Kind, TestStore, unique_name};
use missive_store::{GameId, TimeControl};
use serde_json::{Value, json};

struct Setup {
    notifier: Notifier,
    outbox: PathBuf,
    game: GameId,
    _test: TestStore,
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.outbox);
    }
}

/// A chess game in DynamoDB Local where ann played 1. e4 and bob is to move.
async fn setup() -> Setup {
    let test = TestStore::new(Kind::Dynamo).await;
    let clock = Arc::new(ManualClock::new(
        DateTime::from_timestamp(1_894_003_200, 0).unwrap(),
    ));
    let service = GameService::new(test.store.clone(), clock.clone());
    for handle in ["ann", "bob"] {
        service
            .sign_up(handle, &format!("{handle}@example.org"))
            .await
            .unwrap();
    }
    let game = service
        .create_game(NewGame {
            creator: "ann".into(),
            variant: "chess".into(),
            options: String::new(),
            start_position: None,
            seats: vec![SeatRequest::Creator, SeatRequest::Open],
            time_control: TimeControl::DaysPerMove { days: 3 },
            rated: false,
        })
        .await
        .unwrap();
    service.join(&game, "bob", None).await.unwrap();
    let request = MoveRequest {
        player: "ann".into(),
        expected_ply: 0,
        key: "k".into(),
        text: "e4".into(),
        offer_draw: false,
    };
    service.submit_move(&game, &request).await.unwrap();
    let outbox = std::env::temp_dir().join(unique_name("missive-notifier"));
    let authority = Authority::new(&SigningKey::generate(), "m", "m").unwrap();
    let notifier = Notifier::new(
        service,
        Arc::new(authority),
        Arc::new(Outbox::new(&outbox, "missive@example.org")),
        clock,
        "http://missive.test",
    );
    Setup {
        notifier,
        outbox,
        game,
        _test: test,
    }
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

fn mails(outbox: &PathBuf) -> Vec<String> {
    std::fs::read_dir(outbox)
        .map(|entries| {
            entries
                .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_stream_event_sends_one_mail() {
    let s = setup().await;
    let event = move_commit(&s.game, json!({ "N": "1" }));
    for _ in 0..2 {
        let event = serde_json::from_value(event.clone()).unwrap();
        let answer = missive_notifier::handle(&s.notifier, event).await;
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({ "batchItemFailures": [] })
        );
    }
    let mails = mails(&s.outbox);
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("To: bob@example.org"));
    assert!(mails[0].contains("ann played 1. e4"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_record_is_the_batch_item_failure() {
    let s = setup().await;
    let event = move_commit(&s.game, json!({ "S": "one" }));
    let event = serde_json::from_value(event).unwrap();
    let answer = missive_notifier::handle(&s.notifier, event).await;
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        json!({ "batchItemFailures": [{ "itemIdentifier": "101" }] })
    );
    assert!(mails(&s.outbox).is_empty());
}
