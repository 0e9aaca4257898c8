//! Sign-in links are single-use, on both stores.

mod common;

use common::Server;
use missive_store::testing::Kind;
use reqwest::StatusCode;

async fn a_sign_in_token_is_exchanged_once_only(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    // Links minted in the same second carry the same claims: they are one token.
    server.clock.advance(chrono::Duration::seconds(1));
    let token = server.sign_in_token("ann@example.org").await;
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["handle"], "ann");
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"]["code"], "unauthorized");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("used already"),
        "{body}"
    );
    // A new link works once more; the access token minted before stays good.
    server.clock.advance(chrono::Duration::seconds(1));
    let fresh = server.sign_in_token("ann@example.org").await;
    assert_ne!(fresh, token);
    assert_eq!(server.exchange(&fresh).await.0, StatusCode::OK);
    assert_eq!(server.exchange(&fresh).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(ann.get("/v1/games?waiting=me").await.0, StatusCode::OK);
}

per_store!(a_sign_in_token_is_exchanged_once_only);
