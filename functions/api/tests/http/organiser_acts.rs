//! What players see of a tournament organiser's acts, over HTTP on SQLite and DynamoDB
//! Local: a pause, a resumption, an extension and an adjudication are in the game's signed
//! archive, which imports back to the same text; and each is in the feed of every player of
//! the game, as are the tournament's start and end, once each.

use crate::common;

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use common::tournaments::{deadline_of, full_tournament, resign, tournament_once};
use common::{Player, Server, archive_key, read_events, text_of};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The adjudication's reason: a `}` that would end its comment, a `%`, doubled spaces.
const REASON: &str = "White's attack wins} clearly  (100% sure)";

/// A three-player round robin of tess's, who does not play, and what she did to its first
/// game: paused and resumed the tournament (every game), extended the first game's deadline
/// and adjudicated it; the other games resigned, the last one first, so the tournament is
/// finished.
struct Played<'s> {
    tournament: String,
    /// Its games, in the tournament's order.
    games: Vec<String>,
    /// The organiser, tess.
    organiser: Player<'s>,
    /// ann, bob and cy.
    players: Vec<Player<'s>>,
    /// When each act was recorded: pause, resumption, extension, adjudication.
    times: [DateTime<Utc>; 4],
    /// The first game's deadline once extended.
    extended: DateTime<Utc>,
}

async fn play<'s>(server: &'s Server) -> Played<'s> {
    let tess = server.player("tess").await;
    let mut players = Vec::new();
    for name in ["ann", "bob", "cy"] {
        players.push(server.player(name).await);
    }
    let mut everyone = vec![tess.clone()];
    everyone.extend(players.iter().cloned());
    let (tournament, games) = full_tournament(
        &everyone,
        json!({
            "name": "Winter cup",
            "variant": "chess",
            "time_control": { "kind": "days-per-move", "days": 3 },
            "players": 3,
            "plays": false,
        }),
    )
    .await;
    let games: Vec<String> = games
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(games.len(), 3);
    let first = games[0].clone();
    let white = player_in(&players, &players[0].game(&first).await, 0);
    white.play(&first, "e2e4", 0).await;
    let organise = async |path: String, body: Value| {
        let (status, body) = tess.post(&path, body).await;
        assert!(status.is_success(), "{path}: {status} {body}");
    };
    server.clock.advance(Duration::hours(1));
    let paused = server.clock_now();
    organise(format!("/v1/tournaments/{tournament}/pause"), json!({})).await;
    server.clock.advance(Duration::days(2));
    let resumed = server.clock_now();
    organise(format!("/v1/tournaments/{tournament}/resume"), json!({})).await;
    server.clock.advance(Duration::hours(1));
    let extended_at = server.clock_now();
    organise(format!("/v1/games/{first}/extend"), json!({ "days": 2 })).await;
    let extended = deadline_of(&players[0].game(&first).await);
    server.clock.advance(Duration::hours(1));
    let adjudicated = server.clock_now();
    organise(
        format!("/v1/games/{first}/adjudicate"),
        json!({ "results": ["loss", "win"], "reason": REASON }),
    )
    .await;
    for game in games[1..].iter().rev() {
        let view = players[0].game(game).await;
        resign(player_in(&players, &view, 0), game).await;
    }
    tournament_once(&players[0], &tournament, |t| t["state"] == "finished").await;
    Played {
        tournament,
        games,
        organiser: tess,
        players,
        times: [paused, resumed, extended_at, adjudicated],
        extended,
    }
}

/// The player of `players` in `seat` of the game `view` shows.
fn player_in<'a, 's>(players: &'a [Player<'s>], view: &Value, seat: usize) -> &'a Player<'s> {
    let handle = view["seats"][seat]["player"].as_str().unwrap();
    players.iter().find(|p| p.handle == handle).unwrap()
}

/// `time` as the archive writes it.
fn ccsnt(time: DateTime<Utc>) -> String {
    time.format("%Y.%m.%d,%H:%M:%S").to_string()
}

/// The archive of game `id`, which must export.
async fn archive_of(server: &Server, id: &str) -> String {
    let (status, text) = text_of(server, &format!("/v1/games/{id}/archive")).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    text
}

