//! The router on one machine (`missive serve`): HTTP/1.1 over hyper with a header read
//! timeout (which is also how long a kept-alive connection may sit idle), a write timeout,
//! a cap on open connections and on connections per client address, and graceful shutdown
//! with a bounded drain. A request may upgrade its connection (the feed's WebSocket,
//! [`crate::sockets`]): the connection then counts as running a handler until the WebSocket
//! closes (it is never closed to make room), which it does when shutdown starts.
//!
//! A client that does not read its answers holds little: hyper buffers at most its
//! `max_buf_size` (the largest head plus 16 KiB) of answers not yet written, the kernel
//! at most the socket's send buffer ([`SEND_BUFFER`], which Linux doubles), and once no
//! byte has left for the write timeout the connection is closed. When every connection
//! slot is taken, a new connection makes room by closing the connection that runs no
//! handler (idle between requests, stalled writing, or silent since it opened) and moved
//! no byte for the longest time; only when every connection runs a handler is it refused.
//!
//! What fails below the router is answered in the API's error shape too, and the
//! connection is closed after it: a request head hyper cannot read (400), one too large
//! (431), a head not complete within the header timeout (408, only if some of it came),
//! and a connection over a cap (503 with `Retry-After`). Hyper writes its own answers to
//! the first three without a body; [`Shaped`] holds those back so the connection's task
//! can write the shaped one instead, once hyper has given the connection up (so it also
//! leaves shutting the stream down to that task).

mod below;
mod shaped;
mod slots;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::TrustedProxies;

pub use self::shaped::SEND_BUFFER;

use self::below::{abort, answer_and_close, answer_failure};
use self::shaped::Shaped;
use self::slots::{Activity, Running, Slots};
/// How long the accept loop waits after an accept error that is not the client's (such as
/// running out of file descriptors) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How the server treats connections.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// How long a client has to send a whole request head, counted from the connection's
    /// start or the end of the previous answer (so also the longest idle keep-alive).
    pub header_timeout: Duration,
    /// How long an answer's bytes may make no progress (the client reads none) before the
    /// connection is closed.
    pub write_timeout: Duration,
    /// Connections open at once. A connection beyond them closes the one that runs no
    /// handler and moved no byte for the longest time; when every one runs a handler, it
    /// is answered 503 and closed.
    pub max_connections: usize,
    /// Connections open at once from one client address (trusted proxies are exempt).
    pub max_connections_per_client: usize,
    /// Largest request head (request line and headers), in bytes: 431 beyond.
    pub max_header_bytes: usize,
    /// How long shutdown waits for requests in flight before closing what is left.
    pub drain: Duration,
    /// Proxies exempt from the per-client cap (their connections carry many clients).
    pub trusted_proxies: TrustedProxies,
}

impl Default for ServerConfig {
    /// 10 s header timeout, 10 s write timeout, 512 connections, 64 per client, 64 KiB
    /// heads, 20 s drain.
    fn default() -> ServerConfig {
        ServerConfig {
            header_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            max_connections: 512,
            max_connections_per_client: 64,
            max_header_bytes: 64 * 1024,
            drain: Duration::from_secs(20),
            trusted_proxies: TrustedProxies::default(),
        }
    }
}

/// How shutdown went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drained {
    /// Every connection finished its request and closed.
    All,
    /// The drain time ran out with this many connections still open; they were closed.
    Cut(usize),
}

/// Serves `router` on `listener` until `shutdown` completes, then stops accepting, lets
/// requests in flight finish for at most `config.drain`, and says how that went.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> Drained {
    let slots = Arc::new(Slots::new(
        config.max_connections,
        config.max_connections_per_client,
        config.trusted_proxies.clone(),
    ));
    // Each connection holds a receiver until it ends: the drain waits for none to be left.
    let (stop, stopping) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout)
        .max_header_size(config.max_header_bytes)
        .max_buf_size((config.max_header_bytes + 16 * 1024).max(8192));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let connection = Connection {
            peer,
            slots: Arc::clone(&slots),
            http: http.clone(),
            router: router.clone(),
            stopping: stopping.clone(),
            write_timeout: config.write_timeout,
        };
        tokio::spawn(connection.run(stream));
    }
    drop(listener);
    drop(stopping);
    let open = stop.receiver_count();
    tracing::info!(open, "shutting down: no new connections, draining");
    stop.send_replace(true);
    match tokio::time::timeout(config.drain, stop.closed()).await {
        Ok(()) => Drained::All,
        Err(_) => Drained::Cut(slots.open()),
    }
}

