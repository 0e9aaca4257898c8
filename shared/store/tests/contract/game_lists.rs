//! GameListStore: a player's lists of games, read page by page.

use missive_domain::{
    Cursor, EndRule, Ending, GameId, Head, Reason, Seat, SeatDoc, SeatResult, Status, Waiting,
};
use missive_store::{
    GameListStore, GameStore, Membership, OperatorStore, StoreError, store_checks,
};

use crate::fixtures::{all_ids, append, at, called_off, created, every_page, head};

async fn waiting_lists_games_by_deadline(store: &(impl GameStore + GameListStore + ?Sized)) {
    let mut expected = Vec::new();
    for (id, deadline) in [("late", 300), ("soon", 100), ("mid", 200)] {
        let head = created(store, id).await;
        let mut commit = append(&head, &["e2e4"], None);
        commit.head.waiting = Some(Waiting {
            player: "bob".into(),
            since: at(0),
            deadline: at(deadline),
        });
        store.commit(&commit).await.unwrap();
        expected.push((deadline, commit.head));
    }
    expected.sort_by_key(|(deadline, _)| *deadline);
    let expected: Vec<Head> = expected.into_iter().map(|(_, head)| head).collect();
    assert_eq!(
        store.waiting_for("bob", None, 10).await.unwrap().items,
        expected
    );
    let first = store.waiting_for("bob", None, 2).await.unwrap();
    assert_eq!(first.items, expected[..2]);
    let rest = store
        .waiting_for("bob", first.next.as_ref(), 2)
        .await
        .unwrap();
    assert_eq!(rest.items, expected[2..]);
    assert!(
        store
            .waiting_for("ann", None, 10)
            .await
            .unwrap()
            .items
            .is_empty()
    );
}

async fn finished_games_leave_the_waiting_list_and_are_listed_per_player(
    store: &(impl GameStore + GameListStore + ?Sized),
) {
    for (id, minute) in [("first", 10), ("second", 20)] {
        let head = created(store, id).await;
        let mut commit = append(&head, &["e2e4"], None);
        commit.head.waiting = None;
        commit.head.to_move = None;
        commit.head.doc.status = Status::Finished;
        commit.head.doc.ending = Some(Ending {
            at: at(minute),
            rule: Reason::Rule(EndRule::Resignation),
            results: vec![SeatResult::Win, SeatResult::Loss],
            by: Some(Seat(1)),
        });
        commit.finishes = true;
        store.commit(&commit).await.unwrap();
    }
    for player in ["ann", "bob"] {
        let finished = store.finished_by(player, None, 10).await.unwrap().items;
        let ids: Vec<&str> = finished.iter().map(|h| h.id.0.as_str()).collect();
        assert_eq!(ids, ["second", "first"], "{player}");
        let waiting = store.waiting_for(player, None, 10).await.unwrap();
        assert!(waiting.items.is_empty());
    }
    let none = store.finished_by("cid", None, 10).await.unwrap();
    assert!(none.items.is_empty() && none.next.is_none());
}

