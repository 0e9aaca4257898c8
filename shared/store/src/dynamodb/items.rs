//! Items of the table and the domain's values, both ways, plus the size of what was read.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, EventRecord, GameId, Head, MoveRecord, Seat};

use super::keys;
use crate::cursor::{decode, encode};
use crate::{StoreError, WakeSubject};

/// An item: attribute names and values.
pub(super) type Item = HashMap<String, AttributeValue>;

/// A text value.
pub(super) fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_string())
}

/// A number value.
pub(super) fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

/// The item's text attribute `name`, or `Corrupt`.
pub(super) fn get_s(item: &Item, name: &str) -> Result<String, StoreError> {
    match item.get(name) {
        Some(AttributeValue::S(value)) => Ok(value.clone()),
        _ => Err(StoreError::Corrupt(format!(
            "missing text attribute `{name}`"
        ))),
    }
}

/// The item's number attribute `name`, or `Corrupt`.
pub(super) fn get_n<T: std::str::FromStr>(item: &Item, name: &str) -> Result<T, StoreError> {
    match item.get(name) {
        Some(AttributeValue::N(value)) => value
            .parse()
            .map_err(|_| StoreError::Corrupt(format!("attribute `{name}` is not a number"))),
        _ => Err(StoreError::Corrupt(format!(
            "missing number attribute `{name}`"
        ))),
    }
}

/// A stored time in milliseconds, or `Corrupt`.
pub(super) fn millis(value: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp_millis(value)
        .ok_or_else(|| StoreError::Corrupt(format!("time {value} out of range")))
}

/// The item's `body` read as JSON.
pub(super) fn read_body<T: serde::de::DeserializeOwned>(item: &Item) -> Result<T, StoreError> {
    Ok(serde_json::from_str(&get_s(item, "body")?)?)
}

/// The game a game's item belongs to.
pub(super) fn game_of(item: &Item) -> Result<GameId, StoreError> {
    let pk = get_s(item, "PK")?;
    keys::game_of_pk(&pk).ok_or_else(|| StoreError::Corrupt(format!("a game item under {pk}")))
}

/// What the sweep's queue item `item` wakes: a game's head, a tournament's start or a
/// webhook (the item is the hook's own, its body the hook).
pub(super) fn wake_subject(item: &Item) -> Result<WakeSubject, StoreError> {
    let pk = get_s(item, "PK")?;
    if let Some(game) = keys::game_of_pk(&pk) {
        return Ok(WakeSubject::Game(game));
    }
    if let Some(tournament) = keys::tournament_of_pk(&pk) {
        return Ok(WakeSubject::Tournament(tournament));
    }
    match get_s(item, "SK")?.starts_with(keys::HOOK_FROM) {
        true => Ok(WakeSubject::Hook(Box::new(read_body(item)?))),
        false => Err(StoreError::Corrupt(format!("a wake-up under {pk}"))),
    }
}

/// The head's item: the body, the attributes the indexes read, and the number of events
/// (which the stream handler compares to see that something happened in the game).
pub(super) fn head_item(head: &Head) -> Result<Item, StoreError> {
    let mut item = Item::from([
        ("PK".into(), s(&keys::game_pk(&head.id))),
        ("SK".into(), s(keys::HEAD)),
        ("revision".into(), n(head.revision)),
        ("ply".into(), n(head.ply)),
        ("events".into(), n(head.events)),
        ("body".into(), s(&serde_json::to_string(head)?)),
    ]);
    if let Some(waiting) = &head.waiting {
        item.insert(keys::WAIT_PLAYER.into(), s(&waiting.player));
        item.insert(
            keys::LIST_TIME.into(),
            n(waiting.deadline.timestamp_millis()),
        );
    }
    Ok(item)
}

/// A move's item.
pub(super) fn move_item(game: &GameId, mv: &MoveRecord) -> Item {
    let mut item = Item::from([
        ("PK".into(), s(&keys::game_pk(game))),
        ("SK".into(), s(&keys::move_sk(mv.ply))),
        ("ply".into(), n(mv.ply)),
        ("seat".into(), n(mv.seat.0)),
        ("long".into(), s(&mv.long)),
        ("short".into(), s(&mv.short)),
        ("at".into(), n(mv.at.timestamp_millis())),
        ("draw_offer".into(), AttributeValue::Bool(mv.draw_offer)),
        ("prev_hash".into(), s(&mv.prev_hash)),
        ("hash".into(), s(&mv.hash)),
    ]);
    if let Some(key) = &mv.key {
        item.insert("key".into(), s(key));
    }
    if mv.conditional {
        item.insert("conditional".into(), AttributeValue::Bool(true));
    }
    item
}

