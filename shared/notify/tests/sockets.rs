//! Events sent to WebSocket connections (`SocketSender`) through a gateway standing in for
//! API Gateway's `@connections` API, on SQLite and DynamoDB Local: each change's events
//! once, in order; a subscription from a cursor; a connection gone is forgotten; and what
//! each step costs the store, counted (the figures of docs/performance.md).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use missive_domain::SocketId;
use missive_notify::testing::Setup;
use missive_notify::{Gateway, SocketSender, Undelivered};
use missive_store::testing::Kind;
use serde_json::Value;

/// The `@connections` API of the test: messages kept by connection, some connections gone.
#[derive(Default)]
struct Connections {
    posted: Mutex<Vec<(String, Value)>>,
    gone: Mutex<Vec<String>>,
}

#[async_trait]
impl Gateway for Connections {
    async fn send(&self, id: &SocketId, message: &str) -> Result<(), Undelivered> {
        if self.gone.lock().unwrap().contains(&id.0) {
            return Err(Undelivered::Gone);
        }
        let message = serde_json::from_str(message).unwrap();
        self.posted.lock().unwrap().push((id.0.clone(), message));
        Ok(())
    }
}

impl Connections {
    /// The types of the messages posted to `id`, and forgets them.
    fn take(&self, id: &str) -> Vec<String> {
        let mut posted = self.posted.lock().unwrap();
        let (taken, kept) = posted.drain(..).partition(|(to, _)| to == id);
        *posted = kept;
        taken
            .into_iter()
            .map(|(_, m): (String, Value)| m["type"].as_str().unwrap().to_string())
            .collect()
    }
}

async fn connections_are_sent_each_change_at_a_counted_cost(kind: Kind) {
    let s = Setup::new(kind).await;
    let connections = Arc::new(Connections::default());
    let sender = SocketSender::new(s.service.clone(), connections.clone());
    let ann = SocketId("ann-1".into());

    let before = s.usage();
    s.service.open_socket(ann.clone(), "ann").await.unwrap();
    let opened = s.work_since(before);
    let before = s.usage();
    assert_eq!(sender.subscribe(&ann, None).await.unwrap(), 0);
    let subscribed = s.work_since(before);
    assert_eq!(connections.take("ann-1"), ["subscribed"]);

    // A change: ann's connection gets its events; bob, who has none, costs one read.
    let game = s.chess().await;
    let before = s.usage();
    assert_eq!(sender.attend_players(&["ann"]).await.unwrap(), 2);
    let change = s.work_since(before);
    assert_eq!(connections.take("ann-1"), ["game-started", "your-turn"]);
    let before = s.usage();
    assert_eq!(sender.attend_players(&["bob"]).await.unwrap(), 0);
    let nobody = s.work_since(before);
    // Nothing new: nothing sent, one read of the feed.
    let before = s.usage();
    assert_eq!(sender.attend_players(&["ann"]).await.unwrap(), 0);
    let idle = s.work_since(before);

    // A second connection subscribed from the cursor before the game gets its events.
    s.play(&game, "ann", "e4", 0).await;
    s.play(&game, "bob", "e5", 1).await;
    let second = SocketId("ann-2".into());
    s.service.open_socket(second.clone(), "ann").await.unwrap();
    let feed = s
        .service
        .events("ann", None, std::time::Duration::ZERO, 100)
        .await
        .unwrap();
    assert_eq!(
        sender
            .subscribe(&second, Some(&feed.events[1].cursor))
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        connections.take("ann-2"),
        ["moved", "your-turn", "subscribed"]
    );
    sender.attend_players(&["ann"]).await.unwrap();
    assert_eq!(connections.take("ann-1"), ["moved", "your-turn"]);
    assert!(connections.take("ann-2").is_empty(), "sent once");

    // A connection gone is forgotten; a cursor not given out is told to the client.
    connections.gone.lock().unwrap().push("ann-1".into());
    s.play(&game, "ann", "Nf3", 2).await;
    s.play(&game, "bob", "Nc6", 3).await;
    sender.attend_players(&["ann"]).await.unwrap();
    assert_eq!(connections.take("ann-2"), ["moved", "your-turn"]);
    assert!(s.service.socket(&ann).await.is_err(), "forgotten");
    assert_eq!(
        sender.subscribe(&second, Some("nonsense")).await.unwrap(),
        0
    );
    assert_eq!(connections.take("ann-2"), ["error"]);
    let before = s.usage();
    let socket = s.service.socket(&second).await.unwrap();
    s.service.close_socket(&socket).await.unwrap();
    let closed = s.work_since(before);

    eprintln!(
        "{kind:?} store (round trips, reads, writes): open {opened:?}, subscribe {subscribed:?}, \
         a change with events {change:?}, a player without connections {nobody:?}, \
         a change with nothing new {idle:?}, close {closed:?}"
    );
    if kind == Kind::DynamoDb {
        assert_eq!(opened, (1, 0, 1), "one transaction of two items");
        assert_eq!(
            subscribed,
            (4, 3, 1),
            "two reads find it, one write subscribes, one read of the feed"
        );
        assert_eq!(
            change,
            (3, 2, 1),
            "its connections, the feed, the position saved"
        );
        assert_eq!(nobody, (1, 1, 0));
        assert_eq!(idle, (2, 2, 0));
        assert_eq!(
            closed,
            (3, 2, 1),
            "two reads find it, one transaction removes it"
        );
    }
}

missive_store::contract_tests!(connections_are_sent_each_change_at_a_counted_cost);
