//! Players' feeds on DynamoDB: items sort by the time of the change that wrote them
//! ([`keys::feed_sk`]), and the changes of different games commit in any order, so an item
//! may become visible after a later one. A reader's position therefore remembers, besides
//! the latest time it was given (its watermark), the items it was given in the
//! [`LOOKBACK_MS`] before it, and each read looks back that far: an item that lands less
//! than a minute after its time is given once, whatever came between. Every write with its
//! change lands within the API's 30 s limit of the time it took, and so does every item
//! told after its change within [`TOLD_ON_TIME`] (its write's attempts take 36 s at most).
//!
//! An item told later than that is written twice: at its own time, where a reader not yet
//! past it finds it, and at the time of telling less [`TOLD_ON_TIME`], where a reader that
//! has passed its time by up to the look-back does, the copy carrying the item's own id. A
//! reader may so be given it twice, with the same id; the copy's time is never before the
//! copy of an earlier change of the same game told before it, so a game's items keep
//! their order. An item told again after it was written at its own time is not written
//! again.

use std::collections::HashSet;

use async_trait::async_trait;
use aws_sdk_dynamodb::types::TransactWriteItem;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, FeedEntry, FeedItem, FeedPage, GameId, hex_sha256};
use serde::{Deserialize, Serialize};

use super::items::{Item, get_s, n, read_body, s};
use super::{DynamoDbStore, keys};
use crate::cursor::{decode, encode, page_size};
use crate::{FeedStore, StoreError, TOLD_ON_TIME};

/// How far before its watermark a reader looks for items that landed late.
pub(super) const LOOKBACK_MS: i64 = 60_000;
/// Most items a position remembers; beyond, the oldest are forgotten (and would be given
/// again if they were still within the look-back).
const SEEN_CAP: usize = 100;

/// A reader's position: its watermark and the items given within the look-back before it
/// (their times and a digest of their sort keys).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Position {
    w: i64,
    s: Vec<(i64, String)>,
}

impl Position {
    fn read(text: Option<&str>) -> Result<Position, StoreError> {
        text.map_or(Ok(Position::default()), |text| {
            decode("feed", &Cursor(text.to_string()))
        })
    }

    fn text(&self) -> Result<String, StoreError> {
        encode("feed", self).map(|cursor| cursor.0)
    }

    fn has_seen(&self, digest: &str) -> bool {
        self.s.iter().any(|(_, seen)| seen == digest)
    }

    /// The position after the item written at `ms` with this digest was given.
    fn give(&mut self, ms: i64, digest: String) {
        self.w = self.w.max(ms);
        self.s.push((ms, digest));
        let from = self.w - LOOKBACK_MS;
        self.s.retain(|(at, _)| *at > from);
        let excess = self.s.len().saturating_sub(SEEN_CAP);
        self.s.drain(..excess);
    }
}

/// The time a feed item is placed at, from its sort key (its change's time, or a late
/// copy's).
fn placed_at(sk: &str) -> Result<i64, StoreError> {
    let digits = sk.get(keys::FEED_FROM.len()..keys::FEED_FROM.len() + 13);
    digits
        .and_then(|digits| digits.parse().ok())
        .ok_or_else(|| StoreError::Corrupt(format!("a feed item under {sk}")))
}

/// A digest of a feed item's sort key, short enough for positions.
fn digest(sk: &str) -> String {
    hex_sha256(sk)[..16].to_string()
}

/// The feed item of `item`, the `n`th of the change that took `source` (a game's or a
/// tournament's id) to `revision`, at its own time.
fn feed_item(
    item: &FeedItem,
    source: &str,
    revision: u64,
    n_th: usize,
) -> Result<Item, StoreError> {
    placed(item, item.at.timestamp_millis(), source, revision, n_th)
}

/// The copy of a feed item told late (see the module's documentation), placed at `ms`
/// with the id the item has at its own time.
fn late_copy(
    item: &FeedItem,
    ms: i64,
    source: &str,
    revision: u64,
    n_th: usize,
) -> Result<Item, StoreError> {
    let own = keys::feed_sk(item.at.timestamp_millis(), source, revision, n_th);
    let mut copy = placed(item, ms, source, revision, n_th)?;
    copy.insert("id".into(), s(&own[keys::FEED_FROM.len()..]));
    Ok(copy)
}