/// One accepted connection and what serving it takes.
struct Connection {
    peer: SocketAddr,
    slots: Arc<Slots>,
    http: hyper::server::conn::http1::Builder,
    router: Router,
    /// Becomes true when shutdown starts; dropped when the connection ends.
    stopping: watch::Receiver<bool>,
    write_timeout: Duration,
}

impl Connection {
    /// Claims a slot (closing a stale connection to make room if need be), serves the
    /// connection until hyper gives it up or the slots close it, and answers what failed
    /// below the router.
    async fn run(self, stream: TcpStream) {
        let peer = self.peer;
        let slot = match self.slots.claim(peer.ip()).await {
            Ok(slot) => slot,
            Err(refusal) => return answer_and_close(stream, refusal.error(), peer).await,
        };
        let activity = Arc::clone(&slot.activity);
        let (io, returned) = Shaped::new(stream, Arc::clone(&activity), self.write_timeout);
        let service = service(self.router, peer, Arc::clone(&activity));
        let served = self
            .http
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        // Held until the connection's end, an upgraded one's included.
        let stopping = self.stopping;
        let watched = until_stopped(served, stopping.clone());
        tokio::select! {
            outcome = watched => {
                if let Ok(returned) = returned.await {
                    answer_failure(outcome, returned, peer).await;
                }
            }
            () = activity.closing() => {
                tracing::debug!(%peer, "closed to make room for another connection");
                if let Ok(returned) = returned.await {
                    abort(returned.stream);
                }
            }
        }
        drop(slot);
        drop(stopping);
    }
}

/// Serves `connection` to its end, shutting it down gracefully (its request in flight
/// answered, no other read) once `stopping` turns true.
async fn until_stopped<I, S, B>(
    connection: hyper::server::conn::http1::UpgradeableConnection<I, S>,
    mut stopping: watch::Receiver<bool>,
) -> Result<(), hyper::Error>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
    S: hyper::service::HttpService<Incoming, ResBody = B>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    B: hyper::body::Body + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut connection = std::pin::pin!(connection);
    let mut asked = false;
    loop {
        tokio::select! {
            outcome = connection.as_mut() => return outcome,
            _ = stopping.wait_for(|stopping| *stopping), if !asked => {
                asked = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// The router as a hyper service for one connection from `peer`, which the rate limiter
/// reads as `ConnectInfo`; `activity` counts the handlers running.
fn service(
    router: Router,
    peer: SocketAddr,
    activity: Arc<Activity>,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Future + Send,
> + Clone {
    hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let running = Running::start(Arc::clone(&activity));
        let answer = router.clone().oneshot(request.map(axum::body::Body::new));
        let activity = Arc::clone(&activity);
        async move {
            let answer = answer.await;
            if answer
                .as_ref()
                .is_ok_and(|answer| answer.status() == axum::http::StatusCode::SWITCHING_PROTOCOLS)
            {
                activity.upgraded();
            }
            drop(running);
            answer
        }
    })
}

/// Logs an accept error and, unless it concerned only that one connection, waits a little
/// so a full file table is not spun on.
async fn accept_failed(error: &io::Error) {
    use io::ErrorKind as K;
    if matches!(
        error.kind(),
        K::ConnectionAborted | K::ConnectionReset | K::ConnectionRefused
    ) {
        return;
    }
    tracing::warn!(%error, "accept failed; trying again shortly");
    tokio::time::sleep(ACCEPT_BACKOFF).await;
}
