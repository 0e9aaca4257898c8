//! `missive serve` on a free loopback port with a fresh data folder: it creates the signing
//! key and the database there, answers the API (players sign up through the confirmation
//! mail in the outbox), `missive token` mints a token it accepts, and its in-process
//! notifier mails the player to move a move link, which, like the sign-in link, goes to the
//! address it listens on when no public URL is set.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

mod common;

use common::{access_token, chess_game, sign_up, start_serve, wait_for_mail};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_answers_and_token_signs_in() {
    let folder = std::env::temp_dir().join(format!("missive-serve-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let store = common::store_of(&folder);
    let outbox = folder.join("outbox");
    let started = Instant::now();
    let mut server = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store", &store])
        .arg("--outbox")
        .arg(&outbox)
        .env_remove("MISSIVE_SIGNING_KEY")
        .env_remove("MISSIVE_PUBLIC_URL")
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
    sign_up(&http, &base, &outbox, "bob").await;
    chess_game(&http, &base, &token, &access_token("bob", &store)).await;
    let mail = wait_for_mail(&outbox, "/play/").await;
    assert!(mail.contains("To: ann@example.org"), "{mail}");
    assert!(
        text_part(&mail).contains(&format!("{base}/play/")),
        "the move link goes to the address served: {mail}"
    );
    assert!(mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    let asked = http
        .post(format!("{base}/v1/auth/login"))
        .json(&json!({"email": "bob@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), 202);
    let mail = wait_for_mail(&outbox, "Subject: Your Missive sign-in link").await;
    let text = text_part(&mail);
    let start = text
        .find(&format!("{base}/sign-in?token="))
        .expect("the sign-in link goes to the address served");
    let link = text[start..].split_whitespace().next().unwrap();
    let page = http.get(link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Sign in as bob"));
    let unknown = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["token", "--handle", "nobody", "--store", &store])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(folder).unwrap();
}

/// The plain-text part of the mail `raw`, decoded.
fn text_part(raw: &str) -> String {
    let message = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("a MIME message");
    message.body_text(0).expect("a text part").to_string()
}

/// SIGTERM in the middle of a request whose body arrives slowly: the request is still
/// answered, then the server exits cleanly; logs are plain text (stderr is a pipe) with
/// one access line per request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_the_request_in_flight_finish() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let folder = std::env::temp_dir().join(format!("missive-term-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let (mut server, base, stderr) = start_serve(&folder, &["--drain-seconds", "60"]);
    let addr = base.trim_start_matches("http://").to_string();
    let health = reqwest::get(format!("{base}/v1/health")).await.unwrap();
    assert_eq!(health.status(), 200);
    // A sign-up whose JSON body is padded with spaces and sent in 20 pieces, 100 ms apart.
    let body = format!(
        "{{\"handle\": \"slow\", \"email\": \"slow@example.org\"{}}}",
        " ".repeat(20_000)
    );
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /v1/players HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    for (index, piece) in body.as_bytes().chunks(body.len() / 20 + 1).enumerate() {
        stream.write_all(piece).await.unwrap();
        if index == 3 {
            let sent = Command::new("kill")
                .args(["-TERM", &server.id().to_string()])
                .status()
                .unwrap();
            assert!(sent.success());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut answer))
        .await
        .expect("the answer comes within the drain time")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 202 "), "{answer}");
    assert!(answer.contains("a mail is on its way"), "{answer}");
    let status = server.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let logs = stderr.join().unwrap();
    assert!(
        !logs.contains('\u{1b}'),
        "no colour codes when stderr is not a terminal: {logs}"
    );
    assert!(logs.contains("SIGTERM"), "{logs}");
    assert!(logs.contains("missive: stopped"), "{logs}");
    let access = logs
        .lines()
        .find(|line| line.contains("answered") && line.contains("/v1/players"))
        .unwrap_or_else(|| panic!("an access line for the sign-up: {logs}"));
    assert!(
        access.contains("status=202") && access.contains("request_id="),
        "{access}"
    );
    std::fs::remove_dir_all(folder).unwrap();
}

/// `--log-format json` writes one JSON object per line from start to stop: the start
/// (`event: serving`), the access lines (a game's naming the game and the player), the
/// stop (`event: stopped`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_json_from_start_to_stop() {
    let folder = std::env::temp_dir().join(format!("missive-json-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let (mut server, base, stderr) = start_serve(&folder, &["--log-format", "json"]);
    let answer = reqwest::get(format!("{base}/v1/variants")).await.unwrap();
    assert_eq!(answer.status(), 200);
    let http = reqwest::Client::new();
    let store = common::store_of(&folder);
    sign_up(&http, &base, &folder.join("outbox"), "ann").await;
    sign_up(&http, &base, &folder.join("outbox"), "bob").await;
    let ann = access_token("ann", &store);
    let game = chess_game(&http, &base, &ann, &access_token("bob", &store)).await;
    let read = http
        .get(format!("{base}/v1/games/{game}"))
        .bearer_auth(&ann)
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), 200);
    let sent = Command::new("kill")
        .args(["-INT", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert!(server.wait().unwrap().success());
    let logs = stderr.join().unwrap();
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    let event = |name: &str| lines.iter().find(|line| line["fields"]["event"] == name);
    let serving = event("serving").unwrap_or_else(|| panic!("a serving line: {logs}"));
    let message = serving["fields"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("serving {base} ")),
        "{serving}"
    );
    assert!(event("stopped").is_some(), "a stopped line: {logs}");
    let access = |route: &str| {
        lines
            .iter()
            .find(|line| line["fields"]["message"] == "answered" && line["span"]["route"] == route)
            .unwrap_or_else(|| panic!("a JSON access line of {route}: {logs}"))
    };
    let variants = access("/v1/variants");
    assert_eq!(variants["fields"]["status"], 200, "{variants}");
    assert_eq!(variants["span"]["method"], "GET", "{variants}");
    assert!(variants["span"]["request_id"].is_string(), "{variants}");
    assert!(variants["fields"]["latency_ms"].is_number(), "{variants}");
    let read = access("/v1/games/{id}");
    assert_eq!(read["span"]["game"], game.as_str(), "{read}");
    assert_eq!(read["span"]["player"], "ann", "{read}");
    std::fs::remove_dir_all(folder).unwrap();
}

/// A port already taken: `serve` fails with one JSON line saying so (status 1) and leaves
/// no database nor key file behind.
#[test]
fn a_port_clash_leaves_no_files() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let folder = std::env::temp_dir().join(format!("missive-clash-{}", ulid::Ulid::new()));
    let store = format!("sqlite:{}", folder.join("missive.db").display());
    let output = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args([
            "serve",
            "--addr",
            &addr,
            "--store",
            &store,
            "--log-format",
            "json",
        ])
        .env_remove("MISSIVE_SIGNING_KEY")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let logs = String::from_utf8_lossy(&output.stderr);
    let failed = logs
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|line| line["fields"]["event"] == "failed")
        .unwrap_or_else(|| panic!("a failed line: {logs}"));
    let error = failed["fields"]["error"].as_str().unwrap();
    assert!(
        error.contains(&format!("cannot listen on {addr}")),
        "{failed}"
    );
    assert!(!folder.exists(), "{} was created", folder.display());
}

/// A second SIGTERM during the drain (a request still in flight, a long drain) exits at
/// once with status 1, saying so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sigterm_cuts_the_drain() {
    let folder = std::env::temp_dir().join(format!("missive-cut-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let (mut server, base, stderr) = start_serve(&folder, &["--drain-seconds", "600"]);
    let addr = base.trim_start_matches("http://").to_string();
    // A request whose body never comes keeps the drain waiting.
    let mut open = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /v1/players HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: 100\r\n\r\n{{"
    );
    tokio::io::AsyncWriteExt::write_all(&mut open, head.as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = server.id().to_string();
    let term = || {
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
    };
    term();
    let signalled = Instant::now();
    // Another SIGTERM every half second: one sent before the server listens for the
    // second is not counted, and the next one is.
    let status = loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(60),
            "a second SIGTERM did not stop the server"
        );
        term();
    };
    assert_eq!(status.code(), Some(1));
    let logs = stderr.join().unwrap();
    assert!(
        logs.contains("SIGTERM again: stopped without waiting"),
        "{logs}"
    );
    drop(open);
    std::fs::remove_dir_all(folder).unwrap();
}

/// Store commands do not create a store they were not told to create: they fail, name the
/// path, and leave nothing behind.
#[test]
fn token_and_store_commands_refuse_a_missing_store() {
    let folder = std::env::temp_dir().join(format!("missive-none-{}", ulid::Ulid::new()));
    let db = folder.join("missive.db");
    let store = format!("sqlite:{}", db.display());
    for args in [
        vec!["token", "--handle", "ann", "--store", &store],
        vec!["check", "--store", &store],
        vec!["archive", "export", "--store", &store],
        vec!["sweep-bench", "--store", &store, "--games", "1"],
        vec!["tournament-bench", "--store", &store],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_missive"))
            .args(&args)
            .env_remove("MISSIVE_SIGNING_KEY")
            .output()
            .unwrap();
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            message.contains(&db.display().to_string()),
            "{args:?}: {message}"
        );
        assert!(!folder.exists(), "{args:?} created {}", folder.display());
    }
}

/// SIGTERM while a feed poll waits (25 s, longer than the drain): the poll is answered at
/// once, 200 with its cursor and no events, and the server exits cleanly within the drain.
/// A budget of one waiting poll tells when a poll waits: of two polls, the one answered
/// at once (`Event-Wait: 0`) proves the other holds the budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_answers_a_waiting_poll_before_the_drain_ends() {
    let folder = std::env::temp_dir().join(format!("missive-poll-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let store = format!("sqlite:{}", folder.join("missive.db").display());
    let (mut server, base, stderr) = start_serve(
        &folder,
        &["--drain-seconds", "10", "--polls-per-player", "1"],
    );
    let http = reqwest::Client::new();
    sign_up(&http, &base, &folder.join("outbox"), "ann").await;
    let token = access_token("ann", &store);
    let cursor = poll(&http, &base, &token, "wait=0").await.cursor.unwrap();
    let query = format!("wait=25&cursor={cursor}");
    let start = || {
        let (http, base, token, query) = (http.clone(), base.clone(), token.clone(), query.clone());
        tokio::spawn(async move { poll(&http, &base, &token, &query).await })
    };
    let (mut one, mut other) = (start(), start());
    let waiting = loop {
        let answered = tokio::select! {
            answered = &mut one => { std::mem::swap(&mut one, &mut other); answered }
            answered = &mut other => answered,
        };
        // `one` is still out; the answer came to the other.
        if answered.unwrap().waited == Some(0) {
            break one;
        }
        other = start();
    };
    let signalled = Instant::now();
    let sent = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let answer = waiting.await.unwrap();
    eprintln!(
        "the waiting poll answered {:?} after SIGTERM",
        signalled.elapsed()
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.body.is_empty(), "{}", answer.body);
    assert!(answer.cursor.is_some(), "the answer carries its cursor");
    assert_eq!(answer.waited, Some(0), "cut short by the shutdown");
    assert!(server.wait().unwrap().success());
    let logs = stderr.join().unwrap();
    assert!(logs.contains("missive: stopped"), "{logs}");
    std::fs::remove_dir_all(folder).unwrap();
}

/// A read of the feed as answered.
struct Polled {
    status: u16,
    body: String,
    /// The `Event-Cursor` header.
    cursor: Option<String>,
    /// The `Event-Wait` header: how long the poll was let wait.
    waited: Option<u64>,
}

/// One read of the feed.
async fn poll(http: &reqwest::Client, base: &str, token: &str, query: &str) -> Polled {
    let answer = http
        .get(format!("{base}/v1/events?{query}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let header = |name: &str| {
        answer
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    let (cursor, waited) = (header("event-cursor"), header("event-wait"));
    Polled {
        status: answer.status().as_u16(),
        cursor,
        waited: waited.map(|w| w.parse().unwrap()),
        body: answer.text().await.unwrap(),
    }
}

/// A DynamoDB endpoint that accepts connections and never answers: a store command fails
/// with a timeout once the client's limits (5 s an attempt, 12 s a call) are spent, instead
/// of waiting for ever.
#[test]
fn a_black_holed_dynamodb_fails_in_seconds() {
    let hole = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", hole.local_addr().unwrap());
    // Connections are accepted (by the backlog) and never read from nor answered.
    let mut command = Command::new(env!("CARGO_BIN_EXE_missive"));
    command
        .args(["check", "--store", "dynamodb:black-hole"])
        .env("AWS_ENDPOINT_URL_DYNAMODB", &endpoint)
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "missivetest")
        .env("AWS_SECRET_ACCESS_KEY", "missivetest")
        .env_remove("AWS_PROFILE")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the store command still waits on the black hole after 2 minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut message = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut message).unwrap();
    eprintln!("failed after {:?}: {message}", started.elapsed());
    assert!(!status.success());
    assert!(
        message.to_lowercase().contains("timeout") || message.contains("timed out"),
        "{message}"
    );
    drop(hole);
}
