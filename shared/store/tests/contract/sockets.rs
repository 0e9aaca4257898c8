//! SocketStore: open WebSocket connections changed over their revision, found by id and by
//! player, removed for their player only.

use missive_domain::{Socket, SocketId};
use missive_store::{SocketStore, StoreError, store_checks};

use crate::fixtures::at;

fn socket(id: &str, player: &str, opened: i64) -> Socket {
    Socket {
        id: SocketId(id.into()),
        player: player.into(),
        opened_at: at(opened),
        revision: 1,
        subscribed: false,
        position: None,
        since: None,
    }
}

async fn sockets_change_over_their_revision_and_are_found_by_id_and_player(
    store: &(impl SocketStore + ?Sized),
) {
    let first = socket("c1=", "ann", 1);
    store.put_socket(&first).await.unwrap();
    assert!(matches!(
        store.put_socket(&first).await,
        Err(StoreError::Conflict)
    ));
    let second = socket("c2=", "ann", 2);
    store.put_socket(&second).await.unwrap();
    store.put_socket(&socket("c3=", "bob", 3)).await.unwrap();
    assert_eq!(
        store.sockets_of("ann").await.unwrap(),
        vec![first.clone(), second.clone()]
    );
    assert_eq!(
        store.socket(&SocketId("c1=".into())).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(store.socket(&SocketId("c9=".into())).await.unwrap(), None);
    // Subscribed over revision 1; a stale revision writes nothing.
    let subscribed = Socket {
        revision: 2,
        subscribed: true,
        position: Some("p".into()),
        since: Some(at(4)),
        ..first.clone()
    };
    store.put_socket(&subscribed).await.unwrap();
    assert!(matches!(
        store.put_socket(&subscribed).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.socket(&SocketId("c1=".into())).await.unwrap(),
        Some(subscribed.clone())
    );
    assert!(matches!(
        store
            .put_socket(&Socket {
                revision: 0,
                ..socket("c4=", "ann", 4)
            })
            .await,
        Err(StoreError::Invalid(_))
    ));
    // Removed for its player only; a removed socket is not written again over its revision.
    store
        .delete_socket("bob", &SocketId("c1=".into()))
        .await
        .unwrap();
    assert_eq!(
        store.socket(&SocketId("c1=".into())).await.unwrap(),
        Some(subscribed.clone())
    );
    store
        .delete_socket("ann", &SocketId("c1=".into()))
        .await
        .unwrap();
    assert_eq!(store.socket(&SocketId("c1=".into())).await.unwrap(), None);
    assert_eq!(store.sockets_of("ann").await.unwrap(), vec![second]);
    assert!(matches!(
        store
            .put_socket(&Socket {
                revision: 3,
                ..subscribed
            })
            .await,
        Err(StoreError::Conflict)
    ));
}

store_checks!(sockets_change_over_their_revision_and_are_found_by_id_and_player,);
