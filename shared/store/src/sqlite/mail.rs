//! Mail on SQLite: players' choices (`mail_preferences`, `message_mail`) and notice
//! markers (`notices`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{MailPreference, MessageMail, Notice};
use rusqlite::{Connection, params};

use super::write::Write;
use super::{SqliteStore, backend, conflict_or_backend};
use crate::{MailStore, StoreError};

#[async_trait]
impl MailStore for SqliteStore {
    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError> {
        let sql = "SELECT preference FROM mail_preferences WHERE player = ?1".to_string();
        let text = self.read_text(sql, player.to_string()).await?;
        text.map_or(Ok(MailPreference::default()), |text| {
            crate::error::stored_preference(&text)
        })
    }

    async fn set_mail_preference(
        &self,
        player: &str,
        preference: MailPreference,
    ) -> Result<(), StoreError> {
        self.write(Write::Preference(player.to_string(), preference))
            .await
    }

    async fn message_mail(&self, player: &str) -> Result<MessageMail, StoreError> {
        let sql = "SELECT choice FROM message_mail WHERE player = ?1".to_string();
        let text = self.read_text(sql, player.to_string()).await?;
        text.map_or(Ok(MessageMail::default()), |text| {
            MessageMail::parse(&text)
                .ok_or_else(|| StoreError::Corrupt(format!("message mail choice `{text}`")))
        })
    }

    async fn set_message_mail(&self, player: &str, choice: MessageMail) -> Result<(), StoreError> {
        self.write(Write::MessageMail(player.to_string(), choice))
            .await
    }

    async fn claim_notice(&self, notice: &Notice, at: DateTime<Utc>) -> Result<bool, StoreError> {
        self.write_if(Write::ClaimNotice(notice.clone(), at.timestamp_millis()))
            .await
    }

    async fn release_notice(&self, notice: &Notice) -> Result<(), StoreError> {
        self.write(Write::ReleaseNotice(notice.clone())).await
    }
}

/// Sets `player`'s mail preference, replacing any earlier choice.
pub(super) fn set_preference(
    conn: &Connection,
    player: &str,
    preference: MailPreference,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT OR REPLACE INTO mail_preferences (player, preference) VALUES (?1, ?2)",
        params![player, preference.as_str()],
    )
    .map(drop)
    .map_err(backend)
}

/// Sets when `player` wants messages mailed, replacing any earlier choice.
pub(super) fn set_message_mail(
    conn: &Connection,
    player: &str,
    choice: MessageMail,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT OR REPLACE INTO message_mail (player, choice) VALUES (?1, ?2)",
        params![player, choice.as_str()],
    )
    .map(drop)
    .map_err(backend)
}

/// Writes the marker of `notice`, claimed at `at`; a conflict if there is one.
pub(super) fn claim_notice(conn: &Connection, notice: &Notice, at: i64) -> Result<(), StoreError> {
    let (scope, name) = notice.key();
    conn.execute(
        "INSERT INTO notices (scope, name, at) VALUES (?1, ?2, ?3)",
        params![scope, name, at],
    )
    .map(drop)
    .map_err(conflict_or_backend)
}

/// Removes the marker of `notice`, if there is one.
pub(super) fn release_notice(conn: &Connection, notice: &Notice) -> Result<(), StoreError> {
    let (scope, name) = notice.key();
    conn.execute(
        "DELETE FROM notices WHERE scope = ?1 AND name = ?2",
        params![scope, name],
    )
    .map(drop)
    .map_err(backend)
}
