//! The mails of one game as one thread, on every store: a fool's mate between ann (the
//! creator, with Black) and bob, and every mail it sends (the word to ann that it started,
//! the four turn mails, the two game-over mails) has the game's title as its subject, refers
//! to the game's root id, has an id of its own, says it was sent automatically, and shows
//! the score so far in both parts; the game-over mail's attached archive reads back to the
//! game's moves.

use crate::common;

use std::time::Duration;

use common::inbox::{Inbox, mail_files};
use common::{Player, Server};
use mail_parser::{MessageParser, MimeHeaders};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

/// The fool's mate: bob (White) moves first.
const FOOLS_MATE: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

/// What the footer of every game mail says.
const NOT_READ: &str = "replies to it are not read";

/// A game mail as read back: its headers, parts and attached files.
#[derive(Debug)]
struct GameMail {
    to: String,
    subject: String,
    message_id: String,
    in_reply_to: Option<String>,
    references: Option<String>,
    auto_submitted: Option<String>,
    text: String,
    html: String,
    /// Each attached archive's name and bytes (`*.pgn`; the board picture aside).
    files: Vec<(String, Vec<u8>)>,
}

impl GameMail {
    fn parse(raw: &[u8]) -> GameMail {
        let message = MessageParser::default().parse(raw).expect("a MIME message");
        let text = |value: &mail_parser::HeaderValue| value.as_text().map(str::to_string);
        GameMail {
            to: message
                .to()
                .and_then(|to| to.first())
                .and_then(|to| to.address())
                .unwrap_or_default()
                .to_string(),
            subject: message.subject().unwrap_or_default().to_string(),
            message_id: message.message_id().expect("a Message-ID").to_string(),
            in_reply_to: text(message.in_reply_to()),
            references: text(message.references()),
            auto_submitted: message
                .header_raw("Auto-Submitted")
                .map(|v| v.trim().to_string()),
            text: message
                .body_text(0)
                .unwrap_or_default()
                .replace("\r\n", "\n"),
            html: message.body_html(0).unwrap_or_default().to_string(),
            files: message
                .attachments()
                .filter_map(|part| {
                    let name = part.attachment_name()?.to_string();
                    name.ends_with(".pgn")
                        .then(|| (name, part.contents().to_vec()))
                })
                .collect(),
        }
    }

    /// Whether it is a sign-up or sign-in mail (they carry their token in a header).
    fn is_token_mail(raw: &[u8]) -> bool {
        MessageParser::default()
            .parse(raw)
            .is_some_and(|message| message.header_raw("X-Missive-Token").is_some())
    }
}

/// The game mails in the outbox (every mail but the sign-up ones).
fn game_mails(server: &Server) -> Vec<GameMail> {
    mail_files(&server.outbox)
        .iter()
        .map(|path| std::fs::read(path).unwrap())
        .filter(|raw| !GameMail::is_token_mail(raw))
        .map(|raw| GameMail::parse(&raw))
        .collect()
}

