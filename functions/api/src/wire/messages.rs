//! When a player's messages are mailed, as the message-mail routes read and write it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// When a player wants the messages the other players of a game write them.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MessageMail {
    /// With the player's next turn mail, or on its own when it is their turn already (the
    /// default).
    WithTurn,
    /// On its own at once, whoever's turn it is.
    AtOnce,
}

impl From<missive_domain::MessageMail> for MessageMail {
    fn from(choice: missive_domain::MessageMail) -> MessageMail {
        match choice {
            missive_domain::MessageMail::WithTurn => MessageMail::WithTurn,
            missive_domain::MessageMail::AtOnce => MessageMail::AtOnce,
        }
    }
}

impl From<MessageMail> for missive_domain::MessageMail {
    fn from(choice: MessageMail) -> missive_domain::MessageMail {
        match choice {
            MessageMail::WithTurn => missive_domain::MessageMail::WithTurn,
            MessageMail::AtOnce => missive_domain::MessageMail::AtOnce,
        }
    }
}
