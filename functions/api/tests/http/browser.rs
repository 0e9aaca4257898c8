//! The pages behind mailed links in a real browser (see `common::browser`), against a server whose notifier
//! writes its mails to the outbox. For each variant it follows the turn mail's link, checks
//! that the board has a size and the form is there, names a move, sees the board after it
//! with the move marked, confirms it and sees the accepted page. In chess the confirmation
//! carries a message to the opponent; it then sets a conditional line from that page and sees
//! it answer the opponent's move; a player signs in from the mailed sign-in link, finds the
//! game on their games page and plays on from it. Last, a draw offered on the offerer's own
//! turn is accepted from the link in the mail that tells the other side.
//! Screenshots go to `docs/screenshots/` (each variant's move page as `<variant>.png`, the
//! chess page on a phone-sized window as `chess-phone.png`, the confirmation, the
//! conditional lines, the sign-in and games pages, and a turn mail's HTML part with its PNG
//! board) when missing or with `MISSIVE_BLESS=1`.

use crate::common;

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::browser::{Browser, DESKTOP, Driver, PHONE, TempDir, keep_screenshot, tools};
use common::inbox::{Inbox, MoveMail, Read, sign_in_link};
use common::{Player, Server, seat_count, start_game};
use missive_rules::registry;
use missive_store::testing::{Kind, unique_name};
use serde_json::json;

/// The chess game's first two moves, played by API.
const CHESS_OPENING: [&str; 2] = ["e4", "e5"];
/// The chess move played in the browser, and the conditional line set after it.
const CHESS_MOVE: &str = "Nf3";
const CHESS_LINE: &str = "Nc6 Bb5";
/// The line as the page lists it, with the numbers of its moves in the game.
const CHESS_LINE_NUMBERED: &str = "2... Nc6 3. Bb5";
/// The message written on the confirmation of the chess move.
const CHESS_MESSAGE: &str = "Good luck, and thanks for the game!";

