//! Rate limiting over HTTP: each caller's allowance, 429 with `Retry-After` beyond it
//! (exposed to browsers through CORS), players and client addresses counted apart, one
//! flooding client never limiting another, and `X-Forwarded-For` believed only from
//! trusted proxies.

use crate::common;

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use common::{ISSUER, Options, Server};
use missive_api::{Rate, RateLimiter, TrustedProxies};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_is_exposed_to_browsers() {
    let server = strict_server(1).await;
    let get = || {
        server
            .http
            .get(format!("{}/v1/variants", server.base))
            .header("origin", "https://app.example.org")
            .send()
    };
    assert_eq!(get().await.unwrap().status(), StatusCode::OK);
    let limited = get().await.unwrap();
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    let exposed = limited.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    assert!(exposed.contains("retry-after"), "{exposed}");
    assert!(limited.headers().contains_key("retry-after"));
}

/// A client calling from the loopback address 127.0.0.`last`.
fn client_from(last: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
        .build()
        .unwrap()
}

/// Times `count` requests for `/v1/variants` by `client` one after another: their
/// statuses and the median latency.
async fn timed(server: &Server, client: &reqwest::Client, count: usize) -> (Vec<u16>, Duration) {
    let mut statuses = Vec::with_capacity(count);
    let mut latencies = Vec::with_capacity(count);
    for _ in 0..count {
        let sent = Instant::now();
        let response = client
            .get(format!("{}/v1/variants", server.base))
            .send()
            .await
            .unwrap();
        latencies.push(sent.elapsed());
        statuses.push(response.status().as_u16());
    }
    latencies.sort();
    (statuses, latencies[count / 2])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_client_does_not_get_another_limited() {
    // 20 requests at once, refilled at 10 per second: the flood empties its own allowance
    // at once, the quiet client asks 10 times in a row (far within its own).
    let limiter = RateLimiter::new(Rate {
        per_second: 10.0,
        burst: 20,
    });
    let server = Server::start_limited(Kind::Sqlite, limiter).await;
    let quiet = client_from(3);
    let (_, alone) = timed(&server, &quiet, 10).await;
    let flooder = client_from(2);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let floods: Vec<_> = (0..8)
        .map(|_| {
            let (client, url, stop) = (
                flooder.clone(),
                format!("{}/v1/variants", server.base),
                stop.clone(),
            );
            tokio::spawn(async move {
                let mut limited = 0usize;
                let mut sent = 0usize;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && sent < 5_000 {
                    let response = client.get(&url).send().await.unwrap();
                    limited += usize::from(response.status() == StatusCode::TOO_MANY_REQUESTS);
                    sent += 1;
                }
                (sent, limited)
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (statuses, during) = timed(&server, &quiet, 10).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (mut sent, mut limited) = (0, 0);
    for flood in floods {
        let (s, l) = flood.await.unwrap();
        sent += s;
        limited += l;
    }
    eprintln!(
        "flood: {sent} requests, {limited} limited; quiet client's median {alone:?} alone, {during:?} during the flood"
    );
    assert!(limited > 0, "the flooding client is limited");
    assert!(
        statuses.iter().all(|s| *s == 200),
        "the quiet client is not: {statuses:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_clients_are_believed_only_from_trusted_proxies() {
    let get = |server: &Server, forwarded: &str| {
        server
            .http
            .get(format!("{}/v1/variants", server.base))
            .header("x-forwarded-for", forwarded.to_string())
            .send()
    };
    // Not trusted (the default): the header is ignored, so both "clients" are 127.0.0.1.
    let untrusted = strict_server(1).await;
    assert_eq!(
        get(&untrusted, "198.51.100.1").await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(
        get(&untrusted, "198.51.100.2").await.unwrap().status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // Loopback trusted as the proxy: each forwarded client has its own allowance.
    let options = Options {
        limiter: RateLimiter::new(Rate {
            per_second: 1.0 / 60.0,
            burst: 1,
        }),
        trusted_proxies: TrustedProxies::new(["127.0.0.1".parse().unwrap()]),
        ..Options::default()
    };
    let trusted = Server::start_with(Kind::Sqlite, options).await;
    assert_eq!(
        get(&trusted, "198.51.100.1").await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(
        get(&trusted, "198.51.100.2").await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(
        get(&trusted, "203.0.113.5, 198.51.100.1")
            .await
            .unwrap()
            .status(),
        StatusCode::TOO_MANY_REQUESTS,
        "the last hop before the trusted proxy is the client"
    );
}
