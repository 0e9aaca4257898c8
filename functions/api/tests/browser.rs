//! The pages behind mailed links in a real browser: headless Chromium driven over WebDriver
//! (chromedriver on a loopback port, spoken to with reqwest), against a server whose notifier
//! writes its mails to the outbox. For each variant it follows the turn mail's link, checks
//! that the board has a size and the form is there, names a move, sees the board after it
//! with the move marked, confirms it and sees the accepted page. In chess it then sets a
//! conditional line from that page and sees it answer the opponent's move; a player signs
//! in from the mailed sign-in link, finds the game on their games page and plays on from it.
//! Screenshots go to `docs/screenshots/` (each variant's move page as `<variant>.png`, the
//! chess page on a phone-sized window as `chess-phone.png`, the confirmation, the
//! conditional lines, the sign-in and games pages, and a turn mail's HTML part with its PNG
//! board) when missing or with `MISSIVE_BLESS=1`.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (infra/test.sh installs them);
//! without them the test fails under CI and is skipped with a warning elsewhere.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::inbox::{Inbox, MoveMail, Read, sign_in_link};
use common::{Player, Server, seat_count, start_game};
use missive_rules::registry;
use missive_store::testing::{Kind, unique_name};
use serde_json::{Value, json};

/// The key WebDriver names elements by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The window's size, and a phone's, in CSS pixels.
const DESKTOP: (u32, u32) = (1200, 1000);
const PHONE: (u32, u32) = (412, 915);
/// Flags that keep Chromium quiet and self-contained on a machine without a network.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
];

/// A program on the PATH, or the path in `variable`.
fn program(variable: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// chromedriver on a free loopback port, stopped when dropped.
struct Driver {
    _process: tokio::process::Child,
    base: String,
    http: reqwest::Client,
}

impl Driver {
    async fn start(program: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = tokio::process::Command::new(program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            _process: process,
            base: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
        };
        for _ in 0..100 {
            if let Ok(response) = driver
                .http
                .get(format!("{}/status", driver.base))
                .send()
                .await
                && response.status().is_success()
            {
                return driver;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("chromedriver did not answer");
    }

    /// Sends a WebDriver command; returns its `value`, panicking on a WebDriver error.
    async fn command(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer: Value = request.send().await.unwrap().json().await.unwrap();
        assert!(
            answer["value"]["error"].is_null(),
            "{path}: {}",
            answer["value"]["message"]
        );
        answer["value"].clone()
    }
}

/// One browser session.
struct Browser<'d> {
    driver: &'d Driver,
    session: String,
    _profile: TempDir,
}

/// A folder removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl<'d> Browser<'d> {
    async fn open(driver: &'d Driver, chromium: &Path) -> Browser<'d> {
        let profile = TempDir(std::env::temp_dir().join(unique_name("missive-chromium")));
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.0.display()));
        args.push(format!("--window-size={},{}", DESKTOP.0, DESKTOP.1));
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        }}});
        let value = driver
            .command(reqwest::Method::POST, "/session", Some(capabilities))
            .await;
        Browser {
            driver,
            session: value["sessionId"].as_str().unwrap().to_string(),
            _profile: profile,
        }
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.driver
            .command(reqwest::Method::POST, &path, Some(body))
            .await
    }

    async fn get(&self, path: &str) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.driver.command(reqwest::Method::GET, &path, None).await
    }

    async fn visit(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    /// The element matching `css`, waiting up to five seconds for it.
    async fn find(&self, css: &str) -> String {
        let path = format!("/session/{}/element", self.session);
        let body = json!({ "using": "css selector", "value": css });
        for _ in 0..50 {
            let answer: Value = self
                .driver
                .http
                .post(format!("{}{path}", self.driver.base))
                .json(&body)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if let Some(id) = answer["value"][ELEMENT].as_str() {
                return id.to_string();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no element {css}");
    }

    /// The width and height of an element, in CSS pixels.
    async fn size(&self, element: &str) -> (f64, f64) {
        let rect = self.get(&format!("/element/{element}/rect")).await;
        (
            rect["width"].as_f64().unwrap(),
            rect["height"].as_f64().unwrap(),
        )
    }

    async fn type_into(&self, element: &str, text: &str) {
        self.post(
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        )
        .await;
    }

    async fn click(&self, element: &str) {
        self.post(&format!("/element/{element}/click"), json!({}))
            .await;
    }

    /// Resizes the window to `width` by `height` CSS pixels.
    async fn resize(&self, width: u32, height: u32) {
        let rect = json!({ "width": width, "height": height });
        self.post("/window/rect", rect).await;
    }

    async fn screenshot(&self) -> Vec<u8> {
        let value = self.get("/screenshot").await;
        STANDARD.decode(value.as_str().unwrap()).unwrap()
    }

    async fn close(self) {
        let path = format!("/session/{}", self.session);
        self.driver
            .command(reqwest::Method::DELETE, &path, None)
            .await;
    }
}

/// Writes the screenshot of `variant` when it is missing or `MISSIVE_BLESS` is set.
fn keep_screenshot(variant: &str, png: &[u8]) {
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/screenshots")
        .join(format!("{variant}.png"));
    if std::env::var_os("MISSIVE_BLESS").is_some() || !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, png).unwrap();
    }
}

/// The chess game's first two moves, played by API.
const CHESS_OPENING: [&str; 2] = ["e4", "e5"];
/// The chess move played in the browser, and the conditional line set after it.
const CHESS_MOVE: &str = "Nf3";
const CHESS_LINE: &str = "Nc6 Bb5";

/// chromedriver and Chromium, if both are here; fails under CI when they are not.
fn tools() -> Option<(PathBuf, PathBuf)> {
    let tools = (
        program("MISSIVE_CHROMEDRIVER", "chromedriver"),
        program("MISSIVE_CHROMIUM", "chromium"),
    );
    let (Some(chromedriver), Some(chromium)) = tools else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium and chromedriver are needed under CI"
        );
        eprintln!("warning: chromium or chromedriver not found: the browser test is skipped");
        return None;
    };
    Some((chromedriver, chromium))
}

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
/// the board after it with the move marked and nothing played yet, then confirms it
/// (`screenshot`: the confirmation page kept as `chess-confirm.png`).
async fn play_with_confirmation(
    browser: &Browser<'_>,
    watcher: &Player<'_>,
    id: &str,
    text: &str,
    screenshot: bool,
) {
    let ply = watcher.game(id).await["ply"].as_u64().unwrap();
    let field = browser.find("input#move").await;
    browser.type_into(&field, text).await;
    browser.click(&browser.find("button#play").await).await;
    browser.find("[data-code=\"confirm\"]").await;
    browser.find("section.board svg .last-move").await;
    assert_eq!(watcher.game(id).await["ply"], ply, "{text}: not played yet");
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
    assert_eq!(text_of(browser, "ol.lines li .line").await, CHESS_LINE);
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
    play_with_confirmation(browser, player, id, text, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mailed_links_in_headless_chromium() {
    let Some((chromedriver, chromium)) = tools() else {
        return;
    };
    let server = Server::start_mailing(Kind::Sqlite).await;
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
        play_with_confirmation(&browser, &players[0], &id, &text, chess).await;
        if chess {
            let mail = set_conditional_line(&browser, &players, &id, &mut inbox).await;
            show_mail(&browser, &mail).await;
            sign_in_and_play(&browser, &server, &players[1], &id, "a6").await;
        }
        inbox.next().await;
    }
    browser.close().await;
}
