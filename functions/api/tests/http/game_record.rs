//! The complete record of a game over HTTP, on both stores: every act of a game played on
//! the server is in its archive, signed with the server's key (served at
//! `/v1/archive/key`); the archive imports back as a verified game whose archive is the same
//! text; an altered archive is refused with the place named; and every game of every variant,
//! however it ended, exports.

use crate::common;

use common::{Player, Server, archive_key, seat_count, start_game, text_of};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The archive text of game `id`, which must export.
async fn archive_of(server: &Server, id: &str) -> String {
    let (status, text) = text_of(server, &format!("/v1/games/{id}/archive")).await;
    assert_eq!(status, StatusCode::OK, "{id}: {text}");
    text
}

/// Imports `text` (one game) as `player`: the new game's id, and whether it was verified.
async fn imported(player: &Player<'_>, text: &str) -> (String, bool) {
    let (status, body) = player.import(text).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let game = &body["games"][0];
    let verified = game["verified"].as_bool().unwrap_or(false);
    (game["id"].as_str().unwrap().to_string(), verified)
}

/// Sends a draw action as `player`; panics unless it is taken.
async fn draw(player: &Player<'_>, id: &str, action: &str) -> Value {
    let (status, body) = player
        .post(&format!("/v1/games/{id}/draw"), json!({ "action": action }))
        .await;
    assert_eq!(status, StatusCode::OK, "{action}: {body}");
    body
}

/// `text` without the lines starting with any of `prefixes`.
fn without_lines(text: &str, prefixes: &[&str]) -> String {
    text.lines()
        .filter(|line| !prefixes.iter().any(|prefix| line.starts_with(prefix)))
        .map(|line| format!("{line}\n"))
        .collect()
}

