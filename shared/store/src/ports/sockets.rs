//! Players' open WebSocket connections.

use async_trait::async_trait;
use missive_domain::{Socket, SocketId};

use crate::StoreError;

/// Players' open WebSocket connections, each versioned, found by id and by player.
#[async_trait]
pub trait SocketStore: Send + Sync {
    /// Stores `socket`: revision 1 only if no socket has its id, revision `n` only over
    /// revision `n - 1`; a conflict otherwise (a socket removed meanwhile included), and
    /// nothing written. A socket is forgotten once its [`Socket::expires_at`] has passed
    /// (the store may keep it a while longer; readers check the time).
    async fn put_socket(&self, socket: &Socket) -> Result<(), StoreError>;

    /// The socket `id`, if it is stored.
    async fn socket(&self, id: &SocketId) -> Result<Option<Socket>, StoreError>;

    /// The sockets of `player`, oldest first.
    async fn sockets_of(&self, player: &str) -> Result<Vec<Socket>, StoreError>;

    /// Removes `player`'s socket `id`, if there is one.
    async fn delete_socket(&self, player: &str, id: &SocketId) -> Result<(), StoreError>;
}
