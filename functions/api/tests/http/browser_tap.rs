//! Tap to move in a real browser (see `common::browser`): for each variant the turn mail's
//! link opens the move page, a touch on a piece marks every spot it can go to, a touch on
//! one of them goes to the confirmation page, and the confirmation plays the move. A Tri-D
//! attack board is moved the same way under both rule sets (picking among the moves that
//! land on the same corner). On a 390-pixel phone the chess move form starts within the
//! first screen and the tournament page is no wider than the screen; without JavaScript a
//! typed move still plays. A chess game is played to mate by touches alone, a message
//! written on one confirmation. The chess page with its destinations marked is kept as
//! `docs/screenshots/chess-tap.png` when missing or with `MISSIVE_BLESS=1`.

use crate::common;

use std::collections::BTreeSet;

use common::browser::{Browser, DESKTOP, Driver, keep_screenshot, tools};
use common::inbox::{Inbox, MoveMail};
use common::tournaments::full_tournament;
use common::{Player, Server, seat_count};
use missive_rules::{AnyGame, LegalMove, registry};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A phone's window, in CSS pixels.
const PHONE: (u32, u32) = (390, 844);
/// A Tri-D position where both queen-side attack boards may move (White's carries one
/// pawn), and the pawn's square and a corner the board can go to.
const TRI_D_LIGHT_BOARDS: &str = "QL1@W-N-up:w,KL1@W-N-dn:w,QL3@N-S-up:b,KL3@N-S-dn:b \
    Kc1(2),Pa4(3),kd8(6) w - 0 1";
const ATTACK_BOARD_SQUARE: &str = "a4(3)";
const ATTACK_BOARD_CORNER: &str = "b6(4)";
/// The message written on the first confirmation of the game played to mate.
const MATE_MESSAGE: &str = "Have a good game!";

