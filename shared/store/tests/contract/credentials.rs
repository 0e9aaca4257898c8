//! CredentialStore: single-use tokens used once, application passwords kept until revoked.

use missive_domain::AppPassword;
use missive_store::testing::{Kind, TestStore};
use missive_store::{CredentialStore, StoreError, store_checks};

use crate::fixtures::at;

fn app_password(player: &str, id: &str, minute: i64) -> AppPassword {
    AppPassword {
        id: id.to_string(),
        player: player.to_string(),
        label: format!("{id}'s program"),
        hash: format!("$argon2id$v=19$m=19456,t=2,p=1$salt${id}"),
        created_at: at(minute),
        last_used: None,
    }
}

async fn a_single_use_token_is_used_once(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let expires = at(15);
    store.use_token("t1", at(0), expires).await.unwrap();
    assert!(matches!(
        store.use_token("t1", at(1), expires).await,
        Err(StoreError::Conflict)
    ));
    store.use_token("t2", at(2), expires).await.unwrap();
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let store = test.store.clone();
        racers.spawn(async move { store.use_token("t3", at(3), expires).await });
    }
    let results = racers.join_all().await;
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    assert!(
        results
            .iter()
            .all(|r| matches!(r, Ok(()) | Err(StoreError::Conflict)))
    );
    assert!(matches!(
        store.use_token("t1", at(14), expires).await,
        Err(StoreError::Conflict)
    ));
}

async fn app_passwords_are_kept_per_player_until_revoked(store: &(impl CredentialStore + ?Sized)) {
    assert!(store.app_passwords_of("ann").await.unwrap().is_empty());
    let second = app_password("ann", "b2", 2);
    let first = app_password("ann", "a1", 1);
    store.create_app_password(&second).await.unwrap();
    store.create_app_password(&first).await.unwrap();
    store
        .create_app_password(&app_password("bob", "a1", 3))
        .await
        .unwrap();
    assert!(matches!(
        store.create_app_password(&first).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.app_passwords_of("ann").await.unwrap(),
        vec![first.clone(), second.clone()]
    );
    assert_eq!(
        store.app_password("ann", "a1").await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(store.app_password("ann", "zz").await.unwrap(), None);

    store.touch_app_password("ann", "a1", at(9)).await.unwrap();
    let touched = store.app_password("ann", "a1").await.unwrap().unwrap();
    assert_eq!(touched.last_used, Some(at(9)));
    assert_eq!(
        store
            .app_password("bob", "a1")
            .await
            .unwrap()
            .unwrap()
            .last_used,
        None
    );

    assert!(store.revoke_app_password("ann", "a1").await.unwrap());
    assert!(!store.revoke_app_password("ann", "a1").await.unwrap());
    store.touch_app_password("ann", "a1", at(10)).await.unwrap();
    assert_eq!(store.app_password("ann", "a1").await.unwrap(), None);
    assert_eq!(store.app_passwords_of("ann").await.unwrap(), vec![second]);
    assert_eq!(store.app_passwords_of("bob").await.unwrap().len(), 1);
}

store_checks!(
    app_passwords_are_kept_per_player_until_revoked,
    ; by kind:
    a_single_use_token_is_used_once,
);
