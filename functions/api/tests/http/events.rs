//! The event feed over HTTP: an app follows whole games through `GET /v1/events` alone
//! (never reading a game's view), on SQLite and DynamoDB Local.

use crate::common;

use common::{Player, Server, read_events};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// An app following one player's feed from where it last was.
struct App<'s> {
    player: Player<'s>,
    cursor: Option<String>,
    seen: Vec<Value>,
}

impl<'s> App<'s> {
    fn new(player: Player<'s>) -> App<'s> {
        App {
            player,
            cursor: None,
            seen: Vec::new(),
        }
    }

    /// Reads the feed (waiting up to `wait` seconds) and returns the events that came.
    async fn follow(&mut self, wait: u64) -> Vec<Value> {
        let mut query = format!("wait={wait}");
        if let Some(cursor) = &self.cursor {
            query.push_str(&format!("&cursor={cursor}"));
        }
        let (status, events, cursor) = read_events(&self.player, &query).await;
        assert_eq!(status, StatusCode::OK, "{events:?}");
        self.cursor = cursor;
        self.seen.extend(events.iter().cloned());
        events
    }

    /// Follows the feed until an event of `kind` comes (the events up to it), waiting as
    /// long as it takes; each read may return with nothing when its wait runs out.
    async fn until(&mut self, kind: &str) -> Vec<Value> {
        let mut came = Vec::new();
        for _ in 0..20 {
            let events = self.follow(5).await;
            let found = events.iter().any(|e| e["type"] == kind);
            came.extend(events);
            if found {
                return came;
            }
        }
        panic!("no {kind} event for {}: {came:?}", self.player.handle);
    }

    /// The types of every event seen so far.
    fn kinds(&self) -> Vec<String> {
        self.seen
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect()
    }
}

/// The ply of the last `your-turn` among `events`.
fn turn_ply(events: &[Value]) -> u64 {
    events
        .iter()
        .rev()
        .find(|e| e["type"] == "your-turn")
        .and_then(|e| e["ply"].as_u64())
        .expect("a your-turn event")
}

async fn an_app_follows_a_whole_game_through_the_feed_alone(kind: Kind) {
    let server = Server::start(kind).await;
    let mut ann = App::new(server.player("ann").await);
    let mut bob = App::new(server.player("bob").await);
    let game = common::invite_to_chess(&ann.player, "bob").await;
    let invited = bob.until("invited").await;
    assert_eq!(invited[0]["game"], game.as_str());
    assert_eq!(invited[0]["by"], "ann");
    let (status, body) = bob
        .player
        .post(&format!("/v1/games/{game}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Fool's mate, each move made when the feed says it is that player's turn, with a
    // message, a draw offered and declined on the way.
    let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let started = ann.until("your-turn").await;
    assert_eq!(turn_ply(&started), 0);
    ann.player.play(&game, moves[0], 0).await;
    // Bob's read is held open until the move (or finds it there already).
    let turn = bob.until("your-turn").await;
    assert_eq!(turn_ply(&turn), 1);
    let moved = turn.iter().find(|e| e["type"] == "moved").unwrap();
    assert_eq!(
        (
            &moved["ply"],
            &moved["long"],
            &moved["short"],
            &moved["player"]
        ),
        (&json!(0), &json!("f2f3"), &json!("f3"), &json!("ann"))
    );
    let (status, body) = bob
        .player
        .post(
            &format!("/v1/games/{game}/messages"),
            json!({ "text": "good luck" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = bob
        .player
        .post(
            &format!("/v1/games/{game}/draw"),
            json!({ "action": "offer" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let offer = ann.until("draw-offered").await;
    let message = offer.iter().find(|e| e["type"] == "message").unwrap();
    assert_eq!(
        (&message["text"], &message["player"]),
        (&json!("good luck"), &json!("bob"))
    );
    let (status, body) = ann
        .player
        .post(
            &format!("/v1/games/{game}/draw"),
            json!({ "action": "decline" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    bob.until("draw-declined").await;
    bob.player.play(&game, moves[1], 1).await;
    let turn = ann.until("your-turn").await;
    ann.player.play(&game, moves[2], turn_ply(&turn)).await;
    let turn = bob.until("your-turn").await;
    bob.player.play(&game, moves[3], turn_ply(&turn)).await;
    let over = ann.until("game-over").await;
    let end = over.last().unwrap();
    assert_eq!(
        (&end["status"], &end["rule"], &end["results"]),
        (
            &json!("finished"),
            &json!("checkmate"),
            &json!(["loss", "win"])
        )
    );
    bob.until("game-over").await;

    assert_eq!(
        ann.kinds(),
        [
            "game-started",
            "your-turn",
            "message",
            "draw-offered",
            "moved",
            "your-turn",
            "moved",
            "game-over"
        ]
    );
    assert_eq!(
        bob.kinds(),
        [
            "invited",
            "game-started",
            "moved",
            "your-turn",
            "draw-declined",
            "moved",
            "your-turn",
            "game-over"
        ]
    );
    for event in ann.seen.iter().chain(&bob.seen) {
        assert_eq!(event["game"], game.as_str());
        assert!(event["at"].as_str().unwrap().ends_with('Z'), "{event}");
    }
    // Nothing more, and nothing for a player outside the game.
    assert!(ann.follow(0).await.is_empty());
    let carl = server.player("carl").await;
    let (status, events, cursor) = read_events(&carl, "wait=0").await;
    assert_eq!((status, events.len()), (StatusCode::OK, 0));
    assert!(cursor.is_some());
}

async fn the_feed_goes_on_from_any_event_and_refuses_bad_and_old_cursors(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = common::start_game(&[ann.clone(), bob.clone()], "chess").await;
    ann.play(&game, "e2e4", 0).await;
    bob.play(&game, "e7e5", 1).await;
    ann.play(&game, "g1f3", 2).await;
    let (_, all, _) = read_events(&bob, "").await;
    let kinds: Vec<&str> = all.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["game-started", "moved", "your-turn", "moved", "your-turn"]
    );
    // A page at a time, and again from the middle: the same events, the same ids.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let query = match &cursor {
            Some(cursor) => format!("limit=2&cursor={cursor}"),
            None => "limit=2".to_string(),
        };
        let (status, events, next) = read_events(&bob, &query).await;
        assert_eq!(status, StatusCode::OK);
        if events.is_empty() {
            break;
        }
        paged.extend(events);
        cursor = next;
    }
    assert_eq!(paged, all);
    let middle = all[1]["cursor"].as_str().unwrap();
    let (_, again, _) = read_events(&bob, &format!("cursor={middle}")).await;
    let ids = |events: &[Value]| -> Vec<String> {
        events
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&again), ids(&all[2..]));

    let (status, body, _) = read_events(&bob, "cursor=nonsense").await;
    assert_eq!(
        (status, &body[0]["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!("invalid-cursor"))
    );
    let (status, body, _) = read_events(&bob, "wait=26").await;
    assert_eq!(
        (status, &body[0]["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!("bad-request"))
    );
    let (status, body) = server
        .call(reqwest::Method::GET, "/v1/events", None, None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");

    // A read held open is answered by the move it waited for (made while it waits, or
    // just before it started: either way the move is in it); one that waits in vain
    // answers nothing and the same place to go on from.
    let (_, _, anns) = read_events(&ann, "").await;
    let anns = anns.unwrap();
    let (_, quiet, same) = read_events(&ann, &format!("wait=1&cursor={anns}")).await;
    assert!(quiet.is_empty());
    let waiting = format!("wait=20&cursor={}", same.unwrap());
    let (held, _) = tokio::join!(read_events(&ann, &waiting), async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        bob.play(&game, "b8c6", 3).await
    });
    let kinds: Vec<&str> = held.1.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        (held.0, kinds),
        (StatusCode::OK, vec!["moved", "your-turn"])
    );

    // A month later the cursor is older than the events kept: refused, and the feed starts
    // again from nothing.
    let last = all.last().unwrap()["cursor"].as_str().unwrap().to_string();
    server.clock.advance(chrono::Duration::days(31));
    let token = server.sign_in_token("bob@example.org").await;
    let (_, body) = server.exchange(&token).await;
    let bob = Player {
        token: body["access_token"].as_str().unwrap().to_string(),
        ..bob
    };
    let (status, body, _) = read_events(&bob, &format!("cursor={last}")).await;
    assert_eq!(
        (status, &body[0]["error"]["code"]),
        (StatusCode::GONE, &json!("cursor-expired"))
    );
    let (status, events, _) = read_events(&bob, "").await;
    assert_eq!((status, events.len()), (StatusCode::OK, 0));
}

async fn a_move_played_from_a_conditional_line_is_told_to_its_own_player_too(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = common::start_game(&[ann.clone(), bob.clone()], "chess").await;
    ann.play(&game, "e4", 0).await;
    let (status, body) = ann
        .put(
            &format!("/v1/games/{game}/conditional-moves"),
            json!({ "lines": [["c5", "Nc3"]] }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, cursor) = read_events(&ann, "").await;
    bob.play(&game, "c5", 1).await;
    let (_, came, _) = read_events(&ann, &format!("cursor={}", cursor.unwrap())).await;
    let told: Vec<(Value, Value, Value)> = came
        .iter()
        .map(|e| {
            (
                e["type"].clone(),
                e["short"].clone(),
                e["conditional"].clone(),
            )
        })
        .collect();
    // Bob's move, then ann's reply the server played from her line; then the turn is bob's.
    assert_eq!(
        told,
        [
            (json!("moved"), json!("c5"), json!(false)),
            (json!("moved"), json!("Nc3"), json!(true))
        ]
    );
    let (_, bobs, _) = read_events(&bob, "").await;
    let last: Vec<&Value> = bobs.iter().rev().take(2).collect();
    assert_eq!(
        (&last[1]["short"], &last[0]["type"]),
        (&json!("Nc3"), &json!("your-turn"))
    );
}

async fn a_challenge_taken_is_told_to_its_creator_before_the_game_starts(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let (status, body) = ann
        .post(
            "/v1/challenges",
            json!({
                "variant": "chess",
                "seat": 0,
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let challenge = body["id"].as_str().unwrap().to_string();
    let (status, body) = bob
        .post(&format!("/v1/challenges/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let game = body["game"].as_str().unwrap().to_string();
    let (_, anns, _) = read_events(&ann, "").await;
    let kinds: Vec<&str> = anns.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["challenge-accepted", "game-started", "your-turn"]);
    assert_eq!(
        (&anns[0]["challenge"], &anns[0]["by"], &anns[0]["game"]),
        (&json!(challenge), &json!("bob"), &json!(game))
    );
    let (_, bobs, _) = read_events(&bob, "").await;
    let kinds: Vec<&str> = bobs.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["game-started"]);
}

missive_store::contract_tests!(
    a_challenge_taken_is_told_to_its_creator_before_the_game_starts,
    a_move_played_from_a_conditional_line_is_told_to_its_own_player_too,
    an_app_follows_a_whole_game_through_the_feed_alone,
    the_feed_goes_on_from_any_event_and_refuses_bad_and_old_cursors,
    polls_beyond_the_budget_are_answered_at_once,
);

/// 500 polls that each ask to wait 25 s, by two players: each player's budget (4) waits,
/// the others are answered at once with a cursor, and a normal client is answered beside
/// them.
async fn polls_beyond_the_budget_are_answered_at_once(kind: Kind) {
    use std::time::{Duration, Instant};
    let options = common::Options {
        server: missive_api::server::ServerConfig {
            max_connections: 1000,
            max_connections_per_client: 1000,
            ..missive_api::server::ServerConfig::default()
        },
        ..common::Options::default()
    };
    let server = Server::start_with(kind, options).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let flood = common::polls::flood(&server, &[&ann, &bob], 500);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let asked = Instant::now();
    let (status, _) = server
        .call(reqwest::Method::GET, "/v1/variants", None, None)
        .await;
    let normal = asked.elapsed();
    assert_eq!(status, StatusCode::OK);
    let answers = flood.await;
    let waits = 2 * missive_api::RequestLimits::default().polls_per_player;
    // A poll allowed to wait answers 25 s after it came: one answered well before that
    // was answered at once.
    let mut latencies: Vec<Duration> = answers.iter().map(|a| a.latency).collect();
    latencies.sort();
    let at_once = latencies
        .iter()
        .filter(|l| **l < Duration::from_secs(20))
        .count();
    eprintln!(
        "a normal request answered in {normal:?} beside 500 polls; {at_once} polls answered \
         within 20 s (median {:?}, the {}th {:?}), the slowest in {:?}",
        latencies[latencies.len() / 2],
        500 - waits,
        latencies[500 - waits - 1],
        latencies[latencies.len() - 1],
    );
    assert!(
        answers.iter().all(|a| a.status == Some(200) && a.cursor),
        "every poll is answered 200 with a cursor"
    );
    assert!(at_once >= 500 - waits, "{at_once} of 500 answered at once");
}
