//! Complete games over HTTP, from sign-up to result, for every registered variant, on every
//! store: random legal playouts by two or three clients, ended by agreement, resignation or
//! time-out (the server's clock moved by the test); conditional moves firing; lists.

use crate::common;

use chrono::Duration;
use common::{Player, Server, seat_count, start_game};
use missive_rules::registry;
use missive_store::testing::Kind;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Plies of random play before the game is ended on purpose.
const PLAYOUT: usize = 16;

/// How a test game ends if the playout does not end it.
#[derive(Clone, Copy, Debug)]
enum End {
    Agreement,
    Resignation,
    Timeout,
}

/// Plays random legal moves (as each seat's own client) until the game ends or `plies`
/// moves were played; returns the last state.
async fn playout(players: &[Player<'_>], id: &str, plies: usize, rng: &mut StdRng) -> Value {
    let mut state = players[0].game(id).await;
    for _ in 0..plies {
        if state["status"] != "active" {
            break;
        }
        let seat = state["to_move"].as_u64().unwrap() as usize;
        let mover = &players[seat];
        let own = mover.game(id).await;
        let legal = own["legal_moves"].as_array().unwrap();
        let notation = if rng.random_bool(0.5) {
            "legal_moves"
        } else {
            "legal_moves_short"
        };
        let choices = own[notation].as_array().unwrap();
        assert_eq!(choices.len(), legal.len());
        let text = choices.choose(rng).unwrap().as_str().unwrap();
        let ply = own["ply"].as_u64().unwrap();
        let played = mover.play(id, text, ply).await;
        assert_eq!(played["move"]["ply"], ply);
        state = players[0].game(id).await;
    }
    state
}

/// `board.png` of game `id` from `seat`: a PNG that decodes, of a board's size; a scale out
/// of range or an unknown seat is a bad request, a parameter it does not know is ignored.
async fn assert_board_png(server: &Server, id: &str, seat: &str) {
    let board = format!("{}/v1/games/{id}/board.png", server.base);
    let answer = server
        .http
        .get(format!("{board}?seat={seat}"))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["content-type"], "image/png");
    let bytes = answer.bytes().await.unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes.as_ref()));
    let info = decoder.read_info().expect("a PNG");
    let (width, height) = (info.info().width, info.info().height);
    assert!((300..=4096).contains(&width) && (300..=4096).contains(&height));
    for query in ["scale=3", "scale=0", "seat=nobody"] {
        let (status, _) = server
            .send(server.http.get(format!("{board}?{query}")))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
    }
    let unknown = server
        .http
        .get(format!("{board}?size=big"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        unknown.status(),
        StatusCode::OK,
        "unknown parameters are ignored"
    );
}

/// Ends an active game the way `end` says, checking each step's answer.
async fn finish(server: &Server, players: &[Player<'_>], id: &str, end: End) -> Value {
    let state = players[0].game(id).await;
    let to_move = state["to_move"].as_u64().unwrap() as usize;
    match end {
        End::Agreement => {
            let path = format!("/v1/games/{id}/draw");
            let (status, body) = players[0].post(&path, json!({ "action": "offer" })).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["ending"], Value::Null);
            for player in &players[1..] {
                let (status, _) = player.post(&path, json!({ "action": "accept" })).await;
                assert_eq!(status, StatusCode::OK);
            }
        }
        End::Resignation => {
            let (status, body) = players[to_move]
                .post(&format!("/v1/games/{id}/resign"), json!({}))
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["ending"]["rule"], "resignation");
        }
        End::Timeout => {
            let claimant = &players[(to_move + 1) % players.len()];
            let path = format!("/v1/games/{id}/claim");
            let (status, body) = claimant.post(&path, json!({ "claim": "timeout" })).await;
            assert_eq!(
                status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "too early: {body}"
            );
            server.clock.advance(Duration::days(4));
            let (status, body) = claimant.post(&path, json!({ "claim": "timeout" })).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["ending"]["rule"], "timeout");
        }
    }
    players[0].game(id).await
}

