//! Players finding each other and talking, over real HTTP on every store: open challenges
//! (listed, accepted seat by seat, raced for, withdrawn, expired), the caller's games by
//! status, messages between a game's players only, draw offers and invitations by mail.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::TimeDelta;
use common::links::{form_target, get, submit};
use common::{Player, Server, start_game};
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// A challenge of `variant` published by `player` at three days per move; its id.
async fn publish(player: &Player<'_>, variant: &str, days: u32) -> String {
    let (status, body) = player
        .post(
            "/v1/challenges",
            json!({
                "variant": variant,
                "time_control": { "kind": "days-per-move", "days": days },
                "seat": 0,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["status"], "open");
    body["id"].as_str().unwrap().to_string()
}

/// The ids of a listed page.
fn ids(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_string())
        .collect()
}

/// Every id of a list, read page by page with `limit` one, following the cursors.
async fn every_id(player: &Player<'_>, path: &str) -> Vec<String> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page_path = match &cursor {
            Some(cursor) => format!("{path}&limit=1&cursor={cursor}"),
            None => format!("{path}&limit=1"),
        };
        let (status, page) = player.get(&page_path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        all.extend(ids(&page));
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return all,
        }
        assert!(all.len() < 50, "the cursor goes round: {all:?}");
    }
}

