//! CounterStore: counters within their limits, and leases dropped only by their holder.

use missive_store::testing::{Kind, TestStore};
use missive_store::{CounterStore, store_checks};

use crate::fixtures::at;

async fn counters_count_within_their_limit(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let ends = at(60);
    assert!(store.count_up("c", 3, 5, at(0), ends).await.unwrap());
    assert!(
        !store.count_up("c", 3, 5, at(1), ends).await.unwrap(),
        "3 + 3 > 5"
    );
    assert!(
        store.count_up("c", 2, 5, at(2), ends).await.unwrap(),
        "a refusal counts nothing"
    );
    assert!(!store.count_up("c", 1, 5, at(3), ends).await.unwrap());
    assert!(
        store.count_up("other", 5, 5, at(3), ends).await.unwrap(),
        "counters apart"
    );
    assert!(
        !store.count_up("fresh", 6, 5, at(3), ends).await.unwrap(),
        "never past it"
    );
    assert!(store.count_up("fresh", 5, 5, at(3), ends).await.unwrap());
    // Expired at `ends`: it counts from zero again, until the new expiry.
    assert!(store.count_up("c", 4, 5, at(60), at(120)).await.unwrap());
    assert!(!store.count_up("c", 2, 5, at(61), at(180)).await.unwrap());
    assert!(store.count_up("c", 1, 5, at(119), at(180)).await.unwrap());
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..20 {
        let store = test.store.clone();
        racers.spawn(async move { store.count_up("race", 1, 7, at(0), at(60)).await });
    }
    let results: Vec<bool> = racers
        .join_all()
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(results.iter().filter(|added| **added).count(), 7);
}

async fn a_dropped_counter_starts_again_unless_restarted_since(
    store: &(impl CounterStore + ?Sized),
) {
    assert!(store.count_up("lease", 1, 1, at(0), at(10)).await.unwrap());
    assert!(
        !store.count_up("lease", 1, 1, at(1), at(11)).await.unwrap(),
        "held"
    );
    store.drop_counter("lease", at(11)).await.unwrap();
    assert!(
        !store.count_up("lease", 1, 1, at(2), at(12)).await.unwrap(),
        "not its expiry"
    );
    store.drop_counter("lease", at(10)).await.unwrap();
    assert!(
        store.count_up("lease", 1, 1, at(3), at(13)).await.unwrap(),
        "dropped"
    );
    // Taken again after it expired, it is the new holder's: the old one's drop keeps it.
    assert!(store.count_up("lease", 1, 1, at(13), at(23)).await.unwrap());
    store.drop_counter("lease", at(13)).await.unwrap();
    assert!(!store.count_up("lease", 1, 1, at(14), at(24)).await.unwrap());
    store.drop_counter("nothing", at(13)).await.unwrap();
}

store_checks!(
    a_dropped_counter_starts_again_unless_restarted_since,
    ; by kind:
    counters_count_within_their_limit,
);
