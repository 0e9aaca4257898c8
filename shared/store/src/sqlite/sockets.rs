//! Open WebSocket connections on SQLite (`sockets`; rows past `expires_at` deleted as new
//! ones open).

use async_trait::async_trait;
use missive_domain::{Socket, SocketId};
use rusqlite::{Connection, params};

use super::write::{Write, versioned};
use super::{SqliteStore, backend, read};
use crate::{SocketStore, StoreError};

#[async_trait]
impl SocketStore for SqliteStore {
    async fn put_socket(&self, socket: &Socket) -> Result<(), StoreError> {
        self.write(Write::Socket(Box::new(socket.clone()))).await
    }

    async fn socket(&self, id: &SocketId) -> Result<Option<Socket>, StoreError> {
        let id = id.0.clone();
        self.read(move |conn, tally| {
            let mut found: Vec<Socket> = read::bodies(
                conn,
                "SELECT body FROM sockets WHERE id = ?1",
                params![id],
                tally,
            )?;
            Ok(found.pop())
        })
        .await
    }

    async fn sockets_of(&self, player: &str) -> Result<Vec<Socket>, StoreError> {
        let player = player.to_string();
        self.read(move |conn, tally| {
            read::bodies(
                conn,
                "SELECT body FROM sockets WHERE player = ?1 ORDER BY opened_at, id",
                params![player],
                tally,
            )
        })
        .await
    }

    async fn delete_socket(&self, player: &str, id: &SocketId) -> Result<(), StoreError> {
        self.write(Write::DeleteSocket {
            player: player.to_string(),
            id: id.0.clone(),
        })
        .await
    }
}

/// Stores a socket by its revision; a new one first deletes the sockets expired by the
/// time it opened.
pub(super) fn put_socket(conn: &Connection, socket: &Socket) -> Result<(), StoreError> {
    let body = serde_json::to_string(socket)?;
    let opened = socket.opened_at.timestamp_millis();
    versioned(
        socket.revision,
        "a socket",
        || {
            conn.execute("DELETE FROM sockets WHERE expires_at < ?1", params![opened])?;
            conn.execute(
                "INSERT OR IGNORE INTO sockets (id, player, revision, opened_at, expires_at, body)
                 VALUES (?1, ?2, 1, ?3, ?4, ?5)",
                params![
                    socket.id.0,
                    socket.player,
                    opened,
                    socket.expires_at().timestamp_millis(),
                    body
                ],
            )
        },
        |previous| {
            conn.execute(
                "UPDATE sockets SET revision = ?2, body = ?3 WHERE id = ?1 AND revision = ?4",
                params![socket.id.0, previous + 1, body, previous],
            )
        },
    )
}

/// Removes `player`'s socket `id`, if there is one.
pub(super) fn delete_socket(conn: &Connection, player: &str, id: &str) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM sockets WHERE id = ?1 AND player = ?2",
        params![id, player],
    )
    .map(drop)
    .map_err(backend)
}
