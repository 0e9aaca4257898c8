//! Tournaments of other shapes over HTTP, on SQLite and DynamoDB Local: a double round
//! robin of xiangqi that withdraws a player after a timeout, and a Three Kingdoms event of
//! four.

use crate::common;

use chrono::Duration;
use common::Server;
use common::tournaments::{
    check_standings, full_tournament, resign, seated, tally, time_out, tournament_once,
};
use missive_domain::GameId;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

/// Six players, a double round robin of xiangqi: every pairing twice, colours swapped.
/// Fay loses a game on time, which withdraws her (the organiser's limit is one), and her
/// other games are annulled.
async fn a_double_round_robin_withdraws_a_player_after_a_timeout(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let names = ["ann", "bob", "cy", "dee", "eve", "fay"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.player(name).await);
    }
    let (id, games) = full_tournament(
        &players,
        json!({
            "name": "Xiangqi double",
            "variant": "xiangqi",
            "time_control": { "kind": "days-per-move", "days": 3 },
            "rated": true,
            "players": 6,
            "double": true,
            "withdrawal": "annul",
            "timeouts_to_withdraw": 1,
        }),
    )
    .await;
    assert_eq!(games.len(), 30);
    let seats: Vec<Vec<usize>> = games.iter().map(|g| seated(g, &names)).collect();
    for a in 0..6 {
        for b in 0..6 {
            let n = seats.iter().filter(|s| **s == [a, b]).count();
            assert_eq!(n, usize::from(a != b), "{a} as red against {b}");
        }
    }
    let fay = 5;
    let mut scores: Vec<Option<Vec<f64>>> = vec![None; games.len()];
    let mut fays = Vec::new();
    let mut adjudicated = false;
    for (k, (game, seat)) in games.iter().zip(&seats).enumerate() {
        let game_id = game["game"].as_str().unwrap();
        if seat.contains(&fay) {
            fays.push(k);
            continue;
        }
        scores[k] = Some(match k % 3 {
            // The first such: the organiser adjudicates it (nobody else may).
            1 if !adjudicated => {
                adjudicated = true;
                let path = format!("/v1/games/{game_id}/adjudicate");
                let body = json!({ "results": ["win", "loss"], "reason": "Red's win is certain" });
                let (status, refused) = players[seat[0]].post(&path, body.clone()).await;
                if players[seat[0]].handle != "ann" {
                    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
                }
                let (status, _) = players[0]
                    .post(&path, json!({ "results": ["win", "win"], "reason": "x" }))
                    .await;
                assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
                let (status, ended) = players[0].post(&path, body).await;
                assert_eq!(status, StatusCode::OK, "{ended}");
                assert_eq!(ended["ending"]["rule"], "adjudication", "{ended}");
                let archive = server
                    .http
                    .get(format!("{}/v1/games/{game_id}/archive", server.base))
                    .send()
                    .await
                    .unwrap()
                    .text()
                    .await
                    .unwrap();
                assert!(
                    archive.contains("[Termination \"adjudication\"]"),
                    "{archive}"
                );
                assert!(
                    archive.contains("[Adjudication \"Red's win is certain (ann)\"]"),
                    "{archive}"
                );
                vec![1.0, 0.0]
            }
            0 => {
                resign(&players[seat[0]], game_id).await;
                vec![0.0, 1.0]
            }
            1 => {
                resign(&players[seat[1]], game_id).await;
                vec![1.0, 0.0]
            }
            _ => {
                let path = format!("/v1/games/{game_id}/draw");
                let (status, body) = players[seat[0]]
                    .post(&path, json!({ "action": "offer" }))
                    .await;
                assert_eq!(status, StatusCode::OK, "{body}");
                let (status, body) = players[seat[1]]
                    .post(&path, json!({ "action": "accept" }))
                    .await;
                assert_eq!(status, StatusCode::OK, "{body}");
                vec![0.5, 0.5]
            }
        });
    }
    // In fay's games where she is black, red moves first: then she is to move in all.
    for k in &fays {
        let game_id = games[*k]["game"].as_str().unwrap();
        if seats[*k][1] == fay {
            let red = &players[seats[*k][0]];
            let view = red.game(game_id).await;
            let first = view["legal_moves_short"][0].as_str().unwrap().to_string();
            red.play(game_id, &first, 0).await;
        }
    }
    server.clock.advance(Duration::days(4));
    let timed_out = fays[0];
    let game_id = GameId(games[timed_out]["game"].as_str().unwrap().into());
    time_out(&players[0], &game_id.0).await;
    assert!(adjudicated);
    let finished = tournament_once(&players[0], &id, |t| t["state"] == "finished").await;
    assert_eq!(finished["withdrawn"][0]["player"], "fay");
    assert_eq!(finished["withdrawn"][0]["reason"], "timeouts");
    // Fay's games lost on time count (the one timed out here, and any the notifier, which
    // runs beside this test, timed out first once the clock was past their deadlines);
    // those her withdrawal resigned are annulled.
    let mut counted = [0u64; 6];
    let mut annulled = 0;
    for k in &fays {
        let view = players[0].game(games[*k]["game"].as_str().unwrap()).await;
        if view["ending"]["rule"] == "resignation" {
            annulled += 1;
            continue;
        }
        assert_eq!(view["ending"]["rule"], "timeout", "{view}");
        scores[*k] = Some(match seats[*k][0] == fay {
            true => vec![0.0, 1.0],
            false => vec![1.0, 0.0],
        });
        for player in &seats[*k] {
            counted[*player] += 1;
        }
    }
    assert!(
        scores[timed_out].is_some(),
        "the game timed out here counts"
    );
    assert_eq!(annulled + counted[fay] as usize, fays.len());
    let (points, sonneborn) = tally(6, &seats, &scores);
    check_standings(&finished, &names, &points, &sonneborn);
    let fay_row = finished["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "fay")
        .unwrap();
    assert_eq!(
        (fay_row["played"].as_u64(), fay_row["withdrawn"].as_bool()),
        (Some(counted[fay]), Some(true))
    );
    server.close_rating_week().await;
    // Rated: each of the others played 8 games among themselves, and fay's games that
    // count; her annulled games are not rated.
    for (player, name) in names.iter().enumerate() {
        let (_, ratings) = players[0].get(&format!("/v1/players/{name}/ratings")).await;
        let among = if player == fay { 0 } else { 8 };
        assert_eq!(
            ratings[0]["games"],
            among + counted[player],
            "{name}: {ratings}"
        );
    }
}

