//! FeedStore: feed items written with their change and each given once, in order.

use chrono::{DateTime, Duration, Utc};
use missive_domain::{
    ChallengeState, FeedEntry, FeedEvent, FeedItem, GameId, Seat, Tournament, TournamentState,
};
use missive_store::{
    ChallengeStore, FeedStore, GameStore, StoreError, TournamentStore, store_checks,
};

use crate::fixtures::{append, at, challenge, head, start_of};

/// A feed item for `player` about game `game` at `time`.
fn told(player: &str, game: &str, time: DateTime<Utc>, event: FeedEvent) -> FeedItem {
    FeedItem {
        recipient: player.into(),
        at: time,
        game: Some(GameId(game.into())),
        event,
    }
}

fn moved(ply: u32, player: &str) -> FeedEvent {
    FeedEvent::Moved {
        ply,
        seat: Seat((ply % 2) as u8),
        player: player.into(),
        long: "e2e4".into(),
        short: "e4".into(),
        draw_offer: false,
        conditional: false,
    }
}

/// Every item of `player`'s feed from `after` on, a page of `size` at a time, and the
/// position after the last.
async fn whole_feed(
    store: &(impl FeedStore + ?Sized),
    player: &str,
    mut after: Option<String>,
    size: usize,
) -> (Vec<FeedEntry>, String) {
    let mut entries = Vec::new();
    loop {
        let page = store
            .feed(player, after.as_deref(), at(0), size)
            .await
            .unwrap();
        let done = page.entries.len() < size;
        entries.extend(page.entries);
        after = Some(page.position);
        if done {
            return (entries, after.unwrap());
        }
    }
}

async fn feed_items_are_written_with_their_change_and_read_in_order(
    store: &(impl GameStore + ChallengeStore + FeedStore + ?Sized),
) {
    let invited = told("bob", "g1", at(1), FeedEvent::Invited { by: "ann".into() });
    let head = head("g1");
    store
        .create(&head, std::slice::from_ref(&invited))
        .await
        .unwrap();
    let mut first = append(&head, &["e2e4"], None);
    first.feed = vec![
        told("bob", "g1", at(2), moved(0, "ann")),
        told("ann", "g1", at(2), FeedEvent::GameStarted),
    ];
    store.commit(&first).await.unwrap();
    // A commit that loses its race writes no feed item either.
    let mut stale = append(&head, &["d2d4"], None);
    stale.feed = vec![told("bob", "g1", at(2), moved(0, "ann"))];
    assert!(matches!(
        store.commit(&stale).await,
        Err(StoreError::Conflict)
    ));
    let mut second = append(&first.head, &["e7e5"], None);
    second.feed = vec![told("ann", "g1", at(3), moved(1, "bob"))];
    store.commit(&second).await.unwrap();
    let mut start = start_of("g2");
    start.feed = vec![told("bob", "g2", at(4), FeedEvent::GameStarted)];
    let offered = challenge("c1", "chess", 3, 1);
    store.put_challenge(&offered, None).await.unwrap();
    let mut accepted = offered.clone();
    accepted.revision = 2;
    accepted.state = ChallengeState::Accepted {
        game: start.head.id.clone(),
    };
    store.put_challenge(&accepted, Some(&start)).await.unwrap();

    let (bobs, end) = whole_feed(store, "bob", None, 1).await;
    let items: Vec<FeedItem> = bobs.iter().map(|e| e.item.clone()).collect();
    assert_eq!(
        items,
        vec![invited, first.feed[0].clone(), start.feed[0].clone()]
    );
    let ids: std::collections::HashSet<&str> = bobs.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids.len(), 3);
    // Each entry's position goes on right after it.
    let after_first = store
        .feed("bob", Some(&bobs[0].position), at(0), 10)
        .await
        .unwrap();
    assert_eq!(after_first.entries, bobs[1..].to_vec());
    // Past the end: nothing, and the same place to go on from.
    let (more, again) = whole_feed(store, "bob", Some(end.clone()), 5).await;
    assert!(more.is_empty());
    let mut third = append(&second.head, &["g1f3"], None);
    third.feed = vec![told("bob", "g1", at(5), moved(2, "ann"))];
    store.commit(&third).await.unwrap();
    let (last, _) = whole_feed(store, "bob", Some(again), 5).await;
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].item, third.feed[0]);

    let (anns, _) = whole_feed(store, "ann", None, 10).await;
    let items: Vec<FeedItem> = anns.into_iter().map(|e| e.item).collect();
    assert_eq!(items, vec![first.feed[1].clone(), second.feed[0].clone()]);
    // Items older than asked for are left out; a position from elsewhere is refused.
    let recent = store.feed("bob", None, at(4), 10).await.unwrap();
    assert_eq!(recent.entries.len(), 2);
    assert!(matches!(
        store.feed("bob", Some("not-a-position"), at(0), 10).await,
        Err(StoreError::BadCursor)
    ));
}

