//! Large tournament starts over HTTP, on SQLite and DynamoDB Local: a start of more games
//! than one start creates goes on in the sweep and runs once, even after a start that died.

use crate::common;

use chrono::Duration;
use common::tournaments::mail_once;
use common::{Options, Player, Server};
use missive_domain::{FeedEvent, StartJob, Tournament, TournamentId};
use missive_game::Quotas;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A mailing server whose tournament starts create one batch of four games and stop, the
/// sweep creating the rest a batch a sweep.
async fn one_batch_server(kind: Kind) -> Server {
    let options = Options {
        mailing: true,
        quotas: Quotas {
            start_batch: 4,
            start_time: std::time::Duration::ZERO,
            ..common::test_limits()
        },
        ..Options::default()
    };
    Server::start_with(kind, options).await
}

/// A round robin of `players[0]` for eight, joined by all of `players` (six: 15 games), not
/// started yet: its id.
async fn open_cup(players: &[Player<'_>]) -> String {
    let (status, created) = players[0]
        .post(
            "/v1/tournaments",
            json!({
                "name": "Big cup",
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "players": 8,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for player in &players[1..] {
        let (status, body) = player
            .post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!((status, &body["state"]), (StatusCode::OK, &json!("open")));
    }
    id
}

/// The ids of the games of `tournament` (a view) that exist, as read over HTTP by `player`.
async fn existing(player: &Player<'_>, tournament: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for game in tournament["games"].as_array().unwrap() {
        let id = game["game"].as_str().unwrap();
        let (status, _) = player.get(&format!("/v1/games/{id}")).await;
        match status {
            StatusCode::OK => found.push(id.to_string()),
            StatusCode::NOT_FOUND => {}
            other => panic!("reading game {id}: {other}"),
        }
    }
    found
}

/// Sweeps until tournament `id` runs (at most ten sweeps): how many sweeps it took and how
/// many tournaments they reported started.
async fn sweep_until_running(server: &Server, player: &Player<'_>, id: &str) -> (usize, u64) {
    let notifier = common::notifier(&server.app);
    let mut started = 0;
    for sweeps in 1..=10 {
        let report = notifier.sweep().await.unwrap();
        assert!(report.failures.is_empty(), "{report:?}");
        started += report.tournaments_started as u64;
        let (_, view) = player.get(&format!("/v1/tournaments/{id}")).await;
        if view["state"] == "running" {
            let again = notifier.sweep().await.unwrap();
            assert_eq!(again.tournaments_started, 0);
            return (sweeps, started);
        }
        assert_eq!(view["state"], "starting", "{view}");
    }
    panic!("tournament {id} never ran");
}

/// Checks that tournament `id` of `players` runs with every one of its 15 games, each the
/// only game of its id in the store, started once in each of its players' feeds (and the
/// tournament told started once), and that each player had one start mail.
async fn check_ran_once(server: &Server, players: &[Player<'_>], id: &str) {
    let (status, view) = players[0].get(&format!("/v1/tournaments/{id}")).await;
    assert_eq!(
        (status, &view["state"]),
        (StatusCode::OK, &json!("running"))
    );
    assert!(view["crosstable"].is_string(), "{view}");
    let mut games: Vec<String> = view["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(existing(&players[0], &view).await, games);
    let service = &server.app.service;
    let mut stored: Vec<String> = service
        .all_game_ids()
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.0)
        .collect();
    stored.sort();
    games.sort();
    assert_eq!(stored, games, "every game once, and no other");
    for player in players {
        mail_once(server, &player.handle, "has started").await;
        let mails = server.mails_to(&format!("{}@example.org", player.handle));
        let starts = mails.iter().filter(|m| m.contains("has started")).count();
        assert_eq!(starts, 1, "{}'s start mails", player.handle);
        let feed = service
            .events(&player.handle, None, std::time::Duration::ZERO, 100)
            .await
            .unwrap();
        let mut started: Vec<String> = feed
            .events
            .iter()
            .filter(|e| matches!(e.event, FeedEvent::GameStarted))
            .filter_map(|e| e.game.as_ref().map(|game| game.0.clone()))
            .collect();
        let told_started = feed
            .events
            .iter()
            .filter(|e| matches!(&e.event, FeedEvent::TournamentStarted { tournament, .. } if tournament.0 == id))
            .count();
        assert_eq!(told_started, 1, "{} is told once it started", player.handle);
        started.sort();
        let mut theirs: Vec<String> = view["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                g["players"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(player.handle))
            })
            .map(|g| g["game"].as_str().unwrap().to_string())
            .collect();
        theirs.sort();
        assert_eq!((started.len(), &started), (5, &theirs), "{}", player.handle);
    }
}

/// A start of more games than one start creates answers 202 with the tournament starting,
/// every game known, the first batch created: those are played as usual, while a
/// withdrawal or a pause waits (409) and a start again answers as it is. Each sweep
/// creates a batch, the last makes it run, once. A tournament of one batch runs at once.
async fn a_large_start_goes_on_in_the_sweep_and_runs_once(kind: Kind) {
    let server = one_batch_server(kind).await;
    let mut players = Vec::new();
    for name in ["ann", "bob", "cy", "dee", "eve", "fay"] {
        players.push(server.player(name).await);
    }
    let id = open_cup(&players).await;
    let start = format!("/v1/tournaments/{id}/start");
    let (status, starting) = players[0].post(&start, json!({})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{starting}");
    assert_eq!(starting["state"], "starting");
    assert!(starting["started_at"].is_string() && starting["crosstable"].is_null());
    let games = starting["games"].as_array().unwrap();
    assert_eq!(games.len(), 15);
    let created = existing(&players[0], &starting).await;
    assert_eq!(created.len(), 4, "{created:?}");
    let first = &games[0];
    let white = players
        .iter()
        .find(|p| first["players"][0] == json!(p.handle))
        .unwrap();
    white.play(first["game"].as_str().unwrap(), "e4", 0).await;
    for (path, by) in [("withdraw", &players[1]), ("pause", &players[0])] {
        let (status, body) = by
            .post(&format!("/v1/tournaments/{id}/{path}"), json!({}))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{path}: {body}");
        assert_eq!(body["error"]["code"], "tournament-state");
        assert_eq!(body["error"]["message"], "the tournament is starting");
    }
    let (status, again) = players[0].post(&start, json!({})).await;
    assert_eq!(
        (status, &again["state"]),
        (StatusCode::ACCEPTED, &json!("starting"))
    );
    let archive = server
        .http
        .get(format!("{}/v1/tournaments/{id}/archive", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(archive.status(), StatusCode::OK);
    let archive = archive.text().await.unwrap();
    assert_eq!(archive.matches("[EventId ").count(), 4, "the games so far");
    let (sweeps, started) = sweep_until_running(&server, &players[0], &id).await;
    assert_eq!((sweeps, started), (3, 1), "11 games left, 4 a sweep");
    check_ran_once(&server, &players, &id).await;
    let moved = players[0].game(first["game"].as_str().unwrap()).await;
    assert_eq!(moved["ply"], 1, "{moved}");

    let (status, small) = players[0]
        .post(
            "/v1/tournaments",
            json!({ "name": "Small cup", "variant": "chess", "players": 3,
                    "time_control": { "kind": "days-per-move", "days": 3 } }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{small}");
    let small = small["id"].as_str().unwrap();
    players[1]
        .post(&format!("/v1/tournaments/{small}/join"), json!({}))
        .await;
    let (status, running) = players[2]
        .post(&format!("/v1/tournaments/{small}/join"), json!({}))
        .await;
    assert_eq!(
        (status, &running["state"]),
        (StatusCode::OK, &json!("running"))
    );
    assert_eq!(existing(&players[0], &running).await.len(), 3);
}

/// A start that died after creating games it had not counted (its job still at none
/// created, held until a minute later) is taken up by the sweep once that minute is past:
/// the games created are conflicts skipped, the rest created, and the tournament runs once,
/// every game once, with one start mail each.
async fn a_start_that_died_is_taken_up_by_the_sweep_once(kind: Kind) {
    let server = one_batch_server(kind).await;
    let mut players = Vec::new();
    for name in ["ann", "bob", "cy", "dee", "eve", "fay"] {
        players.push(server.player(name).await);
    }
    let id = open_cup(&players).await;
    let (status, starting) = players[0]
        .post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{starting}");
    assert_eq!(existing(&players[0], &starting).await.len(), 4);
    let store = server.app.service.store();
    let tournament_id = TournamentId(id.clone());
    let stopped = store.tournament(&tournament_id).await.unwrap().unwrap();
    assert_eq!(stopped.start_job.map(|job| job.created), Some(4));
    let died = Tournament {
        revision: stopped.revision + 1,
        start_job: Some(StartJob {
            created: 0,
            due: server.clock_now() + Duration::minutes(1),
        }),
        ..stopped
    };
    store.put_tournament(&died).await.unwrap();
    let notifier = common::notifier(&server.app);
    let held = notifier.sweep().await.unwrap();
    assert_eq!(held.tournaments_started, 0);
    assert_eq!(
        store.tournament(&tournament_id).await.unwrap(),
        Some(died),
        "left alone while a start holds it"
    );
    server.clock.advance(Duration::minutes(2));
    let (sweeps, started) = sweep_until_running(&server, &players[0], &id).await;
    assert_eq!(
        (sweeps, started),
        (4, 1),
        "from the first game again, 4 a sweep"
    );
    check_ran_once(&server, &players, &id).await;
}

missive_store::contract_tests!(
    a_large_start_goes_on_in_the_sweep_and_runs_once,
    a_start_that_died_is_taken_up_by_the_sweep_once,
);
