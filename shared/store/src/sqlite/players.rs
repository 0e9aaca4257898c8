//! Players on SQLite (`players`, unique by handle, handle key and lower-cased e-mail) and
//! their vacation records (`vacations`).

use async_trait::async_trait;
use missive_domain::{Player, VacationRecord};
use rusqlite::{Connection, params};

use super::write::{Write, versioned};
use super::{SqliteStore, conflict_or_backend};
use crate::{PlayerStore, StoreError};

#[async_trait]
impl PlayerStore for SqliteStore {
    async fn create_player(&self, player: &Player) -> Result<(), StoreError> {
        self.write(Write::Player(player.clone())).await
    }

    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        self.player_where("handle", handle.to_string()).await
    }

    async fn player_by_handle_key(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        self.player_where("handle_key", Player::handle_key(handle))
            .await
    }

    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError> {
        self.player_where("email", Player::email_key(email)).await
    }

    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError> {
        let sql = "SELECT body FROM vacations WHERE player = ?1".to_string();
        match self.read_text(sql, player.to_string()).await? {
            Some(body) => Ok(serde_json::from_str(&body)?),
            None => Ok(VacationRecord::default()),
        }
    }

    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError> {
        self.write(Write::Vacation(player.to_string(), record.clone()))
            .await
    }
}

pub(super) fn insert_player(conn: &Connection, player: &Player) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO players (handle, handle_key, email, body) VALUES (?1, ?2, ?3, ?4)",
        params![
            player.handle,
            Player::handle_key(&player.handle),
            Player::email_key(&player.email),
            serde_json::to_string(player)?
        ],
    )
    .map_err(conflict_or_backend)?;
    Ok(())
}

pub(super) fn put_vacation(
    conn: &Connection,
    player: &str,
    record: &VacationRecord,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(record)?;
    versioned(
        record.revision,
        "a vacation record",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO vacations (player, revision, body) VALUES (?1, 1, ?2)",
                params![player, body],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE vacations SET revision = ?2, body = ?3 WHERE player = ?1 AND revision = ?4",
                params![player, previous + 1, body, previous],
            )
        },
    )
}

impl SqliteStore {
    /// The player whose `column` (`handle` or `email`) is `value`.
    async fn player_where(
        &self,
        column: &'static str,
        value: String,
    ) -> Result<Option<Player>, StoreError> {
        let sql = format!("SELECT body FROM players WHERE {column} = ?1");
        let body = self.read_text(sql, value).await?;
        body.map(|body| serde_json::from_str(&body).map_err(StoreError::from))
            .transpose()
    }
}