async fn a_feed_item_that_lands_after_a_later_one_is_given_once(
    store: &(impl GameStore + FeedStore + ?Sized),
) {
    let (one, two) = (head("g1"), head("g2"));
    store.create(&one, &[]).await.unwrap();
    store.create(&two, &[]).await.unwrap();
    let mut later = append(&one, &["e2e4"], None);
    later.feed = vec![told("bob", "g1", at(10), moved(0, "ann"))];
    store.commit(&later).await.unwrap();
    let (seen, position) = whole_feed(store, "bob", None, 10).await;
    assert_eq!(seen.len(), 1);
    // Another game's change, decided half a minute earlier, commits only now.
    let mut earlier = append(&two, &["d2d4"], None);
    earlier.feed = vec![told(
        "bob",
        "g2",
        at(10) - Duration::seconds(30),
        moved(0, "ann"),
    )];
    store.commit(&earlier).await.unwrap();
    let (late, position) = whole_feed(store, "bob", Some(position), 10).await;
    let items: Vec<FeedItem> = late.into_iter().map(|e| e.item).collect();
    assert_eq!(items, earlier.feed);
    let (none, _) = whole_feed(store, "bob", Some(position), 10).await;
    assert!(none.is_empty());
}

/// The items of a change committed without them, told after it: in the feed then, told
/// again (a retry) given once.
async fn a_change_told_after_its_commit_is_given_once(
    store: &(impl GameStore + FeedStore + ?Sized),
) {
    let head = head("g1");
    store.create(&head, &[]).await.unwrap();
    let first = append(&head, &["e2e4"], None);
    store.commit(&first).await.unwrap();
    let items = vec![
        told("bob", "g1", at(2), moved(0, "ann")),
        told("bob", "g1", at(2), FeedEvent::GameStarted),
    ];
    let (none, position) = whole_feed(store, "bob", None, 10).await;
    assert!(none.is_empty());
    let now = at(2) + Duration::seconds(2);
    for _ in 0..2 {
        store.tell(&head.id, 1, &items, now).await.unwrap();
    }
    let (entries, _) = whole_feed(store, "bob", Some(position), 10).await;
    let given: Vec<FeedItem> = entries.iter().map(|e| e.item.clone()).collect();
    assert_eq!(given, items);
    assert_ne!(entries[0].id, entries[1].id);
}

/// An item told long after its change, when a reader has passed its time: that reader is
/// given it, with the id a reader from the start is given; told late again, it adds
/// nothing more.
async fn a_change_told_late_reaches_a_reader_past_its_time(
    store: &(impl GameStore + FeedStore + ?Sized),
) {
    let (one, two) = (head("g1"), head("g2"));
    store.create(&one, &[]).await.unwrap();
    store.create(&two, &[]).await.unwrap();
    let mut later = append(&two, &["d2d4"], None);
    later.feed = vec![told("bob", "g2", at(20), moved(0, "ann"))];
    store.commit(&later).await.unwrap();
    let (seen, past) = whole_feed(store, "bob", None, 10).await;
    assert_eq!(seen.len(), 1);
    let late = vec![told("bob", "g1", at(2), moved(0, "ann"))];
    store.commit(&append(&one, &["e2e4"], None)).await.unwrap();
    store.tell(&one.id, 1, &late, at(30)).await.unwrap();
    let (given, position) = whole_feed(store, "bob", Some(past), 10).await;
    assert_eq!(given.len(), 1);
    assert_eq!(given[0].item, late[0]);
    let (all, _) = whole_feed(store, "bob", None, 10).await;
    let first = all.iter().find(|entry| entry.item == late[0]).unwrap();
    assert_eq!(first.id, given[0].id);
    store.tell(&one.id, 1, &late, at(40)).await.unwrap();
    let (again, _) = whole_feed(store, "bob", Some(position), 10).await;
    assert_eq!(again, Vec::new());
}

/// A tournament's change writes the items that tell its players of it, items about no
/// game; a change that loses its race writes none.
async fn a_tournaments_change_writes_its_items_with_it(
    store: &(impl TournamentStore + FeedStore + ?Sized),
) {
    let open = missive_store::testing::open_tournament("t1", at(0), 1);
    store.put_tournament(&open).await.unwrap();
    let started = FeedEvent::TournamentStarted {
        tournament: open.id.clone(),
        name: open.name.clone(),
    };
    let told = |player: &str| FeedItem {
        recipient: player.into(),
        at: at(1),
        game: None,
        event: started.clone(),
    };
    let running = Tournament {
        revision: 2,
        state: TournamentState::Running,
        ..open.clone()
    };
    store
        .put_tournament_telling(&running, &[told("ann"), told("bob")])
        .await
        .unwrap();
    let stale = Tournament {
        name: "stale".into(),
        ..running.clone()
    };
    assert!(matches!(
        store.put_tournament_telling(&stale, &[told("ann")]).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.tournament(&open.id).await.unwrap(), Some(running));
    for player in ["ann", "bob"] {
        let (entries, _) = whole_feed(store, player, None, 10).await;
        let items: Vec<FeedItem> = entries.into_iter().map(|e| e.item).collect();
        assert_eq!(items, vec![told(player)], "{player}");
    }
}

store_checks!(
    feed_items_are_written_with_their_change_and_read_in_order,
    a_change_told_after_its_commit_is_given_once,
    a_change_told_late_reaches_a_reader_past_its_time,
    a_feed_item_that_lands_after_a_later_one_is_given_once,
    a_tournaments_change_writes_its_items_with_it,
);
