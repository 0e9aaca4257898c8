//! The event feed over the WebSocket (`/v1/events/ws`, as `missive serve` serves it): an
//! app follows a whole game over the WebSocket alone, on SQLite and DynamoDB Local,
//! reconnecting once in the middle with the cursor of the last event it handled and
//! missing nothing.

use crate::common;

use common::Server;
use common::sockets::SocketApp;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

async fn an_app_follows_a_whole_game_over_the_websocket_alone(kind: Kind) {
    let server = Server::start(kind).await;
    let mut ann = SocketApp::new(server.player("ann").await);
    let mut bob = SocketApp::new(server.player("bob").await);
    assert!(ann.connect(false).await.is_empty(), "nothing yet");
    assert!(bob.connect(true).await.is_empty(), "nothing yet");
    let game = common::invite_to_chess(&ann.player, "bob").await;
    let invited = bob.until("invited").await;
    assert_eq!(invited.last().unwrap()["by"], "ann");
    let (status, body) = bob
        .player
        .post(&format!("/v1/games/{game}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    ann.until("your-turn").await;
    ann.player.play(&game, "f2f3", 0).await;
    bob.until("your-turn").await;

    // Ann's app goes away; bob writes and moves meanwhile, an hour later.
    ann.disconnect().await;
    server.clock.advance(chrono::TimeDelta::hours(1));
    let (status, body) = bob
        .player
        .post(
            &format!("/v1/games/{game}/messages"),
            json!({ "text": "good luck" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    bob.player.play(&game, "e7e5", 1).await;
    // Back with the cursor of the last event it handled: what it missed comes first.
    let missed = ann.connect(false).await;
    let kinds: Vec<&str> = missed.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["message", "moved", "your-turn"], "{missed:?}");
    ann.player.play(&game, "g2g4", 2).await;
    bob.until("your-turn").await;
    bob.player.play(&game, "d8h4", 3).await;
    ann.until("game-over").await;
    bob.until("game-over").await;

    assert_eq!(
        ann.kinds(),
        [
            "game-started",
            "your-turn",
            "message",
            "moved",
            "your-turn",
            "moved",
            "game-over"
        ]
    );
    assert_eq!(
        bob.kinds(),
        [
            "invited",
            "game-started",
            "moved",
            "your-turn",
            "moved",
            "your-turn",
            "game-over"
        ]
    );
    let end = ann.seen.last().unwrap();
    assert_eq!(
        (&end["rule"], &end["results"]),
        (&json!("checkmate"), &json!(["loss", "win"]))
    );
    // The same events as the feed gives over HTTP (their cursors carry when they were
    // given out).
    let (_, feed, _) = common::read_events(&ann.player, "").await;
    let ids = |events: &[serde_json::Value]| -> Vec<serde_json::Value> {
        events.iter().map(|e| e["id"].clone()).collect()
    };
    assert_eq!(ids(&feed), ids(&ann.seen));

    // A ping is answered; a cursor not given out is refused on the socket, which stays.
    ann.send(json!({"action": "ping"})).await;
    assert!(ann.until("pong").await.is_empty());
    ann.send(json!({"action": "subscribe", "cursor": "nonsense"}))
        .await;
    let refused = ann.next().await.unwrap();
    assert_eq!(refused["error"]["code"], "invalid-cursor", "{refused}");
    ann.send(json!({"action": "dance"})).await;
    let refused = ann.next().await.unwrap();
    assert_eq!(refused["error"]["code"], "bad-request", "{refused}");
    ann.send(json!({"action": "ping"})).await;
    assert!(ann.until("pong").await.is_empty());
}

/// An opening without a valid token is refused before any upgrade; a request that is no
/// WebSocket opening is a bad request.
async fn an_opening_without_a_valid_token_is_refused(kind: Kind) {
    let server = Server::start(kind).await;
    let url = server.base.replace("http://", "ws://");
    for url in [
        format!("{url}/v1/events/ws"),
        format!("{url}/v1/events/ws?access_token=forged"),
    ] {
        match tokio_tungstenite::connect_async(url.as_str()).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
                assert_eq!(answer.status(), 401, "{url}");
            }
            other => panic!("{url}: {other:?}"),
        }
    }
    let (status, body) = server
        .call(reqwest::Method::GET, "/v1/events/ws", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

missive_store::contract_tests!(
    an_app_follows_a_whole_game_over_the_websocket_alone,
    an_opening_without_a_valid_token_is_refused,
);
