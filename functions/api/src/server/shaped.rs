//! The connection as hyper sees it ([`Shaped`]): hyper's own bodiless error answers held
//! back, stalled writes timed out, every byte moved noted.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

use super::slots::Activity;

/// The send buffer asked for each connection's socket, in bytes (Linux doubles it): what
/// the kernel holds of answers a client does not read.
pub const SEND_BUFFER: usize = 64 * 1024;

/// What [`Shaped`] hands back when hyper drops the connection.
pub(super) struct Returned {
    pub(super) stream: TcpStream,
    /// The status of a bodiless answer hyper wrote to a request it could not read, held
    /// back.
    pub(super) held_back: Option<StatusCode>,
    /// Whether bytes of a request arrived after the last answer was written.
    pub(super) partial_request: bool,
    /// Whether a write made no progress within the write timeout.
    pub(super) write_timed_out: bool,
}

/// The connection as hyper sees it: reads and writes pass through, except hyper's own
/// bodiless answers to unreadable requests, which are held back; a write that makes no
/// progress for the write timeout fails (so hyper gives the connection up), and every byte
/// moved is noted in the connection's [`Activity`]. When hyper drops it, the stream goes
/// back to the connection's task.
pub(super) struct Shaped {
    pub(super) stream: Option<TcpStream>,
    pub(super) back: Option<oneshot::Sender<Returned>>,
    pub(super) held_back: Option<StatusCode>,
    pub(super) partial_request: bool,
    pub(super) activity: Arc<Activity>,
    pub(super) write_timeout: Duration,
    /// Armed when a write could not proceed, cleared when one does.
    pub(super) stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    pub(super) write_timed_out: bool,
}

impl Shaped {
    pub(super) fn new(
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

    pub(super) fn stream(&mut self) -> &mut TcpStream {
        self.stream
            .as_mut()
            .expect("the stream is only taken when dropped")
    }

    /// A write that could not proceed: pending until the write timeout (counted from the
    /// first such write since the last progress) runs out, then a timeout error.
    pub(super) fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
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
    pub(super) fn timed_out(&mut self) -> io::Error {
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
pub(super) fn hyper_error_answer(bytes: &[u8]) -> Option<StatusCode> {
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
