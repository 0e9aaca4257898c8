//! `missive serve` on a free loopback port with a fresh data folder: it creates the signing
//! key and the database there, answers the API (players sign up through the confirmation
//! mail in the outbox), `missive token` mints a token it accepts, and its in-process
//! notifier mails the player to move a move link.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_answers_and_token_signs_in() {
    let folder = std::env::temp_dir().join(format!("missive-serve-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let store = format!("sqlite:{}", folder.join("missive.db").display());
    let outbox = folder.join("outbox");
    let started = Instant::now();
    let mut server = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store", &store])
        .arg("--outbox")
        .arg(&outbox)
        .env_remove("MISSIVE_SIGNING_KEY")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut banner = String::new();
    BufReader::new(server.stderr.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    let base = banner
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("the address in the banner")
        .to_string();
    let http = reqwest::Client::new();
    let variants = http
        .get(format!("{base}/v1/variants"))
        .send()
        .await
        .unwrap();
    assert_eq!(variants.status(), 200);
    eprintln!("start-up to first answer: {:?}", started.elapsed());
    assert!(folder.join("missive.key").exists(), "the key is generated");
    sign_up(&http, &base, &outbox, "ann").await;
    let token = access_token("ann", &store);
    let created = http
        .post(format!("{base}/v1/games"))
        .bearer_auth(&token)
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
    let id = game["id"].as_str().unwrap();
    sign_up(&http, &base, &outbox, "bob").await;
    let joined = http
        .post(format!("{base}/v1/games/{id}/join"))
        .bearer_auth(access_token("bob", &store))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 200);
    let mail = wait_for_mail(&outbox, "/play/").await;
    assert!(mail.contains("To: ann@example.org"), "{mail}");
    assert!(mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    let unknown = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["token", "--handle", "nobody", "--store", &store])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(folder).unwrap();
}

/// Signs `handle` up at `handle@example.org`: the confirmation mail's token exchanged.
async fn sign_up(http: &reqwest::Client, base: &str, outbox: &std::path::Path, handle: &str) {
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

/// An access token for `handle` from `missive token`.
fn access_token(handle: &str, store: &str) -> String {
    let token = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["token", "--handle", handle, "--store", store])
        .env_remove("MISSIVE_SIGNING_KEY")
        .output()
        .unwrap();
    assert!(token.status.success(), "{:?}", token);
    String::from_utf8(token.stdout).unwrap().trim().to_string()
}

/// The first mail in `outbox` containing `needle`, waiting up to ten seconds for it.
async fn wait_for_mail(outbox: &std::path::Path, needle: &str) -> String {
    for _ in 0..100 {
        for entry in std::fs::read_dir(outbox).into_iter().flatten() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
            if text.contains(needle) {
                return text;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no mail with {needle} in {}", outbox.display());
}
