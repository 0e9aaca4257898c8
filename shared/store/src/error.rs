//! The store's errors.

use missive_domain::InvalidCommit;
use thiserror::Error;

/// What can go wrong in a store.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A condition of the write did not hold: the record exists already, or the head moved
    /// on since it was read. Nothing was written; read again and decide.
    #[error("conflict: the record changed since it was read")]
    Conflict,
    /// A move of the commit carries an idempotency key its seat used before in the game.
    /// Nothing was written.
    #[error("the idempotency key was used before")]
    KeyUsed,
    /// The backend failed (I/O, network, throttling); the write may or may not have happened
    /// only where the backend says so, otherwise nothing was written.
    #[error("store backend: {0}")]
    Backend(String),
    /// A write that breaks the store's invariants: a bug in the caller. Nothing was written.
    #[error("invalid write: {0}")]
    Invalid(String),
    /// A stored record could not be read back.
    #[error("corrupt record: {0}")]
    Corrupt(String),
    /// A list was asked to go on from a cursor this store did not give out.
    #[error("the cursor is not one this list gave out")]
    BadCursor,
    /// The store setting could not be understood.
    #[error("invalid store setting `{setting}`: {reason}")]
    Setting {
        /// The setting as given.
        setting: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl From<serde_json::Error> for StoreError {
    fn from(error: serde_json::Error) -> StoreError {
        StoreError::Corrupt(error.to_string())
    }
}

impl From<InvalidCommit> for StoreError {
    fn from(error: InvalidCommit) -> StoreError {
        StoreError::Invalid(error.0)
    }
}

/// A mail preference as a store keeps it (its kebab-case name), or `Corrupt`.
#[cfg(any(feature = "sqlite", feature = "dynamodb"))]
pub(crate) fn stored_preference(text: &str) -> Result<missive_domain::MailPreference, StoreError> {
    missive_domain::MailPreference::parse(text)
        .ok_or_else(|| StoreError::Corrupt(format!("mail preference `{text}`")))
}

/// Refuses a challenge to publish that is not new and open (revision 1): a bug in the
/// caller.
#[cfg(any(feature = "sqlite", feature = "dynamodb"))]
pub(crate) fn check_publishable(challenge: &missive_domain::Challenge) -> Result<(), StoreError> {
    if challenge.revision != 1 || challenge.state != missive_domain::ChallengeState::Open {
        return Err(StoreError::Invalid(
            "a challenge is published open at revision 1".into(),
        ));
    }
    Ok(())
}
