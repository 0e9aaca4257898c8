//! GameStore: games created, read whole or by their head, committed to only over the
//! revision read, their logs chained and their keys used once.

use missive_domain::{
    Commit, EndRule, EventRecord, GameEvent, GameId, MoveRecord, Seat, WakeChange,
};
use missive_store::testing::{Kind, TestStore};
use missive_store::{GameStore, OperatorStore, StoreError, store_checks};

use crate::fixtures::{append, at, created};

/// An event after the moves of `commit`, chained to its last entry.
fn with_event(mut commit: Commit, event: GameEvent, seat: Option<Seat>) -> Commit {
    let record = EventRecord {
        seq: commit.expected_events + commit.events.len() as u32,
        ply: commit.head.ply,
        seat,
        at: at(i64::from(commit.head.ply) + 2),
        event,
        prev_hash: commit.head.last_hash.clone(),
        hash: String::new(),
    }
    .sealed(&commit.head.id);
    commit.head.last_hash = record.hash.clone();
    commit.head.events += 1;
    commit.events.push(record);
    commit
}

async fn create_then_load_gives_the_head_back(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let loaded = store.load(&head.id).await.unwrap().unwrap();
    assert_eq!(loaded.head, head);
    assert!(loaded.moves.is_empty());
    assert!(store.load(&GameId("nope".into())).await.unwrap().is_none());
}

async fn creating_an_existing_game_conflicts(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    assert!(matches!(
        store.create(&head, &[]).await,
        Err(StoreError::Conflict)
    ));
}

async fn commits_append_moves_in_order(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let first = append(&head, &["e2e4"], Some("k1"));
    store.commit(&first).await.unwrap();
    let second = append(&first.head, &["e7e5", "g1f3"], None);
    store.commit(&second).await.unwrap();
    let loaded = store.load(&head.id).await.unwrap().unwrap();
    assert_eq!(loaded.head, second.head);
    let expected: Vec<MoveRecord> = first.moves.into_iter().chain(second.moves).collect();
    assert_eq!(loaded.moves, expected);
}

/// The entries of one commit read back by their numbers, whatever came before and after.
async fn a_commits_entries_are_read_back_by_their_numbers(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let first = append(&head, &["e2e4"], None);
    store.commit(&first).await.unwrap();
    let second = with_event(
        append(&first.head, &["e7e5", "g1f3"], None),
        GameEvent::DrawOffered,
        Some(Seat(0)),
    );
    store.commit(&second).await.unwrap();
    store
        .commit(&append(&second.head, &["b8c6"], None))
        .await
        .unwrap();
    let read = store.entries(&head.id, 1..3, 0..1).await.unwrap();
    assert_eq!(read, (second.moves.clone(), second.events.clone()));
    let (moves, events) = store.entries(&head.id, 1..3, 0..0).await.unwrap();
    assert_eq!((moves, events.len()), (second.moves, 0));
    let (moves, events) = store.entries(&head.id, 3..9, 1..4).await.unwrap();
    assert_eq!((moves.len(), events.len()), (1, 0));
    let none = store.entries(&GameId("nope".into()), 0..1, 0..1).await;
    assert_eq!(none.unwrap(), (Vec::new(), Vec::new()));
}

async fn a_stale_commit_conflicts_and_writes_nothing(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let winner = append(&head, &["e2e4"], None);
    let loser = append(&head, &["d2d4"], None);
    store.commit(&winner).await.unwrap();
    assert!(matches!(
        store.commit(&loser).await,
        Err(StoreError::Conflict)
    ));
    let loaded = store.load(&head.id).await.unwrap().unwrap();
    assert_eq!(loaded.head, winner.head);
    assert_eq!(loaded.moves, winner.moves);
}

async fn a_head_only_change_races_like_a_move(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let mut offer = head.clone();
    offer.revision = 1;
    offer.doc.draw_offers = vec![Seat(0)];
    let offer = Commit {
        head: offer,
        expected_revision: 0,
        expected_ply: 0,
        expected_events: 0,
        moves: Vec::new(),
        events: Vec::new(),
        finishes: false,
        cancels: false,
        wake: WakeChange::Keep,
        feed: Vec::new(),
    };
    store.commit(&offer).await.unwrap();
    // A move decided on the state before the offer must not pass.
    assert!(matches!(
        store.commit(&append(&head, &["e2e4"], None)).await,
        Err(StoreError::Conflict)
    ));
    store
        .commit(&append(&offer.head, &["e2e4"], None))
        .await
        .unwrap();
}

async fn malformed_commits_are_refused(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let mut skipped = append(&head, &["e2e4"], None);
    skipped.head.revision += 1;
    let mut misnumbered = append(&head, &["e2e4"], None);
    misnumbered.moves[0].ply = 5;
    for bad in [skipped, misnumbered] {
        assert!(matches!(
            store.commit(&bad).await,
            Err(StoreError::Invalid(_))
        ));
    }
    assert_eq!(store.load(&head.id).await.unwrap().unwrap().head, head);
}

