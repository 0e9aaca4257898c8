//! Answers below the router: what hyper could not read or gave up on, and connections
//! refused, written straight to the stream in the API's error shape.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::http::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::shaped::Returned;
use crate::{ApiError, REQUEST_ID};

/// How long a connection answered below the router is read from (and the answer's bytes
/// given time to leave) before it is closed.
const LINGER: Duration = Duration::from_secs(1);

/// Closes `stream` with a reset, dropping what it still holds to send: for a client that
/// does not read, whose close would otherwise wait behind those bytes.
pub(super) fn abort(stream: TcpStream) {
    let _ = socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO));
}

/// After hyper gave a connection up: the shaped answer to what it held back or timed out
/// on, if there is one to give.
pub(super) async fn answer_failure(
    outcome: Result<(), hyper::Error>,
    returned: Returned,
    peer: SocketAddr,
) {
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
pub(super) fn below_router(status: StatusCode) -> ApiError {
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
pub(super) async fn answer_and_close(mut stream: TcpStream, error: ApiError, peer: SocketAddr) {
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
pub(super) fn raw_answer(error: &ApiError) -> Vec<u8> {
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
