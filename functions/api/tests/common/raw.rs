//! HTTP/1.1 spoken by hand over TCP, for what a client library hides: requests no library
//! would send, answers that arrive while the request is still being written, and
//! connections the server closes.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What came back on a connection.
#[derive(Debug)]
pub struct Answer {
    /// Every byte the server sent before it closed (or the time ran out).
    pub bytes: Vec<u8>,
}

impl Answer {
    /// The status of the answer, if one began.
    pub fn status(&self) -> Option<u16> {
        let text = std::str::from_utf8(self.bytes.get(..12)?).ok()?;
        text.strip_prefix("HTTP/1.1 ")?.parse().ok()
    }

    /// The head, lower-cased, if it arrived whole.
    pub fn head(&self) -> Option<String> {
        let end = self.bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
        Some(String::from_utf8_lossy(&self.bytes[..end]).to_ascii_lowercase())
    }

    /// The body as JSON, if the whole answer arrived.
    pub fn json(&self) -> Option<Value> {
        let end = self.bytes.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        let length: usize = self
            .head()?
            .lines()
            .find_map(|line| line.strip_prefix("content-length: "))?
            .trim()
            .parse()
            .ok()?;
        let body = self.bytes.get(end..end + length)?;
        serde_json::from_slice(body).ok()
    }
}

/// Sends `request` on a fresh connection to `addr` while reading whatever comes back,
/// until the server closes or `limit` passes. A server may answer and close before the
/// request is all written: write errors are then expected and ignored.
pub async fn exchange(addr: SocketAddr, request: Vec<u8>, limit: Duration) -> Answer {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let writing = tokio::spawn(async move {
        let _ = writer.write_all(&request).await;
        writer
    });
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    let _ = tokio::time::timeout(limit, async {
        while let Ok(read) = reader.read(&mut buffer).await {
            if read == 0 {
                break;
            }
            bytes.extend_from_slice(&buffer[..read]);
        }
    })
    .await;
    writing.abort();
    Answer { bytes }
}

/// A connection to `addr` from the loopback address `source` (any of 127.0.0.0/8), so one
/// test can be several clients.
pub async fn connect_from(source: std::net::IpAddr, addr: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Reads from `stream` until the server closes it (or an error, or `limit`), returning
/// what came.
pub async fn read_to_close(stream: &mut TcpStream, limit: Duration) -> Option<Answer> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    let closed = tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => bytes.extend_from_slice(&buffer[..read]),
            }
        }
    })
    .await;
    closed.ok().map(|()| Answer { bytes })
}
