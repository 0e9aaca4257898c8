//! Players' event feeds: reading a feed from a cursor, waiting a while for something new
//! when there is nothing (who is told what of a change is the domain's,
//! [`missive_domain::told_of_change`]), and writing the items of a change after it, for the
//! reader of the store's change stream.
//!
//! A cursor is the time it was given out and the store's position. It is good for
//! [`FEED_RETENTION`]: an older one may have missed items the store has dropped since, and is
//! refused ([`ServiceError::CursorExpired`]) so the client reads its games again before
//! following the feed anew.

use std::time::Duration;

use chrono::{DateTime, Utc};
use missive_domain::{FEED_RETENTION, FeedEntry, FeedEvent, GameId, Head, told_of_change};
use serde::Serialize;

use crate::{GameService, ServiceError};

/// The longest a read of the feed may wait for something new.
pub const MAX_WAIT: Duration = Duration::from_secs(25);
/// How often a waiting read looks at the store again.
const POLL: Duration = Duration::from_secs(1);
/// Most events one read gives.
pub const MAX_EVENTS: usize = 100;

/// One event of a player's feed, as clients read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventView {
    /// The event's id, unique in the player's feed: an event given twice has the same id.
    pub id: String,
    /// Where the feed goes on right after this event.
    pub cursor: String,
    /// When it happened.
    pub at: DateTime<Utc>,
    /// The game it is about; absent for an event about a whole tournament
    /// (`tournament-started`, `tournament-finished`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub game: Option<GameId>,
    /// What happened (`type` names it).
    #[serde(flatten)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::FeedEvent))]
    pub event: FeedEvent,
}

/// What one read of a feed gives: the events, oldest first, and where to go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventsRead {
    /// The events.
    pub events: Vec<EventView>,
    /// Where the feed goes on after them (the cursor given when there are none).
    pub cursor: String,
}

impl GameService {
    /// The events of `player`'s feed after `cursor` (from the oldest kept when `None`), at
    /// most `limit` (1 to [`MAX_EVENTS`]). When there are none it waits for some up to
    /// `wait` (at most [`MAX_WAIT`]), looking at the store every second, so any instance
    /// answers alike. A cursor older than [`FEED_RETENTION`] is
    /// [`ServiceError::CursorExpired`]; one this service did not give out is
    /// [`ServiceError::BadCursor`].
    pub async fn events(
        &self,
        player: &str,
        cursor: Option<&str>,
        wait: Duration,
        limit: usize,
    ) -> Result<EventsRead, ServiceError> {
        let position = cursor.map(|text| self.position_of(text)).transpose()?;
        let limit = limit.clamp(1, MAX_EVENTS);
        let until = tokio::time::Instant::now() + wait.min(MAX_WAIT);
        loop {
            let now = self.now();
            let page = self
                .store
                .feed(player, position, now - FEED_RETENTION, limit)
                .await?;
            let remaining = until.saturating_duration_since(tokio::time::Instant::now());
            if !page.entries.is_empty() || remaining.is_zero() {
                let events = page
                    .entries
                    .into_iter()
                    .map(|entry| view(entry, now))
                    .collect();
                return Ok(EventsRead {
                    events,
                    cursor: cursor_text(now, &page.position),
                });
            }
            tokio::time::sleep(remaining.min(POLL)).await;
        }
    }

    /// Writes the feed items of the change that took a game from head `before` to head
    /// `after` (the old and the new image of its head's record in the store's change
    /// stream) when that change appended entries, whose items its commit may have left out
    /// ([`crate::Config::feed_from_stream`]): decided again from the two heads and the
    /// entries read back, exactly as the commit decided them, and told to the store
    /// ([`missive_store::FeedStore::tell`]: told again, nothing is given twice but what is
    /// told late). A change without entries wrote its items itself: nothing is done. The
    /// number of items told; [`ServiceError::Corrupt`] if the heads are not one change
    /// apart or its entries are not all stored.
    pub async fn tell_change(&self, before: &Head, after: &Head) -> Result<usize, ServiceError> {
        let corrupt = |reason: &str| ServiceError::Corrupt {
            game: after.id.clone(),
            reason: reason.to_string(),
        };
        if after.id != before.id || after.revision != before.revision + 1 {
            return Err(corrupt("the heads told of are not one change apart"));
        }
        let (plies, events) = (before.ply..after.ply, before.events..after.events);
        if plies.is_empty() && events.is_empty() {
            return Ok(0);
        }
        let (moves, logged) = self
            .store
            .entries(&after.id, plies.clone(), events.clone())
            .await?;
        if moves.len() != plies.len() || logged.len() != events.len() {
            return Err(corrupt("the entries of the change told of are not stored"));
        }
        let times = moves
            .iter()
            .map(|mv| mv.at)
            .chain(logged.iter().map(|e| e.at));
        let Some(at) = times.max() else {
            return Ok(0);
        };
        let feed = told_of_change(before, after, &moves, &logged, at);
        self.store
            .tell(&after.id, after.revision, &feed, self.now())
            .await?;
        Ok(feed.len())
    }

    /// The store position a cursor holds, if it is one of ours and not too old.
    pub(crate) fn position_of<'a>(&self, cursor: &'a str) -> Result<&'a str, ServiceError> {
        let (issued, position) = cursor.split_once('.').ok_or(ServiceError::BadCursor)?;
        let issued = issued
            .parse::<i64>()
            .ok()
            .and_then(DateTime::from_timestamp_millis)
            .ok_or(ServiceError::BadCursor)?;
        if issued < self.now() - FEED_RETENTION {
            return Err(ServiceError::CursorExpired);
        }
        Ok(position)
    }
}

/// The cursor given out at `now` for the store position `position`.
fn cursor_text(now: DateTime<Utc>, position: &str) -> String {
    format!("{}.{position}", now.timestamp_millis())
}

/// The view of `entry`, read at `now`.
pub(crate) fn view(entry: FeedEntry, now: DateTime<Utc>) -> EventView {
    EventView {
        id: entry.id,
        cursor: cursor_text(now, &entry.position),
        at: entry.item.at,
        game: entry.item.game,
        event: entry.item.event,
    }
}