async fn the_server_s_events_and_conditional_moves_read_back(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let mut first = append(&head, &["e2e4", "e7e5"], None);
    first.moves[1].conditional = true;
    first.moves[1] = first.moves[1].clone().sealed(&head.id);
    first.head.last_hash = first.moves[1].hash.clone();
    let first = with_event(
        first,
        GameEvent::VacationTaken {
            from: at(100),
            to: at(100 + 7 * 24 * 60),
        },
        Some(Seat(0)),
    );
    store.commit(&first).await.unwrap();
    let mut second = with_event(
        append(&first.head, &[], None),
        GameEvent::ClaimRefused {
            rule: EndRule::ThreefoldRepetition,
        },
        Some(Seat(0)),
    );
    second = with_event(second, GameEvent::DrawWithdrawn, Some(Seat(1)));
    second = with_event(
        second,
        GameEvent::Eliminated { heir: Seat(0) },
        Some(Seat(1)),
    );
    store.commit(&second).await.unwrap();
    let loaded = store.load(&head.id).await.unwrap().unwrap();
    assert!(loaded.moves[1].conditional && !loaded.moves[0].conditional);
    let events: Vec<GameEvent> = loaded.events.iter().map(|e| e.event.clone()).collect();
    assert_eq!(
        events,
        [
            first.events[0].event.clone(),
            second.events[0].event.clone(),
            GameEvent::DrawWithdrawn,
            GameEvent::Eliminated { heir: Seat(0) },
        ]
    );
    assert_eq!(
        loaded.events,
        [first.events.clone(), second.events.clone()].concat()
    );
}

async fn a_head_is_one_record_whatever_the_log(store: &(impl GameStore + OperatorStore + ?Sized)) {
    let mut head = created(store, "long").await;
    for _ in 0..30 {
        let commit = append(&head, &["a", "b"], None);
        store.commit(&commit).await.unwrap();
        head = commit.head;
    }
    let before = store.usage();
    assert_eq!(store.head(&head.id).await.unwrap(), Some(head.clone()));
    let after = store.usage();
    assert_eq!(
        (
            after.reads - before.reads,
            after.items_read - before.items_read
        ),
        (1, 1)
    );
    assert!(store.head(&GameId("nope".into())).await.unwrap().is_none());
    assert_eq!(store.load(&head.id).await.unwrap().unwrap().moves.len(), 60);
}

async fn events_are_chained_with_the_moves_in_log_order(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let first = with_event(
        append(&head, &["e2e4"], None),
        GameEvent::DrawOffered,
        Some(Seat(0)),
    );
    store.commit(&first).await.unwrap();
    let second = with_event(
        append(&first.head, &[], None),
        GameEvent::DrawDeclined,
        Some(Seat(1)),
    );
    store.commit(&second).await.unwrap();
    let third = append(&second.head, &["e7e5"], Some("k"));
    store.commit(&third).await.unwrap();
    let loaded = store.load(&head.id).await.unwrap().unwrap();
    assert_eq!(loaded.events.len(), 2);
    let order: Vec<String> = loaded
        .entries()
        .iter()
        .map(|entry| match entry {
            missive_domain::LogEntry::Move(mv) => mv.long.clone(),
            missive_domain::LogEntry::Event(event) => format!("{:?}", event.event),
        })
        .collect();
    assert_eq!(order, ["e2e4", "DrawOffered", "DrawDeclined", "e7e5"]);
    let entries = loaded.entries();
    assert!(
        entries
            .windows(2)
            .all(|pair| pair[1].prev_hash() == pair[0].hash())
    );
    assert!(entries.iter().all(|e| e.hash() == e.chain_hash(&head.id)));
    assert_eq!(entries.last().unwrap().hash(), loaded.head.last_hash);
    // An event numbered as if the log had none is refused.
    let mut stale = with_event(
        append(&third.head, &[], None),
        GameEvent::Resigned,
        Some(Seat(0)),
    );
    stale.events[0].seq = 0;
    stale.events[0] = stale.events[0].clone().sealed(&head.id);
    stale.head.last_hash = stale.events[0].hash.clone();
    assert!(matches!(
        store.commit(&stale).await,
        Err(StoreError::Invalid(_))
    ));
}

async fn a_reused_idempotency_key_writes_nothing(store: &(impl GameStore + ?Sized)) {
    let head = created(store, "g1").await;
    let first = append(&head, &["e2e4"], Some("k1"));
    store.commit(&first).await.unwrap();
    let second = append(&first.head, &["e7e5"], Some("k1"));
    store.commit(&second).await.unwrap();
    // Seat 0 used k1 already.
    let again = append(&second.head, &["g1f3"], Some("k1"));
    assert!(matches!(
        store.commit(&again).await,
        Err(StoreError::KeyUsed)
    ));
    assert_eq!(
        store.head(&head.id).await.unwrap(),
        Some(second.head.clone())
    );
    store
        .commit(&append(&second.head, &["g1f3"], Some("k2")))
        .await
        .unwrap();
}

async fn an_unreadable_time_is_corrupt(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let head = created(store, "g1").await;
    test.write_raw_move("g1", 0, "99999999999999999").await;
    assert!(matches!(
        store.load(&head.id).await,
        Err(StoreError::Corrupt(_))
    ));
}

store_checks!(
    create_then_load_gives_the_head_back,
    creating_an_existing_game_conflicts,
    commits_append_moves_in_order,
    a_commits_entries_are_read_back_by_their_numbers,
    a_stale_commit_conflicts_and_writes_nothing,
    a_head_only_change_races_like_a_move,
    malformed_commits_are_refused,
    the_server_s_events_and_conditional_moves_read_back,
    a_head_is_one_record_whatever_the_log,
    events_are_chained_with_the_moves_in_log_order,
    a_reused_idempotency_key_writes_nothing,
    ; by kind:
    an_unreadable_time_is_corrupt,
);
