//! Ratings in the lobby, over real HTTP on every store: a challenge's `min_rating` and
//! `max_rating` are checked against the accepting player's current rating in its variant
//! (an unrated player counts as 1500), and challenge lists show each creator's rating and
//! filter by it.

use crate::common;

use chrono::TimeDelta;
use common::{Player, Server};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Publishes a chess challenge by `player` with the extra fields of `bounds`; the answer.
async fn publish(player: &Player<'_>, bounds: Value) -> (StatusCode, Value) {
    let mut body = json!({
        "variant": "chess",
        "time_control": { "kind": "days-per-move", "days": 3 },
        "rated": true,
        "seat": 0,
    });
    body.as_object_mut()
        .unwrap()
        .extend(bounds.as_object().unwrap().clone());
    player.post("/v1/challenges", body).await
}

/// `player` accepts challenge `id`; the answer.
async fn accept(player: &Player<'_>, id: &str) -> (StatusCode, Value) {
    player
        .post(&format!("/v1/challenges/{id}/accept"), json!({}))
        .await
}

/// The id of a challenge `creator` publishes within `bounds`.
async fn published(creator: &Player<'_>, bounds: Value) -> String {
    let (status, body) = publish(creator, bounds).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// A rated chess game of `white` and `black` that `black` resigns at once, and the close
/// of its rating week: `white`'s rating rises above 1500, `black`'s falls below.
async fn rated_win(white: &Player<'_>, black: &Player<'_>) {
    let id = published(white, json!({})).await;
    let (status, body) = accept(black, &id).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let game = body["game"].as_str().unwrap().to_string();
    let (status, body) = black
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, ratings) = white
        .get(&format!("/v1/players/{}/ratings", white.handle))
        .await;
    let games = ratings[0]["games"].as_u64().unwrap_or(0);
    white.server.close_rating_week().await;
    let (_, ratings) = white
        .get(&format!("/v1/players/{}/ratings", white.handle))
        .await;
    assert_eq!(ratings[0]["games"], games + 1, "rated when its week closed");
}

/// The creators of the open chess challenges the query `filter` lists.
async fn creators(player: &Player<'_>, filter: &str) -> Vec<String> {
    let (status, page) = player
        .get(&format!("/v1/challenges?variant=chess{filter}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let mut creators: Vec<String> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["creator"].as_str().unwrap().to_string())
        .collect();
    creators.sort();
    creators
}

/// An unrated player is refused by a `min_rating` above 1500 and admitted at 1500; a
/// rated one is measured by their rating, both bounds included; bounds that admit nobody
/// are refused at publication.
async fn rating_bounds_are_checked_on_accept(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let cyd = server.player("cyd").await;

    let strong = published(&ann, json!({ "min_rating": 2000 })).await;
    let (status, body) = accept(&bob, &strong).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"]["code"], "rating-out-of-range", "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("1500"),
        "{body}"
    );
    let (_, view) = bob.get(&format!("/v1/challenges/{strong}")).await;
    assert_eq!(view["status"], "open", "nobody was seated: {view}");
    assert_eq!(view["min_rating"], 2000, "{view}");

    let even = published(&ann, json!({ "min_rating": 1500, "max_rating": 1500 })).await;
    let (status, body) = accept(&bob, &even).await;
    assert_eq!(status, StatusCode::OK, "unrated counts as 1500: {body}");

    let (status, body) = publish(&ann, json!({ "min_rating": 1600, "max_rating": 1400 })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"]["code"], "refused", "{body}");

    rated_win(&cyd, &bob).await;
    let weak = published(&ann, json!({ "max_rating": 1500 })).await;
    let (status, body) = accept(&cyd, &weak).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "cyd won: {body}");
    let (status, body) = accept(&bob, &weak).await;
    assert_eq!(status, StatusCode::OK, "bob lost: {body}");
}

/// Lists show the creator's current rating in the challenge's variant (`null` unrated)
/// and keep only the creators `min_rating`/`max_rating` let through.
async fn lists_show_and_filter_by_the_creators_rating(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let cyd = server.player("cyd").await;
    rated_win(&cyd, &bob).await;
    for creator in [&ann, &bob, &cyd] {
        published(creator, json!({})).await;
    }

    let (_, page) = ann.get("/v1/challenges?variant=chess").await;
    for item in page["items"].as_array().unwrap() {
        let rating = &item["creator_rating"];
        match item["creator"].as_str().unwrap() {
            "ann" => assert!(rating.is_null(), "{item}"),
            "bob" => assert!(rating["rating"].as_u64().unwrap() < 1500, "{item}"),
            _ => {
                assert!(rating["rating"].as_u64().unwrap() > 1500, "{item}");
                assert_eq!(rating["games"], 1, "{item}");
                assert!(rating["deviation"].as_u64().unwrap() < 350, "{item}");
            }
        }
    }
    assert_eq!(creators(&ann, "&min_rating=1501").await, ["cyd"]);
    assert_eq!(creators(&ann, "&max_rating=1499").await, ["bob"]);
    assert_eq!(
        creators(&ann, "&min_rating=1500&max_rating=1500").await,
        ["ann"]
    );
    assert_eq!(creators(&ann, "").await, ["ann", "bob", "cyd"]);
}

/// `handle`, signed in again (their first session has expired).
async fn signed_in<'s>(server: &'s Server, handle: &str) -> Player<'s> {
    let token = server.sign_in_token(&format!("{handle}@example.org")).await;
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    Player {
        server,
        handle: handle.to_string(),
        token: body["access_token"].as_str().unwrap().to_string(),
    }
}

/// A rating's deviation widens with each full week its player goes without a rated game:
/// where it is shown, and in what the next rated game starts from.
async fn deviations_widen_while_a_player_is_idle(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    rated_win(&ann, &bob).await;
    let deviation = |ratings: &Value| ratings[0]["deviation"].as_i64().unwrap();
    let (_, fresh) = ann.get("/v1/players/ann/ratings").await;
    server.clock.advance(TimeDelta::weeks(20));
    let (ann, bob) = (
        signed_in(&server, "ann").await,
        signed_in(&server, "bob").await,
    );
    let (_, idle) = ann.get("/v1/players/ann/ratings").await;
    // Twenty idle weeks: phi² grows by sigma² (0.06², Glicko-2 scale) each.
    let scale = 173.7178;
    let phi = deviation(&fresh) as f64 / scale;
    let widened = scale * (phi * phi + 20.0 * 0.06 * 0.06).sqrt();
    assert!(deviation(&idle) > deviation(&fresh), "{fresh} then {idle}");
    assert!(
        (deviation(&idle) as f64 - widened).abs() <= 1.0,
        "{idle}: {widened:.1} expected"
    );
    assert_eq!(
        idle[0]["rating"], fresh[0]["rating"],
        "only the deviation moves"
    );
    rated_win(&ann, &bob).await;
    let (_, history) = ann.get("/v1/players/ann/ratings/chess/history").await;
    let latest = &history["items"][0];
    let before = latest["deviation_before"].as_f64().unwrap().round() as i64;
    assert_eq!(
        before,
        deviation(&idle),
        "the game found it widened: {latest}"
    );
}

per_store!(
    rating_bounds_are_checked_on_accept,
    lists_show_and_filter_by_the_creators_rating,
    deviations_widen_while_a_player_is_idle,
);
