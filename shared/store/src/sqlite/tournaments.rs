//! Tournaments on SQLite (`tournaments`; `starts_at` their wake-up), and the games their
//! starts create, each in a savepoint of its own.

use async_trait::async_trait;
use missive_domain::{Commit, Cursor, FeedItem, Page, Tournament, TournamentId};
use rusqlite::{Connection, params};

use super::read::rows;
use super::write::{Write, versioned};
use super::{SqliteStore, backend, paged, time_and_id};
use crate::cursor::{page_size, position};
use crate::{StoreError, TournamentStore};

#[async_trait]
impl TournamentStore for SqliteStore {
    async fn put_tournament_telling(
        &self,
        tournament: &Tournament,
        feed: &[FeedItem],
    ) -> Result<(), StoreError> {
        self.write(Write::Tournament(
            Box::new(tournament.clone()),
            feed.to_vec(),
        ))
        .await
    }

    async fn tournament(&self, id: &TournamentId) -> Result<Option<Tournament>, StoreError> {
        let sql = "SELECT body FROM tournaments WHERE id = ?1".to_string();
        let body = self.read_text(sql, id.0.clone()).await?;
        body.map(|body| serde_json::from_str(&body).map_err(StoreError::from))
            .transpose()
    }

    async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, StoreError> {
        let limit = page_size(limit);
        let first = cursor.is_none();
        let (at, id) = position("tournaments", cursor)?.unwrap_or((i64::MAX, String::new()));
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT body, created_at, id FROM tournaments
                     WHERE ?1 OR (created_at, id) < (?2, ?3)
                     ORDER BY created_at DESC, id DESC LIMIT ?4",
                    params![first, at, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let body: String = row.get(0).map_err(backend)?;
                        let tournament: Tournament = serde_json::from_str(&body)?;
                        Ok(((tournament, time_and_id(row, 1)?), body.len()))
                    },
                )
            })
            .await?;
        paged("tournaments", found, limit)
    }

    async fn create_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>> {
        match self.write_parts(Write::Starts(starts.to_vec())).await {
            Ok(answers) => answers,
            Err(error) => {
                let message = error.to_string();
                starts
                    .iter()
                    .map(|_| Err(StoreError::Backend(message.clone())))
                    .collect()
            }
        }
    }
}

/// Stores a tournament by its revision, with the feed items that tell of the change.
pub(super) fn put_tournament(
    conn: &Connection,
    tournament: &Tournament,
    feed: &[FeedItem],
) -> Result<(), StoreError> {
    let body = serde_json::to_string(tournament)?;
    let starts_at = tournament.wakes_at().map(|at| at.timestamp_millis());
    versioned(
        tournament.revision,
        "a tournament",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO tournaments (id, revision, created_at, starts_at, body)
                 VALUES (?1, 1, ?2, ?3, ?4)",
                params![
                    tournament.id.0,
                    tournament.created_at.timestamp_millis(),
                    starts_at,
                    body
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE tournaments SET revision = ?2, starts_at = ?3, body = ?4
                 WHERE id = ?1 AND revision = ?5",
                params![tournament.id.0, previous + 1, starts_at, body, previous],
            )
        },
    )?;
    super::games::append_feed(conn, feed)
}
