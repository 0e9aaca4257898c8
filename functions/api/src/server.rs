//! The router on one machine (`missive serve`): HTTP/1.1 over hyper with a header read
//! timeout (which is also how long a kept-alive connection may sit idle), a write timeout,
//! a cap on open connections and on connections per client address, and graceful shutdown
//! with a bounded drain.
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

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulShutdown, Watcher};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, oneshot};
use tower::ServiceExt;

use crate::{ApiError, REQUEST_ID, TrustedProxies, lock};

/// How long a connection answered below the router is read from (and the answer's bytes
/// given time to leave) before it is closed.
const LINGER: Duration = Duration::from_secs(1);

/// How long the accept loop waits after an accept error that is not the client's (such as
/// running out of file descriptors) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The send buffer asked for each connection's socket, in bytes (Linux doubles it): what
/// the kernel holds of answers a client does not read.
pub const SEND_BUFFER: usize = 64 * 1024;

/// Connections at most that wait, at once, for a connection closed to make room for them;
/// more are refused.
const MAX_WAITING: usize = 64;

/// How long a connection waits for the slot of the connection closed for it.
const ROOM_WAIT: Duration = Duration::from_secs(2);

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
    let slots = Arc::new(Slots::new(&config));
    let graceful = GracefulShutdown::new();
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
            watcher: graceful.watcher(),
            write_timeout: config.write_timeout,
        };
        tokio::spawn(connection.run(stream));
    }
    drop(listener);
    let open = graceful.count();
    tracing::info!(open, "shutting down: no new connections, draining");
    match tokio::time::timeout(config.drain, graceful.shutdown()).await {
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
    watcher: Watcher,
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
        let watched = self
            .watcher
            .watch(self.http.serve_connection(TokioIo::new(io), service));
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
        async move {
            let answer = answer.await;
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

/// Closes `stream` with a reset, dropping what it still holds to send: for a client that
/// does not read, whose close would otherwise wait behind those bytes.
fn abort(stream: TcpStream) {
    let _ = socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO));
}

/// After hyper gave a connection up: the shaped answer to what it held back or timed out
/// on, if there is one to give.
async fn answer_failure(outcome: Result<(), hyper::Error>, returned: Returned, peer: SocketAddr) {
    if returned.write_timed_out {
        tracing::debug!(%peer, "closed: the client read nothing within the write timeout");
        return abort(returned.stream);
    }
    let error = match (returned.held_back, &outcome) {
        (Some(status), _) => below_router(status),
        (None, Err(error)) if error.is_timeout() && returned.partial_request => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            "the request head did not arrive in time",
        ),
        _ => {
            if let Err(error) = outcome {
                tracing::debug!(%error, %peer, "connection ended");
            }
            let mut stream = returned.stream;
            let _ = stream.shutdown().await;
            return;
        }
    };
    answer_and_close(returned.stream, error, peer).await;
}

/// The error for a status hyper answered itself.
fn below_router(status: StatusCode) -> ApiError {
    let message = match status {
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "the request head is too large",
        StatusCode::URI_TOO_LONG => "the request target is too long",
        _ => "the request could not be read as HTTP/1.1",
    };
    ApiError::new(status, ApiError::code_for(status), message)
}

/// Writes `error` as a whole HTTP/1.1 answer that closes the connection, then reads what
/// the client still sends for a moment, so closing does not reset the connection before
/// the client has read the answer.
async fn answer_and_close(mut stream: TcpStream, error: ApiError, peer: SocketAddr) {
    tracing::info!(status = error.status.as_u16(), code = error.code, %peer, "answered below the router");
    let bytes = raw_answer(&error);
    let linger = async {
        stream.write_all(&bytes).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), io::Error>(())
    };
    let _ = tokio::time::timeout(LINGER, linger).await;
}

/// `error` as the bytes of an HTTP/1.1 answer with `connection: close`, a request id and,
/// for 503, `retry-after`.
fn raw_answer(error: &ApiError) -> Vec<u8> {
    let body = error.body().to_string();
    let reason = error.status.canonical_reason().unwrap_or("Error");
    let retry = if error.status == StatusCode::SERVICE_UNAVAILABLE {
        "retry-after: 1\r\n"
    } else {
        ""
    };
    format!(
        "HTTP/1.1 {} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n{REQUEST_ID}: {}\r\n{retry}\r\n{body}",
        error.status.as_u16(),
        body.len(),
        ulid::Ulid::new(),
    )
    .into_bytes()
}

/// Counts open connections, in all and per client address, and knows what each one is
/// doing so a stale one can be closed to make room.
struct Slots {
    max: usize,
    total: Arc<Semaphore>,
    per_client: Mutex<HashMap<IpAddr, usize>>,
    per_client_max: usize,
    exempt: TrustedProxies,
    open: Mutex<HashMap<u64, Arc<Activity>>>,
    next: AtomicU64,
    waiting: AtomicUsize,
}