async fn lists_go_on_past_page_boundaries_with_private_games_among_them(
    store: &(impl GameStore + GameListStore + OperatorStore + ?Sized),
) {
    let mut waiting = Vec::new();
    for n in 0..7_i64 {
        let mut head = head(&format!("w{n}"));
        head.doc.private = n % 3 == 0;
        store.create(&head, &[]).await.unwrap();
        let mut commit = append(&head, &["e2e4"], None);
        commit.head.waiting = Some(Waiting {
            player: "bob".into(),
            since: at(0),
            deadline: at(100 - n),
        });
        store.commit(&commit).await.unwrap();
        waiting.push(commit.head.id.clone());
    }
    waiting.reverse();
    let listed = every_page(3, |cursor| async move {
        store.waiting_for("bob", cursor.as_ref(), 3).await
    })
    .await;
    let ids: Vec<GameId> = listed.iter().map(|h| h.id.clone()).collect();
    assert_eq!(ids, waiting, "earliest deadline first, each once");
    let mut finished = Vec::new();
    for n in 0..5 {
        let head = created(store, &format!("f{n}")).await;
        let mut commit = append(&head, &["e2e4"], None);
        commit.head.waiting = None;
        commit.head.doc.private = n % 2 == 0;
        commit.head.doc.status = Status::Finished;
        commit.head.doc.ending = Some(Ending {
            at: at(n),
            rule: Reason::Rule(EndRule::Resignation),
            results: vec![SeatResult::Win, SeatResult::Loss],
            by: Some(Seat(1)),
        });
        commit.finishes = true;
        store.commit(&commit).await.unwrap();
        finished.push(commit.head.id);
    }
    finished.reverse();
    let listed = every_page(2, |cursor| async move {
        store.finished_by("ann", cursor.as_ref(), 2).await
    })
    .await;
    let ids: Vec<GameId> = listed.iter().map(|h| h.id.clone()).collect();
    assert_eq!(ids, finished, "most recent first, each once");
    let active = every_page(4, |cursor| async move {
        store
            .games_of("ann", Membership::Active, cursor.as_ref(), 4)
            .await
    })
    .await;
    assert_eq!(active, waiting, "active games by deadline");
    let mut all = all_ids(store).await;
    all.sort();
    assert_eq!(all.len(), 12);
    let cursor = store
        .waiting_for("bob", None, 3)
        .await
        .unwrap()
        .next
        .unwrap();
    assert!(matches!(
        store.finished_by("ann", Some(&cursor), 3).await,
        Err(StoreError::BadCursor)
    ));
    assert!(matches!(
        store
            .waiting_for("bob", Some(&Cursor("not a cursor".into())), 3)
            .await,
        Err(StoreError::BadCursor)
    ));
    let heads = store
        .heads(&[
            waiting[2].clone(),
            GameId("none".into()),
            waiting[0].clone(),
        ])
        .await
        .unwrap();
    let ids: Vec<&GameId> = heads.iter().map(|h| &h.id).collect();
    assert_eq!(ids, [&waiting[2], &waiting[0]]);
}

async fn members_see_their_current_games_until_they_end(
    store: &(impl GameStore + GameListStore + ?Sized),
) {
    let mut forming = head("g1");
    forming.doc.status = Status::Forming;
    forming.doc.seats[1] = SeatDoc::Invited {
        player: "cid".into(),
    };
    forming.to_move = None;
    store.create(&forming, &[]).await.unwrap();
    let list = |player: &'static str, membership| async move {
        store
            .games_of(player, membership, None, 10)
            .await
            .unwrap()
            .items
    };
    assert_eq!(list("cid", Membership::Forming).await, [forming.id.clone()]);
    assert_eq!(list("ann", Membership::Forming).await, [forming.id.clone()]);
    assert!(list("ann", Membership::Active).await.is_empty());
    let mut started = append(&forming, &[], None);
    started.head.doc.seats[1] = SeatDoc::Taken {
        player: "cid".into(),
    };
    started.head.doc.status = Status::Active;
    store.commit(&started).await.unwrap();
    assert!(list("cid", Membership::Forming).await.is_empty());
    assert_eq!(list("cid", Membership::Active).await, [forming.id.clone()]);
    let mut over = append(&started.head, &["e2e4"], None);
    over.head.waiting = None;
    over.head.doc.status = Status::Cancelled;
    store.commit(&over).await.unwrap();
    for player in ["ann", "cid"] {
        assert!(list(player, Membership::Active).await.is_empty());
        assert!(list(player, Membership::Forming).await.is_empty());
    }
}

