//! Webhooks on SQLite (`hooks`; `due` while active, read by the sweep).

use async_trait::async_trait;
use missive_domain::{Hook, HookId, HookState};
use rusqlite::{Connection, params};

use super::write::{Write, versioned};
use super::{SqliteStore, backend, read};
use crate::{HookStore, StoreError};

#[async_trait]
impl HookStore for SqliteStore {
    async fn put_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.write(Write::Hook(Box::new(hook.clone()))).await
    }

    async fn hooks_of(&self, player: &str) -> Result<Vec<Hook>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM hooks WHERE player = ?1 ORDER BY created_at, id",
                params![player],
                tally,
            )
        })
        .await
    }

    async fn delete_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError> {
        self.write(Write::DeleteHook {
            player: player.to_string(),
            id: id.0.clone(),
        })
        .await
    }
}

/// Stores a hook by its revision, due while active.
pub(super) fn put_hook(conn: &Connection, hook: &Hook) -> Result<(), StoreError> {
    let body = serde_json::to_string(hook)?;
    let due = match hook.state {
        HookState::Active => hook.due.map(|at| at.timestamp_millis()),
        HookState::Disabled { .. } => None,
    };
    versioned(
        hook.revision,
        "a hook",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO hooks (id, player, revision, created_at, due, body)
                 VALUES (?1, ?2, 1, ?3, ?4, ?5)",
                params![
                    hook.id.0,
                    hook.player,
                    hook.created_at.timestamp_millis(),
                    due,
                    body
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE hooks SET revision = ?2, due = ?3, body = ?4
                 WHERE id = ?1 AND revision = ?5",
                params![hook.id.0, previous + 1, due, body, previous],
            )
        },
    )
}

/// Removes `player`'s hook `id`, if there is one.
pub(super) fn delete_hook(conn: &Connection, player: &str, id: &str) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM hooks WHERE id = ?1 AND player = ?2",
        params![id, player],
    )
    .map(drop)
    .map_err(backend)
}
