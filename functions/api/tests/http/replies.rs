//! Replies by mail, end to end: the turn mails a real server writes to its outbox are
//! answered with the move in their text (plain, HTML only, quoted, top- and bottom-posted,
//! signed), the replies put into an inbox folder and handled as `missive serve` handles
//! them ([`folder::handle_folder`], or its watcher), through the server's own store. What
//! was played is read back through the API; what was mailed back, from the outbox.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::inbox::Read;
use common::{Options, Player, Server, notifier, start_game};
use missive_inbound::{Replies, folder};
use missive_store::testing::{Kind, unique_name};
use serde_json::Value;

/// The reply setting of the test server.
const REPLY_TO: &str = "reply@missive.test";

/// A mailing server offering replies, with ann (white) and bob (black) in a chess game.
struct Table {
    server: Server,
    inbox: PathBuf,
    replies: Replies,
    game: String,
}

impl Drop for Table {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.inbox);
    }
}

impl Table {
    async fn new(kind: Kind) -> Table {
        let options = Options {
            mailing: true,
            reply_to: Some(REPLY_TO.into()),
            ..Options::default()
        };
        let server = Server::start_with(kind, options).await;
        let app = &server.app;
        let replies = Replies::new(
            app.service.clone(),
            Arc::clone(&app.authority),
            notifier(app).with_reply_to(Some(REPLY_TO.into())),
        );
        let inbox = std::env::temp_dir().join(unique_name("missive-inbox"));
        Table {
            server,
            inbox,
            replies,
            game: String::new(),
        }
    }

    /// The table with its game started.
    async fn seated(kind: Kind) -> (Table, Value) {
        let mut table = Table::new(kind).await;
        let ann = table.server.player("ann").await;
        let bob = table.server.player("bob").await;
        table.game = start_game(&[ann.clone(), bob], "chess").await;
        let state = ann.game(&table.game).await;
        (table, state)
    }

