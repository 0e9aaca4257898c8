//! What can go wrong while acting on a reply, beyond what the player is told.

use missive_game::ServiceError;
use missive_notify::NotifyError;
use thiserror::Error;

/// A failure worth another try: the reply was not acted on, or its answer not mailed.
#[derive(Debug, Error)]
pub enum InboundError {
    /// The game service (or its store) failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The mail back could not be composed or sent.
    #[error(transparent)]
    Notify(#[from] NotifyError),
    /// A file of the inbox folder could not be read or moved.
    #[error("inbox: {0}")]
    Folder(#[from] std::io::Error),
}
