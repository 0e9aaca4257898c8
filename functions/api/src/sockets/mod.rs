//! The event feed over a WebSocket: the same events as `GET /v1/events`, pushed as they are
//! written, without polling and without holding a Lambda function while nothing happens.
//!
//! One protocol, two servers: `missive serve` answers it at [`PATH`] itself ([`local`]);
//! on AWS an API Gateway WebSocket API answers it, the api function handling its
//! connections' openings, messages and closings ([`gateway`]) and the notifier sending each
//! change's events through the `@connections` API ([`missive_notify::sockets`]).
//!
//! - **Opening** with the player's access token: `Authorization: Bearer`, or the
//!   `access_token` query parameter (a browser's WebSocket sends no headers of its own).
//!   Without a valid one the opening is refused (401).
//! - **Client messages** (JSON text): `{"action": "subscribe", "cursor": C}` starts (or
//!   restarts) the events after cursor `C` (absent: from now on); `{"action": "ping"}`
//!   is answered `{"type": "pong"}` (on AWS without reaching a function: it keeps an idle
//!   connection open, which API Gateway closes after 10 minutes without a message).
//! - **Server messages** (JSON text): each event as the feed gives it (`id`, `cursor`,
//!   `type`, ...), in the feed's order; `{"type": "subscribed"}` once the events up to the
//!   subscription went out; `{"type": "error", "error": {"code", "message"}}` for a client
//!   message refused (`invalid-cursor`, `cursor-expired`, `bad-request`).
//! - **The feed stays the truth.** A client that reconnects subscribes with the `cursor`
//!   of the last event it handled and misses nothing; delivery is at least once (an event
//!   sent twice has the same `id`).

pub mod gateway;
pub mod local;

use missive_game::ServiceError;
use serde::Deserialize;

use crate::ApiError;

/// Where `missive serve` answers the feed's WebSocket.
pub const PATH: &str = "/v1/events/ws";

/// The answer to a ping.
pub const PONG: &str = r#"{"type":"pong"}"#;

/// What a client says on its WebSocket.
#[derive(Debug, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum ClientMessage {
    /// Send the events after `cursor` (from now on without one), and those that follow.
    Subscribe {
        /// A cursor the feed gave out.
        #[serde(default)]
        cursor: Option<String>,
    },
    /// Answer `{"type": "pong"}`.
    Ping,
}

impl ClientMessage {
    /// Reads a client message; the error message tells a client what was wrong.
    pub fn read(text: &str) -> Result<ClientMessage, String> {
        serde_json::from_str(text).map_err(|e| {
            format!(
                "a message is {{\"action\": \"subscribe\", \"cursor\": ...}} or {{\"action\": \"ping\"}}: {e}"
            )
        })
    }
}

/// The error message for a refused client message, with the API's code for `error`.
pub fn refusal(error: ServiceError) -> String {
    let error = ApiError::from(error);
    missive_notify::sockets::error_message(error.code, &error.message)
}
