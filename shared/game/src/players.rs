//! Players: signing up with a handle and an e-mail address, and finding players again.

use chrono::{DateTime, Utc};
use missive_domain::{MailPreference, Player};
use missive_store::StoreError;

use crate::{GameService, ServiceError};

/// Longest handle, in characters.
const MAX_HANDLE: usize = 24;
/// Longest e-mail address, in bytes (RFC 5321's path limit).
const MAX_EMAIL: usize = 254;

impl GameService {
    /// Registers a player. The handle has 2 to 24 ASCII letters, digits, `_` or `-` and
    /// starts with a letter; the e-mail address looks like one (`local@domain`, no spaces).
    /// Taken handles and addresses are refused as [`ServiceError::Taken`].
    pub async fn sign_up(&self, handle: &str, email: &str) -> Result<Player, ServiceError> {
        check_handle(handle)?;
        check_email(email)?;
        let player = Player {
            handle: handle.to_string(),
            email: email.trim().to_string(),
            created_at: self.now(),
        };
        match self.store.create_player(&player).await {
            Ok(()) => Ok(player),
            Err(StoreError::Conflict) => Err(ServiceError::Taken(
                "the handle or the e-mail address is taken".into(),
            )),
            Err(error) => Err(error.into()),
        }
    }

    /// The player with this handle.
    pub async fn player(&self, handle: &str) -> Result<Player, ServiceError> {
        self.store
            .player(handle)
            .await?
            .ok_or_else(|| ServiceError::UnknownPlayer(handle.to_string()))
    }

    /// The player with this e-mail address, if any.
    pub async fn player_by_email(&self, email: &str) -> Result<Option<Player>, ServiceError> {
        Ok(self.store.player_by_email(email).await?)
    }

    /// How the player wants to hear about their turns.
    pub async fn mail_preference(&self, handle: &str) -> Result<MailPreference, ServiceError> {
        Ok(self.store.mail_preference(handle).await?)
    }

    /// Sets how a registered player wants to hear about their turns.
    pub async fn set_mail_preference(
        &self,
        handle: &str,
        preference: MailPreference,
    ) -> Result<(), ServiceError> {
        self.player(handle).await?;
        Ok(self.store.set_mail_preference(handle, preference).await?)
    }

    /// Spends the single-use token `id`, valid until `expires_at`: `true` the first time,
    /// `false` for every later use (of concurrent uses exactly one gets `true`).
    pub async fn spend_token(
        &self,
        id: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, ServiceError> {
        match self.store.use_token(id, self.now(), expires_at).await {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }
}

/// Refuses a handle that is not 2 to 24 letters, digits, `_` or `-` starting with a letter.
pub fn check_handle(handle: &str) -> Result<(), ServiceError> {
    let valid = (2..=MAX_HANDLE).contains(&handle.len())
        && handle.starts_with(|c: char| c.is_ascii_alphabetic())
        && handle
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    if valid {
        Ok(())
    } else {
        Err(ServiceError::refused(
            "a handle has 2 to 24 letters, digits, `_` or `-` and starts with a letter",
        ))
    }
}

/// Refuses text that does not look like an e-mail address (`local@domain`, no spaces).
pub(crate) fn check_email(email: &str) -> Result<(), ServiceError> {
    let email = email.trim();
    let valid = email.len() <= MAX_EMAIL
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.'));
    if valid {
        Ok(())
    } else {
        Err(ServiceError::refused("not an e-mail address"))
    }
}
