//! The move page in a real browser: headless Chromium driven over WebDriver (chromedriver on
//! a loopback port, spoken to with reqwest). For each variant it loads the page behind a
//! move link, checks that the board has a size and the form is there, plays a move through
//! the form and sees the accepted page. Screenshots go to `docs/screenshots/<variant>.png`
//! (and the chess page on a phone-sized window to `chess-phone.png`) when missing or with
//! `MISSIVE_BLESS=1`.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (infra/test.sh installs them);
//! without them the test fails under CI and is skipped with a warning elsewhere.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::links::link_to_move;
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

/// Plays two opening moves by API so the page shows a move list and a last move.
async fn open_game<'s>(players: &[Player<'s>], id: &str) {
    for ply in 0..2 {
        let state = players[0].game(id).await;
        let seat = state["to_move"].as_u64().unwrap() as usize;
        let text = state["legal_moves_short"][0].as_str().unwrap().to_string();
        players[seat].play(id, &text, ply).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_page_in_headless_chromium() {
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
        return;
    };
    let server = Server::start(Kind::Sqlite).await;
    let driver = Driver::start(&chromedriver).await;
    let browser = Browser::open(&driver, &chromium).await;
    let names = ["ann", "bob", "cyd"];
    for variant in registry::variants().iter().map(|v| v.id()) {
        let mut players = Vec::new();
        for name in &names[..seat_count(&server, variant).await] {
            players.push(server.player(&format!("{name}-{variant}")).await);
        }
        let id = start_game(&players, variant).await;
        open_game(&players, &id).await;
        let (path, _) = link_to_move(&players, &id).await;
        browser.visit(&format!("{}{path}", server.base)).await;
        let board = browser.find("section.board svg").await;
        let (width, height) = browser.size(&board).await;
        assert!(
            width > 100.0 && height > 100.0,
            "{variant}: {width}x{height}"
        );
        browser.find("datalist#legal-moves option").await;
        keep_screenshot(variant, &browser.screenshot().await);
        if variant == "chess" {
            browser.resize(PHONE.0, PHONE.1).await;
            let (width, _) = browser.size(&browser.find("section.board svg").await).await;
            assert!(width > 300.0 && width < f64::from(PHONE.0), "{width}");
            keep_screenshot("chess-phone", &browser.screenshot().await);
            browser.resize(DESKTOP.0, DESKTOP.1).await;
        }
        let state = players[0].game(&id).await;
        let text = state["legal_moves_short"][0].as_str().unwrap();
        let field = browser.find("input#move").await;
        browser.type_into(&field, text).await;
        browser.click(&browser.find("button#play").await).await;
        browser.find("[data-code=\"done\"]").await;
        let title = browser.get("/title").await;
        assert!(
            title.as_str().unwrap().starts_with("Move played"),
            "{title}"
        );
        assert_eq!(players[0].game(&id).await["ply"], 3, "{variant}");
    }
    browser.close().await;
}
