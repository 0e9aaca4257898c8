//! A real browser for page tests: headless Chromium driven over WebDriver (chromedriver on
//! a loopback port, spoken to with reqwest), and screenshots kept in `docs/screenshots/`.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (infra/test.sh installs them);
//! without them [`tools`] fails under CI and skips the test with a warning elsewhere.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use missive_store::testing::unique_name;
use serde_json::{Value, json};

/// The key WebDriver names elements by.
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The window's size, and a phone's, in CSS pixels.
pub const DESKTOP: (u32, u32) = (1200, 1000);
pub const PHONE: (u32, u32) = (412, 915);
/// Flags that keep Chromium quiet and self-contained on a machine without a network.
pub const FLAGS: &[&str] = &[
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
pub fn program(variable: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// chromedriver on a free loopback port, stopped when dropped.
pub struct Driver {
    _process: tokio::process::Child,
    base: String,
    http: reqwest::Client,
}

impl Driver {
    pub async fn start(program: &Path) -> Driver {
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
    pub async fn command(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
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
pub struct Browser<'d> {
    driver: &'d Driver,
    session: String,
    _profile: TempDir,
}

/// A folder removed when dropped.
pub struct TempDir(pub PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl<'d> Browser<'d> {
    pub async fn open(driver: &'d Driver, chromium: &Path) -> Browser<'d> {
        Browser::open_with(driver, chromium, &[]).await
    }

    /// A session whose Chromium gets `flags` besides [`FLAGS`] (e.g.
    /// `--blink-settings=scriptEnabled=false` for pages without JavaScript).
    pub async fn open_with(driver: &'d Driver, chromium: &Path, flags: &[&str]) -> Browser<'d> {
        let profile = TempDir(std::env::temp_dir().join(unique_name("missive-chromium")));
        let mut args: Vec<String> = FLAGS.iter().chain(flags).map(|f| f.to_string()).collect();
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

    pub async fn post(&self, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.driver
            .command(reqwest::Method::POST, &path, Some(body))
            .await
    }

    pub async fn get(&self, path: &str) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.driver.command(reqwest::Method::GET, &path, None).await
    }

    pub async fn visit(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    /// The element matching `css`, waiting up to five seconds for it.
    pub async fn find(&self, css: &str) -> String {
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
    pub async fn size(&self, element: &str) -> (f64, f64) {
        let rect = self.get(&format!("/element/{element}/rect")).await;
        (
            rect["width"].as_f64().unwrap(),
            rect["height"].as_f64().unwrap(),
        )
    }

    pub async fn type_into(&self, element: &str, text: &str) {
        self.post(
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        )
        .await;
    }

    pub async fn click(&self, element: &str) {
        self.post(&format!("/element/{element}/click"), json!({}))
            .await;
    }

    /// Resizes the window to `width` by `height` CSS pixels.
    pub async fn resize(&self, width: u32, height: u32) {
        let rect = json!({ "width": width, "height": height });
        self.post("/window/rect", rect).await;
    }

    pub async fn screenshot(&self) -> Vec<u8> {
        let value = self.get("/screenshot").await;
        STANDARD.decode(value.as_str().unwrap()).unwrap()
    }

    pub async fn close(self) {
        let path = format!("/session/{}", self.session);
        self.driver
            .command(reqwest::Method::DELETE, &path, None)
            .await;
    }
}

/// Writes the screenshot of `variant` when it is missing or `MISSIVE_BLESS` is set.
pub fn keep_screenshot(variant: &str, png: &[u8]) {
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/screenshots")
        .join(format!("{variant}.png"));
    if std::env::var_os("MISSIVE_BLESS").is_some() || !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, png).unwrap();
    }
}

/// chromedriver and Chromium, if both are here; fails under CI when they are not.
pub fn tools() -> Option<(PathBuf, PathBuf)> {
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
