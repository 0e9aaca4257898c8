//! The word to a game's creator that it started, over HTTP on SQLite and DynamoDB Local,
//! the notifier swept by hand: a creator with Black hears of the acceptance at once (not
//! only when White has moved), once; a creator with White gets the turn mail instead.

use crate::common;

use common::{Player, Server};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

/// A chess challenge `creator` publishes in `seat`, accepted by `taker`: the game's id.
async fn accepted(creator: &Player<'_>, seat: u8, taker: &Player<'_>) -> String {
    let (status, body) = creator
        .post(
            "/v1/challenges",
            json!({
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "seat": seat,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap();
    let (status, body) = taker
        .post(&format!("/v1/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["game"].as_str().unwrap().to_string()
}

/// The mails to `handle` whose text holds `words`.
fn mails_with(server: &Server, handle: &str, words: &str) -> usize {
    let mails = server.mails_to(&format!("{handle}@example.org"));
    mails.iter().filter(|mail| mail.contains(words)).count()
}

async fn a_creator_with_black_is_told_the_game_started(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = accepted(&ann, 1, &bob).await;
    let notifier = common::notifier(&server.app);
    for _ in 0..2 {
        let report = notifier.sweep().await.unwrap();
        assert!(report.failures.is_empty(), "{report:?}");
    }
    assert_eq!(mails_with(&server, "ann", "has started"), 1, "once");
    assert_eq!(mails_with(&server, "ann", &format!("/games/{game}")), 1);
    assert_eq!(mails_with(&server, "bob", "Your move: "), 1);
    assert_eq!(mails_with(&server, "bob", "has started"), 0, "bob moves");

    accepted(&ann, 0, &bob).await;
    notifier.sweep().await.unwrap();
    assert_eq!(
        mails_with(&server, "ann", "has started"),
        1,
        "ann has white"
    );
    assert_eq!(mails_with(&server, "ann", "Your move: "), 1);
}

missive_store::contract_tests!(a_creator_with_black_is_told_the_game_started);
