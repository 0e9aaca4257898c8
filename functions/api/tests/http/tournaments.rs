//! Tournaments over HTTP, on SQLite and DynamoDB Local: a five-player round robin created,
//! joined until full (which starts it), played to the end by mates, agreed draws, a timeout
//! and a withdrawal, with its crosstable and ratings checked against values computed here.

use crate::common;

use std::collections::HashMap;

use chrono::Duration;
use common::tournaments::{Plan, mail_once, plan, play_out, time_out, tournament_once};
use common::{Player, Server};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Checks every rating change of `names`' histories (two-seat games) against the PyPI
/// `glicko2` package, run by `MISSIVE_PYTHON` (skipped without it): the games of one week
/// are one rating period, each player's against their opponents as they were at the
/// week's start. The package with Glickman's f(x) (see
/// shared/tournament/tests/glicko2_peer.py) must agree to 1e-6.
async fn check_ratings_with_peer(player: &Player<'_>, names: &[&str]) {
    let Ok(python) = std::env::var("MISSIVE_PYTHON") else {
        println!("MISSIVE_PYTHON is not set: the ratings are not checked against glicko2");
        return;
    };
    let mut changes: Vec<(String, Value)> = Vec::new();
    for name in names {
        let path = format!("/v1/players/{name}/ratings/chess/history");
        let (_, history) = player.get(&path).await;
        for change in history["items"].as_array().unwrap() {
            changes.push((name.to_string(), change.clone()));
        }
    }
    let week = |change: &Value| {
        let at: chrono::DateTime<chrono::Utc> = change["at"].as_str().unwrap().parse().unwrap();
        at.date_naive().week(chrono::Weekday::Mon).first_day()
    };
    let mut periods: Vec<((String, chrono::NaiveDate), Value)> = Vec::new();
    let mut games = 0;
    for (name, change) in &changes {
        let (opponent, theirs) = changes
            .iter()
            .find(|(other, c)| other != name && c["game"] == change["game"])
            .unwrap();
        let view = player.game(change["game"].as_str().unwrap()).await;
        let seats = view["seats"].as_array().unwrap();
        let seat = seats
            .iter()
            .position(|s| s["player"] == json!(name))
            .unwrap();
        assert!(seats.iter().any(|s| s["player"] == json!(opponent)));
        let score = match view["ending"]["results"][seat].as_str().unwrap() {
            "win" => 1.0,
            "draw" => 0.5,
            _ => 0.0,
        };
        let key = (name.clone(), week(change));
        let index = match periods.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                let period = json!({
                    "rating": change["before"], "deviation": change["deviation_before"],
                    "volatility": change["volatility_before"], "after": change["after"],
                    "opponents": [], "scores": [],
                });
                periods.push((key, period));
                periods.len() - 1
            }
        };
        let period = &mut periods[index].1;
        assert_eq!(
            period["after"], change["after"],
            "one change a week: {change}"
        );
        let opponent =
            json!({ "rating": theirs["before"], "deviation": theirs["deviation_before"] });
        period["opponents"].as_array_mut().unwrap().push(opponent);
        period["scores"].as_array_mut().unwrap().push(json!(score));
        games += 1;
    }
    assert_eq!(games, 3 * names.len(), "three rated games each");
    let expected: Vec<f64> = periods
        .iter()
        .map(|(_, p)| p["after"].as_f64().unwrap())
        .collect();
    let periods: Vec<Value> = periods.into_iter().map(|(_, p)| p).collect();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/tournament/tests/glicko2_peer.py"
    );
    let mut child = std::process::Command::new(python)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = json!({ "periods": periods }).to_string();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let answers: Value = serde_json::from_slice(&output.stdout).unwrap();
    let corrected = answers["corrected"].as_array().unwrap();
    assert_eq!(corrected.len(), expected.len());
    for (answer, after) in corrected.iter().zip(&expected) {
        let peer = answer[0].as_f64().unwrap();
        assert!(
            (peer - after).abs() < 1e-6,
            "glicko2 gives {peer}, the server {after}"
        );
    }
}