async fn the_acts_are_in_the_signed_archive_and_import_back(kind: Kind) {
    let server = Server::start(kind).await;
    let played = play(&server).await;
    let first = &played.games[0];
    let text = archive_of(&server, first).await;
    let flat = text.replace('\n', " ");
    let [paused, resumed, extended, adjudicated] = played.times.map(ccsnt);
    for part in [
        format!("{{[%pause {paused}]}} {{[%resume {resumed}]}}"),
        format!("{{[%extend 2 tess {extended}]}}"),
        format!(
            "{{[%adjudicate tess {adjudicated}] White's attack wins%7D clearly%20%20(100%25 sure)}} 0-1"
        ),
        "[Termination \"adjudication\"]".to_string(),
        format!("[Adjudication \"{REASON} (tess)\"]"),
        "[Signature \"ed25519:".to_string(),
    ] {
        assert!(flat.contains(&part), "{part}\nin\n{text}");
    }
    let game = missive_archive::read(text.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let failures = missive_archive::verify(&game, Some(&archive_key().public()));
    assert!(failures.is_empty(), "{failures:?}\n{text}");

    let ann = &played.players[0];
    let request = server
        .http
        .post(format!("{}/v1/archive", server.base))
        .header("content-type", "application/x-chess-pgn")
        .bearer_auth(&ann.token)
        .body(text.clone());
    let (status, body) = server.send(request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let imported = &body["games"][0];
    assert_eq!(imported["verified"], true, "{body}");
    let copy = imported["id"].as_str().unwrap();
    let again = archive_of(&server, copy).await;
    assert_eq!(again, text, "the same events, the same text");
    let view = ann.game(copy).await;
    assert_eq!(view["ending"]["rule"], "adjudication", "{view}");
}

/// Every event of `player`'s feed from the start.
async fn feed_of(player: &Player<'_>) -> Vec<Value> {
    let mut events = Vec::new();
    let mut query = "limit=100".to_string();
    loop {
        let (status, page, cursor) = read_events(player, &query).await;
        assert_eq!(status, StatusCode::OK, "{page:?}");
        if page.is_empty() {
            return events;
        }
        events.extend(page);
        query = format!("limit=100&cursor={}", cursor.unwrap());
    }
}

/// How many events of each type `events` hold about `game` (`None`: about no game).
fn counts(events: &[Value], game: Option<&str>) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for event in events.iter().filter(|e| e["game"].as_str() == game) {
        *counts
            .entry(event["type"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    counts
}

async fn every_player_is_told_each_act_and_the_tournaments_start_and_end_once(kind: Kind) {
    let server = Server::start(kind).await;
    let played = play(&server).await;
    let first = played.games[0].as_str();
    for player in &played.players {
        let events = feed_of(player).await;
        let handle = &player.handle;
        let whole = counts(&events, None);
        assert_eq!(
            (
                whole.get("tournament-started"),
                whole.get("tournament-finished")
            ),
            (Some(&1), Some(&1)),
            "{handle}: {events:?}"
        );
        assert_eq!(whole.len(), 2, "{handle}: {events:?}");
        let about_tournament: Vec<&Value> =
            events.iter().filter(|e| e.get("game").is_none()).collect();
        for event in &about_tournament {
            assert_eq!(event["tournament"], played.tournament.as_str(), "{event}");
            assert_eq!(event["name"], "Winter cup", "{event}");
        }
        let started = events
            .iter()
            .position(|e| e["type"] == "tournament-started")
            .unwrap();
        let finished = events
            .iter()
            .position(|e| e["type"] == "tournament-finished")
            .unwrap();
        assert!(started < finished, "{handle}: {events:?}");
        for game in &played.games {
            let view = player.game(game).await;
            let seated = (0..2).any(|seat| view["seats"][seat]["player"] == handle.as_str());
            let told = counts(&events, Some(game));
            let expected = usize::from(seated);
            for kind in ["game-paused", "game-resumed", "game-over"] {
                assert_eq!(
                    told.get(kind).copied().unwrap_or(0),
                    expected,
                    "{handle}, {game}, {kind}: {events:?}"
                );
            }
            let organised = usize::from(seated && game == first);
            for kind in ["deadline-extended", "adjudicated"] {
                assert_eq!(
                    told.get(kind).copied().unwrap_or(0),
                    organised,
                    "{handle}, {game}, {kind}: {events:?}"
                );
            }
        }
        let find = |kind: &str| {
            events
                .iter()
                .find(|e| e["type"] == kind && e["game"] == first)
                .cloned()
        };
        if let Some(extension) = find("deadline-extended") {
            assert_eq!(
                (&extension["by"], &extension["days"], &extension["seat"]),
                (&json!("tess"), &json!(2), &json!(1)),
                "{extension}"
            );
            let deadline = extension["deadline"].as_str().unwrap();
            let deadline = DateTime::parse_from_rfc3339(deadline).unwrap().to_utc();
            assert_eq!(deadline, played.extended, "{extension}");
        }
        if let Some(adjudication) = find("adjudicated") {
            assert_eq!(
                (&adjudication["by"], &adjudication["reason"]),
                (&json!("tess"), &json!(REASON)),
                "{adjudication}"
            );
            let over = find("game-over").unwrap();
            assert_eq!(over["rule"], "adjudication", "{over}");
        }
    }
    let hers = feed_of(&played.organiser).await;
    assert!(hers.is_empty(), "tess plays in none of the games: {hers:?}");
}

missive_store::contract_tests!(
    the_acts_are_in_the_signed_archive_and_import_back,
    every_player_is_told_each_act_and_the_tournaments_start_and_end_once,
);
