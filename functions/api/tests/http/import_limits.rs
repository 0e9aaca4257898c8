//! Imports are held to their limits over HTTP, on both stores: games per request (413,
//! nothing stored), games and bytes per player and day (429 with `Retry-After` until the
//! next UTC day), imports at once (from the moment the request's head has come, while its
//! text is still arriving), and the working time of one request.

use crate::common;

use std::time::Duration;

use tokio::io::AsyncWriteExt;

use common::{Player, Server};
use futures_util::future::join_all;
use missive_game::Quotas;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::Value;

/// `count` small finished games (fool's mate, won by ann), numbered from `first`.
fn archive(first: usize, count: usize) -> Vec<u8> {
    (first..first + count)
        .map(|n| {
            format!(
                "[Event \"Club {n}\"]\n[White \"Rival\"]\n[Black \"ann\"]\n[Result \"0-1\"]\n\n\
                 1. f3 e5 2. g4 Qh4# 0-1\n\n"
            )
        })
        .collect::<String>()
        .into_bytes()
}

/// POSTs `body` to the import route as `player`.
async fn import(player: &Player<'_>, body: Vec<u8>) -> (StatusCode, Value) {
    let server = player.server;
    let request = server
        .http
        .post(format!("{}/v1/archive", server.base))
        .header("content-type", "application/x-chess-pgn")
        .bearer_auth(&player.token)
        .body(body);
    server.send(request).await
}

/// The name and value of the limit an error names.
fn limit(body: &Value) -> (&str, u64) {
    let limit = &body["error"]["limit"];
    (
        limit["name"].as_str().unwrap_or(""),
        limit["value"].as_u64().unwrap_or(0),
    )
}

/// How many finished games `player` has.
async fn finished(player: &Player<'_>) -> usize {
    let path = format!(
        "/v1/games?player={}&status=finished&limit=200",
        player.handle
    );
    let (status, body) = player.get(&path).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["items"].as_array().unwrap().len()
}

fn limits() -> Quotas {
    Quotas {
        import_games_per_request: 10,
        import_games_per_day: 25,
        ..Quotas::default()
    }
}

