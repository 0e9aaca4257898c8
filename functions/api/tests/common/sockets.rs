//! An app following a player's feed over the WebSocket (`/v1/events/ws`), as a client
//! library would: it subscribes with the cursor of the last event it handled.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::Player;

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The longest a test waits for one message (a loaded machine may be slow; a correct
/// server sends within a second or two).
const PATIENCE: Duration = Duration::from_secs(60);

/// One player's app, connected or not, remembering the cursor of the last event handled
/// and every event seen (each id once: delivery is at least once).
pub struct SocketApp<'s> {
    pub player: Player<'s>,
    stream: Option<Stream>,
    pub cursor: Option<String>,
    pub seen: Vec<Value>,
}

impl<'s> SocketApp<'s> {
    /// An app of `player`, not connected yet.
    pub fn new(player: Player<'s>) -> SocketApp<'s> {
        SocketApp {
            player,
            stream: None,
            cursor: None,
            seen: Vec::new(),
        }
    }

    /// Opens the WebSocket (the token as `Authorization`, or in the query when
    /// `in_query`), subscribes from the app's cursor and reads until `subscribed`: the
    /// events that came meanwhile.
    pub async fn connect(&mut self, in_query: bool) -> Vec<Value> {
        let base = self.player.server.base.replace("http://", "ws://");
        let url = match in_query {
            true => format!("{base}/v1/events/ws?access_token={}", self.player.token),
            false => format!("{base}/v1/events/ws"),
        };
        let mut request = url.into_client_request().unwrap();
        if !in_query {
            let bearer = format!("Bearer {}", self.player.token).parse().unwrap();
            request.headers_mut().insert("authorization", bearer);
        }
        let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        self.stream = Some(stream);
        self.send(json!({"action": "subscribe", "cursor": self.cursor}))
            .await;
        self.until("subscribed").await
    }

    /// Closes the connection.
    pub async fn disconnect(&mut self) {
        if let Some(mut stream) = self.stream.take() {
            let _ = stream.close(None).await;
        }
    }

    /// Sends a client message.
    pub async fn send(&mut self, message: Value) {
        let stream = self.stream.as_mut().expect("connected");
        stream
            .send(Message::Text(message.to_string().into()))
            .await
            .unwrap();
    }

    /// The next message (an event, or the server's own), or `None` once closed.
    pub async fn next(&mut self) -> Option<Value> {
        let stream = self.stream.as_mut().expect("connected");
        loop {
            let message = tokio::time::timeout(PATIENCE, stream.next())
                .await
                .expect("a message within the patience")?;
            match message.ok()? {
                Message::Text(text) => return Some(serde_json::from_str(&text).unwrap()),
                Message::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// Reads until a message of type `kind` (an event's, or `subscribed`, `pong`,
    /// `error`): the events up to it, each new one handled (remembered, its cursor kept).
    pub async fn until(&mut self, kind: &str) -> Vec<Value> {
        let mut came = Vec::new();
        loop {
            let message = self
                .next()
                .await
                .unwrap_or_else(|| panic!("closed before {kind}: {came:?}"));
            let found = message["type"] == kind;
            if message.get("id").is_some() {
                self.handle(&message);
                came.push(message);
            } else if !found {
                panic!("{} waiting for {kind}: {message}", self.player.handle);
            }
            if found {
                return came;
            }
        }
    }

    /// Remembers an event (once by id) and goes on from it.
    fn handle(&mut self, event: &Value) {
        self.cursor = event["cursor"].as_str().map(str::to_string);
        if !self.seen.iter().any(|seen| seen["id"] == event["id"]) {
            self.seen.push(event.clone());
        }
    }

    /// The types of every event seen, in order.
    pub fn kinds(&self) -> Vec<String> {
        self.seen
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect()
    }
}
