//! What outsiders learn: nothing. A private game is not there for anyone but its players
//! on every route that takes a game id (reads, writes and the organisers' tools), exactly as a missing id (the same status and body, the id aside);
//! a token that does not verify is "not valid" and nothing more, whatever is wrong with it;
//! an idempotency key reused for another move is refused, the first move standing.

use crate::common;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{ISSUER, Player, Server};
use missive_auth::{Authority, Grant, Purpose, SigningKey};
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// An id no game has.
const MISSING: &str = "01NOSUCHGAME00000000000000";

/// Every write route with a body it accepts the shape of.
fn write_routes() -> Vec<(Method, &'static str, Value)> {
    let post = |path, body| (Method::POST, path, body);
    vec![
        post("join", json!({})),
        post("decline", json!({})),
        post("moves", json!({"move": "e4", "expected_ply": 0})),
        post("moves", json!({"move": "e4", "expected_ply": 7})),
        post("draw", json!({"action": "offer"})),
        post("draw", json!({"action": "accept"})),
        post("draw", json!({"action": "decline"})),
        post("claim", json!({"claim": "timeout"})),
        post("claim", json!({"claim": "threefold-repetition"})),
        post("claim", json!({"claim": "fifty-moves"})),
        post("resign", json!({})),
        post("abort", json!({})),
        (
            Method::PUT,
            "conditional-moves",
            json!({"lines": [["e5", "Nf3"]]}),
        ),
        post("messages", json!({"text": "hello"})),
        post("extend", json!({"days": 3})),
        post(
            "adjudicate",
            json!({"results": ["win", "loss"], "reason": "agreed"}),
        ),
        post("adjudicate", json!({"results": ["win"], "reason": ""})),
    ]
}

/// Every read route of a game (no body).
fn read_routes() -> Vec<(Method, &'static str, Value)> {
    ["", "moves", "messages", "board.svg", "board.png", "archive"]
        .into_iter()
        .map(|route| (Method::GET, route, Value::Null))
        .collect()
}

/// Creates a private game of `ann` with `seats` (after the creator's); returns its id.
async fn private_game(ann: &Player<'_>, seat: Value) -> String {
    let (status, body) = ann
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{"kind": "creator"}, seat],
                "time_control": {"kind": "days-per-move", "days": 3},
                "private": true,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// What `who` gets from `method` on `/v1/games/{id}/{route}` with `body` (none if null),
/// the id in the answer replaced by the missing one's.
async fn answer(
    server: &Server,
    who: Option<&str>,
    id: &str,
    (method, route, body): &(Method, &str, Value),
) -> (StatusCode, String) {
    let path = format!("/v1/games/{id}/{route}");
    let path = path.trim_end_matches('/');
    let body = Some(body.clone()).filter(|body| !body.is_null());
    let (status, answer) = server.call(method.clone(), path, who, body).await;
    (status, answer.to_string().replace(id, MISSING))
}

