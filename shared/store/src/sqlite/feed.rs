//! Players' feeds on SQLite: `feed` rows read by their `seq`, which the single writer
//! assigns in commit order.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, FeedPage};

use super::{SqliteStore, read};
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
        self.read(move |conn, tally| read::feed(conn, &player, after, since, limit, tally))
            .await
    }
}
