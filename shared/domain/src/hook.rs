//! Webhooks: a player's HTTPS address that is sent every event of the player's feed, signed
//! with the hook's own secret, in the feed's order, each until the address accepts it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A hook's id: a ULID.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HookId(pub String);

impl std::fmt::Display for HookId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether a hook is sent events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum HookState {
    /// Sent every event.
    Active,
    /// No longer sent anything: its address failed too many times in a row.
    Disabled {
        /// When it was disabled.
        at: DateTime<Utc>,
    },
}

/// One attempt to deliver an event to a hook's address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryAttempt {
    /// When it was attempted.
    pub at: DateTime<Utc>,
    /// The event's id in the player's feed.
    pub event: String,
    /// The attempt's number for this event, from 1.
    pub attempt: u32,
    /// The HTTP status the address answered, if it answered.
    pub status: Option<u16>,
    /// What went wrong, when the delivery failed.
    pub error: Option<String>,
    /// How long the attempt took, in milliseconds.
    pub millis: u64,
}

impl DeliveryAttempt {
    /// Whether the address accepted the event (a 2xx answer).
    pub fn accepted(&self) -> bool {
        self.status
            .is_some_and(|status| (200..300).contains(&status))
    }
}

/// A player's webhook, as stored. Written over its revision (1 creates it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hook {
    /// Its id.
    pub id: HookId,
    /// The player whose events it is sent.
    pub player: String,
    /// The address events are POSTed to.
    pub url: String,
    /// The key of its signatures (HMAC-SHA256), shown to the player once.
    pub secret: String,
    /// When it was registered.
    pub created_at: DateTime<Utc>,
    /// Raised by one at every change.
    pub revision: u64,
    /// Where in the player's feed its next event is (the store's position after the last
    /// event delivered; `None`: from the first event written after its registration).
    pub position: Option<String>,
    /// Active or disabled.
    #[serde(flatten)]
    pub state: HookState,
    /// Failed attempts in a row.
    pub failures: u32,
    /// When it is next looked at: at once after a change, later after a failure.
    pub due: Option<DateTime<Utc>>,
    /// The latest attempts, newest first (at most [`Hook::LOG`]).
    pub log: Vec<DeliveryAttempt>,
}

impl Hook {
    /// How many attempts a hook's delivery log keeps.
    pub const LOG: usize = 50;

    /// The same hook with `delivery` logged (the oldest entries beyond [`Hook::LOG`] go).
    pub fn logged(mut self, delivery: DeliveryAttempt) -> Hook {
        self.log.insert(0, delivery);
        self.log.truncate(Hook::LOG);
        self
    }
}
