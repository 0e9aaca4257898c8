//! Hooks: where a player's feed is delivered, each event in the feed's order until the
//! address accepts it. A webhook is an HTTPS address sent every event signed with the hook's
//! own secret; a Web Push subscription (a hook with [`PushKeys`]) is a push service's
//! address sent a short notice of every event, encrypted for the subscribing browser or
//! phone (RFC 8291).

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
    /// The subscription's keys when the hook is a Web Push subscription (its `url` the push
    /// service's endpoint, its `secret` unused); absent for a webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push: Option<PushKeys>,
}

/// The keys of a Web Push subscription, as the browser's `PushSubscription` gives them
/// (base64url): what its messages are encrypted for (RFC 8291).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushKeys {
    /// The subscription's P-256 public key, uncompressed (65 bytes).
    pub p256dh: String,
    /// Its authentication secret (16 bytes).
    pub auth: String,
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
