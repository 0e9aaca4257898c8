//! WakeStore: wake-ups due in time, moved only from where they were, hastened only.

use missive_domain::{GameId, WakeChange};
use missive_store::{GameStore, WakeStore, store_checks};

use crate::fixtures::{append, at, created, due};

async fn wake_ups_are_due_in_time_and_move_only_from_where_they_were(
    store: &(impl GameStore + WakeStore + ?Sized),
) {
    let mut heads = Vec::new();
    for (id, minute) in [("a", 30), ("b", 10), ("c", 20), ("d", 40), ("e", 50)] {
        let head = created(store, id).await;
        let mut commit = append(&head, &["e2e4"], None);
        commit.wake = WakeChange::At(at(minute));
        store.commit(&commit).await.unwrap();
        heads.push(commit.head);
    }
    let names = |wakes: Vec<missive_store::Wake>| -> Vec<String> {
        wakes.into_iter().map(|w| w.subject.to_string()).collect()
    };
    assert_eq!(names(due(store, at(35)).await), ["b", "c", "a"]);
    assert!(due(store, at(5)).await.is_empty());
    let b = GameId("b".into());
    assert!(!store.move_wake(&b, at(11), Some(at(60))).await.unwrap());
    assert!(store.move_wake(&b, at(10), Some(at(60))).await.unwrap());
    assert!(!store.move_wake(&b, at(10), None).await.unwrap());
    assert_eq!(names(due(store, at(35)).await), ["c", "a"]);
    assert!(
        store
            .move_wake(&GameId("c".into()), at(20), None)
            .await
            .unwrap()
    );
    assert_eq!(names(due(store, at(100)).await), ["a", "d", "e", "b"]);
    // A change that keeps the wake-up leaves it; one that clears it removes it.
    let a = heads.remove(0);
    let keep = append(&a, &["e7e5"], None);
    store.commit(&keep).await.unwrap();
    let mut clear = append(&keep.head, &["g1f3"], None);
    clear.wake = WakeChange::Clear;
    assert_eq!(names(due(store, at(100)).await), ["a", "d", "e", "b"]);
    store.commit(&clear).await.unwrap();
    assert_eq!(names(due(store, at(100)).await), ["d", "e", "b"]);
}

async fn a_wake_up_is_hastened_only_to_an_earlier_time(
    store: &(impl GameStore + WakeStore + ?Sized),
) {
    let head = created(store, "a").await;
    let mut commit = append(&head, &["e2e4"], None);
    commit.wake = WakeChange::At(at(30));
    store.commit(&commit).await.unwrap();
    let a = GameId("a".into());
    assert!(!store.hasten_wake(&a, at(40)).await.unwrap());
    assert!(!store.hasten_wake(&a, at(30)).await.unwrap());
    assert!(store.hasten_wake(&a, at(10)).await.unwrap());
    let wakes = due(store, at(100)).await;
    assert_eq!(
        wakes
            .iter()
            .map(|w| (w.subject.to_string(), w.at))
            .collect::<Vec<_>>(),
        [("a".to_string(), at(10))]
    );
    // A game with nothing left to do (no wake-up) is left alone.
    assert!(store.move_wake(&a, at(10), None).await.unwrap());
    assert!(!store.hasten_wake(&a, at(5)).await.unwrap());
    assert!(
        !store
            .hasten_wake(&GameId("nope".into()), at(5))
            .await
            .unwrap()
    );
    assert!(due(store, at(100)).await.is_empty());
}

store_checks!(
    wake_ups_are_due_in_time_and_move_only_from_where_they_were,
    a_wake_up_is_hastened_only_to_an_earlier_time,
);