    async fn ann(&self) -> Player<'_> {
        self.signed_in("ann").await
    }

    async fn bob(&self) -> Player<'_> {
        self.signed_in("bob").await
    }

    async fn signed_in(&self, handle: &str) -> Player<'_> {
        let token = missive_api::access_token(&self.server.app, handle).unwrap();
        Player {
            server: &self.server,
            handle: handle.into(),
            token,
        }
    }

    /// The turn mails `handle` has had, oldest first, waiting until there are `count`.
    async fn turn_mails(&self, handle: &str, count: usize) -> Vec<String> {
        self.mails_like(handle, count, "Your move:").await
    }

    /// The mails to `handle` whose opening (the paragraph after the greeting, which says
    /// what a mail is about) starts with `opening`, waiting until there are `count`.
    async fn mails_like(&self, handle: &str, count: usize, opening: &str) -> Vec<String> {
        let email = format!("{handle}@example.org");
        for _ in 0..200 {
            let mails = self.mails_to(&email, opening);
            if mails.len() >= count {
                return mails;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("fewer than {count} mails `{opening}` to {email}");
    }

    fn mails_to(&self, email: &str, opening: &str) -> Vec<String> {
        self.server
            .mails_to(email)
            .into_iter()
            .filter(|raw| opens_with(raw, opening))
            .collect()
    }

    /// The refusals mailed back to `handle` so far.
    fn refusals(&self, handle: &str) -> Vec<Read> {
        self.mails_to(
            &format!("{handle}@example.org"),
            "Your reply was not played",
        )
        .iter()
        .map(|raw| Read::parse(raw.as_bytes()))
        .collect()
    }

    /// Puts `reply` into the inbox as a file and handles the inbox as `missive serve`
    /// does.
    async fn deliver(&self, reply: &str) {
        std::fs::create_dir_all(&self.inbox).unwrap();
        let name = format!("{}.eml", ulid::Ulid::new());
        std::fs::write(self.inbox.join(&name), reply).unwrap();
        let handled = folder::handle_folder(&self.replies, &self.inbox)
            .await
            .unwrap();
        assert_eq!(handled, 1);
        assert!(!self.inbox.join(&name).exists(), "the file was moved");
    }

    async fn state(&self) -> Value {
        self.ann().await.game(&self.game).await
    }

    /// Files in the inbox's `done/` or `failed/` folder.
    fn handled(&self, place: &str) -> Vec<PathBuf> {
        files_in(&self.inbox.join(place))
    }
}

fn files_in(folder: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .map(|entry| entry.unwrap().path())
        .collect()
}

/// The `Reply-To` address of the mail `raw`.
fn reply_address(raw: &str) -> String {
    raw.lines()
        .find_map(|line| line.strip_prefix("Reply-To: "))
        .expect("a Reply-To header")
        .trim()
        .to_string()
}

/// How a reply is written.
enum Style {
    /// The answer alone.
    Plain,
    /// The answer, then the original quoted below an attribution.
    TopPosted,
    /// The original quoted first, then the answer and a signature.
    BottomPosted,
    /// HTML only: the answer above the original in a blockquote.
    HtmlOnly,
}

/// A reply from `handle` to the turn mail `original` saying `answer`, written in `style`.
fn reply(original: &str, handle: &str, answer: &str, style: Style) -> String {
    reply_to(&reply_address(original), original, handle, answer, style)
}

/// A reply like [`reply`], sent to `address`.
fn reply_to(address: &str, original: &str, handle: &str, answer: &str, style: Style) -> String {
    let read = Read::parse(original.as_bytes());
    let quoted: String = read
        .text
        .lines()
        .map(|line| format!("> {line}\r\n"))
        .collect();
    let attribution = "On Sun, 1 Mar 2026 at 12:00, Missive <missive@example.org>\r\nwrote:";
    let (kind, body) = match style {
        Style::Plain => ("text/plain", format!("{answer}\r\n")),
        Style::TopPosted => (
            "text/plain",
            format!("{answer}\r\n\r\n{attribution}\r\n\r\n{quoted}"),
        ),
        Style::BottomPosted => (
            "text/plain",
            format!(
                "{attribution}\r\n{quoted}\r\n{answer}\r\n\r\n-- \r\n{handle}\r\nSent from my phone\r\n"
            ),
        ),
        Style::HtmlOnly => (
            "text/html",
            format!(
                "<html><body><div dir=\"ltr\">{answer}</div><br>\r\n<div class=\"gmail_quote\">\
                 <div class=\"gmail_attr\">On Sun, 1 Mar 2026, Missive wrote:<br></div>\r\n\
                 <blockquote class=\"gmail_quote\">{}</blockquote></div></body></html>\r\n",
                read.html.replace("\r\n", " ").replace('\n', " ")
            ),
        ),
    };
    format!(
        "From: {handle} <{handle}@example.org>\r\nTo: {address}\r\n\
         Subject: Re: {}\r\nMessage-ID: <{}@example.org>\r\nMIME-Version: 1.0\r\n\
         Content-Type: {kind}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}",
        read.subject,
        ulid::Ulid::new()
    )
}

/// The moves of the game, in short notation.
async fn moves(table: &Table) -> Vec<String> {
    let (status, body) = table
        .ann()
        .await
        .get(&format!("/v1/games/{}/moves", table.game))
        .await;
    assert_eq!(status, 200, "{body}");
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv["short"].as_str().unwrap().to_string())
        .collect()
}

