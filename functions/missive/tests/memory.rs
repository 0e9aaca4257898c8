//! `missive serve` under the two memory bombs found against it: many concurrent anonymous
//! PNG pictures of a Three Kingdoms board, and many concurrent wrong application passwords
//! over Xfcc. Each attack is 64 requests at once; the server's peak resident memory
//! (`VmHWM`, reset before each attack) stays within [`PEAK_BOUND`], and every request gets
//! an answer: the work's own, or `busy` (503 with `Retry-After`) beyond the queue.
//!
//! Measured on a debug build (2 loaded cores), the server at 53 MiB before: without the
//! bounds, the pictures took it to 941 MiB and the passwords to 1,625 MiB; with them, to
//! about 330 MiB, most of it small pages the allocator keeps for each of the 64 threads of
//! the blocking pool the waiting requests occupy, and the passwords added a few MiB to that.

use std::process::Child;

use serde_json::{Value, json};

mod common;

use common::{access_token, sign_up, start_serve, store_of};

/// Requests of each attack, sent at once.
const ATTACKERS: usize = 64;
/// The most resident memory the server may reach during one attack, in KiB: a debug build's
/// own size, the pictures and hashes the bounds allow at once, the board cache, and room
/// for a loaded machine; well below what the unbounded server reached.
const PEAK_BOUND: u64 = 480 * 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_pictures_and_wrong_passwords_keep_memory_bounded() {
    let folder = std::env::temp_dir().join(format!("missive-memory-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let (mut server, base, _logs) = start_serve(&folder, &["--max-connections-per-client", "1024"]);
    let http = reqwest::Client::new();
    sign_up(&http, &base, &folder.join("outbox"), "ann").await;
    let token = access_token("ann", &store_of(&folder));
    let game = created(&http, &base, &token).await;
    let password = app_password(&http, &base, &token).await;
    let (id, _) = password.split_once('-').unwrap();
    let wrong = format!("{id}-{}", "a".repeat(24));

    let pictures = attack(&server, |attacker| {
        // Half ask the same picture, half each a scale of their own.
        let scale = if attacker % 2 == 0 {
            2.0
        } else {
            0.5 + attacker as f32 / 50.0
        };
        reqwest::Client::new()
            .get(format!("{base}/v1/games/{game}/board.png?scale={scale}"))
            .send()
    })
    .await;
    let checks = attack(&server, |_| {
        reqwest::Client::new()
            .post(format!("{base}/xfcc"))
            .header("content-type", "text/xml; charset=utf-8")
            .body(get_my_games("ann", &wrong))
            .send()
    })
    .await;
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(folder).unwrap();

    eprintln!(
        "peak resident memory: pictures {} KiB, wrong passwords {} KiB",
        pictures.0, checks.0
    );
    for (attack, (peak, answers)) in [("pictures", pictures), ("passwords", checks)] {
        assert!(
            peak < PEAK_BOUND,
            "{attack}: {peak} KiB at the peak, more than {PEAK_BOUND}"
        );
        // A wrong password is a Sender fault, which SOAP sends with 500.
        let expected = if attack == "pictures" { 200 } else { 500 };
        for (status, retry_after) in answers {
            assert!(
                status == expected || (status == 503 && retry_after),
                "{attack}: {status} (Retry-After: {retry_after})"
            );
        }
    }
}

/// A sanguo game of `token`'s player waiting for two more, public: its id.
async fn created(http: &reqwest::Client, base: &str, token: &str) -> String {
    let answer = http
        .post(format!("{base}/v1/games"))
        .bearer_auth(token)
        .json(&json!({
            "variant": "sanguo",
            "seats": [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}],
            "time_control": {"kind": "days-per-move", "days": 3}
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 201);
    let game: Value = answer.json().await.unwrap();
    game["id"].as_str().unwrap().to_string()
}

/// A new application password of `token`'s player.
async fn app_password(http: &reqwest::Client, base: &str, token: &str) -> String {
    let answer = http
        .post(format!("{base}/v1/players/me/app-passwords"))
        .bearer_auth(token)
        .json(&json!({"label": "attacked"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 201);
    let created: Value = answer.json().await.unwrap();
    created["password"].as_str().unwrap().to_string()
}

/// The SOAP 1.1 envelope of `GetMyGames(username, password)`.
fn get_my_games(username: &str, password: &str) -> String {
    format!(
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
         <GetMyGames xmlns=\"http://www.bennedik.com/webservices/XfccBasic\">\
         <username>{username}</username><password>{password}</password>\
         </GetMyGames></s:Body></s:Envelope>"
    )
}

/// [`ATTACKERS`] requests made by `request` (given each attacker's number) at once against
/// `server`: its peak resident memory in KiB, counted from just before them, and each
/// answer's status and whether it had `Retry-After`. Every request must be answered.
async fn attack<F>(server: &Child, request: impl Fn(usize) -> F) -> (u64, Vec<(u16, bool)>)
where
    F: Future<Output = reqwest::Result<reqwest::Response>> + Send + 'static,
{
    // Writing 5 to clear_refs resets the peak to the present size.
    std::fs::write(format!("/proc/{}/clear_refs", server.id()), "5").unwrap();
    let requests: Vec<_> = (0..ATTACKERS)
        .map(|attacker| tokio::spawn(request(attacker)))
        .collect();
    let mut answers = Vec::new();
    for request in requests {
        let answer = request.await.unwrap().expect("every request is answered");
        let retry_after = answer.headers().contains_key("retry-after");
        answers.push((answer.status().as_u16(), retry_after));
        answer.bytes().await.unwrap();
    }
    (peak_kib(server), answers)
}

/// The peak resident memory of `server` (`VmHWM`), in KiB.
fn peak_kib(server: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.id())).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/<pid>/status")
}
