//! The service's limits on both stores, with a hand-driven clock: mails per recipient and
//! per client in fixed windows, and an import slot that is given back or expires.

mod common;

use std::time::Duration as Elapsed;

use chrono::Duration;
use common::setup;
use missive_game::{Config, Quotas, ServiceError};
use missive_store::contract_tests;
use missive_store::testing::Kind;

fn limits() -> Quotas {
    Quotas {
        mails_per_address: 2,
        mails_per_client: 3,
        mail_window: 600,
        import_time: Elapsed::from_secs(10),
        ..Quotas::default()
    }
}

/// The name of the limit a refusal names.
fn refused_by<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> &'static str {
    match result {
        Err(ServiceError::Limited { limit, retry_after }) => {
            assert!(retry_after >= 1);
            limit.name
        }
        other => panic!("not a limit: {other:?}"),
    }
}

async fn mails_are_counted_per_recipient_and_per_client(kind: Kind) {
    let s = setup(kind).await;
    let service = s.service.clone().with_config(Config {
        quotas: limits(),
        ..Config::default()
    });
    service
        .count_mail("ann@example.org", "192.0.2.1")
        .await
        .unwrap();
    service
        .count_mail("ANN@example.org", "192.0.2.2")
        .await
        .unwrap();
    assert_eq!(
        refused_by(service.count_mail("ann@example.org", "192.0.2.3").await),
        "mails-per-address",
        "the address without regard to case, whoever asks"
    );
    service
        .count_mail("bob@example.org", "2001:db8::1")
        .await
        .unwrap();
    service
        .count_mail("cid@example.org", "2001:db8::2")
        .await
        .unwrap();
    service
        .count_mail("dan@example.org", "2001:db8::3")
        .await
        .unwrap();
    assert_eq!(
        refused_by(service.count_mail("eve@example.org", "2001:db8::4").await),
        "mails-per-client",
        "an IPv6 client by its network"
    );
    s.advance(Duration::minutes(10));
    service
        .count_mail("ann@example.org", "2001:db8::4")
        .await
        .unwrap();
}

async fn an_import_slot_is_given_back_or_expires(kind: Kind) {
    let s = setup(kind).await;
    let service = s.service.clone().with_config(Config {
        quotas: limits(),
        ..Config::default()
    });
    let first = service.begin_import("ann").await.unwrap();
    assert_eq!(
        refused_by(service.begin_import("ann").await),
        "imports-at-once"
    );
    let bob = service.begin_import("bob").await.unwrap();
    service.end_import(first).await.unwrap();
    let second = service.begin_import("ann").await.unwrap();
    // A slot never given back (its process died) expires after the working time and five
    // minutes.
    drop(second);
    s.advance(Duration::seconds(309));
    assert_eq!(
        refused_by(service.begin_import("ann").await),
        "imports-at-once"
    );
    s.advance(Duration::seconds(1));
    let third = service.begin_import("ann").await.unwrap();
    service.end_import(third).await.unwrap();
    service.end_import(bob).await.unwrap();
}

async fn a_refused_day_gives_the_slot_back(kind: Kind) {
    let s = setup(kind).await;
    let service = s.service.clone().with_config(Config {
        quotas: Quotas {
            import_bytes_per_day: 1000,
            ..limits()
        },
        ..Config::default()
    });
    let import = |bytes| {
        let service = service.clone();
        async move {
            let permit = service.begin_import("ann").await?;
            service.count_import_bytes(permit, bytes).await
        }
    };
    let permit = import(900).await.unwrap();
    service.end_import(permit).await.unwrap();
    assert_eq!(refused_by(import(200).await), "import-bytes-per-day");
    // The refusal gave the slot back.
    let permit = import(100).await.unwrap();
    service.end_import(permit).await.unwrap();
}

contract_tests!(
    mails_are_counted_per_recipient_and_per_client,
    an_import_slot_is_given_back_or_expires,
    a_refused_day_gives_the_slot_back,
);
