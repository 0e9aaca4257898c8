//! Cursors: where a list goes on, as opaque text. Each store puts its own position in one
//! (a key map for DynamoDB, the sort values of the last row for SQLite) as JSON, tagged with
//! the list it belongs to so that a cursor of one list is refused by another.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use missive_domain::Cursor;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::StoreError;

/// The cursor holding `position` in list `list`.
pub(crate) fn encode<T: Serialize>(list: &str, position: &T) -> Result<Cursor, StoreError> {
    let json = serde_json::to_vec(&(list, position))?;
    Ok(Cursor(URL_SAFE_NO_PAD.encode(json)))
}

/// The position a cursor of `list` holds; [`StoreError::BadCursor`] for anything else.
pub(crate) fn decode<T: DeserializeOwned>(list: &str, cursor: &Cursor) -> Result<T, StoreError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor.0.as_bytes())
        .map_err(|_| StoreError::BadCursor)?;
    let (name, position): (String, T) =
        serde_json::from_slice(&bytes).map_err(|_| StoreError::BadCursor)?;
    if name != list {
        return Err(StoreError::BadCursor);
    }
    Ok(position)
}

/// The position of `cursor` in `list`, if there is one (the SQLite store's lists).
#[cfg(feature = "sqlite")]
pub(crate) fn position<T: DeserializeOwned>(
    list: &str,
    cursor: Option<&Cursor>,
) -> Result<Option<T>, StoreError> {
    cursor.map(|cursor| decode(list, cursor)).transpose()
}

/// At least one item, at most `MAX_PAGE`, whatever was asked.
pub(crate) fn page_size(limit: usize) -> usize {
    limit.clamp(1, MAX_PAGE)
}

/// The most items one page holds.
pub(crate) const MAX_PAGE: usize = 500;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_only_in_its_own_list() {
        let cursor = encode("waiting", &(12_i64, "g1")).unwrap();
        let back: (i64, String) = decode("waiting", &cursor).unwrap();
        assert_eq!(back, (12, "g1".to_string()));
        assert!(matches!(
            decode::<(i64, String)>("finished", &cursor),
            Err(StoreError::BadCursor)
        ));
        assert!(matches!(
            decode::<(i64, String)>("waiting", &Cursor("garbage!".into())),
            Err(StoreError::BadCursor)
        ));
    }
}
