//! ChallengeStore: challenges listed while open, changed over their revision, and the
//! game the last seat starts.

use chrono::{DateTime, Utc};
use missive_domain::{ChallengeFilter, ChallengeId, ChallengeState, TimeControl};
use missive_store::{
    ChallengeStore, GameListStore, GameStore, Membership, StoreError, WakeStore, WakeSubject,
    store_checks,
};

use crate::fixtures::{at, challenge, due, every_page, start_of};

/// The ids of every open challenge `filter` lets through at `now`, page by page of 2.
async fn open_ids(
    store: &(impl ChallengeStore + ?Sized),
    filter: &ChallengeFilter,
    now: DateTime<Utc>,
) -> Vec<String> {
    let listed = every_page(2, |cursor| async move {
        store.open_challenges(filter, now, cursor.as_ref(), 2).await
    })
    .await;
    listed.into_iter().map(|c| c.id.0).collect()
}

async fn challenges_are_listed_newest_first_while_open_by_filter(
    store: &(impl ChallengeStore + ?Sized),
) {
    let published = [
        challenge("c1", "chess", 3, 1),
        challenge("c2", "xiangqi", 3, 2),
        challenge("c3", "chess", 5, 3),
        challenge("c4", "chess", 3, 4),
        challenge("c5", "chess", 3, 5),
    ];
    for challenge in &published {
        store.put_challenge(challenge, None).await.unwrap();
    }
    let all = ChallengeFilter::default();
    assert_eq!(
        open_ids(store, &all, at(10)).await,
        ["c5", "c4", "c3", "c2", "c1"]
    );
    let chess = ChallengeFilter {
        variant: Some("chess".into()),
        time_control: None,
    };
    assert_eq!(
        open_ids(store, &chess, at(10)).await,
        ["c5", "c4", "c3", "c1"]
    );
    let three_days = ChallengeFilter {
        variant: None,
        time_control: Some(TimeControl::DaysPerMove { days: 3 }),
    };
    assert_eq!(
        open_ids(store, &three_days, at(10)).await,
        ["c5", "c4", "c2", "c1"]
    );
    let both = ChallengeFilter {
        variant: Some("chess".into()),
        time_control: Some(TimeControl::DaysPerMove { days: 3 }),
    };
    assert_eq!(open_ids(store, &both, at(10)).await, ["c5", "c4", "c1"]);
    let mut withdrawn = published[3].clone();
    withdrawn.revision = 2;
    withdrawn.state = ChallengeState::Withdrawn;
    store.put_challenge(&withdrawn, None).await.unwrap();
    assert_eq!(open_ids(store, &both, at(10)).await, ["c5", "c1"]);
    assert_eq!(
        store.challenge(&withdrawn.id).await.unwrap(),
        Some(withdrawn)
    );
    // Expired: c1 at minute 101, c2 at 102, ...
    assert_eq!(open_ids(store, &all, at(102)).await, ["c5", "c3"]);
    assert!(
        store
            .challenge(&ChallengeId("none".into()))
            .await
            .unwrap()
            .is_none()
    );
    let cursor = store
        .open_challenges(&chess, at(10), None, 1)
        .await
        .unwrap()
        .next
        .unwrap();
    assert!(matches!(
        store.open_challenges(&both, at(10), Some(&cursor), 1).await,
        Err(StoreError::BadCursor)
    ));
}

async fn challenges_change_only_over_the_revision_before(store: &(impl ChallengeStore + ?Sized)) {
    let first = challenge("c1", "chess", 3, 1);
    store.put_challenge(&first, None).await.unwrap();
    assert!(matches!(
        store.put_challenge(&first, None).await,
        Err(StoreError::Conflict)
    ));
    let mut zero = first.clone();
    zero.revision = 0;
    assert!(matches!(
        store.put_challenge(&zero, None).await,
        Err(StoreError::Invalid(_))
    ));
    let mut skipped = first.clone();
    skipped.revision = 3;
    assert!(matches!(
        store.put_challenge(&skipped, None).await,
        Err(StoreError::Conflict)
    ));
    // Of eight racing replacements of revision 1, exactly one is stored.
    let racers = (0..8).map(|n| {
        let mut taken = first.clone();
        taken.revision = 2;
        taken.seats[1] = Some(format!("p{n}"));
        async move { store.put_challenge(&taken, None).await }
    });
    let results = futures_util::future::join_all(racers).await;
    let stored = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(stored, 1, "{results:?}");
    assert!(
        results
            .iter()
            .all(|r| matches!(r, Ok(()) | Err(StoreError::Conflict)))
    );
    let now = store.challenge(&first.id).await.unwrap().unwrap();
    assert_eq!(now.revision, 2);
    assert!(now.seats[1].as_deref().is_some_and(|p| p.starts_with('p')));
}

async fn the_last_seat_of_a_challenge_creates_its_game_in_the_same_write(
    store: &(impl GameStore + GameListStore + WakeStore + ChallengeStore + ?Sized),
) {
    let first = challenge("c1", "chess", 3, 1);
    store.put_challenge(&first, None).await.unwrap();
    let start = start_of("g1");
    let mut accepted = first.clone();
    accepted.revision = 2;
    accepted.seats[1] = Some("bob".into());
    accepted.state = ChallengeState::Accepted {
        game: start.head.id.clone(),
    };
    let mut not_a_start = start.clone();
    not_a_start.expected_revision = 1;
    assert!(matches!(
        store.put_challenge(&accepted, Some(&not_a_start)).await,
        Err(StoreError::Invalid(_))
    ));
    store.put_challenge(&accepted, Some(&start)).await.unwrap();
    assert_eq!(
        store.head(&start.head.id).await.unwrap(),
        Some(start.head.clone())
    );
    assert_eq!(
        store.challenge(&first.id).await.unwrap(),
        Some(accepted.clone())
    );
    let active = store
        .games_of("bob", Membership::Active, None, 5)
        .await
        .unwrap();
    assert_eq!(active.items, std::slice::from_ref(&start.head.id));
    let wakes: Vec<WakeSubject> = due(store, at(5))
        .await
        .into_iter()
        .map(|w| w.subject)
        .collect();
    assert_eq!(wakes, [WakeSubject::Game(start.head.id.clone())]);
    assert!(
        open_ids(store, &ChallengeFilter::default(), at(10))
            .await
            .is_empty()
    );
    // A start whose game exists writes nothing, the challenge included.
    let second = challenge("c2", "chess", 3, 2);
    store.put_challenge(&second, None).await.unwrap();
    let mut again = second.clone();
    again.revision = 2;
    again.state = ChallengeState::Accepted {
        game: start.head.id.clone(),
    };
    assert!(matches!(
        store.put_challenge(&again, Some(&start)).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.challenge(&second.id).await.unwrap(), Some(second));
}

store_checks!(
    challenges_are_listed_newest_first_while_open_by_filter,
    challenges_change_only_over_the_revision_before,
    the_last_seat_of_a_challenge_creates_its_game_in_the_same_write,
);
