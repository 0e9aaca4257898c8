//! Players' WebSocket connections through API Gateway: opened with an access token,
//! subscribed to the player's feed from a cursor, sent each event from there on, closed.
//! The feed stays the truth: a connection only remembers where in it it is.

use missive_domain::{FEED_RETENTION, Socket, SocketId};
use missive_store::StoreError;

use crate::hooks::HookEvent;
use crate::{GameService, ServiceError};

impl GameService {
    /// Records connection `id` as `player`'s, open from now and not yet subscribed.
    pub async fn open_socket(&self, id: SocketId, player: &str) -> Result<Socket, ServiceError> {
        let socket = self.new_socket(id, player);
        self.store.put_socket(&socket).await?;
        Ok(socket)
    }

    /// Connection `id` of `player`, opening now, not yet subscribed nor stored.
    pub fn new_socket(&self, id: SocketId, player: &str) -> Socket {
        Socket {
            id,
            player: player.to_string(),
            opened_at: self.now(),
            revision: 1,
            subscribed: false,
            position: None,
            since: None,
        }
    }

    /// The open connection `id`: [`ServiceError::NoSocket`] when it is not recorded or its
    /// lifetime is over.
    pub async fn socket(&self, id: &SocketId) -> Result<Socket, ServiceError> {
        let now = self.now();
        self.store
            .socket(id)
            .await?
            .filter(|socket| socket.expires_at() > now)
            .ok_or_else(|| ServiceError::NoSocket(id.clone()))
    }

    /// Subscribes connection `id` to its player's feed after `cursor` (a cursor the feed
    /// gave out; absent: from now on), and saves it; the connection as saved.
    /// [`ServiceError::BadCursor`] and [`ServiceError::CursorExpired`] as for the feed.
    pub async fn subscribe_socket(
        &self,
        id: &SocketId,
        cursor: Option<&str>,
    ) -> Result<Socket, ServiceError> {
        let socket = self.socket(id).await?;
        let subscribed = Socket {
            revision: socket.revision + 1,
            ..self.subscribed(socket, cursor)?
        };
        match self.store.put_socket(&subscribed).await {
            Err(StoreError::Conflict) => Err(ServiceError::NoSocket(id.clone())),
            done => done.map(|()| subscribed).map_err(ServiceError::from),
        }
    }

    /// `socket` subscribed to its player's feed after `cursor` (absent: from now on), not
    /// saved: what [`GameService::socket_events`] reads from. [`ServiceError::BadCursor`]
    /// and [`ServiceError::CursorExpired`] as for the feed.
    pub fn subscribed(&self, socket: Socket, cursor: Option<&str>) -> Result<Socket, ServiceError> {
        let position = cursor.map(|text| self.position_of(text)).transpose()?;
        Ok(Socket {
            subscribed: true,
            since: position.is_none().then(|| self.now()),
            position: position.map(str::to_string),
            ..socket
        })
    }

    /// Forgets connection `id` (it closed, or API Gateway says it is gone).
    pub async fn close_socket(&self, socket: &Socket) -> Result<(), ServiceError> {
        Ok(self.store.delete_socket(&socket.player, &socket.id).await?)
    }

    /// The connections of `player` that subscribed and are within their lifetime.
    pub async fn subscribed_sockets(&self, player: &str) -> Result<Vec<Socket>, ServiceError> {
        let now = self.now();
        let sockets = self.store.sockets_of(player).await?;
        Ok(sockets
            .into_iter()
            .filter(|socket| socket.subscribed && socket.expires_at() > now)
            .collect())
    }

    /// The next events due to `socket` (those of its player's feed after its position, or
    /// since it subscribed without a cursor), oldest first, at most `limit`.
    pub async fn socket_events(
        &self,
        socket: &Socket,
        limit: usize,
    ) -> Result<Vec<HookEvent>, ServiceError> {
        let since = socket
            .since
            .unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC);
        self.feed_after(&socket.player, socket.position.as_deref(), since, limit)
            .await
    }

    /// Saves `socket` as its next revision: the saved socket, or `None` if it changed or
    /// went meanwhile (another delivery moved it on, or it closed), and nothing was
    /// written.
    pub async fn save_socket(&self, socket: &Socket) -> Result<Option<Socket>, ServiceError> {
        let next = Socket {
            revision: socket.revision + 1,
            ..socket.clone()
        };
        match self.store.put_socket(&next).await {
            Ok(()) => Ok(Some(next)),
            Err(StoreError::Conflict) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// The events of `player`'s feed after `position` (a store position), written at
    /// `since` or later (and within [`FEED_RETENTION`]), each with the position after it.
    pub(crate) async fn feed_after(
        &self,
        player: &str,
        position: Option<&str>,
        since: chrono::DateTime<chrono::Utc>,
        limit: usize,
    ) -> Result<Vec<HookEvent>, ServiceError> {
        let now = self.now();
        let since = since.max(now - FEED_RETENTION);
        let page = self.store.feed(player, position, since, limit).await?;
        Ok(page
            .entries
            .into_iter()
            .map(|entry| HookEvent {
                position: entry.position.clone(),
                event: crate::feed::view(entry, now),
            })
            .collect())
    }
}
