//! Events sent to players' WebSocket connections through API Gateway: after each change,
//! each subscribed connection of the game's players is sent the events of the feed after
//! its position, one message each (the event as the feed gives it), in the feed's order,
//! its position saved after them. A connection API Gateway says is gone is forgotten; one
//! that fails otherwise keeps its position, and its client, reconnecting with the cursor
//! of the last event it had, misses nothing: the feed is the truth.
//!
//! Besides events, a connection is sent `{"type": "subscribed"}` once a subscription's
//! events up to then went out, and `{"type": "error", "error": {"code", "message"}}` when
//! a message of its client is refused (the codes of the API's errors).

use std::sync::Arc;

use async_trait::async_trait;
use missive_domain::{Socket, SocketId};
use missive_game::{GameService, ServiceError};
use serde_json::json;

use crate::NotifyError;

/// Events sent to one connection before its position is saved.
const BATCH: usize = 25;

/// Why a message did not reach a connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undelivered {
    /// The connection is closed for good (API Gateway's 410).
    Gone,
    /// Anything else, in words.
    Failed(String),
}

/// Where messages to connections go: API Gateway's `@connections` API.
#[async_trait]
pub trait Gateway: Send + Sync {
    /// Sends `message` (a JSON text) to connection `id`.
    async fn send(&self, id: &SocketId, message: &str) -> Result<(), Undelivered>;
}

/// Sends players' events to their subscribed connections.
#[derive(Clone)]
pub struct SocketSender {
    service: GameService,
    gateway: Arc<dyn Gateway>,
}

/// The message a refused client message is answered with: `{"type": "error", ...}`.
pub fn error_message(code: &str, message: &str) -> String {
    json!({"type": "error", "error": {"code": code, "message": message}}).to_string()
}

/// The message saying a subscription's events up to now went out.
pub const SUBSCRIBED: &str = r#"{"type":"subscribed"}"#;

impl SocketSender {
    /// A sender over `service`, sending through `gateway`.
    pub fn new(service: GameService, gateway: Arc<dyn Gateway>) -> SocketSender {
        SocketSender { service, gateway }
    }

    /// Sends `message` to connection `id`, forgetting the connection if it is gone; a
    /// failure is only logged (the client hears nothing it asked for, and asks again).
    pub async fn tell(&self, id: &SocketId, message: &str) {
        match self.gateway.send(id, message).await {
            Ok(()) => {}
            Err(Undelivered::Gone) => {
                if let Ok(socket) = self.service.socket(id).await {
                    let _ = self.service.close_socket(&socket).await;
                }
            }
            Err(Undelivered::Failed(why)) => {
                tracing::warn!(socket = %id, %why, "message not sent to a connection");
            }
        }
    }

    /// Sends each subscribed connection of each of `players` its next events; how many
    /// were sent. A connection that fails is left where it is (its client reconnects).
    pub async fn attend_players(&self, players: &[&str]) -> Result<usize, NotifyError> {
        let mut sent = 0;
        for player in players {
            for socket in self.service.subscribed_sockets(player).await? {
                sent += self.attend(socket).await?;
            }
        }
        Ok(sent)
    }

    /// Subscribes connection `id` after `cursor` and sends it the events since, then
    /// [`SUBSCRIBED`]; a cursor refused, or a connection not open, is told to the
    /// connection as an error message. How many events were sent.
    pub async fn subscribe(
        &self,
        id: &SocketId,
        cursor: Option<&str>,
    ) -> Result<usize, NotifyError> {
        let socket = match self.service.subscribe_socket(id, cursor).await {
            Ok(socket) => socket,
            Err(
                refused @ (ServiceError::BadCursor
                | ServiceError::CursorExpired
                | ServiceError::NoSocket(_)),
            ) => {
                let code = match refused {
                    ServiceError::BadCursor => "invalid-cursor",
                    ServiceError::CursorExpired => "cursor-expired",
                    _ => "not-found",
                };
                self.tell(id, &error_message(code, &refused.to_string()))
                    .await;
                return Ok(0);
            }
            Err(error) => return Err(error.into()),
        };
        let sent = self.attend(socket).await?;
        self.tell(id, SUBSCRIBED).await;
        Ok(sent)
    }

    /// Sends `socket` its next events until none is left, saving its position after each
    /// batch; how many were sent. When another delivery saved the connection meanwhile,
    /// it goes on from where that one left it, so an event written before this began is
    /// sent by one of them at least.
    pub async fn attend(&self, mut socket: Socket) -> Result<usize, NotifyError> {
        let mut sent = 0;
        loop {
            let events = self.service.socket_events(&socket, BATCH).await?;
            let Some(last) = events.last() else {
                return Ok(sent);
            };
            let position = last.position.clone();
            let more = events.len() == BATCH;
            for event in &events {
                let message = serde_json::to_string(&event.event).unwrap_or_default();
                match self.gateway.send(&socket.id, &message).await {
                    Ok(()) => sent += 1,
                    Err(Undelivered::Gone) => {
                        self.service.close_socket(&socket).await?;
                        return Ok(sent);
                    }
                    Err(Undelivered::Failed(why)) => {
                        tracing::warn!(socket = %socket.id, player = %socket.player, %why, "event not sent to a connection");
                        return Ok(sent);
                    }
                }
            }
            let moved = Socket {
                position: Some(position),
                ..socket.clone()
            };
            socket = match self.service.save_socket(&moved).await? {
                Some(_) if !more => return Ok(sent),
                Some(saved) => saved,
                None => match self.service.socket(&socket.id).await {
                    Ok(stored) => stored,
                    Err(ServiceError::NoSocket(_)) => return Ok(sent),
                    Err(error) => return Err(error.into()),
                },
            };
        }
    }
}