/// A move read back.
pub(super) fn read_move(item: &Item) -> Result<MoveRecord, StoreError> {
    Ok(MoveRecord {
        ply: get_n(item, "ply")?,
        seat: Seat(get_n(item, "seat")?),
        long: get_s(item, "long")?,
        short: get_s(item, "short")?,
        at: millis(get_n(item, "at")?)?,
        key: get_s(item, "key").ok(),
        draw_offer: matches!(item.get("draw_offer"), Some(AttributeValue::Bool(true))),
        conditional: matches!(item.get("conditional"), Some(AttributeValue::Bool(true))),
        prev_hash: get_s(item, "prev_hash")?,
        hash: get_s(item, "hash")?,
    })
}

/// An event's item.
pub(super) fn event_item(game: &GameId, event: &EventRecord) -> Result<Item, StoreError> {
    let mut item = Item::from([
        ("PK".into(), s(&keys::game_pk(game))),
        ("SK".into(), s(&keys::event_sk(event.seq))),
        ("seq".into(), n(event.seq)),
        ("ply".into(), n(event.ply)),
        ("at".into(), n(event.at.timestamp_millis())),
        ("event".into(), s(&serde_json::to_string(&event.event)?)),
        ("prev_hash".into(), s(&event.prev_hash)),
        ("hash".into(), s(&event.hash)),
    ]);
    if let Some(seat) = event.seat {
        item.insert("seat".into(), n(seat.0));
    }
    Ok(item)
}

/// An event read back.
pub(super) fn read_event(item: &Item) -> Result<EventRecord, StoreError> {
    Ok(EventRecord {
        seq: get_n(item, "seq")?,
        ply: get_n(item, "ply")?,
        seat: get_n(item, "seat").ok().map(Seat),
        at: millis(get_n(item, "at")?)?,
        event: serde_json::from_str(&get_s(item, "event")?)?,
        prev_hash: get_s(item, "prev_hash")?,
        hash: get_s(item, "hash")?,
    })
}

/// The cursor of a page that stopped at `key` (DynamoDB's `LastEvaluatedKey`) in `list`.
pub(super) fn key_cursor(list: &str, key: Option<Item>) -> Result<Option<Cursor>, StoreError> {
    let Some(key) = key else {
        return Ok(None);
    };
    let mut plain = BTreeMap::new();
    for (name, value) in key {
        let value = match value {
            AttributeValue::S(text) => ("S".to_string(), text),
            AttributeValue::N(number) => ("N".to_string(), number),
            _ => return Err(StoreError::Corrupt(format!("key attribute `{name}`"))),
        };
        plain.insert(name, value);
    }
    encode(list, &plain).map(Some)
}

/// The `ExclusiveStartKey` a cursor of `list` holds.
pub(super) fn cursor_key(list: &str, cursor: Option<&Cursor>) -> Result<Option<Item>, StoreError> {
    let Some(cursor) = cursor else {
        return Ok(None);
    };
    let plain: BTreeMap<String, (String, String)> = decode(list, cursor)?;
    plain
        .into_iter()
        .map(|(name, (kind, value))| {
            let value = match kind.as_str() {
                "S" => AttributeValue::S(value),
                "N" => AttributeValue::N(value),
                _ => return Err(StoreError::BadCursor),
            };
            Ok((name, value))
        })
        .collect::<Result<Item, _>>()
        .map(Some)
}

/// The size DynamoDB counts for an item: every attribute's name and value.
pub(super) fn item_size(item: &Item) -> u64 {
    item.iter()
        .map(|(name, value)| name.len() as u64 + value_size(value))
        .sum()
}

fn value_size(value: &AttributeValue) -> u64 {
    match value {
        AttributeValue::S(text) => text.len() as u64,
        AttributeValue::N(number) => number.len().div_ceil(2) as u64 + 1,
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::B(blob) => blob.as_ref().len() as u64,
        AttributeValue::L(list) => 3 + list.iter().map(|v| 1 + value_size(v)).sum::<u64>(),
        AttributeValue::M(map) => 3 + item_size(map),
        _ => 0,
    }
}

/// An item given in DynamoDB's JSON form, for tests that write a table as an older version
/// wrote it (texts, numbers and booleans only).
#[cfg(feature = "testing")]
pub(super) fn item_from_json(value: &serde_json::Value) -> Result<Item, StoreError> {
    let object = value
        .as_object()
        .ok_or_else(|| StoreError::Invalid("an item is a JSON object".into()))?;
    object
        .iter()
        .map(|(name, value)| Ok((name.clone(), attribute_from_json(value)?)))
        .collect()
}

#[cfg(feature = "testing")]
fn attribute_from_json(value: &serde_json::Value) -> Result<AttributeValue, StoreError> {
    let invalid = || StoreError::Invalid(format!("an attribute value: {value}"));
    let (kind, inner) = value
        .as_object()
        .and_then(|o| o.iter().next())
        .ok_or_else(invalid)?;
    Ok(match (kind.as_str(), inner) {
        ("S", serde_json::Value::String(text)) => AttributeValue::S(text.clone()),
        ("N", serde_json::Value::String(number)) => AttributeValue::N(number.clone()),
        ("BOOL", serde_json::Value::Bool(flag)) => AttributeValue::Bool(*flag),
        _ => return Err(invalid()),
    })
}
