//! Tournaments over HTTP, on SQLite and DynamoDB Local: a five-player round robin created,
//! joined until full (which starts it), played to the end by mates, agreed draws, a timeout
//! and a withdrawal, with its crosstable and ratings checked against values computed here.
//! Also: a start of more games than one start creates goes on in the sweep and runs once,
//! even after a start that died.

mod common;

use std::collections::HashMap;

use chrono::Duration;
use common::{Options, Player, Server};
use missive_domain::{FeedEvent, GameId, StartJob, Tournament, TournamentId};
use missive_game::Quotas;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// How a game between two players ends, by their join order (the first is the lower).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    WhiteMates,
    BlackMates,
    Agreed,
    WhiteTimesOut,
}

fn plan(a: usize, b: usize) -> Plan {
    match (a.min(b), a.max(b)) {
        (0, 1) | (1, 2) => Plan::WhiteMates,
        (0, 3) => Plan::BlackMates,
        (0, 2) | (1, 3) => Plan::Agreed,
        _ => Plan::WhiteTimesOut,
    }
}

async fn play_out(white: &Player<'_>, black: &Player<'_>, game: &str, plan: Plan) {
    let moves: &[&str] = match plan {
        Plan::WhiteMates => &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"],
        Plan::BlackMates => &["f2f3", "e7e5", "g2g4", "d8h4"],
        Plan::Agreed => &["e2e4", "e7e5"],
        Plan::WhiteTimesOut => &[],
    };
    for (ply, text) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { white } else { black };
        mover.play(game, text, ply as u64).await;
    }
    if plan == Plan::Agreed {
        let path = format!("/v1/games/{game}/draw");
        let (status, body) = white.post(&path, json!({ "action": "offer" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = black.post(&path, json!({ "action": "accept" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

/// Ends `game` on time, as the sweep does (the notifier, which runs beside the test, may
/// have done so first): the game is over by timeout either way.
async fn time_out(player: &Player<'_>, game: &str) {
    let service = &player.server.app.service;
    service
        .enforce_deadline(&GameId(game.into()))
        .await
        .unwrap();
    let view = player.game(game).await;
    assert_eq!(view["ending"]["rule"], "timeout", "{view}");
}

/// Checks every rating change of `names`' histories (two-seat games) against the PyPI
/// `glicko2` package, run by `MISSIVE_PYTHON` (skipped without it): each change is one
/// rating period against the opponent as both were before the game. The package with
/// Glickman's f(x) (see shared/tournament/tests/glicko2_peer.py) must agree to 1e-6.
async fn check_ratings_with_peer(player: &Player<'_>, names: &[&str]) {
    let Ok(python) = std::env::var("MISSIVE_PYTHON") else {
        println!("MISSIVE_PYTHON is not set: the ratings are not checked against glicko2");
        return;
    };
    let mut changes: Vec<(String, Value)> = Vec::new();
    for name in names {
        let (_, ratings) = player.get(&format!("/v1/players/{name}/ratings")).await;
        for change in ratings[0]["history"].as_array().unwrap() {
            changes.push((name.to_string(), change.clone()));
        }
    }
    let mut periods = Vec::new();
    let mut expected = Vec::new();
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
        periods.push(json!({
            "rating": change["before"], "deviation": change["deviation_before"],
            "volatility": change["volatility_before"],
            "opponents": [{ "rating": theirs["before"], "deviation": theirs["deviation_before"] }],
            "scores": [score],
        }));
        expected.push(change["after"].as_f64().unwrap());
    }
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
    assert_eq!(expected.len(), 3 * names.len(), "three rated games each");
    for (answer, after) in corrected.iter().zip(&expected) {
        let peer = answer[0].as_f64().unwrap();
        assert!(
            (peer - after).abs() < 1e-6,
            "glicko2 gives {peer}, the server {after}"
        );
    }
}

/// The mail to `handle` whose text holds `words`, once the notifier (which runs beside the
/// requests) has written it.
async fn mail_once(server: &Server, handle: &str, words: &str) -> String {
    for _ in 0..100 {
        let mails = server.mails_to(&format!("{handle}@example.org"));
        if let Some(mail) = mails.into_iter().find(|m| m.contains(words)) {
            return mail;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no mail to {handle} with `{words}`");
}

/// Reads the tournament until `done` holds of it (its upkeep after a game's end runs
/// beside the request that ended the game).
async fn tournament_once(player: &Player<'_>, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..100 {
        let (status, body) = player.get(&format!("/v1/tournaments/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        if done(&body) {
            return body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the tournament never got there");
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

    // Ratings: the six games played out are rated, eve's forfeits are not.
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
    // The first game (ann and bob, both new, white mates): Glicko-2's figures for a win
    // between two players at 1500, deviation 350, volatility 0.06: 1662.3 and 1337.7.
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
    let change = &ratings[0]["history"][0];
    assert_eq!(change["game"], first["game"]);
    assert!(
        (change["after"].as_f64().unwrap() - 1662.31).abs() < 0.05,
        "{change}"
    );
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
    let board: Vec<i64> = board
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating"].as_i64().unwrap())
        .collect();
    assert_eq!(board.len(), 4);
    assert!(board.windows(2).all(|w| w[0] >= w[1]), "{board:?}");
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

/// Creates a tournament of `players[0]` as `body` says, joined by all the others (the last
/// join starts it): its id and games.
async fn full_tournament(players: &[Player<'_>], body: Value) -> (String, Vec<Value>) {
    let (status, created) = players[0].post("/v1/tournaments", body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut joined = Value::Null;
    for player in &players[1..] {
        let (status, body) = player
            .post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        joined = body;
    }
    assert_eq!(joined["state"], "running", "{joined}");
    (id, joined["games"].as_array().unwrap().clone())
}

/// Who sits in each seat of `game` (a tournament's game), by index into `names`.
fn seated(game: &Value, names: &[&str]) -> Vec<usize> {
    game["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            names
                .iter()
                .position(|n| *n == p.as_str().unwrap())
                .unwrap()
        })
        .collect()
}

async fn resign(player: &Player<'_>, game: &str) -> Value {
    let (status, body) = player
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Each player's points and Sonneborn-Berger from every counted game's scores by seat
/// (`scores[g][s]` for `games[g]`), computed here: two seats, the score times the
/// opponent's total; three, times the mean of the two others' totals.
fn tally(
    players: usize,
    games: &[Vec<usize>],
    scores: &[Option<Vec<f64>>],
) -> (Vec<f64>, Vec<f64>) {
    let mut points = vec![0.0; players];
    for (seats, score) in games.iter().zip(scores) {
        for (seat, player) in seats.iter().enumerate() {
            points[*player] += score.as_ref().map_or(0.0, |s| s[seat]);
        }
    }
    let mut sb = vec![0.0; players];
    for (seats, score) in games.iter().zip(scores) {
        let Some(score) = score else { continue };
        for (seat, player) in seats.iter().enumerate() {
            let others: f64 = seats
                .iter()
                .filter(|p| *p != player)
                .map(|p| points[*p])
                .sum();
            sb[*player] += score[seat] * others / (seats.len() - 1) as f64;
        }
    }
    (points, sb)
}

/// Checks the standings of `tournament` against `points` and `sonneborn` (by index into
/// `names`).
fn check_standings(tournament: &Value, names: &[&str], points: &[f64], sonneborn: &[f64]) {
    let rows = tournament["standings"].as_array().unwrap();
    assert_eq!(rows.len(), names.len());
    for row in rows {
        let player = names
            .iter()
            .position(|n| *n == row["player"].as_str().unwrap())
            .unwrap();
        let shown: f64 = row["points"].as_str().unwrap().parse().unwrap();
        assert!(
            (shown - points[player]).abs() < 0.006,
            "{row}: {}",
            points[player]
        );
        let sb: f64 = row["sonneborn_berger"].as_str().unwrap().parse().unwrap();
        assert!(
            (sb - sonneborn[player]).abs() < 0.006,
            "{row}: {}",
            sonneborn[player]
        );
        assert_eq!(row["left"], 0, "{row}");
    }
    let ranked: Vec<f64> = rows
        .iter()
        .map(|r| r["points"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
}

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
    for name in names {
        let (_, ratings) = players[0].get(&format!("/v1/players/{name}/ratings")).await;
        assert_eq!(ratings[0]["games"], 3, "{name}: {ratings}");
    }
}

fn deadline_of(view: &Value) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(view["deadline"].as_str().unwrap())
        .unwrap()
        .to_utc()
}

/// The organiser pauses a running tournament (no clock runs, nothing times out), resumes
/// it (every deadline later by the pause) and extends one game's deadline; nobody else may.
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
/// only game of its id in the store, started once in each of its players' feeds, and that
/// each player had one start mail.
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
            .map(|e| e.game.0.clone())
            .collect();
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
    a_round_robin_plays_out_with_its_crosstable_and_ratings,
    a_double_round_robin_withdraws_a_player_after_a_timeout,
    a_three_kingdoms_event_of_four_plays_out,
    an_organiser_pauses_resumes_and_extends,
    a_dated_tournament_starts_in_the_sweep_at_its_date,
    a_large_start_goes_on_in_the_sweep_and_runs_once,
    a_start_that_died_is_taken_up_by_the_sweep_once,
);
