//! PlayerStore: players unique by handle (without regard to case) and e-mail address, and
//! their versioned vacation records.

use missive_domain::{Period, Player, VacationRecord};
use missive_store::testing::{Kind, TestStore};
use missive_store::{PlayerStore, StoreError, store_checks};

use crate::fixtures::at;

async fn vacation_records_are_versioned(store: &(impl PlayerStore + ?Sized)) {
    assert_eq!(
        store.vacation("ann").await.unwrap(),
        VacationRecord::default()
    );
    let first = VacationRecord {
        revision: 1,
        periods: vec![Period {
            start: at(0),
            end: at(60 * 24),
        }],
    };
    store.put_vacation("ann", &first).await.unwrap();
    assert!(matches!(
        store.put_vacation("ann", &first).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.vacation("ann").await.unwrap(), first);
    let mut second = first.clone();
    second.revision = 2;
    second.periods.push(Period {
        start: at(60 * 48),
        end: at(60 * 72),
    });
    store.put_vacation("ann", &second).await.unwrap();
    assert_eq!(store.vacation("ann").await.unwrap(), second);
    assert_eq!(
        store.vacation("bob").await.unwrap(),
        VacationRecord::default()
    );
}

async fn a_vacation_record_starts_at_revision_one(store: &(impl PlayerStore + ?Sized)) {
    let zero = VacationRecord::default();
    assert!(matches!(
        store.put_vacation("ann", &zero).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.vacation("ann").await.unwrap(), zero);
}

async fn players_are_unique_by_handle_and_email(store: &(impl PlayerStore + ?Sized)) {
    let ann = Player {
        handle: "ann".into(),
        email: "Ann@Example.org".into(),
        created_at: at(0),
    };
    assert_eq!(store.player("ann").await.unwrap(), None);
    store.create_player(&ann).await.unwrap();
    assert_eq!(store.player("ann").await.unwrap(), Some(ann.clone()));
    assert_eq!(
        store.player_by_email("ann@example.ORG").await.unwrap(),
        Some(ann.clone())
    );
    let same_email = Player {
        handle: "bob".into(),
        email: "ann@example.org".into(),
        created_at: at(1),
    };
    let same_handle = Player {
        email: "other@example.org".into(),
        ..ann.clone()
    };
    for taken in [same_email, same_handle] {
        assert!(matches!(
            store.create_player(&taken).await,
            Err(StoreError::Conflict)
        ));
    }
    assert_eq!(store.player("bob").await.unwrap(), None);
    assert_eq!(
        store.player_by_email("other@example.org").await.unwrap(),
        None
    );
}

async fn handles_are_unique_without_regard_to_case(store: &(impl PlayerStore + ?Sized)) {
    let player = |handle: &str, email: &str| Player {
        handle: handle.into(),
        email: email.into(),
        created_at: at(0),
    };
    let ann = player("Ann", "ann@example.org");
    store.create_player(&ann).await.unwrap();
    for handle in ["ann", "ANN", "aNN"] {
        let other = player(handle, &format!("{handle}-2@example.org"));
        assert!(
            matches!(store.create_player(&other).await, Err(StoreError::Conflict)),
            "{handle}"
        );
        assert_eq!(store.player(handle).await.unwrap(), None, "{handle}");
        assert_eq!(
            store.player_by_email(&other.email).await.unwrap(),
            None,
            "the address stays free"
        );
        assert_eq!(
            store.player_by_handle_key(handle).await.unwrap(),
            Some(ann.clone())
        );
    }
    assert_eq!(store.player("Ann").await.unwrap(), Some(ann.clone()));
    assert_eq!(store.player_by_handle_key("bob").await.unwrap(), None);
    store
        .create_player(&player("bob", "ann-2@example.org"))
        .await
        .unwrap();
}

async fn players_written_before_handle_keys_keep_working(kind: Kind) {
    let players = [
        Player {
            handle: "ann".into(),
            email: "ann@example.org".into(),
            created_at: at(0),
        },
        Player {
            handle: "Bob".into(),
            email: "bob@example.org".into(),
            created_at: at(1),
        },
        Player {
            handle: "BOB".into(),
            email: "bob2@example.org".into(),
            created_at: at(2),
        },
    ];
    let test = TestStore::with_players_before_handle_keys(kind, &players).await;
    let store = test.store.as_ref();
    for player in &players {
        assert_eq!(
            store.player(&player.handle).await.unwrap().as_ref(),
            Some(player)
        );
        assert_eq!(
            store.player_by_email(&player.email).await.unwrap().as_ref(),
            Some(player)
        );
    }
    assert_eq!(
        store.player_by_handle_key("ANN").await.unwrap().as_ref(),
        Some(&players[0])
    );
    let newcomer = Player {
        handle: "Ann".into(),
        email: "new@example.org".into(),
        created_at: at(3),
    };
    assert!(matches!(
        store.create_player(&newcomer).await,
        Err(StoreError::Conflict)
    ));
    let carl = Player {
        handle: "carl".into(),
        ..newcomer
    };
    store.create_player(&carl).await.unwrap();
}

store_checks!(
    vacation_records_are_versioned,
    a_vacation_record_starts_at_revision_one,
    players_are_unique_by_handle_and_email,
    handles_are_unique_without_regard_to_case,
    ; by kind:
    players_written_before_handle_keys_keep_working,
);
