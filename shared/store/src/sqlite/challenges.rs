//! Challenges on SQLite (`challenges`, open ones listed and counted per creator through
//! partial indexes), and the game a challenge's last seat starts, in the same write.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{
    Challenge, ChallengeFilter, ChallengeId, ChallengeState, Commit, Cursor, Page,
};
use rusqlite::{Connection, params};

use super::counters::sql_count;
use super::games::start_game;
use super::read::rows;
use super::write::{Write, versioned};
use super::{SqliteStore, backend, paged, time_and_id};
use crate::cursor::{page_size, position};
use crate::error::check_publishable;
use crate::{ChallengeStore, StoreError};

#[async_trait]
impl ChallengeStore for SqliteStore {
    async fn put_challenge(
        &self,
        challenge: &Challenge,
        start: Option<&Commit>,
    ) -> Result<(), StoreError> {
        let start = start.map(|commit| Box::new(commit.clone()));
        self.write(Write::Challenge(Box::new(challenge.clone()), start))
            .await
    }

    async fn publish_challenge(
        &self,
        challenge: &Challenge,
        most: u64,
    ) -> Result<bool, StoreError> {
        check_publishable(challenge)?;
        self.write_if(Write::Publish(Box::new(challenge.clone()), most))
            .await
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<Challenge>, StoreError> {
        let sql = "SELECT body FROM challenges WHERE id = ?1".to_string();
        let body = self.read_text(sql, id.0.clone()).await?;
        body.map(|body| serde_json::from_str(&body).map_err(StoreError::from))
            .transpose()
    }

    async fn open_challenges(
        &self,
        filter: &ChallengeFilter,
        now: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Challenge>, StoreError> {
        let limit = page_size(limit);
        let variant = filter.variant.clone();
        let time_control = filter.time_control.map(|tc| tc.key());
        let list = format!(
            "challenges:{}:{}",
            variant.as_deref().unwrap_or("*"),
            time_control.as_deref().unwrap_or("*")
        );
        let first = cursor.is_none();
        let (at, id) = position(&list, cursor)?.unwrap_or((i64::MAX, String::new()));
        let now = now.timestamp_millis();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT body, created_at, id FROM challenges
                     WHERE open = 1 AND expires_at > ?1
                       AND (?2 IS NULL OR variant = ?2) AND (?3 IS NULL OR time_control = ?3)
                       AND (?4 OR (created_at, id) < (?5, ?6))
                     ORDER BY created_at DESC, id DESC LIMIT ?7",
                    params![now, variant, time_control, first, at, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let body: String = row.get(0).map_err(backend)?;
                        let challenge: Challenge = serde_json::from_str(&body)?;
                        Ok(((challenge, time_and_id(row, 1)?), body.len()))
                    },
                )
            })
            .await?;
        paged(&list, found, limit)
    }
}

/// Stores a challenge by its revision and, with `start`, creates the game it became.
pub(super) fn put_challenge(
    conn: &Connection,
    challenge: &Challenge,
    start: Option<&Commit>,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(challenge)?;
    let open = challenge.state == ChallengeState::Open;
    versioned(
        challenge.revision,
        "a challenge",
        || {
            conn.execute(
                "INSERT OR IGNORE INTO challenges
                     (id, revision, open, variant, time_control, created_at, expires_at, body,
                      creator)
                 VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    challenge.id.0,
                    open,
                    challenge.variant,
                    challenge.time_control.key(),
                    challenge.created_at.timestamp_millis(),
                    challenge.expires_at.timestamp_millis(),
                    body,
                    challenge.creator
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE challenges SET revision = ?2, open = ?3, body = ?4
                 WHERE id = ?1 AND revision = ?5",
                params![challenge.id.0, previous + 1, open, body, previous],
            )
        },
    )?;
    match start {
        Some(start) => start_game(conn, start),
        None => Ok(()),
    }
}

/// Stores the new open `challenge` unless its creator has `most` challenges open and not
/// expired at its publication (a conflict then, and nothing written); invalid if its id is
/// taken. The writer applies one write at a time, so the count stays true until the insert.
pub(super) fn publish_challenge(
    conn: &Connection,
    challenge: &Challenge,
    most: u64,
) -> Result<(), StoreError> {
    let open: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM challenges
             WHERE creator = ?1 AND open = 1 AND expires_at > ?2",
        )
        .and_then(|mut count| {
            count.query_row(
                params![challenge.creator, challenge.created_at.timestamp_millis()],
                |row| row.get(0),
            )
        })
        .map_err(backend)?;
    if open >= sql_count(most) {
        return Err(StoreError::Conflict);
    }
    put_challenge(conn, challenge, None).map_err(|error| match error {
        StoreError::Conflict => {
            StoreError::Invalid(format!("a challenge {} exists already", challenge.id))
        }
        other => other,
    })
}
