//! Open WebSocket connections on DynamoDB: one item each in the player's partition (read
//! by the notifier for every change of the player's games), and one under the socket's id
//! naming its player (what a message on the connection carries); both expire by the
//! table's TTL.

use async_trait::async_trait;
use aws_sdk_dynamodb::types::{Delete, TransactWriteItem};
use missive_domain::{Socket, SocketId};

use super::items::{Item, get_s, n, read_body, s};
use super::{DynamoDbStore, Part, keys};
use crate::{SocketStore, StoreError};

/// The item of `socket` in its player's partition.
fn socket_item(socket: &Socket) -> Result<Item, StoreError> {
    Ok(Item::from([
        ("PK".into(), s(&keys::player_pk(&socket.player))),
        ("SK".into(), s(&keys::socket_sk(&socket.id))),
        ("revision".into(), n(socket.revision)),
        ("body".into(), s(&serde_json::to_string(socket)?)),
        ("expires_at".into(), n(socket.expires_at().timestamp())),
    ]))
}

/// The item naming `socket`'s player.
fn player_item(socket: &Socket) -> Item {
    Item::from([
        ("PK".into(), s(&keys::socket_pk(&socket.id))),
        ("SK".into(), s(keys::SOCKET)),
        ("player".into(), s(&socket.player)),
        ("expires_at".into(), n(socket.expires_at().timestamp())),
    ])
}

#[async_trait]
impl SocketStore for DynamoDbStore {
    async fn put_socket(&self, socket: &Socket) -> Result<(), StoreError> {
        let item = socket_item(socket)?;
        if socket.revision != 1 {
            return self.versioned_put(item, socket.revision, "a socket").await;
        }
        let items = vec![
            self.versioned_transact_put(player_item(socket), 1, "a socket")?,
            self.versioned_transact_put(item, 1, "a socket")?,
        ];
        self.transact(items, &[Part::Other, Part::Other]).await
    }

    async fn socket(&self, id: &SocketId) -> Result<Option<Socket>, StoreError> {
        let Some(named) = self.get(&keys::socket_pk(id), keys::SOCKET).await? else {
            return Ok(None);
        };
        let player = get_s(&named, "player")?;
        self.get(&keys::player_pk(&player), &keys::socket_sk(id))
            .await?
            .as_ref()
            .map(read_body)
            .transpose()
    }

    async fn sockets_of(&self, player: &str) -> Result<Vec<Socket>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::SOCKET_FROM));
        let mut sockets: Vec<Socket> = self
            .every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect::<Result<_, _>>()?;
        sockets.sort_by(|a, b| (a.opened_at, &a.id.0).cmp(&(b.opened_at, &b.id.0)));
        Ok(sockets)
    }

    async fn delete_socket(&self, player: &str, id: &SocketId) -> Result<(), StoreError> {
        let named = Delete::builder()
            .table_name(&self.table)
            .key("PK", s(&keys::socket_pk(id)))
            .key("SK", s(keys::SOCKET))
            .condition_expression("attribute_not_exists(PK) OR player = :player")
            .expression_attribute_values(":player", s(player))
            .build()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let items = vec![
            self.transact_delete(&keys::player_pk(player), &keys::socket_sk(id))?,
            TransactWriteItem::builder().delete(named).build(),
        ];
        match self.transact(items, &[Part::Other, Part::Other]).await {
            // Another player's socket: not this player's to remove.
            Err(StoreError::Conflict) => Ok(()),
            done => done,
        }
    }
}