async fn games_are_limited_per_request_and_per_day(kind: Kind) {
    let server = Server::start_with_limits(kind, limits()).await;
    let ann = server.player("ann").await;
    let (status, body) = import(&ann, archive(0, 11)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(body["error"]["code"], "too-large");
    assert_eq!(limit(&body), ("import-games-per-request", 10));
    assert_eq!(finished(&ann).await, 0, "nothing stored");
    for first in [0, 10] {
        let (status, body) = import(&ann, archive(first, 10)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["imported"], 10);
    }
    let (status, body) = import(&ann, archive(20, 10)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["error"]["code"], "limit-reached");
    assert_eq!(limit(&body), ("import-games-per-day", 25));
    assert_eq!(body["error"]["limit"]["per_seconds"], 86_400);
    let (status, body) = import(&ann, archive(20, 5)).await;
    assert_eq!((status, &body["imported"]), (StatusCode::OK, &5.into()));
    let refused = server
        .http
        .post(format!("{}/v1/archive", server.base))
        .bearer_auth(&ann.token)
        .body(archive(25, 1))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let clock = server.clock_now();
    let midnight = clock
        .date_naive()
        .succ_opt()
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap();
    let left = (midnight.and_utc() - clock).num_seconds();
    assert_eq!(refused.headers()["retry-after"], left.to_string().as_str());
    assert_eq!(finished(&ann).await, 25);
    // Another player has a day of their own; the next day, ann has one again.
    let bob = server.player("bob").await;
    assert_eq!(import(&bob, archive(0, 10)).await.0, StatusCode::OK);
    server.clock.advance(chrono::Duration::days(1));
    assert_eq!(import(&ann, archive(30, 10)).await.0, StatusCode::OK);
}

async fn bytes_are_limited_per_day(kind: Kind) {
    let size = archive(0, 10).len() as u64;
    let limits = Quotas {
        import_bytes_per_day: size * 2 + size / 2,
        ..Quotas::default()
    };
    let server = Server::start_with_limits(kind, limits).await;
    let ann = server.player("ann").await;
    for _ in 0..2 {
        assert_eq!(import(&ann, archive(0, 10)).await.0, StatusCode::OK);
    }
    let (status, body) = import(&ann, archive(0, 10)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(
        limit(&body),
        ("import-bytes-per-day", limits.import_bytes_per_day)
    );
    assert_eq!(finished(&ann).await, 20, "nothing of the third stored");
}

async fn a_player_runs_one_import_at_a_time(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let answers = join_all((0..4).map(|n| import(&ann, archive(n * 40, 40)))).await;
    let mut stored = 0;
    for (status, body) in &answers {
        match *status {
            StatusCode::OK => stored += body["imported"].as_u64().unwrap(),
            StatusCode::TOO_MANY_REQUESTS => {
                assert_eq!(limit(body), ("imports-at-once", 1), "{body}");
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert!(stored >= 40, "at least one import ran: {answers:?}");
    assert_eq!(finished(&ann).await as u64, stored);
    // Once they are over, the next one runs.
    assert_eq!(import(&ann, archive(200, 1)).await.0, StatusCode::OK);
}

/// Sends the head of an import of `text` by `player` and the first half of `text` on a
/// connection of its own; returns the connection and the rest of the text to send.
async fn half_sent_import<'a>(
    player: &Player<'_>,
    text: &'a [u8],
) -> (tokio::net::TcpStream, &'a [u8]) {
    let head = format!(
        "POST /v1/archive HTTP/1.1\r\nhost: missive.test\r\nauthorization: Bearer {}\r\n\
         content-type: application/x-chess-pgn\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n",
        player.token,
        text.len()
    );
    let (first_half, rest) = text.split_at(text.len() / 2);
    let mut stream = tokio::net::TcpStream::connect(player.server.addr)
        .await
        .unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(first_half).await.unwrap();
    (stream, rest)
}

async fn an_import_holds_its_slot_while_its_text_arrives(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let text = archive(0, 10);
    // While the slow import's text is arriving it holds ann's slot, and another import of
    // hers is refused. Should the other one come first (the slow one's head not yet
    // handled), the slow one may be the one refused: that round proves nothing, and the
    // next one tries again.
    for _ in 0..10 {
        let (mut slow, rest) = half_sent_import(&ann, &text).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (status, body) = import(&ann, archive(100, 1)).await;
        slow.write_all(rest).await.unwrap();
        let answer = common::raw::read_to_close(&mut slow, Duration::from_secs(30))
            .await
            .expect("the slow import is answered");
        match status {
            StatusCode::TOO_MANY_REQUESTS => {
                assert_eq!(limit(&body), ("imports-at-once", 1), "{body}");
                assert_eq!(answer.status(), Some(200), "{:?}", answer.head());
                assert_eq!(answer.json().unwrap()["imported"], 10);
                assert_eq!(import(&ann, archive(200, 1)).await.0, StatusCode::OK);
                return;
            }
            StatusCode::OK => assert!(
                matches!(answer.status(), Some(200 | 429)),
                "{:?}",
                answer.head()
            ),
            other => panic!("{other}: {body}"),
        }
    }
    panic!("an import beside one whose text is still arriving was never refused");
}

async fn a_request_works_a_limited_time(kind: Kind) {
    let limits = Quotas {
        import_games_per_request: 0,
        import_games_per_day: 0,
        import_time: Duration::from_millis(1),
        ..Quotas::default()
    };
    let server = Server::start_with_limits(kind, limits).await;
    let ann = server.player("ann").await;
    let games = 300;
    let (status, body) = import(&ann, archive(0, games)).await;
    let outcomes = match status {
        StatusCode::OK => body["games"].as_array().unwrap().clone(),
        StatusCode::UNPROCESSABLE_ENTITY => body["error"]["games"].as_array().unwrap().clone(),
        other => panic!("{other}: {body}"),
    };
    let stored = outcomes.iter().filter(|g| g["id"].is_string()).count();
    assert!(
        stored < games,
        "300 durable writes take more than a millisecond"
    );
    for game in outcomes.iter().filter(|g| !g["id"].is_string()) {
        let error = game["error"].as_str().unwrap();
        assert!(error.contains("working time"), "{error}");
    }
    if outcomes.len() < games {
        let said = body.to_string();
        assert!(said.contains("reading stopped after game"), "{said}");
    }
    assert_eq!(finished(&ann).await, stored);
}

per_store!(
    games_are_limited_per_request_and_per_day,
    bytes_are_limited_per_day,
    a_player_runs_one_import_at_a_time,
    an_import_holds_its_slot_while_its_text_arrives,
    a_request_works_a_limited_time,
);
