//! Signing up tells nobody which addresses play here: every sign-up of a valid, free handle
//! answers 202 and mails the address either a confirmation link (the player exists once it
//! is used, once) or, when the address has an account, a sign-in link saying so. Handles
//! are unique without regard to case; addresses are one plain mailbox each.

use crate::common;

use common::Server;
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Asks to sign up `handle` at `email`.
async fn sign_up(server: &Server, handle: &str, email: &str) -> (StatusCode, Value) {
    server
        .call(
            Method::POST,
            "/v1/players",
            None,
            Some(json!({"handle": handle, "email": email})),
        )
        .await
}

/// Whether `handle` is registered.
async fn exists(server: &Server, handle: &str) -> bool {
    let path = format!("/v1/players/{handle}");
    server.call(Method::GET, &path, None, None).await.0 == StatusCode::OK
}

/// The subject of a mail as written.
fn subject(mail: &str) -> &str {
    mail.lines()
        .find_map(|line| line.strip_prefix("Subject: "))
        .unwrap_or("")
}

async fn a_confirmation_registers_the_player_once(kind: Kind) {
    let server = Server::start(kind).await;
    let token = server.sign_up_token("ann", "Ann@Example.org").await;
    assert!(
        !exists(&server, "ann").await,
        "nothing before the link is used"
    );
    let mail = server.newest_mail_to("Ann@Example.org").unwrap();
    assert_eq!(subject(&mail), "Confirm your Missive sign-up");
    assert!(
        mail.contains("http://missive.test/sign-in?token="),
        "{mail}"
    );
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["handle"], "ann");
    assert!(exists(&server, "ann").await);
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"]["code"], "unauthorized");
    let (status, body) = sign_up(&server, "ann", "other@example.org").await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("taken"))
    );
    // The link is good for a day and is no access token.
    let late = server.sign_up_token("bob", "bob@example.org").await;
    let (status, body) = server
        .call(Method::GET, "/v1/games?waiting=me", Some(&late), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    server.clock.advance(chrono::Duration::hours(25));
    let (status, body) = server.exchange(&late).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"]["code"], "token-expired");
    assert!(!exists(&server, "bob").await);
}

async fn a_registered_address_is_told_so_and_nobody_else(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    let fresh = sign_up(&server, "newcomer", "newcomer@example.org").await;
    let known = sign_up(&server, "somebody", "ANN@example.org").await;
    assert_eq!(fresh.0, StatusCode::ACCEPTED);
    assert_eq!(
        known, fresh,
        "the same answer whether the address plays here or not"
    );
    let mail = server.newest_mail_to("ann@example.org").unwrap();
    assert_eq!(subject(&mail), "You already play on Missive");
    assert!(mail.contains("nothing new was registered"), "{mail}");
    let token = mail
        .lines()
        .find_map(|line| line.strip_prefix("X-Missive-Token: "))
        .unwrap();
    let (status, body) = server.exchange(token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["handle"], "ann", "the owner signs in as themselves");
    assert!(!exists(&server, "somebody").await);
}

async fn handles_are_unique_without_regard_to_case(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    for handle in ["Ann", "ANN", "aNn"] {
        let email = format!("{handle}-other@example.org");
        let (status, body) = sign_up(&server, handle, &email).await;
        assert_eq!(status, StatusCode::CONFLICT, "{handle}: {body}");
        assert!(
            server.mails_to(&email).is_empty(),
            "no mail for a taken handle"
        );
    }
    // Two sign-ups of one handle in two cases: the first confirmed wins.
    let first = server.sign_up_token("Bob", "bob1@example.org").await;
    let second = server.sign_up_token("BOB", "bob2@example.org").await;
    let (status, body) = server.exchange(&first).await;
    assert_eq!((status, &body["handle"]), (StatusCode::OK, &json!("Bob")));
    let (status, body) = server.exchange(&second).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("taken"))
    );
    assert!(exists(&server, "Bob").await);
    assert!(!exists(&server, "BOB").await);
}

async fn addresses_are_one_plain_mailbox_and_handles_follow_the_pattern(kind: Kind) {
    let server = Server::start(kind).await;
    let bad = [
        ("cy", "x@example.org,victim@example.org"),
        ("cy", "x@example.org;victim@example.org"),
        ("cy", "x@example.org victim@example.org"),
        ("cy", "Cy <cy@example.org>"),
        ("cy", "\"x,victim@example.org\"@example.org"),
        ("cy", "cy@[192.0.2.1]"),
        ("cy", "cy@localhost"),
        ("cy", "cy@example.org\r\nBcc: victim@example.org"),
        ("cy", "not-an-address"),
        ("me", "me@example.org"),
        ("ME", "me@example.org"),
        ("c", "c@example.org"),
        ("9lives", "nine@example.org"),
        ("c y", "cy@example.org"),
    ];
    for (handle, email) in bad {
        let (status, body) = sign_up(&server, handle, email).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{handle} {email}: {body}"
        );
        assert_eq!(body["error"]["code"], "refused");
    }
    let written = std::fs::read_dir(&server.outbox).map_or(0, Iterator::count);
    assert_eq!(written, 0, "no mail for any of them");
}

per_store!(
    a_confirmation_registers_the_player_once,
    a_registered_address_is_told_so_and_nobody_else,
    handles_are_unique_without_regard_to_case,
    addresses_are_one_plain_mailbox_and_handles_follow_the_pattern,
);