/// Creates a game of `variant` (from `position`, its start when `None`) by `players[0]`,
/// joined by the others; returns its id once it is active.
async fn start(players: &[Player<'_>], variant: &str, position: Option<&str>) -> String {
    let mut seats = vec![json!({ "kind": "creator" })];
    seats.extend((1..players.len()).map(|_| json!({ "kind": "open" })));
    let mut body = json!({
        "variant": variant,
        "seats": seats,
        "time_control": { "kind": "days-per-move", "days": 3 },
    });
    if let Some(position) = position {
        body["start_position"] = json!(position);
    }
    let (status, created) = players[0].post("/v1/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for player in &players[1..] {
        let (status, joined) = player
            .post(&format!("/v1/games/{id}/join"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{joined}");
    }
    id
}

/// The players of a new game of `variant`, named after `label`.
async fn players_for<'s>(server: &'s Server, variant: &str, label: &str) -> Vec<Player<'s>> {
    let mut players = Vec::new();
    for name in ["ann", "bob", "cyd"]
        .iter()
        .take(seat_count(server, variant).await)
    {
        players.push(server.player(&format!("{name}-{label}")).await);
    }
    players
}

/// The rules' game the page shows.
fn rules_game(variant: &str, position: Option<&str>) -> Box<dyn AnyGame> {
    registry::variant(variant)
        .and_then(|v| v.new_game("", position))
        .expect("the game starts")
}

/// A piece's move of `game` to an empty spot that no other legal move shares: its spots.
fn lone_move(game: &dyn AnyGame) -> (String, String) {
    let moves = game.legal_ends();
    let occupied: BTreeSet<String> = game.diagram().pieces.into_iter().map(|p| p.spot).collect();
    let sharing = |mv: &LegalMove| moves.iter().filter(|m| m.ends == mv.ends).count();
    let mv = moves
        .iter()
        .find(|m| m.ends.from.len() == 1 && !occupied.contains(&m.ends.to) && sharing(m) == 1)
        .expect("a move of its own");
    (mv.ends.from[0].clone(), mv.ends.to.clone())
}

/// The spots the moves starting on `from` go to.
fn destinations(game: &dyn AnyGame, from: &str) -> BTreeSet<String> {
    game.legal_ends()
        .into_iter()
        .filter(|m| m.ends.from.iter().any(|f| f == from))
        .map(|m| m.ends.to)
        .collect()
}

/// What `script` (a function body) returns in the page.
async fn run(browser: &Browser<'_>, script: &str) -> Value {
    let body = json!({ "script": script, "args": [] });
    browser.post("/execute/sync", body).await
}

/// The spots the board marks as the chosen piece's destinations.
async fn marked(browser: &Browser<'_>) -> BTreeSet<String> {
    let script = "return Array.from(document.querySelectorAll('.spot.tap-to'))\
                  .map(function (e) { return e.getAttribute('data-spot'); });";
    let spots = run(browser, script).await;
    spots
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Touches the piece on `from` and sees its destinations (`expected`) marked.
async fn pick_up(browser: &Browser<'_>, from: &str, expected: &BTreeSet<String>) {
    let piece = browser
        .find(&format!(".board svg .piece[data-spot=\"{from}\"]"))
        .await;
    browser.click(&piece).await;
    browser.find(".board svg .spot.tap-to").await;
    assert_eq!(&marked(browser).await, expected, "from {from}");
}

/// Touches the spot `to`, picks the first move offered if several go there, sees the
/// confirmation with nothing played yet, writes `message` on it if there is one, confirms,
/// and sees the game one ply on.
async fn put_down_and_confirm(
    browser: &Browser<'_>,
    watcher: &Player<'_>,
    id: &str,
    to: &str,
    message: Option<&str>,
) {
    let ply = watcher.game(id).await["ply"].as_u64().unwrap();
    let spot = browser
        .find(&format!(".board svg .spot[data-spot=\"{to}\"]"))
        .await;
    browser.click(&spot).await;
    let offered = run(
        browser,
        "return document.querySelectorAll('.tap-choice').length",
    )
    .await;
    if offered.as_u64().unwrap() > 0 {
        browser
            .click(&browser.find("button.tap-choice").await)
            .await;
    }
    browser.find("[data-code=\"confirm\"]").await;
    assert_eq!(watcher.game(id).await["ply"], ply, "not played yet");
    if let Some(message) = message {
        let field = browser.find("form.confirm textarea#message").await;
        browser.type_into(&field, message).await;
    }
    browser.click(&browser.find("button#confirm").await).await;
    browser.find("[data-code=\"done\"]").await;
    assert_eq!(watcher.game(id).await["ply"], ply + 1, "played");
}

/// In chess on a phone: the move form starts within the first screen, and the page with
/// the destinations marked is kept as `chess-tap.png`.
async fn check_phone(browser: &Browser<'_>) {
    browser.resize(PHONE.0, PHONE.1).await;
    let script = "return [document.querySelector('form.move').getBoundingClientRect().top, \
                  window.innerHeight, document.documentElement.scrollWidth, window.innerWidth]";
    let measured = run(browser, script).await;
    let [top, height, width, window] = [0, 1, 2, 3].map(|i| measured[i].as_f64().unwrap());
    assert!(top < height, "the move form starts at {top} of {height}");
    assert!(
        width <= window && window <= f64::from(PHONE.0),
        "{measured}"
    );
    keep_screenshot("chess-tap", &browser.screenshot().await);
    browser.resize(DESKTOP.0, DESKTOP.1).await;
}

/// Plays one move of a new game of `variant` (from `position`) by touching the board
/// (`spots`: from and to, else a lone move of the position), then reads the next player's
/// turn mail.
async fn tap_a_move(
    browser: &Browser<'_>,
    server: &Server,
    inbox: &mut Inbox<'_>,
    (variant, label): (&str, &str),
    position: Option<&str>,
    spots: Option<(&str, &str)>,
) {
    let players = players_for(server, variant, label).await;
    let id = start(&players, variant, position).await;
    let mail: MoveMail = inbox.next().await;
    assert_eq!(mail.to, format!("{}@example.org", players[0].handle));
    browser
        .visit(&format!("{}{}", server.base, mail.link))
        .await;
    let game = rules_game(variant, position);
    let (from, to) = spots.map_or_else(
        || lone_move(game.as_ref()),
        |(f, t)| (f.to_string(), t.to_string()),
    );
    pick_up(browser, &from, &destinations(game.as_ref(), &from)).await;
    if variant == "chess" {
        check_phone(browser).await;
    }
    put_down_and_confirm(browser, &players[0], &id, &to, None).await;
    inbox.next().await;
}

/// A whole chess game played by touching the board, from each turn mail's link to mate
/// (the fool's mate), with a message written on the confirmation of White's first move.
async fn tap_to_mate(browser: &Browser<'_>, server: &Server, inbox: &mut Inbox<'_>) {
    let players = players_for(server, "chess", "mate").await;
    let id = start(&players, "chess", None).await;
    let mut game = rules_game("chess", None);
    let moves = [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")];
    for (ply, (from, to)) in moves.into_iter().enumerate() {
        let mover = &players[ply % 2];
        let mail = inbox.next().await;
        assert_eq!(mail.to, format!("{}@example.org", mover.handle));
        browser
            .visit(&format!("{}{}", server.base, mail.link))
            .await;
        pick_up(browser, from, &destinations(game.as_ref(), from)).await;
        let message = (ply == 0).then_some(MATE_MESSAGE);
        put_down_and_confirm(browser, mover, &id, to, message).await;
        game.play(&format!("{from}{to}")).expect("the rules' move");
    }
    let state = players[0].game(&id).await;
    assert_eq!(state["ending"]["rule"], "checkmate", "{state}");
    let (_, messages) = players[1].get(&format!("/v1/games/{id}/messages")).await;
    assert_eq!(messages["items"][0]["text"], MATE_MESSAGE, "{messages}");
}

/// Without JavaScript the board takes no touches and a typed move plays as before.
async fn typed_without_javascript(browser: &Browser<'_>, server: &Server, inbox: &mut Inbox<'_>) {
    let players = players_for(server, "chess", "typed").await;
    let id = start(&players, "chess", None).await;
    let mail = inbox.next().await;
    browser
        .visit(&format!("{}{}", server.base, mail.link))
        .await;
    browser.find("section.board svg .spot").await;
    let body = json!({ "using": "css selector", "value": "svg.tappable, .tap-choices" });
    let found = browser.post("/elements", body).await;
    assert_eq!(found.as_array().map(Vec::len), Some(0), "no script ran");
    let field = browser.find("input#move").await;
    browser.type_into(&field, "e4").await;
    browser.click(&browser.find("button#play").await).await;
    browser.find("[data-code=\"confirm\"]").await;
    browser.click(&browser.find("button#confirm").await).await;
    browser.find("[data-code=\"done\"]").await;
    assert_eq!(players[0].game(&id).await["ply"], 1);
    inbox.next().await;
}

/// A running tournament's page on a phone is no wider than the screen: its tables scroll
/// in their own boxes.
async fn tournament_fits_a_phone(browser: &Browser<'_>, server: &Server) {
    let mut players = Vec::new();
    for name in [
        "annabel",
        "bartholomew",
        "cordelia",
        "dorothea",
        "evangeline",
    ] {
        players.push(server.player(&format!("{name}-cup")).await);
    }
    let body = json!({
        "name": "Phone cup",
        "variant": "chess",
        "time_control": { "kind": "days-per-move", "days": 3 },
        "players": players.len(),
    });
    let (id, _) = full_tournament(&players, body).await;
    browser.resize(PHONE.0, PHONE.1).await;
    browser
        .visit(&format!("{}/tournaments/{id}", server.base))
        .await;
    browser.find(".scroll pre").await;
    let script = "return [document.documentElement.scrollWidth, window.innerWidth, \
                  document.querySelector('.scroll pre').scrollWidth]";
    let measured = run(browser, script).await;
    let [width, window, crosstable] = [0, 1, 2].map(|i| measured[i].as_f64().unwrap());
    assert!(window <= f64::from(PHONE.0), "{measured}");
    assert!(width <= window, "the page is {width} wide in {window}");
    assert!(
        crosstable > window,
        "the crosstable scrolls in its box: {measured}"
    );
    browser.resize(DESKTOP.0, DESKTOP.1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tap_to_move_in_headless_chromium() {
    let Some((chromedriver, chromium)) = tools() else {
        return;
    };
    let server = Server::start_mailing(Kind::Sqlite).await;
    let driver = Driver::start(&chromedriver).await;
    let browser = Browser::open(&driver, &chromium).await;
    let mut inbox = Inbox::new(&server);
    for variant in registry::variants().iter().map(|v| v.id()) {
        let spots = (variant == "chess").then_some(("e2", "e4"));
        tap_a_move(
            &browser,
            &server,
            &mut inbox,
            (variant, variant),
            None,
            spots,
        )
        .await;
    }
    for variant in ["trid-fs", "trid-wtdcf"] {
        let label = format!("{variant}-boards");
        let spots = Some((ATTACK_BOARD_SQUARE, ATTACK_BOARD_CORNER));
        let position = Some(TRI_D_LIGHT_BOARDS);
        tap_a_move(
            &browser,
            &server,
            &mut inbox,
            (variant, &label),
            position,
            spots,
        )
        .await;
    }
    let plain = Browser::open_with(
        &driver,
        &chromium,
        &["--blink-settings=scriptEnabled=false"],
    );
    let plain = plain.await;
    typed_without_javascript(&plain, &server, &mut inbox).await;
    plain.close().await;
    tap_to_mate(&browser, &server, &mut inbox).await;
    tournament_fits_a_phone(&browser, &server).await;
    browser.close().await;
}
