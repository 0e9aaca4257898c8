//! The sweep's index on SQLite: one shard, the games', tournaments' and webhooks' wake-up
//! columns read together.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, GameId, Page, TournamentId};
use rusqlite::{Connection, params};

use super::read::{millis, rows};
use super::write::Write;
use super::{SqliteStore, backend, paged};
use crate::cursor::{page_size, position};
use crate::{StoreError, Wake, WakeStore, WakeSubject};

#[async_trait]
impl WakeStore for SqliteStore {
    fn wake_shards(&self) -> u32 {
        1
    }

    async fn due(
        &self,
        shard: u32,
        until: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Wake>, StoreError> {
        if shard != 0 {
            return Ok(Page::empty());
        }
        let limit = page_size(limit);
        let (time, id) = position("due", cursor)?.unwrap_or((i64::MIN, String::new()));
        let until = until.timestamp_millis();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    // One ordered merge of three partial indexes, each read from the
                    // cursor on: no row before it is read again.
                    "SELECT 'game' AS kind, id, wake_at AS at, NULL AS body FROM games
                     WHERE wake_at IS NOT NULL AND wake_at <= ?1 AND (wake_at, id) > (?2, ?3)
                     UNION ALL
                     SELECT 'tournament', id, starts_at, NULL FROM tournaments
                     WHERE starts_at IS NOT NULL AND starts_at <= ?1
                         AND (starts_at, id) > (?2, ?3)
                     UNION ALL
                     SELECT 'hook', id, due, body FROM hooks
                     WHERE due IS NOT NULL AND due <= ?1 AND (due, id) > (?2, ?3)
                     ORDER BY at, id LIMIT ?4",
                    params![until, time, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let kind: String = row.get(0).map_err(backend)?;
                        let id: String = row.get(1).map_err(backend)?;
                        let at: i64 = row.get(2).map_err(backend)?;
                        let body: Option<String> = row.get(3).map_err(backend)?;
                        let size = 24 + body.as_ref().map_or(0, String::len);
                        let subject = match (kind.as_str(), body) {
                            ("game", _) => WakeSubject::Game(GameId(id.clone())),
                            ("tournament", _) => WakeSubject::Tournament(TournamentId(id.clone())),
                            (_, body) => WakeSubject::Hook(Box::new(serde_json::from_str(
                                body.as_deref().unwrap_or_default(),
                            )?)),
                        };
                        let wake = Wake {
                            subject,
                            at: millis(at)?,
                        };
                        Ok(((wake, (at, id)), size))
                    },
                )
            })
            .await?;
        paged("due", found, limit)
    }

    async fn move_wake(
        &self,
        game: &GameId,
        from: DateTime<Utc>,
        to: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError> {
        self.write_if(Write::MoveWake {
            game: game.0.clone(),
            from: from.timestamp_millis(),
            to: to.map(|at| at.timestamp_millis()),
        })
        .await
    }

    async fn hasten_wake(&self, game: &GameId, at: DateTime<Utc>) -> Result<bool, StoreError> {
        self.write_if(Write::HastenWake {
            game: game.0.clone(),
            at: at.timestamp_millis(),
        })
        .await
    }
}

pub(super) fn move_wake(
    conn: &Connection,
    game: &str,
    from: i64,
    to: Option<i64>,
) -> Result<(), StoreError> {
    let changed = conn
        .execute(
            "UPDATE games SET wake_at = ?3 WHERE id = ?1 AND wake_at = ?2",
            params![game, from, to],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

pub(super) fn hasten_wake(conn: &Connection, game: &str, at: i64) -> Result<(), StoreError> {
    let changed = conn
        .execute(
            "UPDATE games SET wake_at = ?2 WHERE id = ?1 AND wake_at > ?2",
            params![game, at],
        )
        .map_err(backend)?;
    if changed == 0 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}