async fn a_round_robin_plays_out_with_its_crosstable_and_ratings(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let names = ["ann", "bob", "cy", "dee", "eve"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.player(name).await);
    }
    let (status, created) = players[0]
        .post(
            "/v1/tournaments",
            json!({
                "name": "Autumn round robin",
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "rated": true,
                "players": 5,
                "withdrawal": "forfeit",
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["state"], "open");
    assert_eq!(created["players"], json!(["ann"]));
    // Refusals: joining twice, starting as someone else, a bad size.
    let (status, body) = players[0]
        .post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("taken"))
    );
    let (status, body) = players[1]
        .post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::FORBIDDEN, &json!("not-organiser"))
    );
    let (status, _) = players[0]
        .post(
            "/v1/tournaments",
            json!({ "name": "x", "variant": "chess", "players": 99,
                    "time_control": { "kind": "days-per-move", "days": 3 } }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // Leaving before the start frees the place.
    let (status, left) = players[1]
        .post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{left}");
    let (status, left) = players[1]
        .post(&format!("/v1/tournaments/{id}/withdraw"), json!({}))
        .await;
    assert_eq!(
        (status, &left["players"]),
        (StatusCode::OK, &json!(["ann"])),
        "{left}"
    );
    let (status, _) = players[0]
        .get("/v1/tournaments/01ZZZZZZZZZZZZZZZZZZZZZZZZ")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let mut joined = Value::Null;
    for player in &players[1..] {
        let (status, body) = player
            .post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        joined = body;
    }
    assert_eq!(joined["state"], "running");
    let games = joined["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 10, "every pair once");
    // Colours: with five players each has two whites and two blacks.
    let mut whites: HashMap<String, i32> = HashMap::new();
    for game in &games {
        *whites
            .entry(game["players"][0].as_str().unwrap().into())
            .or_default() += 1;
        *whites
            .entry(game["players"][1].as_str().unwrap().into())
            .or_default() -= 1;
    }
    assert!(whites.values().all(|balance| *balance == 0), "{whites:?}");
    let index = |name: &str| names.iter().position(|n| *n == name).unwrap();
    // Every player is mailed the start, with a link to each of their four games.
    for name in names {
        let started = mail_once(&server, name, "has started").await;
        assert!(started.contains("Autumn round robin"), "{started}");
        assert!(started.matches("/games/").count() >= 4, "{started}");
    }
    // Eve withdraws at once: her games are resigned, and scored as forfeits.
    let (status, body) = players[4]
        .post(&format!("/v1/tournaments/{id}/withdraw"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["withdrawn"][0]["player"], "eve");
    let mut last = None;
    for game in &games {
        let seated: Vec<usize> = (0..2)
            .map(|s| index(game["players"][s].as_str().unwrap()))
            .collect();
        let id = game["game"].as_str().unwrap();
        if seated.contains(&4) {
            assert_eq!(players[0].game(id).await["status"], "finished");
            continue;
        }
        let plan = plan(seated[0], seated[1]);
        if plan == Plan::WhiteTimesOut {
            last = Some(id.to_string());
            continue;
        }
        play_out(&players[seated[0]], &players[seated[1]], id, plan).await;
    }
    let last = last.unwrap();
    server.clock.advance(Duration::days(4));
    time_out(&players[0], &last).await;
    let finished = tournament_once(&players[0], &id, |t| t["state"] == "finished").await;
    let over = mail_once(&server, "bob", "is over").await;
    assert!(over.contains("final standings"), "{over}");

    // The crosstable, computed here from the plan: 1 a win, ½ a draw, forfeits won by
    // eve's opponents.
    let mut points = [0.0f64; 5];
    let mut scores: Vec<(usize, usize, f64)> = Vec::new();
    for game in &games {
        let seated: Vec<usize> = (0..2)
            .map(|s| index(game["players"][s].as_str().unwrap()))
            .collect();
        let (white, black) = (seated[0], seated[1]);
        let white_score = match (white, black) {
            (4, _) => 0.0,
            (_, 4) => 1.0,
            _ => match plan(white, black) {
                Plan::WhiteMates => 1.0,
                Plan::BlackMates | Plan::WhiteTimesOut => 0.0,
                Plan::Agreed => 0.5,
            },
        };
        points[white] += white_score;
        points[black] += 1.0 - white_score;
        scores.push((white, black, white_score));
    }
    let mut sonneborn = [0.0f64; 5];
    for (white, black, white_score) in &scores {
        sonneborn[*white] += white_score * points[*black];
        sonneborn[*black] += (1.0 - white_score) * points[*white];
    }
    let rows = finished["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for row in rows {
        let player = index(row["player"].as_str().unwrap());
        let shown: f64 = row["points"].as_str().unwrap().parse().unwrap();
        assert_eq!(shown, points[player], "{row}");
        let sb: f64 = row["sonneborn_berger"].as_str().unwrap().parse().unwrap();
        assert!(
            (sb - sonneborn[player]).abs() < 0.006,
            "{row}: {}",
            sonneborn[player]
        );
        assert_eq!(row["left"], 0);
        assert_eq!(row["withdrawn"], player == 4);
    }
    let ranked: Vec<f64> = rows
        .iter()
        .map(|r| r["points"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
    let crosstable = finished["crosstable"].as_str().unwrap();
    assert!(
        crosstable.contains('+') && crosstable.contains('-'),
        "{crosstable}"
    );

    // Ratings, once the week closes: the six games played out are rated, eve's forfeits
    // are not.
    server.close_rating_week().await;
    for (player, name) in names.iter().enumerate() {
        let (status, ratings) = players[0].get(&format!("/v1/players/{name}/ratings")).await;
        assert_eq!(status, StatusCode::OK, "{ratings}");
        let expected = if player == 4 { 0 } else { 3 };
        let games = ratings
            .as_array()
            .unwrap()
            .first()
            .map_or(0, |r| r["games"].as_u64().unwrap());
        assert_eq!(games, expected, "{name}: {ratings}");
    }
    // The first game (ann and bob, both new, white mates): its winner's history, paged.
    // Every game ended in one week, so they share that week's change, from a newcomer's
    // 1500 to the rating now.
    let first = games
        .iter()
        .find(|g| {
            let pair: Vec<&str> = (0..2).map(|s| g["players"][s].as_str().unwrap()).collect();
            pair.contains(&"ann") && pair.contains(&"bob")
        })
        .unwrap();
    let winner = first["players"][0].as_str().unwrap();
    let (_, ratings) = players[0]
        .get(&format!("/v1/players/{winner}/ratings"))
        .await;
    assert!(ratings[0].get("history").is_none(), "{ratings}");
    let history = format!("/v1/players/{winner}/ratings/chess/history?limit=1");
    let mut changes = Vec::new();
    let mut path = history.clone();
    loop {
        let (status, page) = players[0].get(&path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        changes.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(next) => path = format!("{history}&cursor={next}"),
            None => break,
        }
        assert!(changes.len() < 10, "the cursor goes round");
    }
    assert_eq!(
        changes.len(),
        3,
        "three rated games, newest first: {changes:?}"
    );
    assert!(
        changes
            .windows(2)
            .all(|w| w[0]["at"].as_str() >= w[1]["at"].as_str())
    );
    assert!(changes.iter().any(|c| c["game"] == first["game"]));
    for change in &changes {
        assert_eq!(change["before"], 1500.0, "{change}");
        assert_eq!(change["after"], changes[0]["after"], "{change}");
        let shown = change["after"].as_f64().unwrap().round();
        assert_eq!(ratings[0]["rating"], shown as i64, "{change}");
    }
    check_ratings_with_peer(&players[0], &names[..4]).await;
    let view = players[0].game(first["game"].as_str().unwrap()).await;
    assert_eq!(view["tournament"], json!(id));
    assert!(
        view["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_i64),
        "{view}"
    );
    let (status, board) = players[0].get("/v1/ratings/chess").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(
        board["items"],
        json!([]),
        "three games each: all provisional"
    );
    let mut ranked: Vec<i64> = Vec::new();
    let mut path = "/v1/ratings/chess?provisional=true&limit=3".to_string();
    loop {
        let (status, page) = players[0].get(&path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        for entry in page["items"].as_array().unwrap() {
            assert!(entry.get("history").is_none(), "{entry}");
            assert_eq!(entry["provisional"], true, "{entry}");
            ranked.push(entry["rating"].as_i64().unwrap());
        }
        match page["next_cursor"].as_str() {
            Some(next) => {
                path = format!("/v1/ratings/chess?provisional=true&limit=3&cursor={next}")
            }
            None => break,
        }
    }
    assert_eq!(ranked.len(), 4);
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
    let (status, body) = players[0]
        .get("/v1/players/nobody/ratings/chess/history")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"]["code"], "rating-not-found");
    // The tournament's archive: every game, tagged with the event and the ratings, the
    // crosstable in a comment; it imports back, every game verified.
    let archive = server
        .http
        .get(format!("{}/v1/tournaments/{id}/archive", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        archive.matches("[Event \"Autumn round robin\"]").count(),
        10
    );
    assert_eq!(archive.matches(&format!("[EventId \"{id}\"]")).count(), 10);
    assert_eq!(archive.matches("[WhiteElo ").count(), 6, "rated games only");
    assert!(archive.contains("{Crosstable"), "{archive}");
    let imported: Value = server
        .http
        .post(format!("{}/v1/archive", server.base))
        .bearer_auth(&players[1].token)
        .body(archive)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(imported["imported"], 10, "{imported}");
    let verified = imported["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["verified"] == true);
    assert_eq!(verified.count(), 10, "{imported}");
    let (status, profile) = players[0].get(&format!("/v1/players/{winner}")).await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    assert_eq!(profile["ratings"][0]["games"], 3, "{profile}");
    // The page anyone may read: the standings and links to the games.
    let page = server
        .http
        .get(format!("{}/tournaments/{id}", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    assert!(
        page.contains("Autumn round robin") && page.contains("(withdrawn)"),
        "{page}"
    );
    assert_eq!(page.matches("<a href=\"/games/").count(), 10);
    let (status, list) = players[0].get("/v1/tournaments?limit=1").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["items"][0]["id"], json!(id));
}

missive_store::contract_tests!(a_round_robin_plays_out_with_its_crosstable_and_ratings,);
