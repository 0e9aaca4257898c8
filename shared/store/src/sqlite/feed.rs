//! Players' feeds on SQLite: `feed` rows read by their `seq`, which the single writer
//! assigns in commit order; an item told after its change gets the `seq` of its telling, so
//! every reader going on from its position finds it, however late.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, FeedEntry, FeedItem, FeedPage, GameId};
use rusqlite::{Connection, params};

use super::games::insert_feed;
use super::read::Tally;
use super::write::Write;
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

    async fn tell(
        &self,
        _game: &GameId,
        _revision: u64,
        feed: &[FeedItem],
        _now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write(Write::Tell(feed.to_vec())).await
    }
}

/// Appends the items of `feed` that are not in their players' feeds yet: told again, an
/// item adds nothing.
pub(super) fn tell(conn: &Connection, feed: &[FeedItem]) -> Result<(), StoreError> {
    insert_feed(
        conn,
        "INSERT INTO feed (player, at, expires_at, body) SELECT ?1, ?2, ?3, ?4
         WHERE NOT EXISTS (SELECT 1 FROM feed WHERE player = ?1 AND body = ?4)",
        feed,
    )
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
