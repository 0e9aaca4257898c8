//! The notifier's errors.

use missive_auth::AuthError;
use missive_game::ServiceError;
use missive_mail::MailError;
use thiserror::Error;

/// Why a notification was not sent (its claim is released, so it is tried again).
#[derive(Debug, Error)]
pub enum NotifyError {
    /// The game service failed (a game that does not replay, a contended time-out).
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The mail could not be sent.
    #[error(transparent)]
    Mail(#[from] MailError),
    /// A link could not be minted.
    #[error(transparent)]
    Auth(#[from] AuthError),
    /// Something of what was due failed (the sweep tries it again).
    #[error("{0}")]
    Failed(String),
}
