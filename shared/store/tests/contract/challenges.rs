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

/// `creator`'s challenge `id` published at `minute`, expiring 100 minutes later.
fn by(creator: &str, id: &str, minute: i64) -> missive_domain::Challenge {
    let mut published = challenge(id, "chess", 3, minute);
    published.creator = creator.into();
    published.seats = vec![Some(creator.into()), None];
    published
}

/// `challenge` again at its next revision, in `state`.
fn closed(
    challenge: &missive_domain::Challenge,
    state: ChallengeState,
) -> missive_domain::Challenge {
    let mut closed = challenge.clone();
    closed.revision += 1;
    closed.state = state;
    closed
}

async fn a_publication_counts_its_creators_open_challenges(store: &(impl ChallengeStore + ?Sized)) {
    let first = [by("ann", "a1", 1), by("ann", "a2", 2), by("ann", "a3", 3)];
    for challenge in &first {
        assert!(store.publish_challenge(challenge, 3).await.unwrap());
    }
    let fourth = by("ann", "a4", 10);
    assert!(!store.publish_challenge(&fourth, 3).await.unwrap());
    assert_eq!(
        store.challenge(&fourth.id).await.unwrap(),
        None,
        "nothing written"
    );
    assert!(
        store
            .publish_challenge(&by("bob", "b1", 10), 3)
            .await
            .unwrap(),
        "each creator counts their own"
    );
    store
        .put_challenge(&closed(&first[0], ChallengeState::Withdrawn), None)
        .await
        .unwrap();
    assert!(
        store.publish_challenge(&fourth, 3).await.unwrap(),
        "a withdrawn one is not counted"
    );
    let game = missive_domain::GameId("g1".into());
    store
        .put_challenge(&closed(&first[1], ChallengeState::Accepted { game }), None)
        .await
        .unwrap();
    let mut taken = closed(&first[2], ChallengeState::Open);
    taken.seats[1] = Some("cid".into());
    store.put_challenge(&taken, None).await.unwrap();
    assert!(
        store
            .publish_challenge(&by("ann", "a5", 11), 3)
            .await
            .unwrap(),
        "an accepted one is not counted"
    );
    assert!(
        !store
            .publish_challenge(&by("ann", "a6", 12), 3)
            .await
            .unwrap(),
        "one open with a seat taken is"
    );
    // a3 expires at minute 103: a publication then no longer counts it.
    assert!(
        store
            .publish_challenge(&by("ann", "a6", 103), 3)
            .await
            .unwrap()
    );
    assert!(
        !store
            .publish_challenge(&by("ann", "a7", 104), 3)
            .await
            .unwrap()
    );
    assert_eq!(
        open_ids(store, &ChallengeFilter::default(), at(104)).await,
        ["a6", "a5", "b1", "a4"]
    );
    let mut second = by("ann", "a8", 200);
    second.revision = 2;
    assert!(matches!(
        store.publish_challenge(&second, 3).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store.publish_challenge(&by("bob", "b1", 200), 3).await,
        Err(StoreError::Invalid(_))
    ));
}

async fn of_racing_publications_only_those_within_the_most_are_stored(
    store: &(impl ChallengeStore + ?Sized),
) {
    let racers = (0..6).map(|n| async move {
        let challenge = by("cid", &format!("c{n}"), 1);
        loop {
            match store.publish_challenge(&challenge, 2).await {
                Err(StoreError::Conflict) => continue,
                answer => return answer.unwrap(),
            }
        }
    });
    let answers = futures_util::future::join_all(racers).await;
    assert_eq!(
        answers.iter().filter(|stored| **stored).count(),
        2,
        "{answers:?}"
    );
    assert_eq!(
        open_ids(store, &ChallengeFilter::default(), at(2))
            .await
            .len(),
        2
    );
}

store_checks!(
    a_publication_counts_its_creators_open_challenges,
    of_racing_publications_only_those_within_the_most_are_stored,
    challenges_are_listed_newest_first_while_open_by_filter,
    challenges_change_only_over_the_revision_before,
    the_last_seat_of_a_challenge_creates_its_game_in_the_same_write,
);
