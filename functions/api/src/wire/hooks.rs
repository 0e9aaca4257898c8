//! A webhook's delivery attempts, as the deliveries route lists them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// One attempt to deliver an event to a hook's address.
#[derive(Serialize, ToSchema)]
pub(crate) struct DeliveryAttempt {
    /// When it was attempted.
    at: DateTime<Utc>,
    /// The event's id in the player's feed.
    event: String,
    /// The attempt's number for this event, from 1.
    attempt: u32,
    /// The HTTP status the address answered, if it answered.
    status: Option<u16>,
    /// What went wrong, when the delivery failed.
    error: Option<String>,
    /// How long the attempt took, in milliseconds.
    millis: u64,
}

impl From<missive_domain::DeliveryAttempt> for DeliveryAttempt {
    fn from(attempt: missive_domain::DeliveryAttempt) -> DeliveryAttempt {
        DeliveryAttempt {
            at: attempt.at,
            event: attempt.event,
            attempt: attempt.attempt,
            status: attempt.status,
            error: attempt.error,
            millis: attempt.millis,
        }
    }
}