/// A connection's place among the open ones; given back when dropped.
struct Slot {
    _permit: OwnedSemaphorePermit,
    _client: ClientHold,
    id: u64,
    activity: Arc<Activity>,
    slots: Arc<Slots>,
}

/// One of a client address's connections counted; given back when dropped.
struct ClientHold {
    client: Option<IpAddr>,
    slots: Arc<Slots>,
}

/// Why a connection was refused.
enum Refusal {
    Full(usize),
    Client(usize),
}

impl Refusal {
    /// The answer to the refused connection.
    fn error(&self) -> ApiError {
        let message = match self {
            Refusal::Full(max) => {
                format!("the server has {max} connections open, all busy: try again")
            }
            Refusal::Client(max) => {
                format!("this address has {max} connections open: close some or try again")
            }
        };
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too-many-connections",
            message,
        )
    }
}

impl Slots {
    fn new(config: &ServerConfig) -> Slots {
        let max = config.max_connections.max(1);
        Slots {
            max,
            total: Arc::new(Semaphore::new(max)),
            per_client: Mutex::new(HashMap::new()),
            per_client_max: config.max_connections_per_client.max(1),
            exempt: config.trusted_proxies.clone(),
            open: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Connections open now.
    fn open(&self) -> usize {
        self.max - self.total.available_permits()
    }

    /// A slot for a connection from `client`, unless its address is at its cap or every
    /// slot is taken by a connection running a handler; when the slots are full, the
    /// stalest connection running none is closed and its slot waited for.
    async fn claim(self: &Arc<Self>, client: IpAddr) -> Result<Slot, Refusal> {
        let hold = self.hold(client)?;
        let permit = match Arc::clone(&self.total).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => self.make_room().await?,
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity::new());
        lock(&self.open).insert(id, Arc::clone(&activity));
        Ok(Slot {
            _permit: permit,
            _client: hold,
            id,
            activity,
            slots: Arc::clone(self),
        })
    }

    /// Counts a connection of `client`, unless the address is at its cap (trusted proxies
    /// are not counted).
    fn hold(self: &Arc<Self>, client: IpAddr) -> Result<ClientHold, Refusal> {
        let client = (!self.exempt.trusts(client)).then_some(client);
        if let Some(address) = client {
            let mut counts = lock(&self.per_client);
            let count = counts.entry(address).or_insert(0);
            if *count >= self.per_client_max {
                return Err(Refusal::Client(self.per_client_max));
            }
            *count += 1;
        }
        Ok(ClientHold {
            client,
            slots: Arc::clone(self),
        })
    }

    /// Closes the stalest connection running no handler and waits (at most [`ROOM_WAIT`],
    /// and only [`MAX_WAITING`] connections at once) for its slot.
    async fn make_room(&self) -> Result<OwnedSemaphorePermit, Refusal> {
        let full = Refusal::Full(self.max);
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(full);
        }
        let permit = match self.evict_stalest() {
            true => tokio::time::timeout(ROOM_WAIT, Arc::clone(&self.total).acquire_owned())
                .await
                .ok()
                .and_then(Result::ok),
            false => None,
        };
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        permit.ok_or(full)
    }

    /// Tells the connection running no handler that moved no byte for the longest time to
    /// close; whether there was one.
    fn evict_stalest(&self) -> bool {
        let open = lock(&self.open);
        let stalest = open
            .values()
            .filter_map(|activity| activity.idle_since().map(|since| (since, activity)))
            .min_by_key(|(since, _)| *since);
        match stalest {
            Some((_, activity)) => {
                activity.close();
                true
            }
            None => false,
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        lock(&self.slots.open).remove(&self.id);
    }
}

impl Drop for ClientHold {
    fn drop(&mut self) {
        let Some(address) = self.client else {
            return;
        };
        let mut counts = lock(&self.slots.per_client);
        if let Some(count) = counts.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&address);
            }
        }
    }
}

/// What one open connection is doing: the handlers running for it, when a byte last moved
/// either way, and whether it has been told to close.
struct Activity {
    handlers: AtomicUsize,
    moved: Mutex<Instant>,
    closed: AtomicBool,
    close: Notify,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            handlers: AtomicUsize::new(0),
            moved: Mutex::new(Instant::now()),
            closed: AtomicBool::new(false),
            close: Notify::new(),
        }
    }

    /// Notes that bytes were read or written just now.
    fn moved(&self) {
        *lock(&self.moved) = Instant::now();
    }

    /// When a byte last moved, if the connection runs no handler and is not closing.
    fn idle_since(&self) -> Option<Instant> {
        let idle =
            self.handlers.load(Ordering::Acquire) == 0 && !self.closed.load(Ordering::Acquire);
        idle.then(|| *lock(&self.moved))
    }

    /// Tells the connection's task to close it.
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.close.notify_one();
    }

    /// Completes once the connection has been told to close.
    async fn closing(&self) {
        self.close.notified().await;
    }
}

