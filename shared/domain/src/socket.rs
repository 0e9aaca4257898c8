//! Sockets: a player's open WebSocket connections through API Gateway, each sent the events
//! of the player's feed from the position it subscribed at, for as long as it is open.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// How long a socket's record is kept after its connection opened: API Gateway closes every
/// WebSocket connection after two hours; the record is kept a little longer, and the store
/// forgets it then if the closing was never heard of.
pub const SOCKET_LIFETIME: TimeDelta = TimeDelta::minutes(125);

/// A socket's id: the connection id API Gateway gave it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SocketId(pub String);

impl std::fmt::Display for SocketId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A player's open WebSocket connection, as stored. Written over its revision (1 creates
/// it, when the connection opens).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Socket {
    /// Its id.
    pub id: SocketId,
    /// The player who opened it (whose access token it was opened with).
    pub player: String,
    /// When it opened.
    pub opened_at: DateTime<Utc>,
    /// Raised by one at every change.
    pub revision: u64,
    /// Whether its client subscribed: only then is it sent events.
    pub subscribed: bool,
    /// Where in the player's feed its next event is (the store's position after the last
    /// event sent; `None`: from the first event written after it subscribed).
    pub position: Option<String>,
    /// When it subscribed without a cursor: the start of its feed while it has no
    /// position (`None` when it subscribed from a cursor, or not yet).
    pub since: Option<DateTime<Utc>>,
}

impl Socket {
    /// When its record may be forgotten: [`SOCKET_LIFETIME`] after it opened.
    pub fn expires_at(&self) -> DateTime<Utc> {
        self.opened_at + SOCKET_LIFETIME
    }
}