async fn private_games_are_not_there_for_outsiders(kind: Kind) {
    let server = Server::start(kind).await;
    let (ann, bob, eve) = (
        server.player("ann").await,
        server.player("bob").await,
        server.player("eve").await,
    );
    let invite = json!({"kind": "invite", "player": "bob"});
    let forming = private_game(&ann, invite.clone()).await;
    let active = private_game(&ann, invite.clone()).await;
    let (status, body) = bob
        .post(&format!("/v1/games/{active}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    ann.play(&active, "e4", 0).await;
    let finished = private_game(&ann, invite).await;
    bob.post(&format!("/v1/games/{finished}/join"), json!({}))
        .await;
    let (status, body) = ann
        .post(&format!("/v1/games/{finished}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for route in write_routes().into_iter().chain(read_routes()) {
        let missing = answer(&server, Some(&eve.token), MISSING, &route).await;
        assert_eq!(missing.0, StatusCode::NOT_FOUND, "{route:?}: {}", missing.1);
        assert!(missing.1.contains("game-not-found"), "{}", missing.1);
        for id in [&forming, &active, &finished] {
            let private = answer(&server, Some(&eve.token), id, &route).await;
            assert_eq!(private, missing, "{route:?} on {id}");
            let anonymous = answer(&server, None, id, &route).await;
            assert_eq!(anonymous, answer(&server, None, MISSING, &route).await);
        }
    }
    let (_, game) = bob.get(&format!("/v1/games/{active}")).await;
    assert_eq!(game["ply"], 1, "nothing changed: {game}");
    assert_eq!(game["status"], "active");
    let (_, game) = bob.get(&format!("/v1/games/{forming}")).await;
    assert_eq!(game["status"], "forming", "{game}");
}

async fn the_id_of_a_private_game_invites_to_its_open_seats(kind: Kind) {
    let server = Server::start(kind).await;
    let (ann, eve) = (server.player("ann").await, server.player("eve").await);
    let id = private_game(&ann, json!({"kind": "open"})).await;
    let (status, body) = eve.get(&format!("/v1/games/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, body) = eve.post(&format!("/v1/games/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = eve.get(&format!("/v1/games/{id}")).await;
    assert_eq!(
        (status, &body["status"]),
        (StatusCode::OK, &json!("active"))
    );
    let mal = server.player("mal").await;
    let (status, body) = mal.post(&format!("/v1/games/{id}/join"), json!({})).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "once taken, the seat is gone: {body}"
    );
}

/// A token as JSON parts: header, claims, signature.
fn parts(token: &str) -> (Value, Value, String) {
    let mut parts = token.split('.');
    let mut decode = || {
        let text = URL_SAFE_NO_PAD.decode(parts.next().unwrap()).unwrap();
        serde_json::from_slice::<Value>(&text).unwrap()
    };
    let (header, claims) = (decode(), decode());
    (header, claims, parts.next().unwrap().to_string())
}

/// A token of `header`, `claims` and `signature`.
fn token_of(header: &Value, claims: &Value, signature: &str) -> String {
    let encode = |value: &Value| URL_SAFE_NO_PAD.encode(value.to_string());
    format!("{}.{}.{signature}", encode(header), encode(claims))
}

/// Tokens that do not verify, each for another reason.
fn bad_tokens(server: &Server, good: &str) -> Vec<(&'static str, String)> {
    let (header, claims, signature) = parts(good);
    let mut bob = claims.clone();
    bob["sub"] = json!("bob");
    let mut none = header.clone();
    none["alg"] = json!("none");
    let mut other_alg = header.clone();
    other_alg["alg"] = json!("HS512");
    let foreign = Authority::new(&SigningKey::generate(), ISSUER, ISSUER).unwrap();
    let grant = Grant {
        purpose: Purpose::Access,
        subject: "ann".into(),
        lifetime: 600,
    };
    let now = server.clock_seconds();
    let mut flipped = good.to_string();
    flipped.replace_range(flipped.len() - 6.., "AAAAAA");
    vec![
        ("garbage", "garbage".into()),
        ("three dots", "a.b.c".into()),
        ("not base64", "!!!.@@@.###".into()),
        ("not JSON", format!("{}.e30.", URL_SAFE_NO_PAD.encode("{"))),
        ("tampered claims", token_of(&header, &bob, &signature)),
        ("tampered signature", flipped),
        ("alg none, no signature", token_of(&none, &claims, "")),
        (
            "alg none, old signature",
            token_of(&none, &claims, &signature),
        ),
        (
            "another algorithm",
            token_of(&other_alg, &claims, &signature),
        ),
        ("foreign key", foreign.mint(&grant, now).unwrap()),
        (
            "foreign issuer",
            Authority::new(&server.key, "someone-else", "someone-else")
                .unwrap()
                .mint(&grant, now)
                .unwrap(),
        ),
    ]
}

/// Words of the token library and its decoders that no answer may carry.
const INTERNALS: &[&str] = &[
    "Base64",
    "InvalidSignature",
    "InvalidToken",
    "InvalidAlgorithm",
    "Json",
    "JSON",
    "Utf8",
    "jsonwebtoken",
    "ErrorKind",
    "signature",
    "decode",
];

async fn tokens_say_only_what_is_wrong_in_a_word(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let new_game = json!({"variant": "chess", "seats": [{"kind":"creator"},{"kind":"open"}], "time_control": {"kind":"days-per-move","days":3}});
    for (why, token) in bad_tokens(&server, &ann.token) {
        let (status, body) = server
            .call(
                Method::POST,
                "/v1/games",
                Some(&token),
                Some(new_game.clone()),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{why}: {body}");
        assert_eq!(
            body["error"],
            json!({"code": "invalid-token", "message": "the token is not valid"}),
            "{why}"
        );
        let (status, body) = server.exchange(&token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{why}: {body}");
        assert_eq!(body["error"]["message"], "the token is not valid", "{why}");
        let page = server
            .http
            .get(format!("{}/play/{token}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), StatusCode::UNAUTHORIZED, "{why}");
        let html = page.text().await.unwrap();
        for word in INTERNALS {
            assert!(!html.contains(word), "{why}: the page says {word}: {html}");
        }
    }
    let expired = {
        let grant = Grant {
            purpose: Purpose::Access,
            subject: "ann".into(),
            lifetime: 60,
        };
        server
            .app
            .authority
            .mint(&grant, server.clock_seconds() - 61)
            .unwrap()
    };
    let (status, body) = server
        .call(
            Method::POST,
            "/v1/games",
            Some(&expired),
            Some(new_game.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        body["error"],
        json!({"code": "token-expired", "message": "the token has expired"})
    );
    let (status, body) = server.exchange(&ann.token).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        body["error"],
        json!({"code": "wrong-token-purpose", "message": "the token is not meant for this"})
    );
}

async fn a_key_reused_for_another_move_is_refused(kind: Kind) {
    let server = Server::start(kind).await;
    let players = [server.player("ann").await, server.player("bob").await];
    let id = common::start_game(&players, "chess").await;
    let moves = format!("{}/v1/games/{id}/moves", server.base);
    let send = |key: &str, ply: u32, text: &str| {
        server.send(
            server
                .http
                .post(&moves)
                .bearer_auth(&players[0].token)
                .header("idempotency-key", key)
                .json(&json!({"move": text, "expected_ply": ply})),
        )
    };
    let (status, first) = send("k1", 0, "e4").await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, again) = send("k1", 0, "e2e4").await;
    assert_eq!(
        (status, &again),
        (StatusCode::CREATED, &first),
        "the same move"
    );
    players[1].play(&id, "e5", 1).await;
    // Before the game's ply (the log tells), at it (the store's key record tells), and the
    // same move with a draw offer it did not have.
    for (ply, text, offer) in [(0, "d4", false), (2, "d4", false), (0, "e4", true)] {
        let (status, body) = server
            .send(
                server
                    .http
                    .post(&moves)
                    .bearer_auth(&players[0].token)
                    .header("idempotency-key", "k1")
                    .json(&json!({"move": text, "expected_ply": ply, "offer_draw": offer})),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{text} at {ply}: {body}"
        );
        assert_eq!(body["error"]["code"], "idempotency-key-reused", "{body}");
    }
    let game = players[0].game(&id).await;
    assert_eq!(
        game["ply"], 2,
        "the first move stands, nothing more: {game}"
    );
}

per_store!(
    private_games_are_not_there_for_outsiders,
    the_id_of_a_private_game_invites_to_its_open_seats,
    tokens_say_only_what_is_wrong_in_a_word,
    a_key_reused_for_another_move_is_refused,
);
