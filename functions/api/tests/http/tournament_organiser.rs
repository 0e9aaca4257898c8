//! A tournament's organiser and its dates over HTTP, on SQLite and DynamoDB Local: pausing,
//! resuming and extending a deadline; a start date the sweep keeps.

use crate::common;

use chrono::Duration;
use common::Server;
use common::tournaments::{deadline_of, full_tournament, mail_once, time_out};
use missive_domain::GameId;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

/// The organiser pauses a running tournament (no clock runs, nothing times out), resumes
/// it (every deadline later by the pause) and extends one game's deadline; nobody else may,
/// and not once the game is over; an adjudication without a reason is refused.
async fn an_organiser_pauses_resumes_and_extends(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let names = ["ann", "bob", "cy"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.player(name).await);
    }
    let start = server.clock_now();
    let (id, games) = full_tournament(
        &players,
        json!({
            "name": "Paused cup",
            "variant": "chess",
            "time_control": { "kind": "days-per-move", "days": 3 },
            "players": 3,
        }),
    )
    .await;
    assert_eq!(games.len(), 3);
    let first = games[0]["game"].as_str().unwrap().to_string();
    assert_eq!(
        deadline_of(&players[0].game(&first).await),
        start + Duration::days(3)
    );
    let (status, body) = players[1]
        .post(&format!("/v1/tournaments/{id}/pause"), json!({}))
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::FORBIDDEN, &json!("not-organiser"))
    );
    let (status, body) = players[0]
        .post(&format!("/v1/tournaments/{id}/pause"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["state"], "paused");
    server.clock.advance(Duration::days(5));
    for game in &games {
        let game = GameId(game["game"].as_str().unwrap().into());
        assert_eq!(
            server.app.service.enforce_deadline(&game).await.unwrap(),
            None
        );
    }
    let (status, body) = players[0]
        .post(&format!("/v1/tournaments/{id}/resume"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["state"], "running");
    assert_eq!(
        deadline_of(&players[0].game(&first).await),
        start + Duration::days(8)
    );
    let extend = format!("/v1/games/{first}/extend");
    let (status, _) = players[1].post(&extend, json!({ "days": 2 })).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = players[0].post(&extend, json!({ "days": 0 })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, body) = players[0].post(&extend, json!({ "days": 2 })).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(
        deadline_of(&players[0].game(&first).await),
        start + Duration::days(10)
    );
    // Past the old deadline, before the new one: nothing times out; after it, the game does.
    server.clock.advance(Duration::days(4));
    let game = GameId(first.clone());
    assert_eq!(
        server.app.service.enforce_deadline(&game).await.unwrap(),
        None
    );
    server.clock.advance(Duration::days(2));
    time_out(&players[0], &first).await;
    // A finished game's deadline is not extended.
    let (status, body) = players[0].post(&extend, json!({ "days": 2 })).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("not-active"))
    );
    // An adjudication needs a reason: empty is refused, not too long.
    let second = games[1]["game"].as_str().unwrap();
    let (status, body) = players[0]
        .post(
            &format!("/v1/games/{second}/adjudicate"),
            json!({ "results": ["win", "loss"], "reason": "  " }),
        )
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("refused")),
        "{body}"
    );
}

/// A tournament with a start date waits, full or not, until a sweep at that date starts it.
async fn a_dated_tournament_starts_in_the_sweep_at_its_date(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let names = ["ann", "bob", "cy"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.player(name).await);
    }
    let date = server.clock_now() + Duration::days(1);
    let (status, created) = players[0]
        .post(
            "/v1/tournaments",
            json!({
                "name": "Dated cup",
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "players": 4,
                "starts": { "kind": "at", "at": date.to_rfc3339() },
                "invite": ["bob", "cy"],
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for name in ["bob", "cy"] {
        let invitation = mail_once(&server, name, "invites you to").await;
        assert!(
            invitation.contains(&format!("/tournaments/{id}")),
            "{invitation}"
        );
    }
    let (status, body) = players[0]
        .post(
            "/v1/tournaments",
            json!({ "name": "x", "variant": "chess", "players": 4, "invite": ["nobody"],
                    "time_control": { "kind": "days-per-move", "days": 3 } }),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    for player in &players[1..] {
        let (status, body) = player
            .post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(
            (status, &body["state"]),
            (StatusCode::OK, &json!("open")),
            "{body}"
        );
    }
    let notifier = common::notifier(&server.app);
    let early = notifier.sweep().await.unwrap();
    assert_eq!(early.tournaments_started, 0);
    server.clock.advance(Duration::days(1));
    let report = notifier.sweep().await.unwrap();
    assert_eq!(report.tournaments_started, 1, "{report:?}");
    let (_, running) = players[0].get(&format!("/v1/tournaments/{id}")).await;
    assert_eq!(running["state"], "running", "{running}");
    assert_eq!(
        running["games"].as_array().unwrap().len(),
        3,
        "three players, one bye a round"
    );
    mail_once(&server, "cy", "has started").await;
    assert_eq!(notifier.sweep().await.unwrap().tournaments_started, 0);
}

missive_store::contract_tests!(
    an_organiser_pauses_resumes_and_extends,
    a_dated_tournament_starts_in_the_sweep_at_its_date,
);