/// Four players of Three Kingdoms Xiangqi: every triple plays one table, seats rotated.
async fn a_three_kingdoms_event_of_four_plays_out(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let names = ["ann", "bob", "cy", "dee"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.player(name).await);
    }
    let (id, games) = full_tournament(
        &players,
        json!({
            "name": "Three Kingdoms",
            "variant": "sanguo",
            "time_control": { "kind": "days-per-move", "days": 3 },
            "rated": true,
            "players": 4,
        }),
    )
    .await;
    assert_eq!(games.len(), 4, "every triple once");
    let seats: Vec<Vec<usize>> = games.iter().map(|g| seated(g, &names)).collect();
    for player in 0..4 {
        let mut counts = [0; 3];
        for table in &seats {
            if let Some(seat) = table.iter().position(|p| *p == player) {
                counts[seat] += 1;
            }
        }
        assert_eq!(counts.iter().sum::<i32>(), 3);
        assert!(
            counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1,
            "{counts:?}"
        );
    }
    // At each table the last two seats resign, in turn: the first seat is left.
    let mut scores = Vec::new();
    for (game, seat) in games.iter().zip(&seats) {
        let game_id = game["game"].as_str().unwrap();
        resign(&players[seat[2]], game_id).await;
        if players[0].game(game_id).await["status"] == "active" {
            resign(&players[seat[1]], game_id).await;
        }
        let view = players[0].game(game_id).await;
        assert_eq!(view["status"], "finished", "{view}");
        let score = view["ending"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| match r.as_str().unwrap() {
                "win" => 1.0,
                "shared-win" => 0.5,
                "draw" => 1.0 / 3.0,
                _ => 0.0,
            })
            .collect();
        scores.push(Some(score));
    }
    let finished = tournament_once(&players[0], &id, |t| t["state"] == "finished").await;
    let (points, sonneborn) = tally(4, &seats, &scores);
    check_standings(&finished, &names, &points, &sonneborn);
    server.close_rating_week().await;
    for name in names {
        let (_, ratings) = players[0].get(&format!("/v1/players/{name}/ratings")).await;
        assert_eq!(ratings[0]["games"], 3, "{name}: {ratings}");
    }
}

missive_store::contract_tests!(
    a_double_round_robin_withdraws_a_player_after_a_timeout,
    a_three_kingdoms_event_of_four_plays_out,
);
