//! Every error path and hostile input answers in the error shape with the right status,
//! never a 500: malformed JSON, wrong types, huge bodies, unknown ids and routes, missing,
//! forged, expired and wrong-purpose tokens, another player's seat, stale plies, illegal
//! moves; and the conditional-request, idempotency and CORS behaviour clients rely on.

use crate::common;

use chrono::DateTime;
use common::{ISSUER, Server, start_game};
use missive_auth::{Authority, Grant, MoveLink, Purpose, SigningKey};
use missive_domain::{GameId, Seat};
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

async fn hostile_bodies_are_refused(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let url = format!("{}/v1/games", server.base);
    let raw = |body: Vec<u8>, content_type: &str| {
        server
            .http
            .post(&url)
            .bearer_auth(&ann.token)
            .header("content-type", content_type)
            .body(body)
    };
    let cases: Vec<(Vec<u8>, &str, StatusCode)> = vec![
        (b"{not json".to_vec(), "application/json", StatusCode::BAD_REQUEST),
        (b"".to_vec(), "application/json", StatusCode::BAD_REQUEST),
        (br#"{"variant": 7}"#.to_vec(), "application/json", StatusCode::BAD_REQUEST),
        (br#"[1,2,3]"#.to_vec(), "application/json", StatusCode::BAD_REQUEST),
        (
            br#"{"variant":"chess","seats":[{"kind":"creator"},{"kind":"open"}],"time_control":{"kind":"days-per-move","days":3},"extra":1}"#.to_vec(),
            "application/json",
            // Fields this version does not know are ignored (docs/api.md, versions).
            StatusCode::CREATED,
        ),
        (vec![0xff, 0xfe, 0x00], "application/json", StatusCode::BAD_REQUEST),
        // Nested as deep as the body limit allows: past serde_json's recursion limit, no crash.
        ("[".repeat(60_000).into_bytes(), "application/json", StatusCode::BAD_REQUEST),
        (br#"{"variant":"chess"}"#.to_vec(), "text/plain", StatusCode::UNSUPPORTED_MEDIA_TYPE),
    ];
    for (body, content_type, expected) in cases {
        let shown = String::from_utf8_lossy(&body[..body.len().min(40)]).to_string();
        let (status, answer) = server.send(raw(body, content_type)).await;
        assert_eq!(status, expected, "{shown}: {answer}");
    }
    too_large_is_refused(&server, &ann.token).await;
    let refused = [
        (
            json!({"variant": "no-such", "seats": [{"kind":"creator"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":3}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "options": "bogus=1", "seats": [{"kind":"creator"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":3}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "seats": [{"kind":"creator"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":4}}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"variant": "chess", "seats": [{"kind":"open"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":3}}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"variant": "chess", "start_position": "garbage", "seats": [{"kind":"creator"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":3}}),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (body, expected) in refused {
        let (status, answer) = ann.post("/v1/games", body.clone()).await;
        assert_eq!(status, expected, "{body}: {answer}");
    }
}

/// A body over the limit is answered 413. The server may answer as soon as it has read the
/// head and close without reading the rest, so the client may fail to write the body:
/// what counts is what the server sent, read while writing, and the only correct outcomes
/// are a whole 413 in the error shape or the start of a 413 before the connection closed.
async fn too_large_is_refused(server: &Server, token: &str) {
    let body = format!(r#"{{"variant":"{}"}}"#, "x".repeat(200_000));
    let request = format!(
        "POST /v1/games HTTP/1.1\r\nhost: missive.test\r\nauthorization: Bearer {token}\r\n\
         content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let answer = common::raw::exchange(
        server.addr,
        request.into_bytes(),
        std::time::Duration::from_secs(30),
    )
    .await;
    assert_eq!(
        answer.status(),
        Some(413),
        "{:?}",
        String::from_utf8_lossy(&answer.bytes)
    );
    if let Some(json) = answer.json() {
        assert_eq!(code(&json), "too-large", "{json}");
    }
}

async fn unknown_things_are_404_and_methods_405(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    for path in [
        "/v1/games/01NOSUCHGAME",
        "/v1/games/01NOSUCHGAME/moves",
        "/v1/games/01NOSUCHGAME/archive",
        "/v1/games/01NOSUCHGAME/board.svg",
        "/v1/games/01NOSUCHGAME/board.png",
        "/v1/players/nobody",
        "/v1/nothing-here",
        "/",
    ] {
        let (status, body) = ann.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
    }
    for (path, body) in [
        (
            "/v1/games/01NOSUCHGAME/moves",
            json!({"move": "e4", "expected_ply": 0}),
        ),
        ("/v1/games/01NOSUCHGAME/resign", json!({})),
        ("/v1/games/01NOSUCHGAME/join", json!({})),
    ] {
        let (status, answer) = ann.post(path, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {answer}");
        assert_eq!(code(&answer), "game-not-found");
    }
    let (status, body) = server
        .call(Method::DELETE, "/v1/variants", None, None)
        .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{body}");
    let (status, body) = ann.get("/v1/games?waiting=you").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = ann.get("/v1/games?waiting=me&cursor=%%%").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = ann.get("/v1/games?waiting=me&limit=-1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

async fn tokens_are_checked(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let now = server.clock_seconds();
    let mint = |key: &SigningKey, issuer: &str, purpose: Purpose, at: i64| {
        let authority = Authority::new(key, issuer, issuer).unwrap();
        if purpose == Purpose::MoveLink {
            let link = MoveLink {
                handle: "ann".into(),
                game: GameId("G".into()),
                seat: Seat(0),
                ply: 0,
            };
            let at = DateTime::from_timestamp(at, 0).unwrap();
            return link.token(&authority, at, at).unwrap();
        }
        let grant = Grant {
            purpose,
            subject: "ann".into(),
            lifetime: 600,
        };
        authority.mint(&grant, at).unwrap()
    };
    let new_game = json!({"variant": "chess", "seats": [{"kind":"creator"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":3}});
    let mut forged = ann.token.clone();
    forged.replace_range(forged.len() - 6.., "AAAAAA");
    let cases = [
        (None, StatusCode::UNAUTHORIZED),
        (Some("garbage".to_string()), StatusCode::UNAUTHORIZED),
        (Some(forged), StatusCode::UNAUTHORIZED),
        (
            Some(mint(&SigningKey::generate(), ISSUER, Purpose::Access, now)),
            StatusCode::UNAUTHORIZED,
        ),
        (
            Some(mint(&server.key, "someone-else", Purpose::Access, now)),
            StatusCode::UNAUTHORIZED,
        ),
        (
            Some(mint(&server.key, ISSUER, Purpose::Access, now - 601)),
            StatusCode::UNAUTHORIZED,
        ),
        (
            Some(mint(&server.key, ISSUER, Purpose::SignIn, now)),
            StatusCode::FORBIDDEN,
        ),
        (
            Some(mint(&server.key, ISSUER, Purpose::MoveLink, now)),
            StatusCode::FORBIDDEN,
        ),
    ];
    for (token, expected) in cases {
        let (status, body) = server
            .call(
                Method::POST,
                "/v1/games",
                token.as_deref(),
                Some(new_game.clone()),
            )
            .await;
        assert_eq!(status, expected, "{token:?}: {body}");
    }
    let (status, body) = server
        .send(
            server
                .http
                .post(format!("{}/v1/games", server.base))
                .header("authorization", format!("Basic {}", ann.token))
                .json(&new_game),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    // An access token is no sign-in token, and a sign-in token expires.
    let (status, _) = server.exchange(&ann.token).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let link = server.sign_in_token("ann@example.org").await;
    server.clock.advance(chrono::Duration::minutes(16));
    let (status, _) = server.exchange(&link).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Unknown addresses get the same answer and no mail.
    let before = std::fs::read_dir(&server.outbox).unwrap().count();
    let (status, _) = server
        .call(
            Method::POST,
            "/v1/auth/login",
            None,
            Some(json!({"email": "nobody@example.org"})),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(std::fs::read_dir(&server.outbox).unwrap().count(), before);
}

async fn sign_up_is_checked(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    for (body, expected) in [
        (
            json!({"handle": "ann", "email": "other@example.org"}),
            StatusCode::CONFLICT,
        ),
        (
            json!({"handle": "ANN", "email": "other@example.org"}),
            StatusCode::CONFLICT,
        ),
        (
            json!({"handle": "ann2", "email": "ANN@example.org"}),
            StatusCode::ACCEPTED,
        ),
        (
            json!({"handle": "bob", "email": "x@example.org,victim@example.org"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"handle": "a b", "email": "x@example.org"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"handle": "bob", "email": "not-an-address"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!({"handle": "bob"}), StatusCode::BAD_REQUEST),
        (
            json!({"handle": 5, "email": "x@example.org"}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, answer) = server
            .call(Method::POST, "/v1/players", None, Some(body.clone()))
            .await;
        assert_eq!(status, expected, "{body}: {answer}");
    }
    let (status, body) = server
        .call(Method::GET, "/v1/players/ann", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["handle"], "ann");
    assert!(body.get("email").is_none(), "addresses stay private");
}

async fn only_the_seated_player_acts(kind: Kind) {
    let server = Server::start(kind).await;
    let players = [server.player("ann").await, server.player("bob").await];
    let eve = server.player("eve").await;
    let id = start_game(&players, "chess").await;
    let [ann, bob] = &players;
    let moves = format!("/v1/games/{id}/moves");
    let (status, body) = eve
        .post(&moves, json!({"move": "e4", "expected_ply": 0}))
        .await;
    assert_eq!((status, code(&body)), (StatusCode::FORBIDDEN, "not-seated"));
    for path in ["resign", "abort"] {
        let (status, body) = eve.post(&format!("/v1/games/{id}/{path}"), json!({})).await;
        assert_eq!(
            (status, code(&body)),
            (StatusCode::FORBIDDEN, "not-seated"),
            "{path}"
        );
    }
    let (status, body) = bob
        .post(&moves, json!({"move": "e5", "expected_ply": 0}))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::CONFLICT, "not-your-turn")
    );
    let (status, body) = ann
        .post(&moves, json!({"move": "e5", "expected_ply": 0}))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, "illegal-move")
    );
    let (status, body) = ann
        .post(&moves, json!({"move": "e4", "expected_ply": "zero"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // The idempotency key makes a retry harmless; a stale ply names the current one.
    let send = |key: &str, ply: u32, text: &str| {
        server.send(
            server
                .http
                .post(format!("{}{moves}", server.base))
                .bearer_auth(&ann.token)
                .header("idempotency-key", key)
                .json(&json!({"move": text, "expected_ply": ply})),
        )
    };
    let (status, first) = send("k1", 0, "e4").await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, again) = send("k1", 0, "e4").await;
    assert_eq!((status, &again), (StatusCode::CREATED, &first));
    let (status, body) = send("k2", 0, "d4").await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "stale-ply"));
    assert_eq!(body["error"]["current_ply"], 1);
    let (status, body) = send(&"k".repeat(500), 1, "e5").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // Ends that do not hold.
    let refused = [
        (
            bob,
            "claim",
            json!({"claim": "fifty-moves"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            bob,
            "claim",
            json!({"claim": "checkmate"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            bob,
            "draw",
            json!({"action": "accept"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (ann, "abort", json!({}), StatusCode::UNPROCESSABLE_ENTITY),
    ];
    for (player, act, body, expected) in refused {
        let (status, answer) = player.post(&format!("/v1/games/{id}/{act}"), body).await;
        assert_eq!(status, expected, "{act}: {answer}");
    }
    // After the end, nothing more.
    let (status, _) = bob.post(&format!("/v1/games/{id}/resign"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = bob
        .post(&moves, json!({"move": "e5", "expected_ply": 1}))
        .await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "not-active"));
    let (status, body) = eve.post(&format!("/v1/games/{id}/join"), json!({})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "not-active"));
}

async fn game_state_has_an_etag(kind: Kind) {
    let server = Server::start(kind).await;
    let players = [server.player("ann").await, server.player("bob").await];
    let id = start_game(&players, "chess").await;
    let url = format!("{}/v1/games/{id}", server.base);
    let first = server.http.get(&url).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let tag = first.headers()["etag"].to_str().unwrap().to_string();
    let again = server
        .http
        .get(&url)
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    players[0].play(&id, "e4", 0).await;
    let changed = server
        .http
        .get(&url)
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), tag);
}

async fn cors_and_request_ids(kind: Kind) {
    let server = Server::start(kind).await;
    let preflight = server
        .http
        .request(Method::OPTIONS, format!("{}/v1/games", server.base))
        .header("origin", "https://app.example.org")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "https://app.example.org"
    );
    let stranger = server
        .http
        .get(format!("{}/v1/variants", server.base))
        .header("origin", "https://evil.example.org")
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();
    assert!(
        !stranger
            .headers()
            .contains_key("access-control-allow-origin")
    );
    assert_eq!(stranger.headers()["x-request-id"], "trace-me-42");
}

async fn analysis_answers_legal_moves(kind: Kind) {
    let server = Server::start(kind).await;
    let (status, body) = server
        .call(
            Method::POST,
            "/v1/analysis/legal-moves",
            None,
            Some(json!({"variant": "chess", "moves": ["f3", "e5", "g4"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["legal_moves_short"]
            .as_array()
            .unwrap()
            .contains(&json!("Qh4#"))
    );
    let (status, body) = server
        .call(
            Method::POST,
            "/v1/analysis/legal-moves",
            None,
            Some(json!({"variant": "chess", "moves": ["f3", "e5", "g4", "Qh4"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["outcome"]["rule"], "checkmate");
    for (request, expected) in [
        (
            json!({"variant": "chess", "moves": ["e5"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!({"variant": "nope"}), StatusCode::BAD_REQUEST),
        (
            json!({"variant": "xiangqi", "position": "junk"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "moves": vec!["e4"; 3000]}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, body) = server
            .call(
                Method::POST,
                "/v1/analysis/legal-moves",
                None,
                Some(request),
            )
            .await;
        assert_eq!(status, expected, "{body}");
    }
}

async fn vacations_are_taken_by_the_caller(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let start = (server.clock_now() + chrono::Duration::days(2)).to_rfc3339();
    let (status, body) = ann
        .put(
            "/v1/players/me/vacation",
            json!({"start": start, "days": 5}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["periods"].as_array().unwrap().len(), 1);
    for request in [
        json!({"start": start, "days": 2}),
        json!({"start": "2000-01-01T00:00:00Z", "days": 2}),
        json!({"start": start, "days": 0}),
    ] {
        let (status, body) = ann.put("/v1/players/me/vacation", request).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }
    let (status, body) = ann
        .put(
            "/v1/players/me/vacation",
            json!({"start": "yesterday", "days": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

per_store!(
    hostile_bodies_are_refused,
    unknown_things_are_404_and_methods_405,
    tokens_are_checked,
    sign_up_is_checked,
    only_the_seated_player_acts,
    game_state_has_an_etag,
    cors_and_request_ids,
    analysis_answers_legal_moves,
    vacations_are_taken_by_the_caller,
);
