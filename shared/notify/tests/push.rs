//! What delivering to a Web Push subscription costs the store, counted on SQLite and
//! DynamoDB Local (the figures of docs/performance.md): a change's events, and the regular
//! look at a subscription with nothing new. The push service is a loopback listener that
//! accepts every message (the messages themselves are checked, decrypted, by the API's
//! tests: functions/api/tests/http/push.rs).

use std::time::Duration;

use missive_auth::VapidKey;
use missive_domain::PushKeys;
use missive_notify::testing::Setup;
use missive_notify::{HookSender, PushIdentity, Reach};
use missive_store::testing::Kind;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A push service on loopback answering 201 to every message: its endpoint.
async fn accepting_push_service() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = vec![0; 16 * 1024];
                // One message per connection is enough: read its head and body, answer.
                let _ = stream.read(&mut buffer).await;
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                    )
                    .await;
            });
        }
    });
    format!("http://{addr}/push/1")
}

async fn a_push_subscription_costs_what_is_counted(kind: Kind) {
    let s = Setup::new(kind).await;
    let mut service = s.service.clone();
    service = service.with_config(missive_game::Config {
        local_hooks: true,
        ..missive_game::Config::default()
    });
    let endpoint = accepting_push_service().await;
    // A subscription's keys as a browser makes them: any P-256 point and 16 bytes.
    let browser = VapidKey::generate();
    let keys = PushKeys {
        p256dh: browser.public_key(),
        auth: "AAAAAAAAAAAAAAAAAAAAAA".into(),
    };
    service.register_push("ann", &endpoint, keys).await.unwrap();
    let identity = PushIdentity {
        key: VapidKey::generate(),
        contact: "mailto:ops@example.org".into(),
    };
    let sender = HookSender::new(
        service.clone(),
        s.clock.clone(),
        Duration::from_secs(5),
        Reach::system(true),
    )
    .unwrap()
    .with_push(Some(identity));

    s.chess().await;
    let before = s.usage();
    assert_eq!(sender.attend_players(&["ann"]).await.unwrap(), 2);
    let change = s.work_since(before);
    let before = s.usage();
    assert_eq!(sender.attend_players(&["ann"]).await.unwrap(), 0);
    let look = s.work_since(before);
    eprintln!(
        "{kind:?} store (round trips, reads, writes): a change with 2 events {change:?}, \
         a look with nothing new {look:?}"
    );
    if kind == Kind::DynamoDb {
        assert_eq!(
            change,
            (5, 2, 3),
            "its hooks, the feed, a save per event and one after"
        );
        assert_eq!(look, (3, 2, 1), "its hooks, the feed, the next look saved");
    }
}

missive_store::contract_tests!(a_push_subscription_costs_what_is_counted);
