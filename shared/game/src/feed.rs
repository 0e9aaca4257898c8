//! Players' event feeds: who is told what of a change (written with the change itself), and
//! reading a feed from a cursor, waiting a while for something new when there is nothing.
//!
//! A cursor is the time it was given out and the store's position. It is good for
//! [`FEED_RETENTION`]: an older one may have missed items the store has dropped since, and is
//! refused ([`ServiceError::CursorExpired`]) so the client reads its games again before
//! following the feed anew.

use std::time::Duration;

use chrono::{DateTime, Utc};
use missive_domain::{
    ChallengeId, EventRecord, FEED_RETENTION, FeedEntry, FeedEvent, FeedItem, GameDoc, GameEvent,
    GameId, Head, LogEntry, MoveRecord, Seat, SeatDoc, Status, merged,
};
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
    /// The game it is about.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub game: GameId,
    /// What happened (`type` names it).
    #[serde(flatten)]
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

    /// The store position a cursor holds, if it is one of ours and not too old.
    fn position_of<'a>(&self, cursor: &'a str) -> Result<&'a str, ServiceError> {
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

/// What the players of the game are told of the change from `before` to `after` that
/// appended `moves` and `events` at `now`: each move and note (draw offers and answers,
/// messages) to the game's other players (a move the service played from a conditional
/// line to its own player too), an elimination to all, the start to all, the end
/// to every member, and the turn to the player now to move; in that order.
pub(crate) fn told_of(
    before: &Head,
    after: &Head,
    moves: &[MoveRecord],
    events: &[EventRecord],
    now: DateTime<Utc>,
) -> Vec<FeedItem> {
    let doc = &after.doc;
    let mut feed = Feed::new(after, now);
    for entry in merged(moves, events) {
        match entry {
            LogEntry::Move(mv) => feed.moved(mv),
            LogEntry::Event(event) => feed.event(event),
        }
    }
    let started = before.doc.status == Status::Forming && doc.status == Status::Active;
    if started {
        feed.tell(doc.players(), FeedEvent::GameStarted);
    }
    let ended = matches!(doc.status, Status::Finished | Status::Cancelled)
        && before.doc.status != doc.status;
    if let (true, Some(ending)) = (ended, &doc.ending) {
        let event = FeedEvent::GameOver {
            status: doc.status,
            rule: ending.rule.clone(),
            results: ending.results.clone(),
        };
        feed.tell(doc.members(), event);
    }
    if let Some(waiting) = &after.waiting {
        let turn_moved_on = before.waiting.as_ref().map(|w| w.player.as_str())
            != Some(waiting.player.as_str())
            || before.ply != after.ply;
        if started || turn_moved_on {
            let event = FeedEvent::YourTurn {
                ply: after.ply,
                deadline: waiting.deadline,
            };
            feed.tell([waiting.player.as_str()], event);
        }
    }
    feed.items
}

/// What the invited players of a new game are told: that they were invited.
pub(crate) fn invitations(head: &Head, now: DateTime<Utc>) -> Vec<FeedItem> {
    let invited = head.doc.seats.iter().filter_map(|seat| match seat {
        SeatDoc::Invited { player } => Some(player.as_str()),
        _ => None,
    });
    let mut feed = Feed::new(head, now);
    let by = head.doc.created_by.clone();
    feed.tell(invited, FeedEvent::Invited { by });
    feed.items
}

/// What the other players of a challenge's game are told when `by` took its last seat.
pub(crate) fn challenge_accepted(
    head: &Head,
    challenge: &ChallengeId,
    by: &str,
    now: DateTime<Utc>,
) -> Vec<FeedItem> {
    let mut feed = Feed::new(head, now);
    let others = head
        .doc
        .players()
        .into_iter()
        .filter(|player| *player != by);
    let event = FeedEvent::ChallengeAccepted {
        challenge: challenge.clone(),
        by: by.to_string(),
    };
    feed.tell(others, event);
    feed.items
}

/// Feed items being gathered for one change of a game.
struct Feed<'a> {
    game: &'a GameId,
    doc: &'a GameDoc,
    now: DateTime<Utc>,
    items: Vec<FeedItem>,
}

impl<'a> Feed<'a> {
    fn new(head: &'a Head, now: DateTime<Utc>) -> Feed<'a> {
        Feed {
            game: &head.id,
            doc: &head.doc,
            now,
            items: Vec::new(),
        }
    }

    fn tell<'p>(&mut self, players: impl IntoIterator<Item = &'p str>, event: FeedEvent) {
        for player in players {
            self.items.push(FeedItem {
                recipient: player.to_string(),
                at: self.now,
                game: self.game.clone(),
                event: event.clone(),
            });
        }
    }

    /// Every player of the game but the one in `seat`.
    fn others(&self, seat: Seat) -> Vec<&'a str> {
        let doc: &'a GameDoc = self.doc;
        let actor = doc.player_in(seat);
        doc.players()
            .into_iter()
            .filter(|player| Some(*player) != actor)
            .collect()
    }

    fn moved(&mut self, mv: &MoveRecord) {
        let Some(player) = self.doc.player_in(mv.seat) else {
            return;
        };
        let event = FeedEvent::Moved {
            ply: mv.ply,
            seat: mv.seat,
            player: player.to_string(),
            long: mv.long.clone(),
            short: mv.short.clone(),
            draw_offer: mv.draw_offer,
            conditional: mv.conditional,
        };
        // A move played from its seat's conditional line was not made by its player just
        // now: they are told of it too.
        let told = match mv.conditional {
            true => self.doc.players(),
            false => self.others(mv.seat),
        };
        self.tell(told, event);
    }

    fn event(&mut self, record: &EventRecord) {
        let Some(seat) = record.seat else {
            return;
        };
        let Some(player) = self.doc.player_in(seat).map(str::to_string) else {
            return;
        };
        let event = match &record.event {
            GameEvent::DrawOffered => FeedEvent::DrawOffered { seat, player },
            GameEvent::DrawWithdrawn => FeedEvent::DrawWithdrawn { seat, player },
            GameEvent::DrawAccepted => FeedEvent::DrawAccepted { seat, player },
            GameEvent::DrawDeclined => FeedEvent::DrawDeclined { seat, player },
            GameEvent::Message { text } => FeedEvent::Message {
                seat,
                player,
                text: text.clone(),
            },
            GameEvent::Eliminated { heir } => {
                let doc: &'a GameDoc = self.doc;
                let everyone = doc.players();
                return self.tell(everyone, FeedEvent::Eliminated { seat, heir: *heir });
            }
            _ => return,
        };
        let others = self.others(seat);
        self.tell(others, event);
    }
}
