//! Sign-in records on SQLite: used single-use tokens (`used_tokens`) and application
//! passwords (`app_passwords`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::AppPassword;
use rusqlite::{Connection, Row, params};

use super::read::{Tally, millis, rows, text};
use super::write::Write;
use super::{SqliteStore, backend, conflict_or_backend};
use crate::{CredentialStore, StoreError};

#[async_trait]
impl CredentialStore for SqliteStore {
    async fn use_token(
        &self,
        id: &str,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write(Write::UsedToken {
            id: id.to_string(),
            at: at.timestamp(),
            expires_at: expires_at.timestamp(),
        })
        .await
    }

    async fn create_app_password(&self, password: &AppPassword) -> Result<(), StoreError> {
        self.write(Write::AppPassword(Box::new(password.clone())))
            .await
    }

    async fn app_password(
        &self,
        player: &str,
        id: &str,
    ) -> Result<Option<AppPassword>, StoreError> {
        let (player, id) = (player.to_string(), id.to_string());
        let found = self
            .read(move |conn, tally| app_passwords(conn, &player, Some(&id), tally))
            .await?;
        Ok(found.into_iter().next())
    }

    async fn app_passwords_of(&self, player: &str) -> Result<Vec<AppPassword>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| app_passwords(conn, &player, None, tally))
            .await
    }

    async fn touch_app_password(
        &self,
        player: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write(Write::TouchAppPassword {
            player: player.to_string(),
            id: id.to_string(),
            at: at.timestamp_millis(),
        })
        .await
    }

    async fn revoke_app_password(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        self.write_if(Write::RevokeAppPassword {
            player: player.to_string(),
            id: id.to_string(),
        })
        .await
    }
}

/// Records a token used at `at`, forgetting the markers of tokens expired by then.
pub(super) fn insert_used_token(
    conn: &Connection,
    id: &str,
    at: i64,
    expires_at: i64,
) -> Result<(), StoreError> {
    conn.execute("DELETE FROM used_tokens WHERE expires_at < ?1", params![at])
        .map_err(backend)?;
    conn.execute(
        "INSERT INTO used_tokens (id, expires_at) VALUES (?1, ?2)",
        params![id, expires_at],
    )
    .map_err(conflict_or_backend)?;
    Ok(())
}

pub(super) fn insert_app_password(
    conn: &Connection,
    password: &AppPassword,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO app_passwords (player, id, label, hash, created_at, last_used)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            password.player,
            password.id,
            password.label,
            password.hash,
            password.created_at.timestamp_millis(),
            password.last_used.map(|at| at.timestamp_millis()),
        ],
    )
    .map(drop)
    .map_err(conflict_or_backend)
}

/// Records that `player`'s application password `id` was last used at `at`, if it exists.
pub(super) fn touch_app_password(
    conn: &Connection,
    player: &str,
    id: &str,
    at: i64,
) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE app_passwords SET last_used = ?3 WHERE player = ?1 AND id = ?2",
        params![player, id, at],
    )
    .map(drop)
    .map_err(backend)
}

/// Removes `player`'s application password `id`; a conflict when there was none.
pub(super) fn revoke_app_password(
    conn: &Connection,
    player: &str,
    id: &str,
) -> Result<(), StoreError> {
    let removed = conn
        .execute(
            "DELETE FROM app_passwords WHERE player = ?1 AND id = ?2",
            params![player, id],
        )
        .map_err(backend)?;
    match removed {
        0 => Err(StoreError::Conflict),
        _ => Ok(()),
    }
}

/// The application passwords of `player` (only `id` if given), oldest first.
fn app_passwords(
    conn: &Connection,
    player: &str,
    id: Option<&str>,
    tally: &mut Tally,
) -> Result<Vec<AppPassword>, StoreError> {
    rows(
        conn,
        "SELECT player, id, label, hash, created_at, last_used FROM app_passwords
         WHERE player = ?1 AND (?2 IS NULL OR id = ?2) ORDER BY created_at, id",
        params![player, id],
        tally,
        read_app_password,
    )
}

fn read_app_password(row: &Row) -> Result<(AppPassword, usize), StoreError> {
    let last_used: Option<i64> = row.get(5).map_err(backend)?;
    let password = AppPassword {
        player: text(row, 0)?,
        id: text(row, 1)?,
        label: text(row, 2)?,
        hash: text(row, 3)?,
        created_at: millis(row.get(4).map_err(backend)?)?,
        last_used: last_used.map(millis).transpose()?,
    };
    let size = [
        &password.player,
        &password.id,
        &password.label,
        &password.hash,
    ]
    .iter()
    .map(|text| text.len())
    .sum::<usize>();
    Ok((password, size + 16))
}
