//! Ratings on SQLite (`ratings`, by player and variant; the leaderboard by `(variant,
//! rating)`).

use async_trait::async_trait;
use missive_domain::RatingRecord;
use rusqlite::{Connection, params};

use super::write::{Write, versioned};
use super::{SqliteStore, read};
use crate::cursor::page_size;
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
        limit: usize,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let variant = variant.to_string();
        let limit = page_size(limit) as i64;
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM ratings WHERE variant = ?1
                 ORDER BY rating DESC, player LIMIT ?2",
                params![variant, limit],
                tally,
            )
        })
        .await
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
