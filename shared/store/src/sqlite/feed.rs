//! Players' feeds on SQLite: `feed` rows read by their `seq`, which the single writer
//! assigns in commit order.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, FeedEntry, FeedPage};
use rusqlite::{Connection, params};

use super::read::Tally;
use super::{SqliteStore, backend};
use crate::cursor::{decode, page_size};
use crate::{FeedStore, StoreError};

#[async_trait]
impl FeedStore for SqliteStore {
    async fn feed(
        &self,
        player: &str,
        after: Option<&str>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<FeedPage, StoreError> {
        let after = match after {
            Some(text) => decode::<i64>("feed", &Cursor(text.to_string()))?,
            None => 0,
        };
        let (player, limit) = (player.to_string(), page_size(limit));
        self.read(move |conn, tally| read_feed(conn, &player, after, since, limit, tally))
            .await
    }
}

/// The items of `player`'s feed after `seq` `after`, written at `since` or later, oldest
/// first, at most `limit`; each item's position is its `seq`.
fn read_feed(
    conn: &Connection,
    player: &str,
    after: i64,
    since: DateTime<Utc>,
    limit: usize,
    tally: &mut Tally,
) -> Result<FeedPage, StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT seq, body FROM feed WHERE player = ?1 AND seq > ?2 AND at >= ?3
             ORDER BY seq LIMIT ?4",
        )
        .map_err(backend)?;
    let rows = statement
        .query_map(
            params![player, after, since.timestamp_millis(), limit as i64],
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)),
        )
        .map_err(backend)?;
    let mut page = FeedPage {
        entries: Vec::new(),
        position: feed_position(after)?,
    };
    for row in rows {
        let (seq, body) = row.map_err(backend)?;
        tally.row(body.len());
        page.position = feed_position(seq)?;
        page.entries.push(FeedEntry {
            id: seq.to_string(),
            position: page.position.clone(),
            item: serde_json::from_str(&body)?,
        });
    }
    Ok(page)
}

/// The feed position after the item `seq`.
fn feed_position(seq: i64) -> Result<String, StoreError> {
    crate::cursor::encode("feed", &seq).map(|cursor| cursor.0)
}