async fn games_called_off_are_listed_for_their_players_and_invitees(
    store: &(impl GameStore + GameListStore + ?Sized),
) {
    let mut invitation = head("declined");
    invitation.doc.status = Status::Forming;
    invitation.doc.seats[1] = SeatDoc::Invited {
        player: "cid".into(),
    };
    invitation.to_move = None;
    store.create(&invitation, &[]).await.unwrap();
    let declined = called_off(&invitation, Reason::Declined, 1, 10);
    store.commit(&declined).await.unwrap();
    for (id, minute) in [("aborted", 20), ("aborted-later", 30)] {
        let started = created(store, id).await;
        store
            .commit(&called_off(&started, Reason::Aborted, 0, minute))
            .await
            .unwrap();
    }
    let ids = |heads: Vec<Head>| -> Vec<String> { heads.into_iter().map(|h| h.id.0).collect() };
    let ann = every_page(2, |cursor| async move {
        store.cancelled_for("ann", cursor.as_ref(), 2).await
    })
    .await;
    assert_eq!(
        ids(ann.clone()),
        ["aborted-later", "aborted", "declined"],
        "most recent end first, each once"
    );
    assert_eq!(
        ann[2].doc.ending.as_ref().map(|e| &e.rule),
        Some(&Reason::Declined)
    );
    let cid = store.cancelled_for("cid", None, 10).await.unwrap();
    assert_eq!(ids(cid.items), ["declined"], "the invitee who declined");
    assert!(cid.next.is_none());
    let bob = store.cancelled_for("bob", None, 10).await.unwrap();
    assert_eq!(ids(bob.items), ["aborted-later", "aborted"]);
    for player in ["ann", "bob", "cid"] {
        let finished = store.finished_by(player, None, 10).await.unwrap();
        assert!(finished.items.is_empty(), "{player}: none of them finished");
    }
    let resigned = created(store, "resigned").await;
    let mut resigned = append(&resigned, &["e2e4"], None);
    resigned.head.waiting = None;
    resigned.head.doc.status = Status::Finished;
    resigned.head.doc.ending = Some(Ending {
        at: at(40),
        rule: Reason::Rule(EndRule::Resignation),
        results: vec![SeatResult::Win, SeatResult::Loss],
        by: Some(Seat(1)),
    });
    resigned.finishes = true;
    store.commit(&resigned).await.unwrap();
    let ann = store.cancelled_for("ann", None, 10).await.unwrap().items;
    assert_eq!(ann.len(), 3, "a game finished is not called off");
    let cancelled = store
        .cancelled_for("ann", None, 1)
        .await
        .unwrap()
        .next
        .unwrap();
    assert!(
        matches!(
            store.finished_by("ann", Some(&cancelled), 1).await,
            Err(StoreError::BadCursor)
        ),
        "a cursor of the cancelled list goes on only there"
    );
}

async fn games_called_off_before_their_entries_are_listed_once_kept(
    store: &(impl GameStore + GameListStore + ?Sized),
) {
    let mut old = head("old");
    old.doc.status = Status::Cancelled;
    old.doc.seats[1] = SeatDoc::Invited {
        player: "cid".into(),
    };
    old.doc.ending = Some(Ending {
        at: at(5),
        rule: Reason::Declined,
        results: Vec::new(),
        by: Some(Seat(1)),
    });
    old.to_move = None;
    store.create(&old, &[]).await.unwrap();
    let active = created(store, "active").await;
    store.keep_cancelled(&active).await.unwrap();
    assert!(
        store
            .cancelled_for("ann", None, 10)
            .await
            .unwrap()
            .items
            .is_empty()
    );
    for _ in 0..2 {
        store.keep_cancelled(&old).await.unwrap();
    }
    for player in ["ann", "cid"] {
        let listed = store.cancelled_for(player, None, 10).await.unwrap().items;
        assert_eq!(listed, std::slice::from_ref(&old), "{player}: once");
    }
}

store_checks!(
    waiting_lists_games_by_deadline,
    games_called_off_before_their_entries_are_listed_once_kept,
    games_called_off_are_listed_for_their_players_and_invitees,
    finished_games_leave_the_waiting_list_and_are_listed_per_player,
    lists_go_on_past_page_boundaries_with_private_games_among_them,
    members_see_their_current_games_until_they_end,
);
