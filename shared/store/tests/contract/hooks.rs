//! HookStore: webhooks changed over their revision, due while active.

use chrono::{DateTime, Utc};
use missive_domain::{Hook, HookId, HookState, PushKeys};
use missive_store::{HookStore, StoreError, WakeStore, WakeSubject, store_checks};

use crate::fixtures::{at, due};

fn hook(id: &str, player: &str, created: i64) -> Hook {
    Hook {
        id: HookId(id.into()),
        player: player.into(),
        url: format!("https://example.org/{id}"),
        secret: "s3cret".into(),
        created_at: at(created),
        revision: 1,
        position: None,
        state: HookState::Active,
        failures: 0,
        due: None,
        log: Vec::new(),
        push: None,
    }
}

/// The webhooks due by `until` (the hook wake-ups of every shard), earliest first.
async fn due_hooks(store: &(impl WakeStore + ?Sized), until: DateTime<Utc>) -> Vec<Hook> {
    due(store, until)
        .await
        .into_iter()
        .filter_map(|wake| match wake.subject {
            WakeSubject::Hook(hook) => Some(*hook),
            _ => None,
        })
        .collect()
}

async fn hooks_change_over_their_revision_and_are_due_while_active(
    store: &(impl WakeStore + HookStore + ?Sized),
) {
    let first = hook("h1", "ann", 1);
    store.put_hook(&first).await.unwrap();
    assert!(matches!(
        store.put_hook(&first).await,
        Err(StoreError::Conflict)
    ));
    let second = Hook {
        due: Some(at(5)),
        ..hook("h2", "ann", 2)
    };
    store.put_hook(&second).await.unwrap();
    // A Web Push subscription is a hook with its keys.
    let pushed = Hook {
        push: Some(PushKeys {
            p256dh: "BPublicKey".into(),
            auth: "secret".into(),
        }),
        ..hook("h3", "bob", 3)
    };
    store.put_hook(&pushed).await.unwrap();
    assert_eq!(store.hooks_of("bob").await.unwrap(), vec![pushed]);
    assert_eq!(
        store.hooks_of("ann").await.unwrap(),
        vec![first.clone(), second.clone()]
    );
    assert!(due_hooks(store, at(4)).await.is_empty());
    assert_eq!(due_hooks(store, at(5)).await, vec![second.clone()]);
    // Due earliest first; a disabled hook is never due; a stale revision writes nothing.
    let mut due_first = first.clone();
    due_first.revision = 2;
    due_first.due = Some(at(3));
    due_first.position = Some("p".into());
    store.put_hook(&due_first).await.unwrap();
    let stale = Hook {
        url: "https://stale.example.org".into(),
        ..due_first.clone()
    };
    assert!(matches!(
        store.put_hook(&stale).await,
        Err(StoreError::Conflict)
    ));
    let ids: Vec<HookId> = due_hooks(store, at(6))
        .await
        .into_iter()
        .map(|h| h.id)
        .collect();
    assert_eq!(ids, vec![HookId("h1".into()), HookId("h2".into())]);
    let disabled = Hook {
        revision: 2,
        state: HookState::Disabled { at: at(6) },
        ..second.clone()
    };
    store.put_hook(&disabled).await.unwrap();
    assert_eq!(due_hooks(store, at(6)).await, vec![due_first.clone()]);
    assert!(matches!(
        store
            .put_hook(&Hook {
                revision: 0,
                ..hook("h4", "ann", 4)
            })
            .await,
        Err(StoreError::Invalid(_))
    ));
    // Removed for its player only.
    store
        .delete_hook("bob", &HookId("h1".into()))
        .await
        .unwrap();
    store
        .delete_hook("ann", &HookId("h1".into()))
        .await
        .unwrap();
    assert_eq!(store.hooks_of("ann").await.unwrap(), vec![disabled]);
    assert!(due_hooks(store, at(6)).await.is_empty());
    let removed = Hook {
        revision: 3,
        ..due_first
    };
    assert!(matches!(
        store.put_hook(&removed).await,
        Err(StoreError::Conflict)
    ));
}

store_checks!(hooks_change_over_their_revision_and_are_due_while_active,);
