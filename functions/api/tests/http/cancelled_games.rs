//! Games called off, over real HTTP on every store: an invitation declined, a game aborted
//! while forming and one aborted before its first move are each listed under
//! `?player=me&status=cancelled` for every player who sat or was invited in it, with why,
//! most recent first and page by page; nobody else sees them there. The player's page lists
//! the latest too.

use crate::common;

use chrono::TimeDelta;
use common::inbox::sign_in_link;
use common::links::{get, press_sign_in};
use common::{Player, Server, start_game};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A chess game `creator` creates, the other seat given as `other`; its id.
async fn create(creator: &Player<'_>, other: Value) -> String {
    let (status, body) = creator
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, other],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// A chess game `creator` invites `invitee` to, which `invitee` declines; its id.
async fn declined(creator: &Player<'_>, invitee: &Player<'_>) -> String {
    let game = create(
        creator,
        json!({ "kind": "invite", "player": invitee.handle }),
    )
    .await;
    let (status, body) = invitee
        .post(&format!("/v1/games/{game}/decline"), json!({}))
        .await;
    assert!(status.is_success(), "{status} {body}");
    game
}

/// Every game of `player`'s cancelled list, read a page of `limit` at a time: each one's
/// id, its ending's rule and the seat that called it off.
async fn cancelled(player: &Player<'_>, limit: usize) -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/games?player=me&status=cancelled&limit={limit}");
        if let Some(cursor) = &cursor {
            path.push_str(&format!("&cursor={cursor}"));
        }
        let (status, page) = player.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let items = page["items"].as_array().unwrap();
        assert!(items.len() <= limit, "{page}");
        for game in items {
            assert_eq!(game["status"], "cancelled", "{game}");
            assert_eq!(game["ending"]["results"], json!([]), "{game}");
            all.push((
                game["id"].as_str().unwrap().to_string(),
                game["ending"]["rule"].as_str().unwrap().to_string(),
                game["ending"]["by"].clone(),
            ));
        }
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return all,
        }
        assert!(all.len() < 20, "the cursor goes round: {all:?}");
    }
}

/// The ids of `games`.
fn ids(games: &[(String, String, Value)]) -> Vec<&str> {
    games.iter().map(|(id, _, _)| id.as_str()).collect()
}

async fn games_called_off_are_listed_for_each_member_with_why(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let cid = server.player("cid").await;
    let eve = server.player("eve").await;

    let declined = declined(&ann, &bob).await;
    server.clock.advance(TimeDelta::minutes(1));

    let forming = create(&cid, json!({ "kind": "invite", "player": "ann" })).await;
    let (status, body) = cid
        .post(&format!("/v1/games/{forming}/abort"), json!({}))
        .await;
    assert!(status.is_success(), "{status} {body}");
    server.clock.advance(TimeDelta::minutes(1));

    let started = start_game(&[bob.clone(), ann.clone()], "chess").await;
    let (status, body) = ann
        .post(&format!("/v1/games/{started}/abort"), json!({}))
        .await;
    assert!(status.is_success(), "{status} {body}");
    assert_eq!(ann.game(&started).await["status"], "cancelled");

    let still_on = start_game(&[ann.clone(), bob.clone()], "chess").await;

    let of_ann = cancelled(&ann, 1).await;
    assert_eq!(
        of_ann,
        [
            (started.clone(), "aborted".to_string(), json!(1)),
            (forming.clone(), "aborted".to_string(), json!(0)),
            (declined.clone(), "declined".to_string(), json!(1)),
        ],
        "most recent first, page by page, for the creator and the invitee alike"
    );
    let of_bob = cancelled(&bob, 2).await;
    assert_eq!(
        ids(&of_bob),
        [started.as_str(), declined.as_str()],
        "the invitee who declined sees it too"
    );
    assert_eq!(ids(&cancelled(&cid, 10).await), [forming.as_str()]);
    assert!(cancelled(&eve, 10).await.is_empty(), "nobody else's");
    assert!(!ids(&of_ann).contains(&still_on.as_str()));

    let (status, body) = ann.get("/v1/games?player=bob&status=cancelled").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the caller's only: {body}");
    let anonymous = server
        .http
        .get(format!(
            "{}/v1/games?player=me&status=cancelled",
            server.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}

/// The signed-in player's page lists the games called off lately, with why.
async fn the_players_page_lists_games_called_off(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let declined = declined(&ann, &bob).await;
    server.clock.advance(TimeDelta::seconds(1));
    server.sign_in_token("bob@example.org").await;
    let link = sign_in_link(&server, "bob@example.org");
    let token = link.split("token=").nth(1).unwrap();
    let location = press_sign_in(&server, token).await;
    let (status, page) = get(&server, &location).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let listed = &page[page.find("Games called off").expect("the section")..];
    let start = listed
        .find(&format!("data-game=\"{declined}\""))
        .expect("the game listed");
    let row = &listed[start..start + listed[start..].find("</li>").unwrap()];
    assert!(row.contains("chess · ann · declined"), "{row}");
}

per_store!(
    games_called_off_are_listed_for_each_member_with_why,
    the_players_page_lists_games_called_off,
);