/// The game mails once there are `count` of them, waiting up to ten seconds.
async fn all_game_mails(server: &Server, count: usize) -> Vec<GameMail> {
    for _ in 0..200 {
        let mails = game_mails(server);
        if mails.len() >= count {
            return mails;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("fewer than {count} game mails: {:?}", game_mails(server));
}

/// A game of chess created by `ann` with Black, which `bob` joins as White.
async fn ann_with_black(ann: &Player<'_>, bob: &Player<'_>) -> String {
    let (status, body) = ann
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "open" }, { "kind": "creator" }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, body) = bob.post(&format!("/v1/games/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["seat"], 0);
    id
}

/// The score after `plies` moves of the fool's mate: `1. f3 e5 2. g4`.
fn score_after(plies: usize) -> String {
    let mut score = Vec::new();
    for (ply, mv) in FOOLS_MATE.iter().take(plies).enumerate() {
        if ply % 2 == 0 {
            score.push(format!("{}.", ply / 2 + 1));
        }
        score.push(mv.to_string());
    }
    score.join(" ")
}

/// The turn mails' scores: the one after ply `plies` is in the mail for the move after it.
fn assert_turn_mail_scores(turns: &[&GameMail]) {
    assert_eq!(turns.len(), FOOLS_MATE.len(), "{turns:#?}");
    for plies in 1..FOOLS_MATE.len() {
        let score = score_after(plies);
        let with = |mail: &&&GameMail| {
            mail.text.contains(&format!("The moves:\n{score}\n")) && mail.html.contains(&score)
        };
        assert_eq!(
            turns.iter().filter(with).count(),
            1,
            "one turn mail shows {score:?} in both parts: {turns:#?}"
        );
    }
}

/// The game-over mails: both show the whole score and attach the game's archive, which
/// reads back to the moves played.
fn assert_game_over_mails(endings: &[&GameMail]) {
    assert_eq!(endings.len(), 2, "{endings:#?}");
    let whole = score_after(FOOLS_MATE.len());
    for mail in endings {
        assert!(
            mail.text.contains(&whole) && mail.html.contains(&whole),
            "{mail:#?}"
        );
        let [(name, data)] = &mail.files[..] else {
            panic!("one archive attached: {mail:#?}")
        };
        assert!(name.starts_with("game-"), "{name}");
        let read = missive_archive::read(&data[..])
            .next()
            .expect("a game in the attachment")
            .expect("an archive that reads back");
        let moves: Vec<String> = read.game.0.played().into_iter().map(|m| m.short).collect();
        assert_eq!(moves, FOOLS_MATE);
    }
}

async fn every_mail_of_a_game_is_one_thread(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let mut inbox = Inbox::new(&server);
    let (ann, bob) = (server.player("ann").await, server.player("bob").await);
    let id = ann_with_black(&ann, &bob).await;
    for (ply, mv) in FOOLS_MATE.iter().enumerate() {
        let mail = inbox.next().await;
        let mover = [&bob, &ann][ply % 2];
        assert_eq!(mail.to, format!("{}@example.org", mover.handle));
        mover.play(&id, mv, ply as u64).await;
    }
    let mails = all_game_mails(&server, 7).await;
    assert_eq!(
        mails.len(),
        7,
        "started, four turns, two endings: {mails:#?}"
    );

    let root = format!("game-{id}@example.org");
    let mut ids: Vec<&str> = mails.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), mails.len(), "every mail has its own id");
    for mail in &mails {
        assert_eq!(mail.subject, "bob vs ann, chess", "{mail:#?}");
        assert!(!mail.subject.contains(&id));
        assert_eq!(mail.references.as_deref(), Some(root.as_str()), "{mail:#?}");
        assert_eq!(
            mail.in_reply_to.as_deref(),
            Some(root.as_str()),
            "{mail:#?}"
        );
        assert!(mail.message_id.ends_with("@example.org") && mail.message_id != root);
        assert_eq!(mail.auto_submitted.as_deref(), Some("auto-generated"));
        assert!(
            mail.text.contains(NOT_READ) && mail.html.contains(NOT_READ),
            "{mail:#?}"
        );
    }
    let started: Vec<&GameMail> = mails
        .iter()
        .filter(|m| m.text.contains("has started"))
        .collect();
    assert_eq!(started.len(), 1, "{mails:#?}");
    assert_eq!(started[0].to, "ann@example.org");
    let turns: Vec<&GameMail> = mails
        .iter()
        .filter(|m| m.text.contains("Your move: "))
        .collect();
    assert_turn_mail_scores(&turns);
    let endings: Vec<&GameMail> = mails
        .iter()
        .filter(|m| m.text.contains("Game over: "))
        .collect();
    assert_game_over_mails(&endings);
}

per_store!(every_mail_of_a_game_is_one_thread);