async fn every_variant_plays_to_a_result(kind: Kind) {
    let server = Server::start(kind).await;
    let players = [
        server.player("ann").await,
        server.player("bob").await,
        server.player("cy").await,
    ];
    let ends = [End::Agreement, End::Resignation, End::Timeout];
    let mut rng = StdRng::seed_from_u64(9);
    for (index, variant) in registry::variants().iter().enumerate() {
        let seats = seat_count(&server, variant.id()).await;
        let table = &players[..seats];
        let id = start_game(table, variant.id()).await;
        let mut state = playout(table, &id, PLAYOUT, &mut rng).await;
        if state["status"] == "active" {
            state = finish(&server, table, &id, ends[index % ends.len()]).await;
        }
        assert_eq!(state["status"], "finished", "{}: {state}", variant.id());
        let board = format!("{}/v1/games/{id}/board.svg", server.base);
        let svg = server.http.get(&board).send().await.unwrap();
        assert_eq!(svg.status(), StatusCode::OK);
        assert_eq!(svg.headers()["content-type"], "image/svg+xml");
        assert!(svg.text().await.unwrap().contains("<svg"));
        let (status, _) = server
            .send(server.http.get(format!("{board}?seat=nobody")))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let seat = variant.seat_names()[seats - 1];
        assert_board_png(&server, &id, seat).await;
        let archive = server
            .http
            .get(format!("{}/v1/games/{id}/archive", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(archive.status(), StatusCode::OK);
        let text = archive.text().await.unwrap();
        let read = missive_archive::read(text.as_bytes())
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(read.record.variant, variant.id());
        assert_eq!(read.record.result.unwrap().rule, state["ending"]["rule"]);
        let results = state["ending"]["results"].as_array().unwrap();
        assert_eq!(results.len(), seats);
        let (status, log) = table[1].get(&format!("/v1/games/{id}/moves")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            log["items"].as_array().unwrap().len() as u64,
            state["ply"].as_u64().unwrap()
        );
        for player in table {
            let (status, list) = player
                .get(&format!(
                    "/v1/games?player={}&status=finished",
                    player.handle
                ))
                .await;
            assert_eq!(status, StatusCode::OK);
            assert!(
                list["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|g| g["id"] == id.as_str())
            );
        }
    }
}

async fn a_conditional_move_fires(kind: Kind) {
    let server = Server::start(kind).await;
    let (ann, bob) = (server.player("ann").await, server.player("bob").await);
    let players = [ann, bob];
    let id = start_game(&players, "chess").await;
    let [ann, bob] = &players;
    ann.play(&id, "e4", 0).await;
    let (status, body) = ann
        .put(
            &format!("/v1/games/{id}/conditional-moves"),
            json!({ "lines": [["e5", "Nf3"], ["c5", "Nc3"]] }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["lines"].as_array().unwrap().len(), 2);
    assert_eq!(
        bob.game(&id).await["conditional"],
        json!([]),
        "hidden from bob"
    );
    let played = bob.play(&id, "c5", 1).await;
    assert_eq!(played["replies"][0]["short"], "Nc3");
    let state = ann.game(&id).await;
    assert_eq!(state["ply"], 3);
    assert_eq!(state["to_move"], 1);
    let (status, waiting) = bob.get("/v1/games?waiting=me").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(waiting["items"][0]["id"], id.as_str());
}

async fn lists_page_with_cursors(kind: Kind) {
    let server = Server::start(kind).await;
    let players = [server.player("ann").await, server.player("bob").await];
    for _ in 0..3 {
        start_game(&players, "chess").await;
    }
    let mut seen = Vec::new();
    let mut path = "/v1/games?waiting=me&limit=2".to_string();
    loop {
        let (status, page) = players[0].get(&path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        seen.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].clone()),
        );
        match page["next_cursor"].as_str() {
            Some(cursor) => path = format!("/v1/games?waiting=me&limit=2&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(seen.len(), 3);
    seen.dedup();
    assert_eq!(seen.len(), 3);
}

/// A move sent with a message writes the message with it, once for a retry under the same
/// key; a message too long refuses the move as well.
async fn a_message_with_a_move(kind: Kind) {
    let server = Server::start(kind).await;
    let (white, black) = (server.player("ann").await, server.player("bob").await);
    let id = start_game(&[white.clone(), black.clone()], "chess").await;
    let moves = format!("/v1/games/{id}/moves");
    let long = "x".repeat(2001);
    let (status, body) = white
        .post(
            &moves,
            json!({"move": "e4", "expected_ply": 0, "message": long}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"]["code"], "too-long");
    assert_eq!(white.game(&id).await["ply"], 0);
    let request = || {
        server
            .http
            .post(format!("{}{moves}", server.base))
            .bearer_auth(&white.token)
            .header("Idempotency-Key", "with-a-message")
            .json(&json!({"move": "e4", "expected_ply": 0, "message": "Have fun"}))
    };
    for _ in 0..2 {
        let (status, body) = server.send(request()).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (_, messages) = black.get(&format!("/v1/games/{id}/messages")).await;
    let items = messages["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{messages}");
    assert_eq!(items[0]["text"], "Have fun");
    assert_eq!(items[0]["ply"], 1, "written right after the move");
}

per_store!(
    a_message_with_a_move,
    every_variant_plays_to_a_result,
    a_conditional_move_fires,
    lists_page_with_cursors,
);
