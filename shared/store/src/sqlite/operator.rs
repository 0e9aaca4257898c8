//! The operator's view of a SQLite store: every game id, and the counters of its work.

use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use missive_domain::{Cursor, GameId, Page};
use rusqlite::params;

use super::read::rows;
use super::{SqliteStore, backend, paged};
use crate::cursor::{page_size, position};
use crate::{OperatorStore, StoreError, Usage};

#[async_trait]
impl OperatorStore for SqliteStore {
    async fn game_ids(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError> {
        let limit = page_size(limit);
        let after: String = position("ids", cursor)?.unwrap_or_default();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT id FROM games WHERE id > ?1 ORDER BY id LIMIT ?2",
                    params![after, limit as i64 + 1],
                    tally,
                    |row| {
                        let id: String = row.get(0).map_err(backend)?;
                        Ok(((GameId(id.clone()), id), 16))
                    },
                )
            })
            .await?;
        paged("ids", found, limit)
    }

    fn usage(&self) -> Usage {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        let (reads, writes) = (get(&self.counters.reads), get(&self.counters.writes));
        Usage {
            round_trips: reads + writes,
            reads,
            writes,
            items_read: get(&self.counters.rows),
            bytes_read: get(&self.counters.bytes),
            ..Usage::default()
        }
    }
}
