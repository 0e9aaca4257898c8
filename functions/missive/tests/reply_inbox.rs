//! `missive serve` with replies by mail: the turn mail it writes carries a reply address,
//! and a reply to it put into its inbox folder is played within seconds, the file moved to
//! `inbox/done/`.

use std::time::Duration;

use serde_json::Value;

mod common;

use common::{access_token, chess_game, sign_up, start_serve, wait_for_mail};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_put_into_the_inbox_is_played() {
    let folder = std::env::temp_dir().join(format!("missive-replies-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&folder).unwrap();
    let store = common::store_of(&folder);
    let inbox = folder.join("inbox");
    let inbox_arg = inbox.display().to_string();
    let extra = ["--reply-to", "moves@missive.test", "--inbox", &inbox_arg];
    let (mut server, base, _stderr) = start_serve(&folder, &extra);
    let http = reqwest::Client::new();
    let outbox = folder.join("outbox");
    for handle in ["ann", "bob"] {
        sign_up(&http, &base, &outbox, handle).await;
    }
    let ann = access_token("ann", &store);
    let game = chess_game(&http, &base, &ann, &access_token("bob", &store)).await;
    let turn = wait_for_mail(&outbox, "Reply-To: moves+").await;
    assert!(turn.contains("To: ann@example.org"), "{turn}");
    let address = turn
        .lines()
        .find_map(|line| line.strip_prefix("Reply-To: "))
        .unwrap()
        .trim();
    std::fs::create_dir_all(&inbox).unwrap();
    let reply = format!(
        "From: ann@example.org\r\nTo: {address}\r\nSubject: Re: Your move\r\n\r\n\
         e4\r\n\r\nOn Sun, 1 Mar 2026, Missive wrote:\r\n> Make your move\r\n"
    );
    std::fs::write(inbox.join(".reply.part"), reply).unwrap();
    std::fs::rename(inbox.join(".reply.part"), inbox.join("reply.eml")).unwrap();
    let mut ply = Value::Null;
    for _ in 0..100 {
        let state = http
            .get(format!("{base}/v1/games/{game}"))
            .bearer_auth(&ann)
            .send()
            .await
            .unwrap();
        let state: Value = state.json().await.unwrap();
        ply = state["ply"].clone();
        if ply == 1 && inbox.join("done/reply.eml").exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(ply, 1);
    assert!(inbox.join("done/reply.eml").exists());
    let _ = server.kill();
    let _ = server.wait();
    std::fs::remove_dir_all(folder).unwrap();
}
