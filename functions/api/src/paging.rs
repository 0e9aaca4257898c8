//! Lists in pages: the page of an answer, the page size a request asks for, and the offset
//! cursors of lists the API pages itself.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ApiError;

/// Default page of a list.
pub(crate) const PAGE: usize = 50;
/// Largest page of a list.
pub(crate) const MAX_PAGE: usize = 200;

// A page of a list (a plain comment: a doc comment would enter the description, whose
// page schemas have none).
#[derive(Serialize, ToSchema)]
pub(crate) struct Page<T> {
    /// The page's items.
    pub(crate) items: Vec<T>,
    /// Where the next page starts; absent on the last page.
    pub(crate) next_cursor: Option<String>,
}

impl<T> Page<T> {
    /// The page with each item made into a `U`.
    pub(crate) fn map<U>(self, into: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(into).collect(),
            next_cursor: self.next_cursor,
        }
    }
}

impl<T> From<missive_domain::Page<T>> for Page<T> {
    fn from(page: missive_domain::Page<T>) -> Page<T> {
        Page {
            items: page.items,
            next_cursor: page.next.map(|cursor| cursor.0),
        }
    }
}

/// The page size a list request asks for (`limit`), if it asks.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(transparent)]
pub(crate) struct PageSize(Option<usize>);

impl PageSize {
    /// The size asked for, `default` if none, within 1 to [`MAX_PAGE`].
    pub(crate) fn or(self, default: usize) -> usize {
        self.0.unwrap_or(default).clamp(1, MAX_PAGE)
    }
}

/// The page of `items` from `offset`, with a cursor if more follow.
pub(crate) fn page<T>(items: Vec<T>, offset: usize, limit: usize) -> Page<T> {
    let more = items.len() > offset + limit;
    let items: Vec<T> = items.into_iter().skip(offset).take(limit).collect();
    Page {
        next_cursor: more.then(|| URL_SAFE_NO_PAD.encode((offset + limit).to_string())),
        items,
    }
}

/// The offset an offset cursor of [`page`] holds (0 without one); 400 for anything else.
pub(crate) fn read_cursor(cursor: Option<&str>) -> Result<usize, ApiError> {
    let Some(cursor) = cursor else {
        return Ok(0);
    };
    URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| ApiError::bad_request("invalid cursor"))
}
