//! Players: signing up with a handle and an e-mail address, and finding players again.
//!
//! A handle matches `[A-Za-z][A-Za-z0-9_-]{1,23}`, is not `me` (the API's name for the
//! caller) and is unique without regard to case (`Ann` and `ANN` are `ann`'s). An address is
//! one mailbox (`local@domain.tld`, ASCII, no display name, quoted local part or domain
//! literal: [`email_address`] with those options) and unique without regard to case.

use chrono::{DateTime, Utc};
use email_address::{EmailAddress, Options};
use missive_domain::{MailPreference, Player};
use missive_store::StoreError;

use crate::{GameService, ServiceError};

/// Longest handle, in characters.
const MAX_HANDLE: usize = 24;
/// Longest e-mail address, in bytes (RFC 5321's path limit).
const MAX_EMAIL: usize = 254;
/// Handles nobody may take (compared without case): `me` names the caller in the API.
const RESERVED_HANDLES: &[&str] = &["me"];

/// What a sign-up found before its mail goes out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignUpCheck {
    /// Handle and address are free: the address is sent a confirmation.
    New,
    /// The address belongs to this player already: its owner is told so, and nobody else.
    Registered(Player),
}

impl GameService {
    /// Registers a player at once (what a confirmed sign-up does). The handle and the
    /// address must be valid (see the module documentation); a handle taken without regard
    /// to case, or an address taken, is refused as [`ServiceError::Taken`].
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

    /// Checks a sign-up before anything is mailed: the handle and address must be valid and
    /// the handle free without regard to case (refused as [`ServiceError::Taken`]: handles
    /// are public). Says whether the address is registered already, which only a mail to
    /// that address may tell.
    pub async fn check_sign_up(
        &self,
        handle: &str,
        email: &str,
    ) -> Result<SignUpCheck, ServiceError> {
        check_handle(handle)?;
        check_email(email)?;
        if self.store.player_by_handle_key(handle).await?.is_some() {
            return Err(ServiceError::Taken("the handle is taken".into()));
        }
        Ok(match self.store.player_by_email(email).await? {
            Some(player) => SignUpCheck::Registered(player),
            None => SignUpCheck::New,
        })
    }

    /// Registers the player a confirmation link names, as [`GameService::sign_up`]; a link
    /// confirmed before (the same handle with the same address) gives that player back.
    pub async fn confirm_sign_up(&self, handle: &str, email: &str) -> Result<Player, ServiceError> {
        match self.sign_up(handle, email).await {
            Err(ServiceError::Taken(reason)) => match self.store.player(handle).await? {
                Some(player) if Player::email_key(&player.email) == Player::email_key(email) => {
                    Ok(player)
                }
                _ => Err(ServiceError::Taken(reason)),
            },
            signed_up => signed_up,
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

/// Refuses a handle that is not 2 to 24 letters, digits, `_` or `-` starting with a letter,
/// or that is reserved.
pub fn check_handle(handle: &str) -> Result<(), ServiceError> {
    let valid = (2..=MAX_HANDLE).contains(&handle.len())
        && handle.starts_with(|c: char| c.is_ascii_alphabetic())
        && handle
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    if !valid {
        return Err(ServiceError::refused(
            "a handle has 2 to 24 letters, digits, `_` or `-` and starts with a letter",
        ));
    }
    if RESERVED_HANDLES.contains(&Player::handle_key(handle).as_str()) {
        return Err(ServiceError::refused(format!(
            "the handle `{handle}` is reserved"
        )));
    }
    Ok(())
}

/// Refuses anything but one plain mailbox address: ASCII, `local@domain.tld`, without a
/// display name, a quoted local part or a domain literal, at most 254 bytes.
pub fn check_email(email: &str) -> Result<(), ServiceError> {
    let email = email.trim();
    let options = Options::default()
        .with_required_tld()
        .without_domain_literal()
        .without_display_text();
    let valid = email.len() <= MAX_EMAIL
        && email.is_ascii()
        && !email.starts_with('"')
        && EmailAddress::parse_with_options(email, options).is_ok();
    if valid {
        Ok(())
    } else {
        Err(ServiceError::refused("not an e-mail address"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_plain_mailbox_is_an_address_and_nothing_else_is() {
        for good in [
            "ann@example.org",
            "Ann.B+chess@mail.example.co.uk",
            "x_y-z@a.io",
        ] {
            assert!(check_email(good).is_ok(), "{good}");
        }
        for bad in [
            "x@example.org,victim@example.org",
            "x@example.org;victim@example.org",
            "x@example.org victim@example.org",
            "Ann <ann@example.org>",
            "\"a,b\"@example.org",
            "ann@[192.0.2.1]",
            "ann@localhost",
            "ann@example.org\r\nBcc: victim@example.org",
            "ann",
            "@example.org",
            "ann@",
            "j\u{fc}rgen@example.de",
        ] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn handles_follow_the_pattern_and_me_is_reserved() {
        for good in ["ann", "Ann", "a1", "b_-c"] {
            assert!(check_handle(good).is_ok(), "{good}");
        }
        for bad in ["a", "1ab", "a b", "ann!", "me", "ME", &"a".repeat(25)] {
            assert!(check_handle(bad).is_err(), "{bad}");
        }
    }
}
