//! A player with nothing but a mailbox, in a real browser (see `common::browser`) on a
//! phone-sized window, from the mails in the outbox and the pages alone: ann signs up on the
//! sign-up page and confirms from the mail; bob asks for a sign-in link on its page; ann
//! publishes a challenge in the lobby and bob accepts it; bob joins a tournament from its
//! invitation mail; once the game is over ann's home shows it with its result. Every new
//! page must fit a 390-pixel-wide screen without scrolling sideways. Screenshots go to
//! `docs/screenshots/` (`sign-up`, `sign-in-ask`, `new-game`, `challenges`, `tournament`,
//! `home`, and `home-desktop` on a wide window) when missing or with `MISSIVE_BLESS=1`.

use crate::common;

use common::Server;
use common::browser::{Browser, DESKTOP, Driver, PHONE, keep_screenshot, tools};
use missive_store::testing::Kind;
use serde_json::{Value, json};

/// The narrowest phone the pages are made for, in CSS pixels.
const NARROW: u32 = 390;

/// The link (the whole address) after `marker` in the text of the newest mail to `email`
/// that has one, waiting for it as long as none has (other mails, such as a turn mail the
/// notifier sends meanwhile, may be newer).
async fn mailed_link(server: &Server, email: &str, marker: &str) -> String {
    let wanted = format!("{}{marker}", server.app.public_url);
    for _ in 0..600 {
        let found = server.mails_to(email).iter().rev().find_map(|raw| {
            let message = mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .expect("a MIME message");
            let text = message.body_text(0).expect("a text part").to_string();
            let start = text.find(&wanted)?;
            let end = text[start..]
                .find(char::is_whitespace)
                .map_or(text.len(), |length| start + length);
            Some(text[start..end].to_string())
        });
        if let Some(link) = found {
            return link;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no mail to {email} with a {marker} link within a minute");
}

/// The page's title.
async fn title(browser: &Browser<'_>) -> String {
    browser.get("/title").await.as_str().unwrap().to_string()
}

/// The address of the page shown.
async fn current(browser: &Browser<'_>) -> String {
    browser.get("/url").await.as_str().unwrap().to_string()
}

/// Whether the page shown is no wider than the window at [`NARROW`] pixels (then puts the
/// phone's size back).
async fn fits_narrow(browser: &Browser<'_>) -> bool {
    browser.resize(NARROW, PHONE.1).await;
    let script = json!({
        "script": "return [document.documentElement.scrollWidth, window.innerWidth];",
        "args": [],
    });
    let widths: Value = browser.post("/execute/sync", script).await;
    browser.resize(PHONE.0, PHONE.1).await;
    let (page, window) = (widths[0].as_f64().unwrap(), widths[1].as_f64().unwrap());
    page <= window
}

/// Types `text` into the field `css` and presses the button `button`.
async fn fill_and_press(browser: &Browser<'_>, fields: &[(&str, &str)], button: &str) {
    for (css, text) in fields {
        let field = browser.find(css).await;
        browser.type_into(&field, text).await;
    }
    browser.click(&browser.find(button).await).await;
}

/// Asks for a sign-in link for `email` on the ask page shown: the link mailed.
async fn ask_for_link(browser: &Browser<'_>, server: &Server, email: &str) -> String {
    fill_and_press(browser, &[("input#email", email)], "button#ask").await;
    browser.find("[data-code=\"done\"]").await;
    mailed_link(server, email, "/sign-in?").await
}

/// Opens a sign-in (or confirmation) link and presses its button: the address of the page
/// it leads to, once the browser has left the sign-in page (its own `main h1` would match
/// before the answer arrives).
async fn sign_in_through(browser: &Browser<'_>, link: &str) -> String {
    browser.visit(link).await;
    browser.click(&browser.find("button#sign-in").await).await;
    for _ in 0..100 {
        let address = current(browser).await;
        if !address.contains("/sign-in") {
            browser.find("main h1").await;
            return address;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("still on the sign-in page after pressing its button: {link}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mailbox_is_enough() {
    let Some((chromedriver, chromium)) = tools() else {
        return;
    };
    let server = Server::start_browsable(Kind::Sqlite).await;
    let driver = Driver::start(&chromedriver).await;
    let browser = Browser::open(&driver, &chromium).await;
    browser.resize(PHONE.0, PHONE.1).await;
    let base = &server.base;

    browser.visit(&format!("{base}/sign-up")).await;
    browser.find("input#handle").await;
    assert!(fits_narrow(&browser).await, "sign-up");
    keep_screenshot("sign-up", &browser.screenshot().await);
    let ann_email = "ann@example.org";
    fill_and_press(
        &browser,
        &[("input#handle", "ann"), ("input#email", ann_email)],
        "button#sign-up",
    )
    .await;
    browser.find("[data-code=\"done\"]").await;
    let ann_home = sign_in_through(
        &browser,
        &mailed_link(&server, ann_email, "/sign-in?").await,
    )
    .await;
    assert!(title(&browser).await.starts_with("Your games"), "ann home");

    let bob = server.player("bob").await;
    server.clock.advance(chrono::Duration::seconds(1));
    browser.visit(&format!("{base}/sign-in/ask")).await;
    browser.find("input#email").await;
    assert!(fits_narrow(&browser).await, "sign-in-ask");
    keep_screenshot("sign-in-ask", &browser.screenshot().await);
    let link = ask_for_link(&browser, &server, "bob@example.org").await;
    let bob_home = sign_in_through(&browser, &link).await;
    assert!(title(&browser).await.starts_with("Your games"), "bob home");

    browser.visit(&ann_home).await;
    browser.click(&browser.find("a#new-game").await).await;
    browser.find("select#variant").await;
    assert!(fits_narrow(&browser).await, "new-game");
    keep_screenshot("new-game", &browser.screenshot().await);
    browser.visit(&ann_home).await;
    browser.click(&browser.find("a#challenges").await).await;
    browser.click(&browser.find("button#publish").await).await;
    browser.find("[data-code=\"done\"]").await;
    browser.find("li[data-challenge]").await;
    assert!(fits_narrow(&browser).await, "challenges");
    keep_screenshot("challenges", &browser.screenshot().await);

    browser.visit(&bob_home).await;
    browser.click(&browser.find("a#challenges").await).await;
    browser
        .click(&browser.find("button[id^=\"accept-\"]").await)
        .await;
    browser.find("[data-code=\"done\"]").await;
    let (_, games) = bob.get("/v1/games?player=me&status=active").await;
    let game = games["items"][0]["id"]
        .as_str()
        .expect("a game")
        .to_string();

    let cyd = server.player("cyd").await;
    let tournament = json!({
        "name": "Spring cup",
        "variant": "chess",
        "time_control": { "kind": "days-per-move", "days": 3 },
        "players": 3,
        "invite": ["bob"],
    });
    let (status, body) = cyd.post("/v1/tournaments", tournament).await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{body}");
    let page = mailed_link(&server, "bob@example.org", "/tournaments/").await;
    browser.visit(&page).await;
    browser
        .click(&browser.find("a#sign-in-to-join").await)
        .await;
    server.clock.advance(chrono::Duration::seconds(1));
    let link = ask_for_link(&browser, &server, "bob@example.org").await;
    assert!(link.contains("&then=tournaments/"), "{link}");
    sign_in_through(&browser, &link).await;
    browser.click(&browser.find("button#join").await).await;
    browser.find("[data-code=\"done\"]").await;
    browser.find("button#leave").await;
    assert!(fits_narrow(&browser).await, "tournament");
    keep_screenshot("tournament", &browser.screenshot().await);
    let (_, read) = cyd
        .get(&format!("/v1/tournaments/{}", body["id"].as_str().unwrap()))
        .await;
    assert!(
        read["players"].as_array().unwrap().contains(&json!("bob")),
        "{read}"
    );

    let (status, body) = bob
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, reqwest::StatusCode::OK, "{body}");
    browser.visit(&ann_home).await;
    let finished = browser
        .find(&format!("li.finished[data-game=\"{game}\"]"))
        .await;
    let words = browser.get(&format!("/element/{finished}/text")).await;
    let words = words.as_str().unwrap();
    assert!(words.contains("won by resignation against bob"), "{words}");
    assert!(words.contains("1-0") || words.contains("0-1"), "{words}");
    assert!(fits_narrow(&browser).await, "home");
    keep_screenshot("home", &browser.screenshot().await);
    browser.resize(DESKTOP.0, DESKTOP.1).await;
    browser.find("li.finished").await;
    keep_screenshot("home-desktop", &browser.screenshot().await);
    browser.close().await;
}
