//! A player's lists of games on SQLite, paged by keyset: waiting (by deadline), finished
//! and cancelled (most recent first) and current (members joined with their games).

use async_trait::async_trait;
use missive_domain::{Cursor, GameId, Head, Page};
use rusqlite::params;

use super::read::{head_row, rows};
use super::{SqliteStore, backend, paged, time_and_id};
use crate::cursor::{page_size, position};
use crate::{GameListStore, Membership, StoreError};

#[async_trait]
impl GameListStore for SqliteStore {
    async fn waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let limit = page_size(limit);
        let (deadline, id) = position("waiting", cursor)?.unwrap_or((i64::MIN, String::new()));
        self.head_page(
            "waiting",
            "SELECT body, wait_deadline, id FROM games
             WHERE wait_player = ?1 AND (wait_deadline, id) > (?2, ?3)
             ORDER BY wait_deadline, id LIMIT ?4"
                .into(),
            values([
                player.to_string().into(),
                deadline.into(),
                id.into(),
                (limit as i64 + 1).into(),
            ]),
            limit,
            |row| time_and_id(row, 1),
        )
        .await
    }

    async fn finished_by(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        self.ended_page("finished", player, cursor, limit).await
    }

    async fn cancelled_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        self.ended_page("cancelled", player, cursor, limit).await
    }

    async fn games_of(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError> {
        let limit = page_size(limit);
        let (list, status) = match membership {
            Membership::Forming => ("forming", "forming"),
            Membership::Active => ("active", "active"),
        };
        let (time, id) = position(list, cursor)?.unwrap_or((i64::MIN, String::new()));
        let player = player.to_string();
        let found = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    "SELECT games.id, CASE games.status WHEN 'active'
                         THEN coalesce(games.wait_deadline, 0) ELSE 0 END AS time
                     FROM members JOIN games ON games.id = members.game
                     WHERE members.player = ?1 AND games.status = ?2
                       AND (time, games.id) > (?3, ?4)
                     ORDER BY time, games.id LIMIT ?5",
                    params![player, status, time, id, limit as i64 + 1],
                    tally,
                    |row| {
                        let id: String = row.get(0).map_err(backend)?;
                        let time: i64 = row.get(1).map_err(backend)?;
                        Ok(((GameId(id.clone()), (time, id)), 16))
                    },
                )
            })
            .await?;
        paged(list, found, limit)
    }
}

impl SqliteStore {
    /// A page of `player`'s games over in `table` (`finished`, `cancelled`: rows of player,
    /// time and game), most recent end first.
    async fn ended_page(
        &self,
        table: &'static str,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let limit = page_size(limit);
        let (at, id) = position(table, cursor)?.unwrap_or((i64::MAX, String::new()));
        let first = cursor.is_none();
        self.head_page(
            table,
            format!(
                "SELECT games.body, {table}.at, {table}.game
                 FROM {table} JOIN games ON games.id = {table}.game
                 WHERE {table}.player = ?1 AND (?5 OR ({table}.at, {table}.game) < (?2, ?3))
                 ORDER BY {table}.at DESC, {table}.game DESC LIMIT ?4"
            ),
            values([
                player.to_string().into(),
                at.into(),
                id.into(),
                (limit as i64 + 1).into(),
                first.into(),
            ]),
            limit,
            |row| time_and_id(row, 1),
        )
        .await
    }

    /// A page of heads: `sql` selects the body then the sort values (`T`) of up to `?2 + 1`
    /// rows after the position `?1`-style parameters give; one more than asked tells that a
    /// next page exists.
    async fn head_page<T>(
        &self,
        list: &'static str,
        sql: String,
        params: Vec<rusqlite::types::Value>,
        limit: usize,
        after: impl Fn(&rusqlite::Row) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<Page<Head>, StoreError>
    where
        T: serde::Serialize + Send + 'static,
    {
        let items = self
            .read(move |conn, tally| {
                rows(
                    conn,
                    &sql,
                    rusqlite::params_from_iter(params),
                    tally,
                    |row| {
                        let (head, size) = head_row(row)?;
                        Ok(((head, after(row)?), size))
                    },
                )
            })
            .await?;
        paged(list, items, limit)
    }
}

/// SQL values for a query's parameters.
fn values<const N: usize>(values: [rusqlite::types::Value; N]) -> Vec<rusqlite::types::Value> {
    values.into()
}
