//! Mail: what each player wants mailed, and the markers of mails sent at most once.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{MailPreference, MessageMail, Notice};

use crate::StoreError;

/// Mail: each player's choices of what is mailed to them (moves, messages), and the markers of
/// the mails that are sent at most once.
#[async_trait]
pub trait MailStore: Send + Sync {
    /// The player's mail preference ([`MailPreference::EachMove`] if they never chose).
    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError>;

    /// Sets the player's mail preference, replacing any earlier choice.
    async fn set_mail_preference(
        &self,
        player: &str,
        preference: MailPreference,
    ) -> Result<(), StoreError>;

    /// When the player wants messages mailed ([`MessageMail::WithTurn`] if they never
    /// chose).
    async fn message_mail(&self, player: &str) -> Result<MessageMail, StoreError>;

    /// Sets when the player wants messages mailed, replacing any earlier choice.
    async fn set_message_mail(&self, player: &str, choice: MessageMail) -> Result<(), StoreError>;

    /// Writes the marker of `notice` (claimed at `at`) if there is none: `true` if this call
    /// wrote it and so must send the mail, `false` if it was claimed before.
    async fn claim_notice(&self, notice: &Notice, at: DateTime<Utc>) -> Result<bool, StoreError>;

    /// Removes the marker of `notice` (after its mail could not be sent), so a later event
    /// or sweep claims it again. Nothing happens if there is none.
    async fn release_notice(&self, notice: &Notice) -> Result<(), StoreError>;
}
