//! The cap on a player's open challenges, over real HTTP on every store: the default ten
//! publish, the eleventh is refused with 409 `too-many-challenges` naming the limit; a
//! challenge withdrawn, accepted or expired makes room; publications at once pass only as
//! many as there is room for.

use crate::common;

use chrono::TimeDelta;
use common::{Player, Server};
use missive_game::Quotas;
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// The answer to `player` publishing a chess challenge at three days per move.
async fn publish(player: &Player<'_>) -> (StatusCode, Value) {
    player
        .post(
            "/v1/challenges",
            json!({
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "seat": 0,
            }),
        )
        .await
}

/// The id of a challenge `player` publishes; panics unless it is published.
async fn published(player: &Player<'_>) -> String {
    let (status, body) = publish(player).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// Asserts `player` may not publish one more, the refusal naming the limit of `most`.
async fn refused(player: &Player<'_>, most: u64) {
    let (status, body) = publish(player).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "too-many-challenges", "{body}");
    assert_eq!(
        body["error"]["limit"],
        json!({ "name": "open-challenges", "value": most }),
        "{body}"
    );
}

async fn a_player_has_at_most_ten_challenges_open(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let most = Quotas::default().open_challenges;
    assert_eq!(most, 10);
    let mut open = Vec::new();
    for _ in 0..most {
        open.push(published(&ann).await);
    }
    refused(&ann, most).await;
    let (_, listed) = bob.get("/v1/challenges?limit=50").await;
    assert_eq!(
        listed["items"].as_array().unwrap().len(),
        10,
        "nothing more"
    );
    published(&bob).await;

    let withdrawn = open.pop().unwrap();
    let (status, body) = server
        .call(
            Method::DELETE,
            &format!("/v1/challenges/{withdrawn}"),
            Some(&ann.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    open.push(published(&ann).await);
    refused(&ann, most).await;

    let accepted = open.pop().unwrap();
    let (status, body) = bob
        .post(&format!("/v1/challenges/{accepted}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    open.push(published(&ann).await);
    refused(&ann, most).await;

    server.clock.advance(TimeDelta::days(14));
    for _ in 0..most {
        published(&ann).await;
    }
    refused(&ann, most).await;
}

async fn publications_at_once_pass_only_within_the_cap(kind: Kind) {
    let server = Server::start_with_limits(
        kind,
        Quotas {
            open_challenges: 3,
            ..common::test_limits()
        },
    )
    .await;
    let ann = server.player("ann").await;
    published(&ann).await;
    let answers = futures_util::future::join_all((0..6).map(|_| publish(&ann))).await;
    let created = answers
        .iter()
        .filter(|(status, _)| *status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 2, "{answers:?}");
    for (status, body) in &answers {
        if *status != StatusCode::CREATED {
            assert_eq!(body["error"]["code"], "too-many-challenges", "{body}");
        }
    }
    refused(&ann, 3).await;
}

per_store!(
    a_player_has_at_most_ten_challenges_open,
    publications_at_once_pass_only_within_the_cap,
);
