//! The server below the router, as `missive serve` runs it: health and readiness, answers
//! in the error shape to what never reaches the router (unreadable request lines, heads
//! too large, heads too slow, connections over a cap), and slow clients that hold
//! connections without starving the others.
//!
//! Timing is only ever bounded generously: a loaded machine may be slow, never wrong.

use crate::common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::raw::{self, Answer};
use common::{Options, Server};
use missive_api::server::ServerConfig;
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use tokio::io::AsyncWriteExt;

/// A loopback address other than 127.0.0.1, to be another client.
fn client(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// Checks `answer` is a whole `status` answer in the error shape with `code`, a request id
/// and `connection: close`.
fn assert_shaped(answer: &Answer, status: u16, code: &str) {
    let shown = String::from_utf8_lossy(&answer.bytes).to_string();
    assert_eq!(answer.status(), Some(status), "{shown}");
    let head = answer.head().expect("a whole head");
    assert!(head.contains("content-type: application/json"), "{shown}");
    assert!(head.contains("x-request-id: "), "{shown}");
    let json = answer
        .json()
        .unwrap_or_else(|| panic!("a JSON body: {shown}"));
    assert_eq!(json["error"]["code"], code, "{json}");
    assert!(json["error"]["message"].is_string(), "{json}");
}

async fn health_and_readiness(kind: Kind) {
    let server = Server::start(kind).await;
    let (status, body) = server.call(Method::GET, "/v1/health", None, None).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::OK, Some("ok"))
    );
    let (status, body) = server.call(Method::GET, "/v1/ready", None, None).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::OK, Some("ok"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness_sqlite() {
    health_and_readiness(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness_dynamo() {
    health_and_readiness(Kind::DynamoDb).await;
}

/// A store that cannot answer: a DynamoDB table that does not exist.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_ready_while_the_store_fails() {
    let server = Server::start(Kind::Sqlite).await;
    let mut app = server.app.clone();
    let missing = missive_store::DynamoDbStore::connect("missive-no-such-table").await;
    app.service = missive_game::GameService::new(Arc::new(missing), server.clock.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(missive_api::server::serve(
        listener,
        app.router(),
        ServerConfig::default(),
        std::future::pending(),
    ));
    let broken = format!("http://{addr}");
    let health = server.http.get(format!("{broken}/v1/health")).send();
    assert_eq!(
        health.await.unwrap().status(),
        StatusCode::OK,
        "liveness needs no store"
    );
    // Readiness is the one route that answers 5xx on purpose, so it is read here rather
    // than through `Server::send`, which refuses them.
    let ready = server
        .http
        .get(format!("{broken}/v1/ready"))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(ready.headers().contains_key("x-request-id"));
    let body: serde_json::Value = ready.json().await.unwrap();
    assert_eq!(body["error"]["code"], "not-ready", "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_never_reaches_the_router_is_answered_in_the_error_shape() {
    let options = Options {
        server: ServerConfig {
            header_timeout: Duration::from_secs(2),
            max_connections_per_client: 2,
            max_header_bytes: 16 * 1024,
            ..ServerConfig::default()
        },
        limits: missive_api::RequestLimits {
            request_timeout: Duration::from_secs(2),
            ..missive_api::RequestLimits::default()
        },
        ..Options::default()
    };
    let server = Server::start_with(Kind::Sqlite, options).await;
    let limit = Duration::from_secs(30);
    let send = |request: String| raw::exchange(server.addr, request.into_bytes(), limit);

    let garbage = send("NOT HTTP AT ALL\r\n\r\n".into()).await;
    assert_shaped(&garbage, 400, "bad-request");
    let bad_header = send("GET /v1/variants HTTP/1.1\r\nho st: x\r\n\r\n".into()).await;
    assert_shaped(&bad_header, 400, "bad-request");

    let long_target = format!(
        "GET /v1/variants?{} HTTP/1.1\r\nhost: x\r\n\r\n",
        "q".repeat(10_000)
    );
    assert_shaped(&send(long_target).await, 414, "uri-too-long");

    let big_head = format!(
        "GET /v1/variants HTTP/1.1\r\nhost: x\r\nx-filler: {}\r\n\r\n",
        "f".repeat(20_000)
    );
    assert_shaped(&send(big_head).await, 431, "headers-too-large");

    // Half a head, then nothing: 408 once the header timeout passes, and closed.
    let mut slow = raw::connect_from(client(1), server.addr).await;
    slow.write_all(b"GET /v1/variants HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    let timed_out = raw::read_to_close(&mut slow, limit)
        .await
        .expect("closed in time");
    assert_shaped(&timed_out, 408, "timeout");

    // A whole head, then a body that stops coming: the router's request timeout, 408.
    let mut stalled = raw::connect_from(client(1), server.addr).await;
    stalled
        .write_all(b"POST /v1/players HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"handle\"")
        .await
        .unwrap();
    let mut stalled_answer = Vec::new();
    let _ = tokio::time::timeout(limit, async {
        let mut buffer = [0u8; 4096];
        while let Ok(read) = tokio::io::AsyncReadExt::read(&mut stalled, &mut buffer).await {
            stalled_answer.extend_from_slice(&buffer[..read]);
            if read == 0
                || (Answer {
                    bytes: stalled_answer.clone(),
                })
                .json()
                .is_some()
            {
                break;
            }
        }
    })
    .await;
    assert_shaped(
        &Answer {
            bytes: stalled_answer,
        },
        408,
        "timeout",
    );

    // An idle connection (no bytes at all) is closed without an answer.
    let mut idle = raw::connect_from(client(1), server.addr).await;
    let closed = raw::read_to_close(&mut idle, limit)
        .await
        .expect("closed in time");
    assert!(
        closed.bytes.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&closed.bytes)
    );

    // Two connections from one address are its cap: a third is answered 503 and closed.
    let _first = raw::connect_from(client(9), server.addr).await;
    let _second = raw::connect_from(client(9), server.addr).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = raw::connect_from(client(9), server.addr).await;
    let refused = raw::read_to_close(&mut third, limit)
        .await
        .expect("closed in time");
    assert_shaped(&refused, 503, "too-many-connections");
    assert!(refused.head().unwrap().contains("retry-after: 1"));
}

/// Opens `count` connections from `source` that each send half a request head and then
/// nothing.
async fn half_heads(addr: SocketAddr, source: IpAddr, count: usize) -> Vec<tokio::net::TcpStream> {
    let mut held = Vec::with_capacity(count);
    for _ in 0..count {
        let mut stream = raw::connect_from(source, addr).await;
        let _ = stream
            .write_all(b"GET /v1/variants HTTP/1.1\r\nhost: missive.test\r\nx-slow: ")
            .await;
        held.push(stream);
    }
    held
}

/// What each held connection got once the server closed it: the statuses seen (None for a
/// close without an answer), or a panic if one stayed open past `limit`.
async fn closings(held: Vec<tokio::net::TcpStream>, limit: Duration) -> Vec<Option<u16>> {
    let waits = held.into_iter().map(|mut stream| async move {
        raw::read_to_close(&mut stream, limit)
            .await
            .expect("the server closes a slow connection")
            .status()
    });
    futures_util::future::join_all(waits).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_slow_connections_do_not_starve_a_normal_client() {
    let header_timeout = Duration::from_secs(20);
    let options = Options {
        server: ServerConfig {
            header_timeout,
            max_connections: 1000,
            max_connections_per_client: 50,
            ..ServerConfig::default()
        },
        ..Options::default()
    };
    let server = Server::start_with(Kind::Sqlite, options).await;
    // 300 slow connections from one address (50 held, the rest refused by the per-client
    // cap) and 200 from 200 others (held until the header timeout).
    let opened = Instant::now();
    let mut held = half_heads(server.addr, client(2), 300).await;
    for last in 0..200u8 {
        held.extend(half_heads(server.addr, IpAddr::V4(Ipv4Addr::new(127, 0, 1, last)), 1).await);
    }
    let opening = opened.elapsed();
    let asked = Instant::now();
    let (status, _) = server.call(Method::GET, "/v1/variants", None, None).await;
    let served_in = asked.elapsed();
    assert_eq!(status, StatusCode::OK);
    eprintln!(
        "500 slow connections opened in {opening:?}; a normal request answered in {served_in:?}"
    );
    assert!(
        served_in < header_timeout,
        "the normal client was served only after the slow ones were dropped: {served_in:?}"
    );
    let statuses = closings(held, header_timeout + Duration::from_secs(60)).await;
    let refused = statuses.iter().filter(|s| **s == Some(503)).count();
    let timed_out = statuses.iter().filter(|s| **s == Some(408)).count();
    eprintln!(
        "all closed {:?} after opening: {refused} refused by the cap (503), {timed_out} timed out (408)",
        opened.elapsed()
    );
    assert_eq!(refused + timed_out, statuses.len(), "{statuses:?}");
    // The per-client cap holds 50 of the 300 from one address; fewer are refused only if
    // opening them took longer than the header timeout (the first ones gone already).
    assert!((1..=250).contains(&refused), "{refused}");
}

/// Pipelined requests with big answers (the API description, about 300 KB each).
const NEVER_READ: &[u8] = b"GET /v1/openapi.json HTTP/1.1\r\nhost: missive.test\r\n\r\n";

/// Opens `count` connections, 50 from each of the loopback addresses `127.0.2.x`, that
/// each send eight pipelined requests with big answers and never read (their receive
/// buffers kept small so they hold little).
async fn non_readers(addr: SocketAddr, count: usize) -> Vec<tokio::net::TcpStream> {
    let mut held = Vec::with_capacity(count);
    for index in 0..count {
        let source = IpAddr::V4(Ipv4Addr::new(127, 0, 2, (index / 50) as u8));
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(16 * 1024).unwrap();
        socket.bind(SocketAddr::new(source, 0)).unwrap();
        let Ok(mut stream) = socket.connect(addr).await else {
            continue;
        };
        let _ = stream.write_all(&NEVER_READ.repeat(8)).await;
        held.push(stream);
    }
    held
}

/// Whether the server has closed `stream`, read from the socket's TCP state without
/// reading its bytes (which would let the server go on writing).
fn closed_by_server(stream: &tokio::net::TcpStream) -> bool {
    use std::os::fd::AsRawFd;
    const ESTABLISHED: u8 = 1;
    let mut info = [0u8; 256];
    let mut length = info.len() as libc::socklen_t;
    // SAFETY: `info` is writable for `length` bytes; the kernel writes at most that.
    let read = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            info.as_mut_ptr().cast(),
            &mut length,
        )
    };
    read != 0 || info[0] != ESTABLISHED
}

/// Waits until the server has closed every one of `held` or `limit` passes; returns how
/// many are still open.
async fn still_open_after(held: &[tokio::net::TcpStream], limit: Duration) -> usize {
    let until = Instant::now() + limit;
    loop {
        let open = held.iter().filter(|s| !closed_by_server(s)).count();
        if open == 0 || Instant::now() > until {
            return open;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Sends a normal request until it is answered other than 503 (a server whose every slot
/// runs a handler may refuse for a moment); returns the status, the time it took and the
/// attempts.
async fn normal_request(server: &Server) -> (StatusCode, Duration, usize) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let asked = Instant::now();
    for attempt in 1..=10 {
        match http
            .get(format!("{}/v1/variants", server.base))
            .send()
            .await
        {
            Ok(answer) if answer.status() != StatusCode::SERVICE_UNAVAILABLE => {
                return (answer.status(), asked.elapsed(), attempt);
            }
            _ => tokio::time::sleep(Duration::from_secs(1)).await,
        }
    }
    panic!("the normal client was never answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_never_read_are_closed_and_starve_nobody() {
    let write_timeout = Duration::from_secs(2);
    let options = Options {
        server: ServerConfig {
            write_timeout,
            max_connections: 1000,
            ..ServerConfig::default()
        },
        ..Options::default()
    };
    let server = Server::start_with(Kind::Sqlite, options).await;
    let opened = Instant::now();
    let held = non_readers(server.addr, 500).await;
    let opening = opened.elapsed();
    let (status, latency, attempts) = normal_request(&server).await;
    assert_eq!(status, StatusCode::OK);
    let open = still_open_after(&held, Duration::from_secs(90)).await;
    eprintln!(
        "{} non-readers opened in {opening:?}; a normal request answered in {latency:?} \
         ({attempts} attempts); {open} still open {:?} after opening",
        held.len(),
        opened.elapsed()
    );
    assert_eq!(held.len(), 500);
    assert_eq!(open, 0, "clients that never read are closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_makes_room_among_non_readers_and_polls() {
    let options = Options {
        server: ServerConfig {
            write_timeout: Duration::from_secs(2),
            max_connections: 64,
            max_connections_per_client: 1000,
            ..ServerConfig::default()
        },
        ..Options::default()
    };
    let server = Server::start_with(Kind::Sqlite, options).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let opened = Instant::now();
    let polls = common::polls::flood(&server, &[&ann, &bob], 500);
    let held = non_readers(server.addr, 500).await;
    let (status, latency, attempts) = normal_request(&server).await;
    assert_eq!(status, StatusCode::OK);
    let answers = polls.await;
    let answered = answers.iter().filter(|a| a.status == Some(200)).count();
    let open = still_open_after(&held, Duration::from_secs(90)).await;
    eprintln!(
        "64 slots, 500 polls and {} non-readers: a normal request answered in {latency:?} \
         ({attempts} attempts); {answered} polls answered 200; {open} non-readers open {:?} \
         after opening",
        held.len(),
        opened.elapsed()
    );
    assert_eq!(open, 0, "clients that never read are closed");
}
