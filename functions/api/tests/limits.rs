//! Rate limiting over HTTP: each caller's bucket, 429 with `Retry-After` beyond it, players
//! and client addresses counted apart.

mod common;

use common::{ISSUER, Server};
use missive_api::{Rate, RateLimiter};
use missive_auth::{Authority, Grant, Purpose};
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};

/// A server whose callers may make `burst` requests, refilled one a minute.
async fn strict_server(burst: u32) -> Server {
    let limiter = RateLimiter::new(Rate {
        per_second: 1.0 / 60.0,
        burst,
    });
    Server::start_limited(Kind::Sqlite, limiter).await
}

/// An access token for `handle`, minted with the server's key.
fn token(server: &Server, handle: &str) -> String {
    Authority::new(&server.key, ISSUER, ISSUER)
        .unwrap()
        .mint(
            &Grant {
                purpose: Purpose::Access,
                subject: handle.into(),
                lifetime: 600,
                move_link: None,
            },
            server.clock_seconds(),
        )
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn callers_beyond_their_bucket_get_429_with_retry_after() {
    let server = strict_server(3).await;
    for _ in 0..3 {
        let (status, _) = server.call(Method::GET, "/v1/variants", None, None).await;
        assert_eq!(status, StatusCode::OK);
    }
    let response = server
        .http
        .get(format!("{}/v1/variants", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let (status, body) = server.call(Method::GET, "/v1/variants", None, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(body["error"]["code"], "rate-limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_addresses_have_buckets_of_their_own() {
    let server = strict_server(2).await;
    let ann = token(&server, "ann");
    let bob = token(&server, "bob");
    let get = |token: Option<String>| {
        let server = &server;
        async move {
            server
                .call(Method::GET, "/v1/games?waiting=me", token.as_deref(), None)
                .await
                .0
        }
    };
    for _ in 0..2 {
        assert_eq!(get(Some(ann.clone())).await, StatusCode::OK);
    }
    assert_eq!(get(Some(ann.clone())).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        get(Some(bob.clone())).await,
        StatusCode::OK,
        "bob's own bucket"
    );
    assert_eq!(
        get(None).await,
        StatusCode::UNAUTHORIZED,
        "the address's own bucket, then the route's answer"
    );
    // A token that does not verify names nobody: its requests count for the address.
    let forged = format!("{}AAAA", &ann[..ann.len() - 4]);
    assert_eq!(get(Some(forged.clone())).await, StatusCode::UNAUTHORIZED);
    assert_eq!(get(Some(forged)).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(get(None).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(get(Some(bob)).await, StatusCode::OK);
}
