//! Counters on SQLite (`counters`): one conditional upsert each, expired ones forgotten.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};

use super::write::Write;
use super::{SqliteStore, backend};
use crate::{CounterStore, StoreError};

#[async_trait]
impl CounterStore for SqliteStore {
    async fn count_up(
        &self,
        name: &str,
        amount: u64,
        limit: u64,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        if amount > limit {
            return Ok(false);
        }
        self.write_if(Write::CountUp {
            name: name.to_string(),
            amount,
            limit,
            at: at.timestamp(),
            expires_at: expires_at.timestamp(),
        })
        .await
    }

    async fn drop_counter(&self, name: &str, expires_at: DateTime<Utc>) -> Result<(), StoreError> {
        self.write(Write::DropCounter {
            name: name.to_string(),
            expires_at: expires_at.timestamp(),
        })
        .await
    }
}

/// Adds `amount` to counter `name` if it stays within `limit` (a conflict otherwise),
/// forgetting every counter expired by `at` first.
pub(super) fn count_up(
    conn: &Connection,
    name: &str,
    amount: u64,
    limit: u64,
    at: i64,
    expires_at: i64,
) -> Result<(), StoreError> {
    conn.execute("DELETE FROM counters WHERE expires_at <= ?1", params![at])
        .map_err(backend)?;
    let changed = conn
        .execute(
            "INSERT INTO counters (name, used, expires_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (name) DO UPDATE SET used = used + excluded.used
                 WHERE used + excluded.used <= ?4",
            params![name, sql_count(amount), expires_at, sql_count(limit)],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

/// A count as SQLite's integer (counts beyond `i64::MAX` are held at it).
pub(super) fn sql_count(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// Removes counter `name` if it still expires at `expires_at`.
pub(super) fn drop_counter(
    conn: &Connection,
    name: &str,
    expires_at: i64,
) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM counters WHERE name = ?1 AND expires_at = ?2",
        params![name, expires_at],
    )
    .map(drop)
    .map_err(backend)
}
