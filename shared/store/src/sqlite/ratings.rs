//! Ratings on SQLite (`ratings`, by player and variant; the leaderboard by `(variant,
//! rating)`), and rating periods (`rating_periods`, by variant; `rated_games`, by game, read
//! by `(variant, period)`).

use async_trait::async_trait;
use chrono::NaiveDate;
use missive_domain::{Cursor, Page, PeriodsClosed, RatedGame, RatingRecord};
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

    async fn open_rating_periods(&self, closed: &PeriodsClosed) -> Result<bool, StoreError> {
        self.write_if(Write::OpenRatingPeriods(closed.clone()))
            .await
    }

    async fn rating_periods(&self) -> Result<Vec<PeriodsClosed>, StoreError> {
        self.read(move |conn, tally| {
            read::rows(
                conn,
                "SELECT variant, through FROM rating_periods ORDER BY variant",
                [],
                tally,
                |row| {
                    let variant: String = row.get(0).map_err(backend)?;
                    let through: String = row.get(1).map_err(backend)?;
                    let size = variant.len() + through.len();
                    let through = day(&through)?;
                    Ok((PeriodsClosed { variant, through }, size))
                },
            )
        })
        .await
    }

    async fn move_rating_periods(
        &self,
        variant: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<bool, StoreError> {
        self.write_if(Write::MoveRatingPeriods {
            variant: variant.to_string(),
            from: from.to_string(),
            to: to.to_string(),
        })
        .await
    }

    async fn keep_rated_game(&self, game: &RatedGame) -> Result<(), StoreError> {
        self.write(Write::RatedGame(Box::new(game.clone()))).await
    }

    async fn rated_games(
        &self,
        variant: &str,
        period: NaiveDate,
    ) -> Result<Vec<RatedGame>, StoreError> {
        let (variant, period) = (variant.to_string(), period.to_string());
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM rated_games WHERE variant = ?1 AND period = ?2 ORDER BY game",
                params![variant, period],
                tally,
            )
        })
        .await
    }
}

/// The day a `YYYY-MM-DD` column holds.
fn day(text: &str) -> Result<NaiveDate, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Backend(format!("not a day: {text}")))
}

/// Sets up a variant's rating periods; a conflict when they are set up already.
pub(super) fn open_periods(conn: &Connection, closed: &PeriodsClosed) -> Result<(), StoreError> {
    let changed = conn
        .execute(
            "INSERT OR IGNORE INTO rating_periods (variant, through) VALUES (?1, ?2)",
            params![closed.variant, closed.through.to_string()],
        )
        .map_err(backend)?;
    match changed {
        0 => Err(StoreError::Conflict),
        _ => Ok(()),
    }
}

/// Moves how far a variant's rating periods have closed; a conflict when not at `from`.
pub(super) fn move_periods(
    conn: &Connection,
    variant: &str,
    from: &str,
    to: &str,
) -> Result<(), StoreError> {
    let changed = conn
        .execute(
            "UPDATE rating_periods SET through = ?3 WHERE variant = ?1 AND through = ?2",
            params![variant, from, to],
        )
        .map_err(backend)?;
    match changed {
        0 => Err(StoreError::Conflict),
        _ => Ok(()),
    }
}

/// Keeps a rated game with its period, unless it is kept already.
pub(super) fn keep_rated_game(conn: &Connection, game: &RatedGame) -> Result<(), StoreError> {
    conn.execute(
        "INSERT OR IGNORE INTO rated_games (game, variant, period, body) VALUES (?1, ?2, ?3, ?4)",
        params![
            game.game.0,
            game.variant,
            game.period.to_string(),
            serde_json::to_string(game)?
        ],
    )
    .map_err(backend)?;
    Ok(())
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
