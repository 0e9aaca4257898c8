//! What the reads of every port share: a read runs in one read transaction on a pooled
//! connection and counts the rows and bytes it read into a [`Tally`].

use chrono::{DateTime, Utc};
use missive_domain::Head;
use rusqlite::{Connection, Params, Row};

use super::backend;
use crate::StoreError;

/// Rows and bytes read by one call.
#[derive(Default)]
pub(super) struct Tally {
    pub rows: u64,
    pub bytes: u64,
}

impl Tally {
    pub(super) fn row(&mut self, bytes: usize) {
        self.rows += 1;
        self.bytes += bytes as u64;
    }
}

/// A stored time in milliseconds, or `Corrupt`.
pub(super) fn millis(value: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp_millis(value)
        .ok_or_else(|| StoreError::Corrupt(format!("time {value} out of range")))
}

/// Every row `sql` selects with `params`, read by `read` (which gives the value and its size).
pub(super) fn rows<T>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    tally: &mut Tally,
    read: impl Fn(&Row) -> Result<(T, usize), StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut select = conn.prepare_cached(sql).map_err(backend)?;
    let mut found = select.query(params).map_err(backend)?;
    let mut values = Vec::new();
    while let Some(row) = found.next().map_err(backend)? {
        let (value, size) = read(row)?;
        tally.row(size);
        values.push(value);
    }
    Ok(values)
}

/// The text in column `index` of `row`.
pub(super) fn text(row: &Row, index: usize) -> Result<String, StoreError> {
    row.get(index).map_err(backend)
}

/// A head from the body in column 0, with the list position in the columns after it.
pub(super) fn head_row(row: &Row) -> Result<(Head, usize), StoreError> {
    let body = text(row, 0)?;
    Ok((serde_json::from_str(&body)?, body.len()))
}

/// The records whose JSON bodies `sql` selects (the first column), in its order.
pub(super) fn bodies<T: serde::de::DeserializeOwned>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    tally: &mut Tally,
) -> Result<Vec<T>, StoreError> {
    rows(conn, sql, params, tally, |row| {
        let body: String = row.get(0).map_err(backend)?;
        Ok((serde_json::from_str(&body)?, body.len()))
    })
}
