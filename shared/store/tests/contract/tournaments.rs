//! TournamentStore: tournaments changed over their revision and listed newest first, due
//! while they start, and the games their starts create.

use missive_domain::{
    Commit, GameId, Page, StartJob, Tournament, TournamentGame, TournamentId, TournamentStart,
    TournamentState, WakeChange,
};
use missive_store::{
    GameListStore, GameStore, Membership, StoreError, TournamentStore, WakeStore, WakeSubject,
    store_checks,
};

use crate::fixtures::{append, at, created, due, start_of};

fn tournament(id: &str, minute: i64, revision: u64) -> Tournament {
    missive_store::testing::open_tournament(id, at(minute), revision)
}

async fn tournaments_change_over_their_revision_and_are_listed_newest_first(
    store: &(impl GameStore + WakeStore + TournamentStore + ?Sized),
) {
    for (index, id) in ["t1", "t2", "t3"].into_iter().enumerate() {
        store
            .put_tournament(&tournament(id, index as i64, 1))
            .await
            .unwrap();
    }
    assert!(matches!(
        store.put_tournament(&tournament("t1", 0, 1)).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.put_tournament(&tournament("t9", 0, 0)).await,
        Err(StoreError::Invalid(_))
    ));
    let mut joined = tournament("t1", 0, 2);
    joined.players.push("bob".into());
    store.put_tournament(&joined).await.unwrap();
    let stale = Tournament {
        name: "stale".into(),
        ..joined.clone()
    };
    assert!(matches!(
        store.put_tournament(&stale).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.tournament(&joined.id).await.unwrap(),
        Some(joined.clone())
    );
    assert_eq!(
        store
            .tournament(&TournamentId("none".into()))
            .await
            .unwrap(),
        None
    );
    let first = store.tournaments(None, 2).await.unwrap();
    let ids = |page: &Page<Tournament>| -> Vec<String> {
        page.items.iter().map(|t| t.id.0.clone()).collect()
    };
    assert_eq!(ids(&first), ["t3", "t2"]);
    let rest = store.tournaments(first.next.as_ref(), 2).await.unwrap();
    assert_eq!(ids(&rest), ["t1"]);
    assert_eq!(rest.items[0], joined);
    assert!(rest.next.is_none());
    // Due to start: open with a start date reached, a wake-up in the sweep's index beside
    // the games' (in the shard of its id); no longer once started.
    let dated = Tournament {
        start: TournamentStart::At { at: at(10) },
        ..tournament("t4", 3, 1)
    };
    store.put_tournament(&dated).await.unwrap();
    let game = created(store, "g").await;
    let mut commit = append(&game, &["e2e4"], None);
    commit.wake = WakeChange::At(at(10));
    store.commit(&commit).await.unwrap();
    let subjects = |wakes: Vec<missive_store::Wake>| -> Vec<WakeSubject> {
        wakes.into_iter().map(|w| w.subject).collect()
    };
    assert!(due(store, at(9)).await.is_empty());
    assert_eq!(
        subjects(due(store, at(10)).await),
        [
            WakeSubject::Game(game.id.clone()),
            WakeSubject::Tournament(dated.id.clone())
        ]
    );
    let started = Tournament {
        revision: 2,
        state: TournamentState::Running,
        ..dated
    };
    store.put_tournament(&started).await.unwrap();
    assert_eq!(
        subjects(due(store, at(11)).await),
        [WakeSubject::Game(game.id.clone())]
    );
    assert_eq!(store.tournament(&started.id).await.unwrap(), Some(started));
}

/// A starting tournament is due in the sweep's index when its start job is (the moment its
/// start stopped, or its lease's end); once running, it is not. Its games and job are kept.
async fn a_starting_tournament_is_due_until_it_runs(
    store: &(impl WakeStore + TournamentStore + ?Sized),
) {
    let open = tournament("t1", 1, 1);
    store.put_tournament(&open).await.unwrap();
    assert!(due(store, at(100)).await.is_empty());
    let starting = Tournament {
        revision: 2,
        state: TournamentState::Starting,
        started_at: Some(at(2)),
        games: vec![TournamentGame {
            game: GameId("g1".into()),
            players: vec!["ann".into(), "bob".into()],
            round: 1,
        }],
        start_job: Some(StartJob {
            created: 0,
            due: at(5),
        }),
        ..open
    };
    store.put_tournament(&starting).await.unwrap();
    assert!(due(store, at(4)).await.is_empty(), "a start is at it");
    let stopped = Tournament {
        revision: 3,
        start_job: Some(StartJob {
            created: 1,
            due: at(3),
        }),
        ..starting
    };
    store.put_tournament(&stopped).await.unwrap();
    let wakes = due(store, at(3)).await;
    assert_eq!(
        wakes,
        [missive_store::Wake {
            subject: WakeSubject::Tournament(stopped.id.clone()),
            at: at(3),
        }]
    );
    assert_eq!(
        store.tournament(&stopped.id).await.unwrap().as_ref(),
        Some(&stopped)
    );
    let running = Tournament {
        revision: 4,
        state: TournamentState::Running,
        start_job: None,
        ..stopped
    };
    store.put_tournament(&running).await.unwrap();
    assert!(due(store, at(100)).await.is_empty());
    assert_eq!(store.tournament(&running.id).await.unwrap(), Some(running));
}

async fn games_created_started_are_each_whole_once(
    store: &(impl GameStore + GameListStore + TournamentStore + ?Sized),
) {
    let starts: Vec<Commit> = (1..=30).map(|n| start_of(&format!("s{n}"))).collect();
    let answers = store.create_started(&starts).await;
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    for start in &starts {
        assert_eq!(
            store.head(&start.head.id).await.unwrap(),
            Some(start.head.clone())
        );
    }
    let active = store
        .games_of("bob", Membership::Active, None, 50)
        .await
        .unwrap();
    assert_eq!(active.items.len(), 30);
    // Again: every game exists, so each is a conflict and nothing changes; a new one
    // among them is created all the same, and a commit that is no start is invalid.
    let mut again = starts[..2].to_vec();
    again.push(start_of("s31"));
    let mut not_a_start = start_of("s32");
    not_a_start.expected_revision = 1;
    again.push(not_a_start);
    let answers = store.create_started(&again).await;
    assert!(matches!(answers[0], Err(StoreError::Conflict)));
    assert!(matches!(answers[1], Err(StoreError::Conflict)));
    assert!(answers[2].is_ok());
    assert!(matches!(answers[3], Err(StoreError::Invalid(_))));
    assert!(store.head(&GameId("s32".into())).await.unwrap().is_none());
    assert!(store.create_started(&[]).await.is_empty());
}

store_checks!(
    tournaments_change_over_their_revision_and_are_listed_newest_first,
    a_starting_tournament_is_due_until_it_runs,
    games_created_started_are_each_whole_once,
);
