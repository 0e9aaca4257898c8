//! What the tournament tests share: games played out to a planned end, waits for the
//! notifier and the tournament's upkeep, full tournaments, and standings computed here.

use super::{Player, Server};
use missive_domain::GameId;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// How a game between two players ends, by their join order (the first is the lower).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plan {
    WhiteMates,
    BlackMates,
    Agreed,
    WhiteTimesOut,
}

pub fn plan(a: usize, b: usize) -> Plan {
    match (a.min(b), a.max(b)) {
        (0, 1) | (1, 2) => Plan::WhiteMates,
        (0, 3) => Plan::BlackMates,
        (0, 2) | (1, 3) => Plan::Agreed,
        _ => Plan::WhiteTimesOut,
    }
}

pub async fn play_out(white: &Player<'_>, black: &Player<'_>, game: &str, plan: Plan) {
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
pub async fn time_out(player: &Player<'_>, game: &str) {
    let service = &player.server.app.service;
    service
        .enforce_deadline(&GameId(game.into()))
        .await
        .unwrap();
    let view = player.game(game).await;
    assert_eq!(view["ending"]["rule"], "timeout", "{view}");
}

/// The mail to `handle` whose text holds `words`, once the notifier (which runs beside the
/// requests) has written it.
pub async fn mail_once(server: &Server, handle: &str, words: &str) -> String {
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
pub async fn tournament_once(
    player: &Player<'_>,
    id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
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

/// Creates a tournament of `players[0]` as `body` says, joined by all the others (the last
/// join starts it): its id and games.
pub async fn full_tournament(players: &[Player<'_>], body: Value) -> (String, Vec<Value>) {
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
pub fn seated(game: &Value, names: &[&str]) -> Vec<usize> {
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

pub async fn resign(player: &Player<'_>, game: &str) -> Value {
    let (status, body) = player
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Each player's points and Sonneborn-Berger from every counted game's scores by seat
/// (`scores[g][s]` for `games[g]`), computed here: two seats, the score times the
/// opponent's total; three, times the mean of the two others' totals.
pub fn tally(
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
pub fn check_standings(tournament: &Value, names: &[&str], points: &[f64], sonneborn: &[f64]) {
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

pub fn deadline_of(view: &Value) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(view["deadline"].as_str().unwrap())
        .unwrap()
        .to_utc()
}
