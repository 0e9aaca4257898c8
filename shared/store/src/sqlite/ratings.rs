//! Ratings on SQLite (`ratings`, by player and variant; the leaderboard by `(variant,
//! rating)`).

use async_trait::async_trait;
use missive_domain::{Cursor, Page, RatingRecord};
use rusqlite::{Connection, params};

use super::write::{Write, versioned};
use super::{SqliteStore, backend, paged, read};
use crate::cursor::{page_size, position};
use crate::{RatingStore, StoreError};

#[async_trait]
impl RatingStore for SqliteStore {
    async fn put_rating(&self, rating: &RatingRecord) -> Result<(), StoreError> {
        self.write(Write::Rating(Box::new(rating.clone()))).await
    }

    async fn rating(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Option<RatingRecord>, StoreError> {
        let (player, variant) = (player.to_string(), variant.to_string());
        let found: Vec<RatingRecord> = self
            .read(move |conn, tally| {
                read::bodies(
                    conn,
                    "SELECT body FROM ratings WHERE player = ?1 AND variant = ?2",
                    params![player, variant],
                    tally,
                )
            })
            .await?;
        Ok(found.into_iter().next())
    }

    async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM ratings WHERE player = ?1 ORDER BY variant",
                params![player],
                tally,
            )
        })
        .await
    }

    async fn leaderboard(
        &self,
        variant: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<RatingRecord>, StoreError> {
        let list = format!("leaderboard:{variant}");
        let limit = page_size(limit);
        let after: Option<(f64, String)> = position(&list, cursor)?;
        let first = after.is_none();
        let (rating, player) = after.unwrap_or((f64::INFINITY, String::new()));
        let variant = variant.to_string();
        let found = self
            .read(move |conn, tally| {
                read::rows(
                    conn,
                    "SELECT body, rating, player FROM ratings WHERE variant = ?1
                       AND (?2 OR rating < ?3 OR (rating = ?3 AND player > ?4))
                     ORDER BY rating DESC, player LIMIT ?5",
                    params![variant, first, rating, player, limit as i64 + 1],
                    tally,
                    |row| {
                        let body: String = row.get(0).map_err(backend)?;
                        let record: RatingRecord = serde_json::from_str(&body)?;
                        let rating: f64 = row.get(1).map_err(backend)?;
                        let player: String = row.get(2).map_err(backend)?;
                        Ok(((record, (rating, player)), body.len()))
                    },
                )
            })
            .await?;
        paged(&list, found, limit)
    }
}

/// Stores a rating by its revision.
pub(super) fn put_rating(conn: &Connection, rating: &RatingRecord) -> Result<(), StoreError> {
    let body = serde_json::to_string(rating)?;
    versioned(
        rating.revision,
        "a rating",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO ratings (player, variant, revision, rating, body)
                 VALUES (?1, ?2, 1, ?3, ?4)",
                params![rating.player, rating.variant, rating.rating, body],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE ratings SET revision = ?3, rating = ?4, body = ?5
                 WHERE player = ?1 AND variant = ?2 AND revision = ?6",
                params![
                    rating.player,
                    rating.variant,
                    previous + 1,
                    rating.rating,
                    body,
                    previous
                ],
            )
        },
    )
}