/// The feed item of `item` (as [`feed_item`] names it) placed at `ms`.
fn placed(
    item: &FeedItem,
    ms: i64,
    source: &str,
    revision: u64,
    n_th: usize,
) -> Result<Item, StoreError> {
    Ok(Item::from([
        ("PK".into(), s(&keys::player_pk(&item.recipient))),
        ("SK".into(), s(&keys::feed_sk(ms, source, revision, n_th))),
        ("body".into(), s(&serde_json::to_string(item)?)),
        ("expires_at".into(), n(item.expires_at().timestamp())),
    ]))
}

impl DynamoDbStore {
    /// The transaction items that append `feed`, written by the change that took `source`
    /// (a game's or a tournament's id) to `revision`.
    pub(super) fn feed_puts(
        &self,
        feed: &[FeedItem],
        source: &str,
        revision: u64,
    ) -> Result<Vec<TransactWriteItem>, StoreError> {
        feed.iter()
            .enumerate()
            .map(|(n_th, item)| {
                self.transact_put(feed_item(item, source, revision, n_th)?, None, None)
            })
            .collect()
    }

    /// Which of the items `late` names (their places in `feed`, the items of the change
    /// that took `game` to `revision`) are written at their own time already.
    async fn told_before(
        &self,
        game: &GameId,
        revision: u64,
        feed: &[FeedItem],
        late: &[usize],
    ) -> Result<HashSet<usize>, StoreError> {
        let wanted: Vec<(usize, String)> = late
            .iter()
            .map(|&n_th| {
                let at = feed[n_th].at.timestamp_millis();
                (n_th, keys::feed_sk(at, &game.0, revision, n_th))
            })
            .collect();
        let keys = late.iter().zip(&wanted).map(|(&n_th, (_, sk))| {
            Item::from([
                ("PK".into(), s(&keys::player_pk(&feed[n_th].recipient))),
                ("SK".into(), s(sk)),
            ])
        });
        let found = self.batch_get(keys.collect()).await?;
        let found: HashSet<String> = found
            .iter()
            .map(|item| get_s(item, "SK"))
            .collect::<Result<_, _>>()?;
        Ok(wanted
            .into_iter()
            .filter(|(_, sk)| found.contains(sk))
            .map(|(n_th, _)| n_th)
            .collect())
    }
}

#[async_trait]
impl FeedStore for DynamoDbStore {
    async fn feed(
        &self,
        player: &str,
        after: Option<&str>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<FeedPage, StoreError> {
        let (since_ms, limit) = (since.timestamp_millis(), page_size(limit));
        let mut position = Position::read(after)?;
        // Items at the look-back's start were forgotten already (see [`Position::give`]).
        let from = (position.w - LOOKBACK_MS + 1).max(since_ms);
        let from = format!("{}{}", keys::FEED_FROM, keys::feed_time(from));
        let query = self.range_query(&keys::player_pk(player), &from, keys::FEED_TO);
        let mut entries = Vec::new();
        let mut start = None;
        loop {
            let page = query
                .clone()
                .limit((limit + position.s.len()).min(1000) as i32)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(super::sdk)?;
            let found = page.items.unwrap_or_default();
            self.count_read(&found);
            for item in &found {
                let sk = get_s(item, "SK")?;
                let key = digest(&sk);
                if position.has_seen(&key) {
                    continue;
                }
                let id = get_s(item, "id").unwrap_or_else(|_| sk[keys::FEED_FROM.len()..].into());
                let item: FeedItem = read_body(item)?;
                position.give(placed_at(&sk)?, key);
                entries.push(FeedEntry {
                    id,
                    position: position.text()?,
                    item,
                });
                if entries.len() == limit {
                    return Ok(FeedPage {
                        entries,
                        position: position.text()?,
                    });
                }
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(FeedPage {
                    entries,
                    position: position.text()?,
                });
            }
        }
    }

    async fn tell(
        &self,
        game: &GameId,
        revision: u64,
        feed: &[FeedItem],
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let late_from = now - TOLD_ON_TIME;
        let late: Vec<usize> = (0..feed.len())
            .filter(|&n_th| feed[n_th].at < late_from)
            .collect();
        let written = self.told_before(game, revision, feed, &late).await?;
        let mut items = Vec::new();
        for (n_th, item) in feed.iter().enumerate() {
            if written.contains(&n_th) {
                continue;
            }
            items.push(feed_item(item, &game.0, revision, n_th)?);
            if item.at < late_from {
                let ms = late_from.timestamp_millis();
                items.push(late_copy(item, ms, &game.0, revision, n_th)?);
            }
        }
        self.put_all(items).await
    }
}
