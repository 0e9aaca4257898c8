//! A store that becomes unwritable while the server runs: every write answers 503
//! `store-unavailable` in the error shape with `Retry-After`, nothing half-written, reads go
//! on, and once the store can be written again the server writes again by itself.
//!
//! The store is SQLite, made unwritable as a full disk makes it: the process may not write
//! any file past its first byte (`RLIMIT_FSIZE`, which binds root too, so the test means the
//! same whoever runs it; the signal the limit raises is ignored, so writes fail with
//! `EFBIG`). The limit is the whole process's, so this file holds this one test.

mod common;

use common::{Player, Server, start_game};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The process's limit on the size of the files it writes, as it is now.
fn file_size_limit() -> libc::rlimit {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the struct it is given.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) },
        0
    );
    limit
}

/// Sets the process's limit on the size of the files it writes, with `SIGXFSZ` ignored so a
/// write beyond it fails instead of ending the process.
fn set_file_size_limit(limit: &libc::rlimit) {
    // SAFETY: ignoring a signal and setting a resource limit touch no memory of ours.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, limit), 0);
    }
}

/// `player` plays `text` at `ply`: the status, the `Retry-After` header and the body.
async fn try_move(
    server: &Server,
    player: &Player<'_>,
    id: &str,
    text: &str,
    ply: u64,
) -> (StatusCode, Option<String>, Value) {
    let response = server
        .http
        .post(format!("{}/v1/games/{id}/moves", server.base))
        .bearer_auth(&player.token)
        .json(&json!({"move": text, "expected_ply": ply}))
        .send()
        .await
        .unwrap();
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|value| value.to_str().unwrap().to_string());
    (status, retry_after, response.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unwritable_store_is_unavailable_until_it_can_be_written_again() {
    let server = Server::start(Kind::Sqlite).await;
    let players = [server.player("ann").await, server.player("bob").await];
    let id = start_game(&players, "chess").await;
    let [ann, bob] = &players;
    ann.play(&id, "e4", 0).await;

    let writable = file_size_limit();
    set_file_size_limit(&libc::rlimit {
        rlim_cur: 1,
        ..writable
    });
    let refused = try_move(&server, bob, &id, "e5", 1).await;
    let read = bob.get(&format!("/v1/games/{id}")).await;
    set_file_size_limit(&writable);

    let (status, retry_after, body) = refused;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "store-unavailable", "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    assert_eq!(retry_after.as_deref(), Some("1"));
    let (status, game) = read;
    assert_eq!(status, StatusCode::OK, "reads go on: {game}");
    assert_eq!(game["ply"], 1, "nothing was written: {game}");

    let (status, _, body) = try_move(&server, bob, &id, "e5", 1).await;
    assert_eq!(status, StatusCode::CREATED, "written again: {body}");
    ann.play(&id, "Nf3", 2).await;
    assert_eq!(bob.game(&id).await["ply"], 3);
}
