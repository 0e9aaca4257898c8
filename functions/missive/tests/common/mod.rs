//! What the tests of `missive serve` share: a server on a free loopback port over a fresh
//! folder, players signed up through its outbox, access tokens from `missive token`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::json;

/// The store URL of the SQLite database in `folder`.
pub fn store_of(folder: &std::path::Path) -> String {
    format!("sqlite:{}", folder.join("missive.db").display())
}

/// Signs `handle` up at `handle@example.org`: the confirmation mail's token exchanged.
pub async fn sign_up(http: &reqwest::Client, base: &str, outbox: &std::path::Path, handle: &str) {
    let email = format!("{handle}@example.org");
    let asked = http
        .post(format!("{base}/v1/players"))
        .json(&json!({"handle": handle, "email": email}))
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), 202);
    let mail = wait_for_mail(outbox, &format!("To: {email}")).await;
    let token = mail
        .lines()
        .find_map(|line| line.strip_prefix("X-Missive-Token: "))
        .expect("the confirmation's token");
    let confirmed = http
        .post(format!("{base}/v1/auth/token"))
        .json(&json!({"token": token}))
        .send()
        .await
        .unwrap();
    assert_eq!(confirmed.status(), 200);
}

/// A chess game created by the holder of the access token `creator`, its other seat
/// taken by the holder of `joiner`: its id. (Not every test binary sharing this module
/// makes a game.)
#[allow(dead_code)]
pub async fn chess_game(http: &reqwest::Client, base: &str, creator: &str, joiner: &str) -> String {
    let created = http
        .post(format!("{base}/v1/games"))
        .bearer_auth(creator)
        .json(&json!({
            "variant": "chess",
            "seats": [{"kind": "creator"}, {"kind": "open"}],
            "time_control": {"kind": "days-per-move", "days": 3}
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let game: serde_json::Value = created.json().await.unwrap();
    let id = game["id"].as_str().unwrap().to_string();
    let joined = http
        .post(format!("{base}/v1/games/{id}/join"))
        .bearer_auth(joiner)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 200);
    id
}

/// An access token for `handle` from `missive token`.
pub fn access_token(handle: &str, store: &str) -> String {
    let token = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["token", "--handle", handle, "--store", store])
        .env_remove("MISSIVE_SIGNING_KEY")
        .output()
        .unwrap();
    assert!(token.status.success(), "{:?}", token);
    String::from_utf8(token.stdout).unwrap().trim().to_string()
}

/// The first mail in `outbox` containing `needle`, waiting up to ten seconds for it.
pub async fn wait_for_mail(outbox: &std::path::Path, needle: &str) -> String {
    for _ in 0..100 {
        for entry in std::fs::read_dir(outbox).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|ext| ext != "eml") {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap_or_default();
            if text.contains(needle) {
                return text;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no mail with {needle} in {}", outbox.display());
}

/// Starts `missive serve` on a free port over a fresh folder; returns the process, its
/// base URL and a thread collecting the rest of its stderr.
pub fn start_serve(
    folder: &std::path::Path,
    extra: &[&str],
) -> (std::process::Child, String, std::thread::JoinHandle<String>) {
    let store = store_of(folder);
    let mut server = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store", &store])
        .arg("--outbox")
        .arg(folder.join("outbox"))
        .args(extra)
        .env_remove("MISSIVE_SIGNING_KEY")
        .env("RUST_LOG", "info")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    // The banner is a plain line, or a JSON one with `--log-format json`; lines before it
    // are kept with the rest.
    let mut head = String::new();
    let base = loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("the server ended before its banner: {head}");
        }
        head.push_str(&line);
        if let Some(at) = line.find("serving http://") {
            let url = line[at + "serving ".len()..].split_whitespace().next();
            break url.unwrap().to_string();
        }
    };
    let rest = std::thread::spawn(move || {
        let mut text = head;
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    (server, base, rest)
}