/// Replies in every style play their moves, and each turn mail offers the reply.
async fn every_style_of_reply_plays_its_move(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = &table.turn_mails("ann", 1).await[0];
    let text = Read::parse(turn.as_bytes()).text;
    assert!(text.contains("Reply with your move"), "{text}");
    assert!(reply_address(turn).starts_with("reply+"), "{turn}");
    table.deliver(&reply(turn, "ann", "e4", Style::Plain)).await;
    let turn = &table.turn_mails("bob", 1).await[0];
    table
        .deliver(&reply(turn, "bob", "e5", Style::BottomPosted))
        .await;
    let turn = &table.turn_mails("ann", 2).await[1];
    table
        .deliver(&reply(turn, "ann", "Nf3", Style::HtmlOnly))
        .await;
    let turn = &table.turn_mails("bob", 2).await[1];
    table
        .deliver(&reply(turn, "bob", "Nc6", Style::TopPosted))
        .await;
    assert_eq!(moves(&table).await, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(table.handled(folder::DONE).len(), 4);
    assert!(table.refusals("ann").is_empty() && table.refusals("bob").is_empty());
}

/// `e4 draw` plays the move with a draw offer; `draw` accepts it.
async fn a_draw_offered_with_a_move_is_accepted_by_reply(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = &table.turn_mails("ann", 1).await[0];
    table
        .deliver(&reply(turn, "ann", "e4 draw", Style::TopPosted))
        .await;
    let state = table.state().await;
    assert_eq!(state["ply"], 1);
    assert_eq!(state["draw_offers"], serde_json::json!([0]), "{state}");
    let turn = &table.turn_mails("bob", 1).await[0];
    table
        .deliver(&reply(turn, "bob", "draw", Style::Plain))
        .await;
    let state = table.state().await;
    assert_eq!(state["status"], "finished", "{state}");
    assert_eq!(state["ending"]["rule"], "agreement", "{state}");
}

/// `resign` resigns; the same reply again does nothing more.
async fn resign_by_reply(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = &table.turn_mails("ann", 1).await[0];
    let resignation = reply(turn, "ann", "Resign", Style::BottomPosted);
    table.deliver(&resignation).await;
    let state = table.state().await;
    assert_eq!(state["status"], "finished", "{state}");
    assert_eq!(state["ending"]["rule"], "resignation", "{state}");
    table.deliver(&resignation).await;
    assert!(table.refusals("ann").is_empty());
}

/// A reply whose token does not hold, or that has none, plays nothing and brings no mail.
async fn a_forged_token_plays_nothing_and_mails_nobody(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = &table.turn_mails("ann", 1).await[0];
    let address = reply_address(turn);
    let at = "reply+".len() + 5;
    let flipped = if &address[at..=at] == "a" { "b" } else { "a" };
    let forged = format!("{}{flipped}{}", &address[..at], &address[at + 1..]);
    let mails_before = table.server.mails_to("ann@example.org").len();
    for to in [forged.as_str(), REPLY_TO, "reply+short@missive.test"] {
        let mail = reply_to(to, turn, "ann", "e4", Style::Plain);
        table.deliver(&mail).await;
    }
    let state = table.state().await;
    assert_eq!(state["ply"], 0, "{state}");
    assert_eq!(
        table.handled(folder::FAILED).len(),
        6,
        "three mails, three reasons"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(table.server.mails_to("ann@example.org").len(), mails_before);
    assert!(
        table
            .server
            .mails_to("bob@example.org")
            .iter()
            .all(|raw| !opens_with(raw, "Your reply"))
    );
}

/// A reply to a position the game has left plays nothing and is answered.
async fn a_stale_reply_is_answered_and_plays_nothing(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = table.turn_mails("ann", 1).await.remove(0);
    table.ann().await.play(&table.game, "e4", 0).await;
    table.bob().await.play(&table.game, "e5", 1).await;
    table
        .deliver(&reply(&turn, "ann", "d4", Style::Plain))
        .await;
    assert_eq!(moves(&table).await, ["e4", "e5"]);
    let refusals = table.refusals("ann");
    assert_eq!(refusals.len(), 1);
    let text = &refusals[0].text;
    assert!(text.contains("earlier position"), "{text}");
    assert!(
        text.contains("It is your move. The legal moves: "),
        "{text}"
    );
    assert!(text.contains("/play/"), "a fresh move link: {text}");
    let raw = &table.mails_to("ann@example.org", "Your reply")[0];
    assert_ne!(
        reply_address(raw),
        reply_address(&turn),
        "a fresh reply address"
    );
}

/// An illegal move, or a reply with no move, is answered with the legal moves and a fresh
/// link; the fresh reply address then plays.
async fn an_illegal_move_is_answered_with_the_legal_moves(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = table.turn_mails("ann", 1).await.remove(0);
    table
        .deliver(&reply(&turn, "ann", "Ke2", Style::TopPosted))
        .await;
    table
        .deliver(&reply(&turn, "ann", "Thanks, will think", Style::Plain))
        .await;
    assert_eq!(table.state().await["ply"], 0);
    let refusals = table.refusals("ann");
    assert_eq!(refusals.len(), 2);
    let (illegal, unreadable) = (&refusals[0].text, &refusals[1].text);
    assert!(illegal.contains("`Ke2`"), "{illegal}");
    for legal in ["e4", "Nf3", "a3"] {
        assert!(
            illegal.contains(&format!(" {legal} ")) || illegal.contains(&format!(" {legal}\n")),
            "{legal} in {illegal}"
        );
    }
    let link = common::inbox::link_in(illegal, &table.server.app.public_url, "/play/");
    assert!(link.is_some(), "a fresh move link: {illegal}");
    assert!(unreadable.contains("Thanks, will think"), "{unreadable}");
    let answer = &table.mails_to("ann@example.org", "Your reply")[1];
    table
        .deliver(&reply(answer, "ann", "e4", Style::Plain))
        .await;
    assert_eq!(moves(&table).await, ["e4"]);
}

/// The same reply delivered twice, even after the game went on, plays once and brings no
/// mail back.
async fn a_reply_delivered_twice_plays_once(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = &table.turn_mails("ann", 1).await[0];
    let answer = reply(turn, "ann", "e4", Style::Plain);
    table.deliver(&answer).await;
    table.deliver(&answer).await;
    assert_eq!(moves(&table).await, ["e4"]);
    table.bob().await.play(&table.game, "e5", 1).await;
    table.deliver(&answer).await;
    assert_eq!(moves(&table).await, ["e4", "e5"]);
    assert!(table.refusals("ann").is_empty());
    assert_eq!(table.handled(folder::DONE).len(), 3);
}

/// The inbox watcher `missive serve` runs picks a reply up by itself.
async fn the_watcher_plays_what_is_put_in_the_inbox(kind: Kind) {
    let (table, _) = Table::seated(kind).await;
    let turn = &table.turn_mails("ann", 1).await[0];
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (replies, inbox) = (table.replies.clone(), table.inbox.clone());
    let watching = tokio::spawn(async move {
        folder::watch(&replies, &inbox, Duration::from_millis(50), stopped).await;
    });
    std::fs::create_dir_all(&table.inbox).unwrap();
    let part = table.inbox.join(".reply.part");
    std::fs::write(&part, reply(turn, "ann", "e4", Style::Plain)).unwrap();
    std::fs::rename(&part, table.inbox.join("reply.eml")).unwrap();
    for _ in 0..200 {
        if !table.handled(folder::DONE).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(table.handled(folder::DONE).len(), 1);
    assert_eq!(moves(&table).await, ["e4"]);
    stop.send(true).unwrap();
    watching.await.unwrap();
}

/// Without the reply setting, turn mails offer no reply.
async fn without_the_setting_no_reply_is_offered(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    start_game(&[ann, bob], "chess").await;
    let table_mail = {
        let mut found = None;
        for _ in 0..200 {
            found = server
                .mails_to("ann@example.org")
                .into_iter()
                .find(|raw| opens_with(raw, "Your move:"));
            if found.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        found.expect("a turn mail")
    };
    assert!(!table_mail.contains("\nReply-To:"), "{table_mail}");
    let text = Read::parse(table_mail.as_bytes()).text;
    assert!(!text.contains("Reply with"), "{text}");
}

per_store!(
    every_style_of_reply_plays_its_move,
    a_draw_offered_with_a_move_is_accepted_by_reply,
    resign_by_reply,
    a_forged_token_plays_nothing_and_mails_nobody,
    a_stale_reply_is_answered_and_plays_nothing,
    an_illegal_move_is_answered_with_the_legal_moves,
    a_reply_delivered_twice_plays_once,
    the_watcher_plays_what_is_put_in_the_inbox,
    without_the_setting_no_reply_is_offered,
);

/// Whether the mail `raw` opens (after its greeting) with `words`.
fn opens_with(raw: &str, words: &str) -> bool {
    let text = Read::parse(raw.as_bytes()).text.replace("\r\n", "\n");
    text.split("\n\n")
        .nth(1)
        .unwrap_or_default()
        .starts_with(words)
}