/// Plays two opening moves by API (`opening`'s, else the first legal ones), each when its
/// turn mail has come, so the page shows a move list and a last move; the third turn mail.
async fn open_game(
    players: &[Player<'_>],
    id: &str,
    inbox: &mut Inbox<'_>,
    opening: &[&str],
) -> MoveMail {
    for ply in 0..2 {
        let mail = inbox.next().await;
        let state = players[0].game(id).await;
        let seat = state["to_move"].as_u64().unwrap() as usize;
        assert_eq!(mail.to, format!("{}@example.org", players[seat].handle));
        let text = match opening.get(ply) {
            Some(text) => text.to_string(),
            None => state["legal_moves_short"][0].as_str().unwrap().to_string(),
        };
        players[seat].play(id, &text, ply as u64).await;
    }
    inbox.next().await
}

/// Plays `text` on the move page the browser shows, in its two steps: names the move, sees
/// the board after it with the move marked and nothing played yet, then confirms it, with
/// `message` written on the confirmation if there is one (`screenshot`: the confirmation
/// page kept as `chess-confirm.png`).
async fn play_with_confirmation(
    browser: &Browser<'_>,
    watcher: &Player<'_>,
    id: &str,
    text: &str,
    message: Option<&str>,
    screenshot: bool,
) {
    let ply = watcher.game(id).await["ply"].as_u64().unwrap();
    let field = browser.find("input#move").await;
    browser.type_into(&field, text).await;
    browser.click(&browser.find("button#play").await).await;
    browser.find("[data-code=\"confirm\"]").await;
    browser.find("section.board svg .last-move").await;
    assert_eq!(watcher.game(id).await["ply"], ply, "{text}: not played yet");
    if let Some(message) = message {
        let field = browser.find("form.confirm textarea#message").await;
        browser.type_into(&field, message).await;
    }
    if screenshot {
        keep_screenshot("chess-confirm", &browser.screenshot().await);
    }
    browser.click(&browser.find("button#confirm").await).await;
    browser.find("[data-code=\"done\"]").await;
    let title = browser.get("/title").await;
    assert!(
        title.as_str().unwrap().starts_with("Move played"),
        "{text}: {title}"
    );
    assert_eq!(watcher.game(id).await["ply"], ply + 1, "{text}");
    if let Some(message) = message {
        let (_, messages) = watcher.get(&format!("/v1/games/{id}/messages")).await;
        let last = messages["items"].as_array().unwrap().last().cloned();
        assert_eq!(last.unwrap_or_default()["text"], message, "{messages}");
    }
}

/// The text of the element matching `css`.
async fn text_of(browser: &Browser<'_>, css: &str) -> String {
    let element = browser.find(css).await;
    let text = browser.get(&format!("/element/{element}/text")).await;
    text.as_str().unwrap().to_string()
}

/// On the page after the chess move: types [`CHESS_LINE`] into the conditional lines form,
/// saves it and sees it listed; the opponent's move then gets its answer at once.
async fn set_conditional_line(
    browser: &Browser<'_>,
    players: &[Player<'_>],
    id: &str,
    inbox: &mut Inbox<'_>,
) -> MoveMail {
    let field = browser.find("textarea#lines").await;
    browser.type_into(&field, CHESS_LINE).await;
    browser
        .click(&browser.find("button#save-lines").await)
        .await;
    browser.find("[data-code=\"saved\"]").await;
    assert_eq!(
        text_of(browser, "ul.lines li .line").await,
        CHESS_LINE_NUMBERED
    );
    keep_screenshot("chess-lines", &browser.screenshot().await);
    let state = players[0].game(id).await;
    assert_eq!(state["conditional"].as_array().unwrap().len(), 1, "{state}");
    inbox.next().await;
    players[1].play(id, "Nc6", 3).await;
    assert_eq!(players[0].game(id).await["ply"], 5, "Bb5 played at once");
    inbox.next().await
}

/// The HTML part of the mail in `file` as a page of its own, its `cid:` pictures as data
/// URLs.
fn mail_page(file: &Path) -> String {
    let mail = Read::file(file);
    assert!(!mail.pictures.is_empty(), "a picture in {}", file.display());
    let mut html = mail.html;
    for (id, png) in &mail.pictures {
        let data = format!("data:image/png;base64,{}", STANDARD.encode(png));
        html = html.replace(&format!("cid:{id}"), &data);
    }
    html
}

/// Shows the turn mail `mail` as a mail program would, its board a PNG the browser decodes,
/// and keeps it as `mail-chess.png`.
async fn show_mail(browser: &Browser<'_>, mail: &MoveMail) {
    let folder = TempDir(std::env::temp_dir().join(unique_name("missive-mail")));
    std::fs::create_dir_all(&folder.0).unwrap();
    let file = folder.0.join("mail.html");
    std::fs::write(&file, mail_page(&mail.file)).unwrap();
    browser.visit(&format!("file://{}", file.display())).await;
    browser.find("img").await;
    let script = json!({
        "script": "return document.images[0].complete ? document.images[0].naturalWidth : 0",
        "args": [],
    });
    let width = browser.post("/execute/sync", script).await;
    assert!(
        width.as_u64().unwrap() > 100,
        "the PNG board shows: {width}"
    );
    keep_screenshot("mail-chess", &browser.screenshot().await);
}

/// Signs `player` in through the mailed sign-in link (the page's button), finds the game
/// `id` on their games page and plays `text` in it from there.
async fn sign_in_and_play(
    browser: &Browser<'_>,
    server: &Server,
    player: &Player<'_>,
    id: &str,
    text: &str,
) {
    server.clock.advance(chrono::Duration::seconds(1));
    let email = format!("{}@example.org", player.handle);
    server.sign_in_token(&email).await;
    let path = sign_in_link(server, &email);
    browser.visit(&format!("{}{path}", server.base)).await;
    let button = browser.find("button#sign-in").await;
    keep_screenshot("sign-in", &browser.screenshot().await);
    browser.click(&button).await;
    let play = browser
        .find(&format!("li[data-game=\"{id}\"] a[href*=\"play/\"]"))
        .await;
    let title = browser.get("/title").await;
    assert!(title.as_str().unwrap().starts_with("Your games"), "{title}");
    keep_screenshot("games", &browser.screenshot().await);
    browser.click(&play).await;
    play_with_confirmation(browser, player, id, text, None, false).await;
}

/// A draw offered without a move on the offerer's own turn, accepted from the link in the
/// mail that tells the other side of it.
async fn accept_a_standing_offer(browser: &Browser<'_>, server: &Server, inbox: &mut Inbox<'_>) {
    let players = [
        server.player("ann-draw").await,
        server.player("bob-draw").await,
    ];
    let id = start_game(&players, "chess").await;
    inbox.next().await;
    let offer = json!({ "action": "offer" });
    let (status, body) = players[0]
        .post(&format!("/v1/games/{id}/draw"), offer)
        .await;
    assert_eq!(status, reqwest::StatusCode::OK, "{body}");
    let mail = inbox.next().await;
    assert_eq!(mail.to, "bob-draw@example.org");
    browser
        .visit(&format!("{}{}", server.base, mail.link))
        .await;
    browser
        .click(&browser.find("button#accept-draw").await)
        .await;
    browser.find("[data-code=\"done\"]").await;
    let title = browser.get("/title").await;
    assert!(
        title.as_str().unwrap().starts_with("The game is drawn"),
        "{title}"
    );
    assert_eq!(players[0].game(&id).await["ending"]["rule"], "agreement");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mailed_links_in_headless_chromium() {
    let Some((chromedriver, chromium)) = tools() else {
        return;
    };
    let server = Server::start_browsable(Kind::Sqlite).await;
    let driver = Driver::start(&chromedriver).await;
    let browser = Browser::open(&driver, &chromium).await;
    let mut inbox = Inbox::new(&server);
    let names = ["ann", "bob", "cyd"];
    for variant in registry::variants().iter().map(|v| v.id()) {
        let mut players = Vec::new();
        for name in &names[..seat_count(&server, variant).await] {
            players.push(server.player(&format!("{name}-{variant}")).await);
        }
        let id = start_game(&players, variant).await;
        let chess = variant == "chess";
        let opening: &[&str] = if chess { &CHESS_OPENING } else { &[] };
        let mail = open_game(&players, &id, &mut inbox, opening).await;
        browser
            .visit(&format!("{}{}", server.base, mail.link))
            .await;
        let board = browser.find("section.board svg").await;
        let (width, height) = browser.size(&board).await;
        assert!(
            width > 100.0 && height > 100.0,
            "{variant}: {width}x{height}"
        );
        browser.find("datalist#legal-moves option").await;
        keep_screenshot(variant, &browser.screenshot().await);
        if chess {
            browser.resize(PHONE.0, PHONE.1).await;
            let (width, _) = browser.size(&browser.find("section.board svg").await).await;
            assert!(width > 300.0 && width < f64::from(PHONE.0), "{width}");
            keep_screenshot("chess-phone", &browser.screenshot().await);
            browser.resize(DESKTOP.0, DESKTOP.1).await;
        }
        let state = players[0].game(&id).await;
        let text = match chess {
            true => CHESS_MOVE.to_string(),
            false => state["legal_moves_short"][0].as_str().unwrap().to_string(),
        };
        let message = chess.then_some(CHESS_MESSAGE);
        play_with_confirmation(&browser, &players[0], &id, &text, message, chess).await;
        if chess {
            let mail = set_conditional_line(&browser, &players, &id, &mut inbox).await;
            show_mail(&browser, &mail).await;
            sign_in_and_play(&browser, &server, &players[1], &id, "a6").await;
        }
        inbox.next().await;
    }
    accept_a_standing_offer(&browser, &server, &mut inbox).await;
    browser.close().await;
}
