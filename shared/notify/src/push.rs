//! Web Push (RFC 8030): a short notice of each of a player's events, encrypted for the
//! subscription (RFC 8291, `aes128gcm`) and signed with the server's VAPID key (RFC 8292),
//! POSTed to the push service's endpoint like a webhook delivery. The notice is what a
//! phone or browser shows; the app reads the event itself from the feed.
//!
//! The payload is JSON: `id` and `cursor` (the event's, as the feed gives them), `type`,
//! `game` (absent for a whole tournament's events) and `text`, a line a person reads
//! ("bob played 12... Nf6"). A push service that answers 404 or 410 has forgotten the
//! subscription: it is removed.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use missive_auth::VapidKey;
use missive_domain::{FeedEvent, PushKeys, Status};
use missive_game::EventView;
use serde::Serialize;
use web_push_native::p256::PublicKey;
use web_push_native::{Auth, WebPushBuilder};

/// How long a VAPID token is good for (push services take at most 24 hours).
const TOKEN_LIFETIME: i64 = 12 * 3600;
/// Longest text of a notice, in characters.
const TEXT: usize = 120;

/// What Web Push messages are signed with: the server's VAPID key and the contact (a
/// `mailto:` or `https:` address) its tokens name, for the push service to reach the
/// operator.
#[derive(Clone, Debug)]
pub struct PushIdentity {
    /// The server's VAPID key.
    pub key: VapidKey,
    /// The contact.
    pub contact: String,
}

/// The notice of an event: the payload every push message carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// The event's id in the player's feed.
    pub id: String,
    /// Where the feed goes on after it.
    pub cursor: String,
    /// The event's type, as in the feed.
    #[serde(rename = "type")]
    pub kind: String,
    /// The game it is about; absent for a whole tournament's events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// A line a person reads.
    pub text: String,
}

impl Notice {
    /// The notice of `event`.
    pub fn of(event: &EventView) -> Notice {
        let kind = serde_json::to_value(&event.event)
            .ok()
            .and_then(|value| value.get("type")?.as_str().map(str::to_string))
            .unwrap_or_default();
        Notice {
            id: event.id.clone(),
            cursor: event.cursor.clone(),
            kind,
            game: event.game.as_ref().map(|game| game.0.clone()),
            text: text_of(&event.event),
        }
    }
}

/// A line telling `event` to a person, at most [`TEXT`] characters.
fn text_of(event: &FeedEvent) -> String {
    let text = match event {
        FeedEvent::YourTurn { .. } => "Your move".to_string(),
        FeedEvent::Moved { player, short, .. } => format!("{player} played {short}"),
        FeedEvent::DrawOffered { player, .. } => format!("{player} offers a draw"),
        FeedEvent::DrawWithdrawn { player, .. } => format!("{player} withdrew the draw offer"),
        FeedEvent::DrawAccepted { player, .. } => format!("{player} accepted the draw"),
        FeedEvent::DrawDeclined { player, .. } => format!("{player} declined the draw"),
        FeedEvent::Message { player, text, .. } => format!("{player}: {text}"),
        FeedEvent::Eliminated { .. } => "A nation is out".to_string(),
        FeedEvent::GameStarted => "The game has started".to_string(),
        FeedEvent::GameOver {
            status: Status::Cancelled,
            ..
        } => "The game was called off".to_string(),
        FeedEvent::GameOver { .. } => "The game is over".to_string(),
        FeedEvent::Invited { by } => format!("{by} invites you to a game"),
        FeedEvent::ChallengeAccepted { by, .. } => format!("{by} accepted your challenge"),
        FeedEvent::GamePaused => "The game is paused".to_string(),
        FeedEvent::GameResumed { .. } => "The game goes on".to_string(),
        FeedEvent::DeadlineExtended { days, .. } => format!("The deadline moved {days} days"),
        FeedEvent::Adjudicated { by, .. } => format!("{by} adjudicated the game"),
        FeedEvent::TournamentStarted { name, .. } => format!("{name} has started"),
        FeedEvent::TournamentFinished { name, .. } => format!("{name} is over"),
    };
    match text.char_indices().nth(TEXT) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// The push message of `event` for the subscription at `endpoint` with `keys`: encrypted,
/// with its `TTL` and VAPID `Authorization`, valid from `now` (seconds since the epoch).
pub(crate) fn message(
    identity: &PushIdentity,
    endpoint: &str,
    keys: &PushKeys,
    event: &EventView,
    now: i64,
) -> Result<http::Request<Vec<u8>>, String> {
    let endpoint: http::Uri = endpoint.parse().map_err(|e| format!("the endpoint: {e}"))?;
    let public = decode(&keys.p256dh, "p256dh")?;
    let public = PublicKey::from_sec1_bytes(&public)
        .map_err(|_| "keys.p256dh is not a P-256 public key".to_string())?;
    let auth = decode(&keys.auth, "auth")?;
    if auth.len() != 16 {
        return Err("keys.auth is not 16 bytes".to_string());
    }
    let body = serde_json::to_vec(&Notice::of(event)).map_err(|e| e.to_string())?;
    let mut request = WebPushBuilder::new(endpoint.clone(), public, Auth::clone_from_slice(&auth))
        .build(body)
        .map_err(|e| format!("encryption: {e}"))?;
    let origin = match (endpoint.scheme_str(), endpoint.authority()) {
        (Some(scheme), Some(authority)) => format!("{scheme}://{authority}"),
        _ => return Err("the endpoint has no origin".to_string()),
    };
    let authorization = identity
        .key
        .authorization(&origin, &identity.contact, now + TOKEN_LIFETIME)
        .map_err(|e| e.to_string())?;
    let value = http::HeaderValue::from_str(&authorization).map_err(|e| e.to_string())?;
    request
        .headers_mut()
        .insert(http::header::AUTHORIZATION, value);
    Ok(request)
}

/// `text` in base64url (padded or not), or what is wrong with key `name`.
fn decode(text: &str, name: &str) -> Result<Vec<u8>, String> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .map_err(|e| format!("keys.{name}: {e}"))
}

/// Whether a push service's answer says the subscription is gone for good.
pub(crate) fn gone(status: u16) -> bool {
    status == 404 || status == 410
}