/// One handler running for a connection; counted until dropped.
struct Running(Arc<Activity>);

impl Running {
    fn start(activity: Arc<Activity>) -> Running {
        activity.handlers.fetch_add(1, Ordering::AcqRel);
        Running(activity)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.handlers.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What [`Shaped`] hands back when hyper drops the connection.
struct Returned {
    stream: TcpStream,
    /// The status of a bodiless answer hyper wrote to a request it could not read, held
    /// back.
    held_back: Option<StatusCode>,
    /// Whether bytes of a request arrived after the last answer was written.
    partial_request: bool,
    /// Whether a write made no progress within the write timeout.
    write_timed_out: bool,
}

/// The connection as hyper sees it: reads and writes pass through, except hyper's own
/// bodiless answers to unreadable requests, which are held back; a write that makes no
/// progress for the write timeout fails (so hyper gives the connection up), and every byte
/// moved is noted in the connection's [`Activity`]. When hyper drops it, the stream goes
/// back to the connection's task.
struct Shaped {
    stream: Option<TcpStream>,
    back: Option<oneshot::Sender<Returned>>,
    held_back: Option<StatusCode>,
    partial_request: bool,
    activity: Arc<Activity>,
    write_timeout: Duration,
    /// Armed when a write could not proceed, cleared when one does.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    write_timed_out: bool,
}

impl Shaped {
    fn new(
        stream: TcpStream,
        activity: Arc<Activity>,
        write_timeout: Duration,
    ) -> (Shaped, oneshot::Receiver<Returned>) {
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
        let (back, returned) = oneshot::channel();
        let shaped = Shaped {
            stream: Some(stream),
            back: Some(back),
            held_back: None,
            partial_request: false,
            activity,
            write_timeout,
            stalled: None,
            write_timed_out: false,
        };
        (shaped, returned)
    }

    fn stream(&mut self) -> &mut TcpStream {
        self.stream
            .as_mut()
            .expect("the stream is only taken when dropped")
    }

    /// A write that could not proceed: pending until the write timeout (counted from the
    /// first such write since the last progress) runs out, then a timeout error.
    fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let timeout = self.write_timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(self.timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Notes that the write timeout ran out: the error hyper gets.
    fn timed_out(&mut self) -> io::Error {
        self.write_timed_out = true;
        io::Error::new(
            io::ErrorKind::TimedOut,
            "the client read nothing within the write timeout",
        )
    }
}

impl Drop for Shaped {
    fn drop(&mut self) {
        if let (Some(stream), Some(back)) = (self.stream.take(), self.back.take()) {
            let _ = back.send(Returned {
                stream,
                held_back: self.held_back,
                partial_request: self.partial_request,
                write_timed_out: self.write_timed_out,
            });
        }
    }
}

impl AsyncRead for Shaped {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(self.stream()).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.partial_request = true;
            self.activity.moved();
        }
        polled
    }
}

impl AsyncWrite for Shaped {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if let Some(status) = hyper_error_answer(buf) {
            self.held_back = Some(status);
            return Poll::Ready(Ok(buf.len()));
        }
        let polled = Pin::new(self.stream()).poll_write(cx, buf);
        match polled {
            Poll::Pending => return self.stall(cx),
            Poll::Ready(Ok(written)) if written > 0 => {
                self.partial_request = false;
                self.stalled = None;
                self.activity.moved();
            }
            Poll::Ready(_) => {}
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(self.stream()).poll_flush(cx)
    }

    /// Left to the connection's task, which may still have an answer to write once hyper
    /// has given the connection up (the stream is shut down and closed after that).
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    /// Not vectored: hyper then hands each answer over in one buffer, starting with its
    /// status line, which is what [`hyper_error_answer`] looks at.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

/// The status of `bytes` if they are one of hyper's own answers to a request it could not
/// read: a 400, 414 or 431 head with no content type and an empty body. The router's
/// answers always carry a content type.
fn hyper_error_answer(bytes: &[u8]) -> Option<StatusCode> {
    let rest = bytes
        .strip_prefix(b"HTTP/1.1 ")
        .or_else(|| bytes.strip_prefix(b"HTTP/1.0 "))?;
    let status = match rest.get(..4)? {
        b"400 " => StatusCode::BAD_REQUEST,
        b"414 " => StatusCode::URI_TOO_LONG,
        b"431 " => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        _ => return None,
    };
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
    let bare = !head.contains("\r\ncontent-type:") && head.contains("\r\ncontent-length: 0");
    (bare && end + 4 == bytes.len()).then_some(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hyper_bodiless_error_heads_are_held_back() {
        let hyper = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert_eq!(hyper_error_answer(hyper), Some(StatusCode::BAD_REQUEST));
        let large = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(
            hyper_error_answer(large),
            Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        );
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(hyper_error_answer(ours), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_answer(ok), None);
    }
}