/// Two players who do not know each other's handles meet through a challenge and play it
/// to a checkmate; the list filters by variant and time control, newest first, page by
/// page.
async fn strangers_meet_through_a_challenge_and_finish(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let older = publish(&ann, "chess", 3).await;
    server.clock.advance(TimeDelta::minutes(1));
    let other_variant = publish(&ann, "xiangqi", 3).await;
    server.clock.advance(TimeDelta::minutes(1));
    let other_pace = publish(&ann, "chess", 5).await;
    server.clock.advance(TimeDelta::minutes(1));
    let newest = publish(&ann, "chess", 3).await;

    let listed = every_id(
        &bob,
        "/v1/challenges?variant=chess&time_control=days-per-move:3",
    )
    .await;
    assert_eq!(listed, vec![newest.clone(), older.clone()]);
    let all = every_id(&bob, "/v1/challenges?variant=chess").await;
    assert_eq!(all, vec![newest.clone(), other_pace, older.clone()]);
    assert!(
        every_id(&bob, "/v1/challenges?variant=xiangqi")
            .await
            .contains(&other_variant)
    );
    let (status, body) = bob.get("/v1/challenges?time_control=hourly").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    let (status, body) = ann
        .post(&format!("/v1/challenges/{older}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "own: {body}");
    let (status, body) = bob
        .post(&format!("/v1/challenges/{older}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["seat"], 1);
    let game = body["game"].as_str().expect("the game started").to_string();
    let (_, challenge) = bob.get(&format!("/v1/challenges/{older}")).await;
    assert_eq!(challenge["status"], "accepted");
    assert_eq!(challenge["game"], game.as_str());
    let listed = every_id(&bob, "/v1/challenges?variant=chess").await;
    assert!(
        !listed.contains(&older),
        "an accepted challenge is not listed"
    );
    let (status, body) = bob
        .post(&format!("/v1/challenges/{older}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    let state = ann.game(&game).await;
    assert_eq!(state["status"], "active");
    for (ply, (player, text)) in [(&ann, "f3"), (&bob, "e5"), (&ann, "g4"), (&bob, "Qh4#")]
        .into_iter()
        .enumerate()
    {
        player.play(&game, text, ply as u64).await;
    }
    let state = ann.game(&game).await;
    assert_eq!(state["status"], "finished", "{state}");
}

/// Of players racing to accept one challenge, exactly one gets the seat and the game; the
/// others are told it is taken (409).
async fn racing_accepts_seat_exactly_one(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let mut racers = Vec::new();
    for n in 0..6 {
        racers.push(server.player(&format!("racer{n}")).await);
    }
    let id = publish(&ann, "chess", 3).await;
    let path = format!("/v1/challenges/{id}/accept");
    let answers =
        futures_util::future::join_all(racers.iter().map(|racer| racer.post(&path, json!({}))))
            .await;
    let won: Vec<&Value> = answers
        .iter()
        .filter(|(status, _)| *status == StatusCode::OK)
        .map(|(_, body)| body)
        .collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(status, _)| matches!(*status, StatusCode::OK | StatusCode::CONFLICT)),
        "{answers:?}"
    );
    let game = won[0]["game"].as_str().unwrap();
    let state = ann.game(game).await;
    let seated: Vec<&str> = state["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|seat| seat["player"].as_str())
        .collect();
    assert_eq!(seated.len(), 2, "{state}");
    assert_eq!(seated[0], "ann");
}

/// A sanguo challenge fills seat by seat: the game starts with the third player.
async fn a_sanguo_challenge_fills_seat_by_seat(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let cyd = server.player("cyd").await;
    let id = publish(&ann, "sanguo", 3).await;
    let path = format!("/v1/challenges/{id}/accept");
    let (status, body) = bob.post(&path, json!({ "seat": 2 })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["seat"], 2);
    assert!(body["game"].is_null(), "{body}");
    let (_, listed) = cyd.get("/v1/challenges?variant=sanguo").await;
    assert_eq!(ids(&listed), vec![id.clone()]);
    assert_eq!(listed["items"][0]["seats"], json!(["ann", null, "bob"]));
    let (status, body) = bob.post(&path, json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "twice: {body}");
    let (status, body) = cyd.post(&path, json!({ "seat": 2 })).await;
    assert_eq!(status, StatusCode::CONFLICT, "a taken seat: {body}");
    let (status, body) = cyd.post(&path, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["seat"], 1);
    let game = body["game"].as_str().expect("the game started");
    let state = cyd.game(game).await;
    assert_eq!(state["status"], "active");
    let (_, listed) = cyd.get("/v1/challenges?variant=sanguo").await;
    assert!(ids(&listed).is_empty(), "{listed}");
}

/// Only its creator withdraws a challenge; a withdrawn one refuses accepts with 409, an
/// expired one (14 days) with 410, and neither is listed.
async fn withdrawn_and_expired_challenges_refuse(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let withdrawn = publish(&ann, "chess", 3).await;
    let path = format!("/v1/challenges/{withdrawn}");
    let (status, body) = server
        .call(Method::DELETE, &path, Some(&bob.token), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = server
        .call(Method::DELETE, &path, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (status, body) = bob.post(&format!("{path}/accept"), json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "challenge-withdrawn");
    let (status, _) = server
        .call(Method::DELETE, &path, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    let expiring = publish(&ann, "chess", 3).await;
    server.clock.advance(TimeDelta::days(14));
    let (status, body) = bob
        .post(&format!("/v1/challenges/{expiring}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::GONE, "{body}");
    assert_eq!(body["error"]["code"], "challenge-expired");
    let (_, view) = bob.get(&format!("/v1/challenges/{expiring}")).await;
    assert_eq!(view["status"], "expired");
    let (_, listed) = bob.get("/v1/challenges").await;
    assert!(ids(&listed).is_empty(), "{listed}");
    let (status, body) = bob
        .post("/v1/challenges/01NOSUCHCHALLENGE/accept", json!({}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}

/// The caller's games by status: invitations, active games by deadline with whose turn it
/// is, finished games; each list page by page.
async fn my_games_by_status(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let cyd = server.player("cyd").await;
    let first = start_game(&[ann.clone(), bob.clone()], "chess").await;
    server.clock.advance(TimeDelta::hours(1));
    let second = start_game(&[ann.clone(), bob.clone()], "chess").await;
    server.clock.advance(TimeDelta::hours(1));
    ann.play(&first, "e4", 0).await;
    let finished = start_game(&[ann.clone(), cyd.clone()], "chess").await;
    let (status, body) = ann
        .post(&format!("/v1/games/{finished}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = cyd
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": "ann" }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let invited = body["id"].as_str().unwrap().to_string();

    let active = every_id(&ann, "/v1/games?player=me&status=active").await;
    assert_eq!(active, vec![second.clone(), first.clone()], "by deadline");
    let (_, page) = ann.get("/v1/games?player=me&status=active").await;
    let items = page["items"].as_array().unwrap();
    assert_eq!(items[0]["player_to_move"], "ann");
    assert_eq!(items[1]["player_to_move"], "bob");
    assert!(items[0]["deadline"].as_str() < items[1]["deadline"].as_str());
    assert_eq!(
        every_id(&ann, "/v1/games?player=me&status=invited").await,
        vec![invited.clone()]
    );
    assert!(
        every_id(&ann, "/v1/games?player=me&status=forming")
            .await
            .is_empty(),
        "an invitation is not a seat"
    );
    assert_eq!(
        every_id(&ann, "/v1/games?player=me&status=finished").await,
        vec![finished]
    );
    let (status, body) = ann.get("/v1/games?player=me&status=lost").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

/// Inviting a handle no player has is 404 `player-not-found`, as for tournaments: no game
/// is created for a seat nobody can take.
async fn inviting_an_unknown_handle_is_not_found(kind: Kind) {
    let server = Server::start(kind).await;
    let cyd = server.player("cyd").await;
    let (status, body) = cyd
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": "nobody99" }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"]["code"], "player-not-found", "{body}");
    for status in ["forming", "invited", "active"] {
        let path = format!("/v1/games?player=me&status={status}");
        assert!(every_id(&cyd, &path).await.is_empty(), "{status}");
    }
}

/// A game's messages are read and written by its players only: others get 404 for a
/// private game, 403 for a public one; too long a message is 422, and more than twenty a
/// day in one game 429 until the day has passed.
async fn messages_stay_between_the_players(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let eve = server.player("eve").await;
    let (status, body) = ann
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": "bob" }],
                "time_control": { "kind": "days-per-move", "days": 3 },
                "private": true,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = body["id"].as_str().unwrap().to_string();
    let path = format!("/v1/games/{game}/messages");
    let (status, body) = ann.post(&path, json!({ "text": "too early" })).await;
    assert_eq!(status, StatusCode::CONFLICT, "not started: {body}");
    let (status, body) = bob.post(&format!("/v1/games/{game}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (status, body) = ann.post(&path, json!({ "text": " Good luck!\r\n" })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["text"], "Good luck!");
    let (status, page) = bob.get(&path).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["items"][0]["player"], "ann");
    assert_eq!(page["items"][0]["text"], "Good luck!");
    for (status, body) in [
        eve.get(&path).await,
        eve.post(&path, json!({ "text": "hello" })).await,
    ] {
        assert_eq!(status, StatusCode::NOT_FOUND, "outsider: {body}");
    }
    let (status, body) = server.call(Method::GET, &path, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, body) = bob.post(&path, json!({ "text": "x".repeat(2001) })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"]["code"], "too-long");
    let (status, body) = bob.post(&path, json!({ "text": " \n\t " })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    let public = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let (status, body) = eve.get(&format!("/v1/games/{public}/messages")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");

    for n in 1..20 {
        let (status, body) = ann.post(&path, json!({ "text": format!("no. {n}") })).await;
        assert_eq!(status, StatusCode::CREATED, "{n}: {body}");
    }
    let response = server
        .http
        .post(format!("{}{path}", server.base))
        .bearer_auth(&ann.token)
        .json(&json!({ "text": "one too many" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key("retry-after"));
    let (status, body) = bob.post(&path, json!({ "text": "my own allowance" })).await;
    assert_eq!(status, StatusCode::CREATED, "per player: {body}");
    server.clock.advance(TimeDelta::hours(24));
    let (status, body) = ann.post(&path, json!({ "text": "a new day" })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, page) = bob.get(&path).await;
    assert_eq!(page["items"].as_array().unwrap().len(), 22);
}

/// A mail of the outbox, read with a MIME parser.
struct Mail {
    path: PathBuf,
    raw: String,
    to: String,
    subject: String,
    text: String,
    html: String,
}

impl Mail {
    fn file(path: &Path) -> Mail {
        let bytes = std::fs::read(path).unwrap();
        let message = mail_parser::MessageParser::default()
            .parse(&bytes)
            .expect("a MIME message");
        let to = message.to().and_then(|to| to.first()).expect("a To header");
        Mail {
            path: path.to_path_buf(),
            raw: String::from_utf8_lossy(&bytes).into_owned(),
            to: to.address().unwrap_or_default().to_string(),
            subject: message.subject().unwrap_or_default().to_string(),
            text: message
                .body_text(0)
                .unwrap_or_default()
                .replace("\r\n", "\n"),
            html: message.body_html(0).unwrap_or_default().to_string(),
        }
    }

    /// The path of the first link in its text under `{public_url}{prefix}`.
    fn link(&self, server: &Server, prefix: &str) -> Option<String> {
        let public = &server.app.public_url;
        let start = self.text.find(&format!("{public}{prefix}"))? + public.len();
        let rest = &self.text[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/-_.".contains(c)))
            .unwrap_or(rest.len());
        Some(rest[..end].to_string())
    }
}

/// Every mail in the outbox, oldest first.
fn outbox(server: &Server) -> Vec<Mail> {
    let mut paths = common::inbox::mail_files(&server.outbox);
    paths.sort();
    paths.iter().map(|path| Mail::file(path)).collect()
}

/// The first mail to `to` whose subject or opening (the paragraph after the greeting, which
/// says what the mail is about) holds `subject`, waiting up to ten seconds for it; `after`
/// mails seen before are skipped.
async fn mail_to(server: &Server, to: &str, subject: &str, after: &[PathBuf]) -> Mail {
    for _ in 0..200 {
        let found = outbox(server).into_iter().find(|mail| {
            let opening = mail.text.split("\n\n").nth(1).unwrap_or_default();
            let about = mail.subject.contains(subject) || opening.contains(subject);
            mail.to == to && about && !after.contains(&mail.path)
        });
        if let Some(mail) = found {
            return mail;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let subjects: Vec<String> = outbox(server)
        .iter()
        .map(|mail| format!("{} / {}", mail.to, mail.subject))
        .collect();
    panic!("no mail to {to} about {subject:?}: {subjects:?}");
}

/// The first mail to `to` whose text says `words` anywhere, waiting up to ten seconds for it.
async fn mail_telling(server: &Server, to: &str, words: &str) -> Mail {
    for _ in 0..200 {
        let found = outbox(server)
            .into_iter()
            .find(|mail| mail.to == to && mail.text.contains(words));
        if let Some(mail) = found {
            return mail;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no mail to {to} says {words:?}");
}

/// The paths of every mail so far.
fn seen(server: &Server) -> Vec<PathBuf> {
    outbox(server).into_iter().map(|mail| mail.path).collect()
}

/// Messages reach the other player at once when it is their turn, with their next turn
/// mail otherwise, or at once whatever the turn when they chose so; a message can inject
/// neither a header nor markup into the mail.
async fn messages_are_mailed_with_the_turn_or_at_once(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let path = format!("/v1/games/{game}/messages");
    mail_to(&server, "ann@example.org", "Your move", &[]).await;

    let evil = "Hi\r\nBcc: eve@example.org\r\nSubject: pwned <script>alert(1)</script>";
    let (status, body) = bob.post(&path, json!({ "text": evil })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let mail = mail_to(&server, "ann@example.org", "Message from bob", &[]).await;
    assert!(
        mail.text.contains("> Hi\n> Bcc: eve@example.org\n"),
        "{}\n{}",
        mail.raw,
        mail.text
    );
    assert!(!mail.subject.contains("pwned"), "{}", mail.subject);
    assert!(!mail.html.contains("<script>"), "{}", mail.html);
    assert!(mail.html.contains("&lt;script&gt;"), "{}", mail.html);
    let headers = &mail.raw[..mail.raw.find("\r\n\r\n").unwrap()];
    assert!(
        !headers.lines().any(|line| line.starts_with("Bcc:")),
        "{headers}"
    );
    assert!(
        outbox(&server)
            .iter()
            .all(|mail| mail.to != "eve@example.org")
    );

    let (status, body) = ann.post(&path, json!({ "text": "Thanks, you too" })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    ann.play(&game, "e4", 0).await;
    let turn = mail_to(&server, "bob@example.org", "Your move", &[]).await;
    let told: Vec<String> = outbox(&server)
        .iter()
        .map(|mail| format!("{} / {}", mail.to, mail.subject))
        .collect();
    assert!(
        turn.text.contains("> Thanks, you too"),
        "{}\n{told:?}",
        turn.text
    );
    assert!(
        outbox(&server).iter().all(|mail| {
            let opening = mail.text.split("\n\n").nth(1).unwrap_or_default();
            !(mail.to == "bob@example.org" && opening.starts_with("Message from"))
        }),
        "the message went with the turn mail"
    );

    let (status, body) = ann
        .put(
            "/v1/players/me/message-mail",
            json!({ "delivery": "at-once" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, body) = ann.get("/v1/players/me/message-mail").await;
    assert_eq!(body["delivery"], "at-once");
    let before = seen(&server);
    let (status, body) = bob.post(&path, json!({ "text": "Thinking..." })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let mail = mail_to(&server, "ann@example.org", "Message from bob", &before).await;
    assert!(mail.text.contains("> Thinking..."), "{}", mail.text);
}

/// Draws offered without a move, and declined, are mailed to the other player.
async fn draw_offers_and_declines_are_mailed(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let draw = format!("/v1/games/{game}/draw");
    let (status, body) = bob.post(&draw, json!({ "action": "offer" })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // On its own, or in the turn mail when that is written after the offer.
    let mail = mail_telling(&server, "ann@example.org", "bob offers a draw").await;
    assert!(mail.link(&server, "/play/").is_some(), "{}", mail.text);
    let (status, body) = ann.post(&draw, json!({ "action": "decline" })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    mail_to(&server, "bob@example.org", "ann declines the draw", &[]).await;
}

/// An invited player who reads only mail accepts through the link (no sign-in), plays and
/// writes through the move links; the links work once; a declined invitation is told to
/// the inviter; an address not registered yet signs up through its link and is seated.
async fn an_invitee_joins_plays_and_writes_by_mail_alone(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let invite = |seat: Value| {
        json!({
            "variant": "chess",
            "seats": [{ "kind": "creator" }, seat],
            "time_control": { "kind": "days-per-move", "days": 3 },
        })
    };
    let (status, body) = ann
        .post(
            "/v1/games",
            invite(json!({ "kind": "invite", "player": "bob" })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = body["id"].as_str().unwrap().to_string();
    assert_eq!(
        every_id(&bob, "/v1/games?player=me&status=invited").await,
        vec![game.clone()]
    );
    let mail = mail_to(&server, "bob@example.org", "invite", &[]).await;
    let accept = mail.link(&server, "/invitations/").expect("a link");
    assert!(accept.ends_with("/accept"), "{accept}");
    let (status, page) = get(&server, &accept).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(
        ann.game(&game).await["status"],
        "forming",
        "GET changes nothing"
    );
    let (status, page) = submit(&server, &accept, &[]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Welcome to the game, bob"), "{page}");
    assert_eq!(ann.game(&game).await["status"], "active");
    let (status, page) = submit(&server, &accept, &[]).await;
    assert!(
        status.is_client_error(),
        "a link works once: {status} {page}"
    );

    let before = seen(&server);
    ann.play(&game, "e4", 0).await;
    let turn = mail_to(&server, "bob@example.org", "Your move", &before).await;
    let play = turn.link(&server, "/play/").expect("a move link");
    let (status, page) = submit(
        &server,
        &play,
        &[("action", "message"), ("message", "Hello from my mailbox")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Hello from my mailbox"), "the page shows it");
    let before = seen(&server);
    let (status, page) = submit(
        &server,
        &play,
        &[("action", "move"), ("move", "e5"), ("confirm", "yes")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let waiting = form_target(&page, &play);
    let turn = mail_to(&server, "ann@example.org", "Your move", &before).await;
    assert!(
        turn.text.contains("> Hello from my mailbox"),
        "{}",
        turn.text
    );
    let (_, page) = ann.get(&format!("/v1/games/{game}/messages")).await;
    assert_eq!(page["items"][0]["text"], "Hello from my mailbox");
    let (status, page) = get(&server, &waiting).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("id=\"send-message\""),
        "while waiting too: {page}"
    );
    let (status, page) = submit(
        &server,
        &waiting,
        &[
            ("action", "message"),
            ("message", "Your move, take your time"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Your move, take your time"), "{page}");
    let (_, page) = ann.get(&format!("/v1/games/{game}/messages")).await;
    assert_eq!(page["items"][1]["text"], "Your move, take your time");

    let cyd = server.player("cyd").await;
    let (_, body) = ann
        .post(
            "/v1/games",
            invite(json!({ "kind": "invite", "player": "cyd" })),
        )
        .await;
    let declined = body["id"].as_str().unwrap().to_string();
    let mail = mail_to(&server, "cyd@example.org", "invite", &[]).await;
    let accept = mail.link(&server, "/invitations/").unwrap();
    let decline = accept.replace("/accept", "/decline");
    assert!(mail.text.contains(&decline), "{}", mail.text);
    let (status, page) = submit(&server, &decline, &[]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(cyd.game(&declined).await["status"], "cancelled");
    mail_to(&server, "ann@example.org", "cyd", &[]).await;

    let (_, body) = ann
        .post(
            "/v1/games",
            invite(json!({ "kind": "invite-email", "email": "dee@example.org" })),
        )
        .await;
    let newcomer = body["id"].as_str().unwrap().to_string();
    let mail = mail_to(&server, "dee@example.org", "invite", &[]).await;
    let accept = mail.link(&server, "/invitations/").unwrap();
    let (status, page) = get(&server, &accept).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("name=\"handle\""), "{page}");
    let (status, page) = submit(&server, &accept, &[("handle", "dee")]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let state = ann.game(&newcomer).await;
    assert_eq!(state["status"], "active", "{state}");
    assert_eq!(state["seats"][1]["player"], "dee", "{state}");
    let token = server.sign_in_token("dee@example.org").await;
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["handle"], "dee");
}

per_store!(
    strangers_meet_through_a_challenge_and_finish,
    racing_accepts_seat_exactly_one,
    a_sanguo_challenge_fills_seat_by_seat,
    withdrawn_and_expired_challenges_refuse,
    my_games_by_status,
    inviting_an_unknown_handle_is_not_found,
    messages_stay_between_the_players,
    messages_are_mailed_with_the_turn_or_at_once,
    draw_offers_and_declines_are_mailed,
    an_invitee_joins_plays_and_writes_by_mail_alone,
);
