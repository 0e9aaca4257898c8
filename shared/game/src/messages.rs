//! Messages between the players of a game: plain text kept in the game's log as
//! [`GameEvent::Message`] events, read by its seated players only, written by them once the
//! game has started (and after it ended), at most [`MESSAGES_PER_WINDOW`] per player and
//! game in any [`MESSAGE_WINDOW`]. The notifier mails them to the other players.

use chrono::{DateTime, TimeDelta, Utc};
use missive_domain::{EventRecord, GameEvent, GameId, MessageMail, Seat, Status, StoredGame};
use serde::Serialize;

use crate::service::Access;
use crate::{GameService, MoveRequest, ServiceError};

/// The most characters a message has.
pub const MAX_MESSAGE: usize = 2000;
/// How many messages one player may write in one game within [`MESSAGE_WINDOW`].
pub const MESSAGES_PER_WINDOW: usize = 20;
/// The window [`MESSAGES_PER_WINDOW`] counts in: a day.
pub const MESSAGE_WINDOW: TimeDelta = TimeDelta::hours(24);

/// A message as the game's players read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageView {
    /// Its place among the game's events (from 0).
    pub seq: u32,
    /// The moves played before it.
    pub ply: u32,
    /// The writer's seat.
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// The writer.
    pub player: String,
    /// When it was written.
    pub at: DateTime<Utc>,
    /// What they wrote: plain text, lines separated by line feeds.
    pub text: String,
}

impl GameService {
    /// Writes `text` from `player` to the other players of `game`. The text is normalised
    /// (line feeds only, no control characters, no bidirectional overrides, trimmed) and
    /// must hold 1 to [`MAX_MESSAGE`] characters; the player must sit in the game, which
    /// must have started; [`MESSAGES_PER_WINDOW`] per player and game in any
    /// [`MESSAGE_WINDOW`]. A private game is not found by anyone else.
    pub async fn post_message(
        &self,
        game: &GameId,
        player: &str,
        text: &str,
    ) -> Result<MessageView, ServiceError> {
        let text = normalised(text)?;
        let stored = self.stored_for(game, Some(player)).await?;
        self.check_rate(&stored, player)?;
        self.change(game, Access::Player(player), |draft| {
            let seat = draft.seat_of(player)?;
            if matches!(draft.doc().status, Status::Forming | Status::Cancelled) {
                return Err(ServiceError::NotActive(draft.doc().status));
            }
            let event = GameEvent::Message { text: text.clone() };
            let seq = draft.record(event, Some(seat));
            Ok(MessageView {
                seq,
                ply: draft.rules().ply() as u32,
                seat,
                player: player.to_string(),
                at: draft.now(),
                text: text.clone(),
            })
        })
        .await
    }

    /// Every message of `game`, oldest first, for `player`, who must sit in it (a private
    /// game is not found by anyone else).
    pub async fn messages(
        &self,
        game: &GameId,
        player: &str,
    ) -> Result<Vec<MessageView>, ServiceError> {
        let stored = self.stored_for(game, Some(player)).await?;
        stored
            .head
            .doc
            .seat_of(player)
            .ok_or(ServiceError::NotSeated {
                player: player.to_string(),
            })?;
        Ok(messages_of(&stored))
    }

    /// When `player` wants messages mailed.
    pub async fn message_mail(&self, player: &str) -> Result<MessageMail, ServiceError> {
        Ok(self.store.message_mail(player).await?)
    }

    /// Sets when a registered player wants messages mailed.
    pub async fn set_message_mail(
        &self,
        player: &str,
        choice: MessageMail,
    ) -> Result<(), ServiceError> {
        self.player(player).await?;
        Ok(self.store.set_message_mail(player, choice).await?)
    }

    /// The message that goes with `request`'s move, normalised, once its text and the
    /// mover's allowance in `game` allow it; `None` when the move carries none.
    pub(crate) async fn message_with_move(
        &self,
        game: &GameId,
        request: &MoveRequest,
    ) -> Result<Option<String>, ServiceError> {
        let Some(text) = request.message.as_deref() else {
            return Ok(None);
        };
        let text = normalised(text)?;
        let stored = self.stored_for(game, Some(&request.player)).await?;
        self.check_rate(&stored, &request.player)?;
        Ok(Some(text))
    }

    /// Refuses a message from `player` beyond [`MESSAGES_PER_WINDOW`] in the window
    /// before now, saying when the oldest of them leaves it.
    fn check_rate(&self, stored: &StoredGame, player: &str) -> Result<(), ServiceError> {
        let since = self.now() - MESSAGE_WINDOW;
        let recent: Vec<DateTime<Utc>> = messages_of(stored)
            .into_iter()
            .filter(|message| message.player == player && message.at > since)
            .map(|message| message.at)
            .collect();
        if recent.len() < MESSAGES_PER_WINDOW {
            return Ok(());
        }
        let frees = recent[recent.len() - MESSAGES_PER_WINDOW] + MESSAGE_WINDOW;
        Err(ServiceError::TooOften {
            what: "too many messages in this game today",
            retry_after: (frees - self.now()).num_seconds().max(1) as u64,
        })
    }
}

/// The messages in a stored game's log, oldest first.
pub fn messages_of(stored: &StoredGame) -> Vec<MessageView> {
    stored
        .events
        .iter()
        .filter_map(|event| message_of(stored, event))
        .collect()
}

fn message_of(stored: &StoredGame, event: &EventRecord) -> Option<MessageView> {
    let GameEvent::Message { text } = &event.event else {
        return None;
    };
    let seat = event.seat?;
    Some(MessageView {
        seq: event.seq,
        ply: event.ply,
        seat,
        player: stored.head.doc.player_in(seat)?.to_string(),
        at: event.at,
        text: text.clone(),
    })
}

/// `text` as a message keeps it: line feeds for line breaks, no other control characters
/// or bidirectional overrides, no blank lines around it; 1 to [`MAX_MESSAGE`] characters.
pub fn normalised(text: &str) -> Result<String, ServiceError> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let kept: String = text
        .chars()
        .filter(|c| matches!(c, '\n' | '\t') || !(c.is_control() || is_bidi_control(*c)))
        .collect();
    let kept = kept.trim().to_string();
    if kept.is_empty() {
        return Err(ServiceError::refused("a message needs some text"));
    }
    if kept.chars().count() > MAX_MESSAGE {
        return Err(ServiceError::TooLong {
            what: "a message",
            limit: MAX_MESSAGE,
        });
    }
    Ok(kept)
}

/// The characters that reorder text on display (embeddings, overrides, isolates).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_keep_plain_lines_only() {
        assert_eq!(
            normalised("  hi\r\nthere\rnow\u{7}\u{202E}!\t \n").unwrap(),
            "hi\nthere\nnow!"
        );
        assert!(matches!(
            normalised(" \r\n\u{0} "),
            Err(ServiceError::Refused(_))
        ));
        assert!(normalised(&"é".repeat(MAX_MESSAGE)).is_ok());
        assert!(matches!(
            normalised(&"é".repeat(MAX_MESSAGE + 1)),
            Err(ServiceError::TooLong {
                limit: MAX_MESSAGE,
                ..
            })
        ));
    }
}