async fn every_act_of_a_game_is_in_its_signed_archive(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let id = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let minutes = |n| server.clock.advance(chrono::Duration::minutes(n));

    draw(&ann, &id, "offer").await;
    minutes(5);
    draw(&ann, &id, "withdraw").await;
    let (status, body) = ann
        .post(
            &format!("/v1/games/{id}/draw"),
            json!({ "action": "withdraw" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "no offer: {body}");
    ann.play(&id, "e2e4", 0).await;
    let (status, body) = bob
        .post(
            &format!("/v1/games/{id}/moves"),
            json!({ "move": "e7e5", "expected_ply": 1, "offer_draw": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    minutes(60);
    draw(&ann, &id, "decline").await;
    for (player, claim) in [(&ann, "threefold-repetition"), (&bob, "timeout")] {
        let (status, body) = player
            .post(&format!("/v1/games/{id}/claim"), json!({ "claim": claim }))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{claim}: {body}");
    }
    let start = server.clock_now() + chrono::Duration::hours(2);
    let (status, body) = bob
        .put(
            "/v1/players/me/vacation",
            json!({ "start": start, "days": 7 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = bob
        .put(
            &format!("/v1/games/{id}/conditional-moves"),
            json!({ "lines": [["Nf3", "Nc6"]] }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    minutes(180);
    let played = ann.play(&id, "g1f3", 2).await;
    assert_eq!(played["replies"].as_array().unwrap().len(), 1, "{played}");
    minutes(30);
    let leave = format!("/v1/players/me/vacation/{}", start.to_rfc3339());
    let (status, body) = server
        .call(reqwest::Method::DELETE, &leave, Some(&bob.token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "ended early: {body}");
    minutes(30);
    let (status, body) = ann.post(&format!("/v1/games/{id}/resign"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let text = archive_of(&server, &id).await;
    for part in [
        "[%draw-offer white 2026.03.01,12:00:00]",
        "[%draw-withdraw white 2026.03.01,12:05:00]",
        "1... e5 {[%ccsnt 2026.03.01,12:05:00]}\n{[%draw-offer black 2026.03.01,12:05:00]}",
        "[%draw-decline white 2026.03.01,13:05:00]",
        "[%claim-refused white threefold-repetition 2026.03.01,13:05:00]",
        "[%claim-refused black timeout 2026.03.01,13:05:00]",
        "[%vacation black 7 2026.03.01,15:05:00]",
        "2. Nf3 {[%ccsnt 2026.03.01,16:05:00]}",
        "2... Nc6 {[%ccsnt 2026.03.01,16:05:00] [%conditional]}",
        "[%vacation-end black 2026.03.01,16:35:00]",
        "[%resign white 2026.03.01,17:05:00]",
        "[TimeControl \"1/3\"]",
        "[EndDate \"2026.03.01\"]",
        "[Result \"0-1\"]",
        "[Signature \"ed25519:",
    ] {
        assert!(text.contains(part), "{part} in\n{text}");
    }

    let (status, body) = server
        .call(reqwest::Method::GET, "/v1/archive/key", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let served = body["key"].as_str().unwrap();
    assert_eq!(served, archive_key().public().to_text());
    let key = missive_archive::PublicKey::from_text(served).unwrap();
    let game = missive_archive::read(text.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let failures = missive_archive::verify(&game, Some(&key));
    assert!(failures.is_empty(), "{failures:?}\n{text}");
    let stranger = missive_archive::KeyPair::from_seed([1; 32]).public();
    assert!(!missive_archive::verify(&game, Some(&stranger)).is_empty());

    let (copy, verified) = imported(&bob, &text).await;
    assert!(verified, "signed by this server");
    let view = bob.game(&copy).await;
    assert_eq!(
        (view["imported"].as_bool(), view["verified"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(
        archive_of(&server, &copy).await,
        text,
        "the same text again"
    );

    let refusals = [
        ("17:05:00]", "17:05:01]", "digest mismatch: the moves"),
        ("16:05:00]", "16:05:01]", "times out of order"),
    ];
    for (from, to, reason) in refusals {
        let altered = text.replacen(from, to, 1);
        let (status, body) = bob.import(&altered).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let game = &body["error"]["games"][0];
        let error = game["error"].as_str().unwrap();
        assert!(error.contains(reason), "{reason}: {body}");
        assert!(game["line"].as_u64().unwrap() > 10, "in the moves: {body}");
        assert!(game["column"].as_u64().unwrap() >= 1, "{body}");
    }
    let unsealed = without_lines(&text, &["[Signature ", "[Digest "]);
    let (copy, verified) = imported(&bob, &unsealed).await;
    assert!(!verified, "nothing proves where it came from");
    assert_eq!(bob.game(&copy).await["verified"], false);
}

/// Three Kingdoms Xiangqi, Shu to move: `Rwu:e3` leaves Wu without a legal move, so Wu is
/// out and its army passes to Shu.
const WU_STUCK: &str = "9/9/9/9/5Kr3|9/Pg4Rr3/Rr8/3Pr5/4Kg4|9/9/9/9/5Kb3 shu - 0 0";

async fn a_three_kingdoms_draw_after_an_elimination_exports(kind: Kind) {
    let server = Server::start(kind).await;
    let shu = server.player("shu").await;
    let wu = server.player("wu").await;
    let wei = server.player("wei").await;
    let (status, body) = shu
        .post(
            "/v1/games",
            json!({
                "variant": "sanguo",
                "start_position": WU_STUCK,
                "seats": [{ "kind": "creator" }, { "kind": "open" }, { "kind": "open" }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    for player in [&wu, &wei] {
        let (status, body) = player
            .post(&format!("/v1/games/{id}/join"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    shu.play(&id, "Rwu:e3", 0).await;
    draw(&wei, &id, "offer").await;
    let ended = draw(&shu, &id, "accept").await;
    assert_eq!(ended["ending"]["results"], json!(["draw", "loss", "draw"]));

    let text = archive_of(&server, &id).await;
    assert!(text.contains("[%eliminated wu shu "), "{text}");
    assert!(text.contains("[Result \"1/2-0-1/2\"]"), "{text}");
    for player in ["shu", "wu", "wei"] {
        let (status, archive) = text_of(&server, &format!("/v1/players/{player}/archive")).await;
        assert_eq!((status, archive.as_str()), (StatusCode::OK, text.as_str()));
    }
    let (copy, _) = imported(&wu, &text).await;
    assert_eq!(archive_of(&server, &copy).await, text);
}

/// The seat to move in game `id`, as `viewer` sees it.
async fn to_move(viewer: &Player<'_>, id: &str) -> Option<usize> {
    viewer.game(id).await["to_move"]
        .as_u64()
        .map(|s| s as usize)
}

/// Plays the first legal move of whoever is to move, `plies` times (fewer if the game ends).
async fn play_first_moves(players: &[Player<'_>], id: &str, plies: u64) {
    for _ in 0..plies {
        let view = players[0].game(id).await;
        let (Some(seat), Some(first)) = (view["to_move"].as_u64(), view["legal_moves"][0].as_str())
        else {
            return;
        };
        players[seat as usize]
            .play(id, first, view["ply"].as_u64().unwrap())
            .await;
    }
}

/// How a test game is brought to its end.
#[derive(Clone, Copy, Debug)]
enum End {
    /// Seat after seat resigns until the game is over.
    Resignation,
    /// Every seat agrees to a draw.
    Agreement,
    /// Time runs out, claimed by a seat not to move, until the game is over.
    Timeout,
}

/// Ends game `id` as `end` says; returns once it is finished.
async fn end_game(server: &Server, players: &[Player<'_>], id: &str, end: End) {
    for _ in 0..players.len() {
        if players[0].game(id).await["status"] == "finished" {
            return;
        }
        match end {
            End::Resignation => {
                let seat = to_move(&players[0], id).await.unwrap_or(0);
                let path = format!("/v1/games/{id}/resign");
                let (status, body) = players[seat].post(&path, json!({})).await;
                assert_eq!(status, StatusCode::OK, "{body}");
            }
            End::Agreement => {
                draw(&players[0], id, "offer").await;
                for player in &players[1..] {
                    let path = format!("/v1/games/{id}/draw");
                    // A nation already out has no say (and is refused): the others decide.
                    let _ = player.post(&path, json!({ "action": "accept" })).await;
                }
            }
            End::Timeout => {
                server.clock.advance(chrono::Duration::days(4));
                let late = to_move(&players[0], id).await.unwrap_or(0);
                let claimant = &players[(late + 1) % players.len()];
                let path = format!("/v1/games/{id}/claim");
                let (status, body) = claimant.post(&path, json!({ "claim": "timeout" })).await;
                assert_eq!(status, StatusCode::OK, "{body}");
            }
        }
    }
    assert_eq!(players[0].game(id).await["status"], "finished", "{end:?}");
}

async fn every_variant_ended_every_way_exports_and_imports_unchanged(kind: Kind) {
    let server = Server::start(kind).await;
    let names = ["ann", "bob", "cid"];
    let mut all = Vec::new();
    for name in names {
        all.push(server.player(name).await);
    }
    let (_, variants) = server
        .call(reqwest::Method::GET, "/v1/variants", None, None)
        .await;
    let mut finished = Vec::new();
    for variant in variants.as_array().unwrap() {
        let variant = variant["id"].as_str().unwrap();
        let players = &all[..seat_count(&server, variant).await];
        for end in [End::Resignation, End::Agreement, End::Timeout] {
            let id = start_game(players, variant).await;
            play_first_moves(players, &id, 4).await;
            end_game(&server, players, &id, end).await;
            finished.push(id);
        }
    }
    let mate = start_game(&all[..2], "chess").await;
    for (ply, text) in ["f2f3", "e7e5", "g2g4", "d8h4"].into_iter().enumerate() {
        all[ply % 2].play(&mate, text, ply as u64).await;
    }
    finished.push(mate);

    for id in &finished {
        let text = archive_of(&server, id).await;
        assert!(text.contains("[EndDate "), "{text}");
        let (copy, verified) = imported(&all[0], &text).await;
        assert!(verified);
        assert_eq!(archive_of(&server, &copy).await, text, "{id}");
    }
    let (status, archive) = text_of(&server, "/v1/players/bob/archive").await;
    assert_eq!(status, StatusCode::OK);
    for id in &finished {
        assert!(archive.contains(&format!("[GameId \"{id}\"]")), "{id}");
    }
    let games = archive.matches("[Result ").count();
    assert_eq!(
        games,
        archive.matches("[Signature ").count(),
        "every game whole"
    );

    let abort = start_game(&all[..2], "chess").await;
    let (status, body) = all[1]
        .post(&format!("/v1/games/{abort}/abort"), json!({}))
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert!(archive_of(&server, &abort).await.contains("[%abort black "));
    let (status, body) = all[0]
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": "bob" }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let declined = body["id"].as_str().unwrap();
    let (status, body) = all[1]
        .post(&format!("/v1/games/{declined}/decline"), json!({}))
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert!(
        archive_of(&server, declined)
            .await
            .contains("[%invitation-decline black ")
    );
}

/// A game's players may export it with their messages (`?messages=true`): the same game,
/// the same signature, the messages as comments; everyone else's archive has none, an
/// outsider is refused them, and the players' archive imports back verified, without them.
async fn the_players_archive_holds_their_messages(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let eve = server.player("eve").await;
    let id = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let path = format!("/v1/games/{id}/messages");
    let (status, body) = ann
        .post(&path, json!({ "text": "Hello} [%resign white]" }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = ann
        .post(
            &format!("/v1/games/{id}/moves"),
            json!({ "move": "e4", "expected_ply": 0 }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = bob.post(&path, json!({ "text": "Thanks, you too" })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = bob.post(&format!("/v1/games/{id}/resign"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let public = archive_of(&server, &id).await;
    assert!(!public.contains("%message"), "{public}");
    let theirs = format!("/v1/games/{id}/archive?messages=true");
    let response = server
        .http
        .get(format!("{}{theirs}", server.base))
        .bearer_auth(&bob.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let private = response.text().await.unwrap();
    let flat = private.replace('\n', " ");
    assert!(flat.contains("{[%message white "), "{private}");
    assert!(flat.contains("] Hello) [ %resign white]}"), "{private}");
    assert!(flat.contains("] Thanks, you too}"), "{private}");
    let signature = |text: &str| {
        text.lines()
            .find(|line| line.starts_with("[Signature"))
            .map(str::to_string)
    };
    assert!(signature(&public).is_some());
    assert_eq!(
        signature(&private),
        signature(&public),
        "one signature for both"
    );

    let (status, body) = eve.get(&theirs).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = server.call(reqwest::Method::GET, &theirs, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");

    let (copy, verified) = imported(&eve, &private).await;
    assert!(verified, "the players' archive verifies");
    assert_eq!(
        archive_of(&server, &copy).await.matches("%message").count(),
        0
    );
}

per_store!(
    the_players_archive_holds_their_messages,
    every_act_of_a_game_is_in_its_signed_archive,
    a_three_kingdoms_draw_after_an_elimination_exports,
    every_variant_ended_every_way_exports_and_imports_unchanged,
);
