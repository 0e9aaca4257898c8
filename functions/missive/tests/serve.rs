//! `missive serve` on a free loopback port with a fresh data folder: it creates the signing
//! key and the database there, answers the API, and `missive token` mints a token it accepts.

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
    let signed_up = http
        .post(format!("{base}/v1/players"))
        .json(&json!({"handle": "ann", "email": "ann@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(signed_up.status(), 201);
    let token = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["token", "--handle", "ann", "--store", &store])
        .env_remove("MISSIVE_SIGNING_KEY")
        .output()
        .unwrap();
    assert!(token.status.success(), "{:?}", token);
    let token = String::from_utf8(token.stdout).unwrap();
    let created = http
        .post(format!("{base}/v1/games"))
        .bearer_auth(token.trim())
        .json(&json!({
            "variant": "chess",
            "seats": [{"kind": "creator"}, {"kind": "open"}],
            "time_control": {"kind": "days-per-move", "days": 3}
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let unknown = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["token", "--handle", "nobody", "--store", &store])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(folder).unwrap();
}
