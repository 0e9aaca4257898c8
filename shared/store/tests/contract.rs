//! The store contract: what every implementation must do, run against SQLite and DynamoDB
//! Local alike.

use chrono::{DateTime, Duration, Utc};
use missive_store::testing::{Kind, TestStore};
use missive_store::{
    Commit, Ending, GameDoc, GameId, Head, MailPreference, MoveRecord, Notice, Period, Player,
    SeatDoc, Status, Store, StoreError, StoredGame, TimeControl, VacationRecord, Waiting,
    contract_tests,
};

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
}

fn head(id: &str) -> Head {
    Head {
        id: GameId(id.to_string()),
        revision: 0,
        ply: 0,
        to_move: Some(0),
        position: "start".into(),
        last_hash: String::new(),
        waiting: None,
        doc: GameDoc {
            variant: "chess".into(),
            options: String::new(),
            start_position: None,
            seats: vec![
                SeatDoc::Taken {
                    player: "ann".into(),
                },
                SeatDoc::Taken {
                    player: "bob".into(),
                },
            ],
            time_control: TimeControl::DaysPerMove { days: 3 },
            rated: false,
            status: Status::Active,
            created_by: "ann".into(),
            created_at: at(0),
            started_at: Some(at(0)),
            ending: None,
            draw_offers: Vec::new(),
            conditional: Vec::new(),
            private: false,
            imported: false,
            archive_tags: Vec::new(),
        },
    }
}

/// The commit appending `texts` to `stored` (a head as stored), by alternating seats.
fn append(stored: &Head, texts: &[&str], key: Option<&str>) -> Commit {
    let mut prev = stored.last_hash.clone();
    let moves: Vec<MoveRecord> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let ply = stored.ply + i as u32;
            let record = MoveRecord {
                ply,
                seat: (ply % 2) as u8,
                long: text.to_string(),
                short: text.to_uppercase(),
                at: at(i64::from(ply) + 1),
                key: key.map(str::to_string),
                draw_offer: false,
                prev_hash: prev.clone(),
                hash: String::new(),
            }
            .sealed(&stored.id);
            prev = record.hash.clone();
            record
        })
        .collect();
    let mut head = stored.clone();
    head.revision += 1;
    head.ply += moves.len() as u32;
    head.last_hash = prev;
    head.to_move = Some((head.ply % 2) as u8);
    head.waiting = Some(Waiting {
        player: if head.ply.is_multiple_of(2) {
            "ann"
        } else {
            "bob"
        }
        .into(),
        since: at(i64::from(head.ply)),
        deadline: at(i64::from(head.ply) + 60),
    });
    Commit {
        head,
        expected_revision: stored.revision,
        expected_ply: stored.ply,
        moves,
        finishes: false,
    }
}

async fn created(store: &dyn Store, id: &str) -> Head {
    let head = head(id);
    store.create(&head).await.unwrap();
    head
}

async fn create_then_load_gives_the_head_back(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let head = created(store, "g1").await;
    let loaded = store.load(&head.id).await.unwrap().unwrap();
    assert_eq!(loaded.head, head);
    assert!(loaded.moves.is_empty());
    assert!(store.load(&GameId("nope".into())).await.unwrap().is_none());
}

async fn creating_an_existing_game_conflicts(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let head = created(store, "g1").await;
    assert!(matches!(
        store.create(&head).await,
        Err(StoreError::Conflict)
    ));
}

async fn commits_append_moves_in_order(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_stale_commit_conflicts_and_writes_nothing(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_head_only_change_races_like_a_move(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let head = created(store, "g1").await;
    let mut offer = head.clone();
    offer.revision = 1;
    offer.doc.draw_offers = vec![0];
    let offer = Commit {
        head: offer,
        expected_revision: 0,
        expected_ply: 0,
        moves: Vec::new(),
        finishes: false,
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

async fn malformed_commits_are_refused(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn waiting_lists_games_by_deadline(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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
    assert_eq!(store.waiting_for("bob", 10).await.unwrap(), expected);
    assert_eq!(store.waiting_for("bob", 2).await.unwrap(), expected[..2]);
    assert!(store.waiting_for("ann", 10).await.unwrap().is_empty());
}

async fn finished_games_leave_the_waiting_list_and_are_listed_per_player(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    for (id, minute) in [("first", 10), ("second", 20)] {
        let head = created(store, id).await;
        let mut commit = append(&head, &["e2e4"], None);
        commit.head.waiting = None;
        commit.head.to_move = None;
        commit.head.doc.status = Status::Finished;
        commit.head.doc.ending = Some(Ending {
            at: at(minute),
            rule: "resignation".into(),
            results: vec!["win".into(), "loss".into()],
            by: Some(1),
        });
        commit.finishes = true;
        store.commit(&commit).await.unwrap();
    }
    for player in ["ann", "bob"] {
        let finished = store.finished_by(player, 10).await.unwrap();
        let ids: Vec<&str> = finished.iter().map(|h| h.id.0.as_str()).collect();
        assert_eq!(ids, ["second", "first"], "{player}");
        assert!(store.waiting_for(player, 10).await.unwrap().is_empty());
    }
    assert!(store.finished_by("cid", 10).await.unwrap().is_empty());
}

async fn game_ids_lists_every_game(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    for id in ["b", "a", "c"] {
        let head = created(store, id).await;
        store
            .commit(&append(&head, &["e2e4", "e7e5"], None))
            .await
            .unwrap();
    }
    let ids: Vec<String> = store
        .game_ids()
        .await
        .unwrap()
        .into_iter()
        .map(|id| id.0)
        .collect();
    assert_eq!(ids, ["a", "b", "c"]);
}

async fn vacation_records_are_versioned(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    assert_eq!(
        store.vacation("ann").await.unwrap(),
        VacationRecord::default()
    );
    let first = VacationRecord {
        revision: 1,
        periods: vec![Period {
            start: at(0),
            end: at(60 * 24),
        }],
    };
    store.put_vacation("ann", &first).await.unwrap();
    assert!(matches!(
        store.put_vacation("ann", &first).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.vacation("ann").await.unwrap(), first);
    let mut second = first.clone();
    second.revision = 2;
    second.periods.push(Period {
        start: at(60 * 48),
        end: at(60 * 72),
    });
    store.put_vacation("ann", &second).await.unwrap();
    assert_eq!(store.vacation("ann").await.unwrap(), second);
    assert_eq!(
        store.vacation("bob").await.unwrap(),
        VacationRecord::default()
    );
}

async fn players_are_unique_by_handle_and_email(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let ann = Player {
        handle: "ann".into(),
        email: "Ann@Example.org".into(),
        created_at: at(0),
    };
    assert_eq!(store.player("ann").await.unwrap(), None);
    store.create_player(&ann).await.unwrap();
    assert_eq!(store.player("ann").await.unwrap(), Some(ann.clone()));
    assert_eq!(
        store.player_by_email("ann@example.ORG").await.unwrap(),
        Some(ann.clone())
    );
    let same_email = Player {
        handle: "bob".into(),
        email: "ann@example.org".into(),
        created_at: at(1),
    };
    let same_handle = Player {
        email: "other@example.org".into(),
        ..ann.clone()
    };
    for taken in [same_email, same_handle] {
        assert!(matches!(
            store.create_player(&taken).await,
            Err(StoreError::Conflict)
        ));
    }
    assert_eq!(store.player("bob").await.unwrap(), None);
    assert_eq!(
        store.player_by_email("other@example.org").await.unwrap(),
        None
    );
}

async fn mail_preferences_default_to_each_move_and_are_replaced(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    assert_eq!(
        store.mail_preference("ann").await.unwrap(),
        MailPreference::EachMove
    );
    for preference in [MailPreference::DailyDigest, MailPreference::None] {
        store.set_mail_preference("ann", preference).await.unwrap();
        assert_eq!(store.mail_preference("ann").await.unwrap(), preference);
    }
    assert_eq!(
        store.mail_preference("bob").await.unwrap(),
        MailPreference::EachMove
    );
}

async fn a_notice_is_claimed_once_until_released(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let game = GameId("g1".into());
    let notices = [
        Notice::Turn {
            game: game.clone(),
            ply: 3,
        },
        Notice::Reminder {
            game: game.clone(),
            ply: 3,
        },
        Notice::Ended {
            game: game.clone(),
            player: "ann".into(),
        },
        Notice::Turn { game, ply: 4 },
        Notice::Digest {
            player: "ann".into(),
            day: at(0).date_naive(),
        },
    ];
    for notice in &notices {
        assert!(
            store.claim_notice(notice, at(0)).await.unwrap(),
            "{notice:?}"
        );
    }
    for notice in &notices {
        assert!(
            !store.claim_notice(notice, at(1)).await.unwrap(),
            "{notice:?}"
        );
    }
    store.release_notice(&notices[0]).await.unwrap();
    store.release_notice(&notices[0]).await.unwrap();
    assert!(store.claim_notice(&notices[0], at(2)).await.unwrap());
    assert!(!store.claim_notice(&notices[1], at(2)).await.unwrap());
}

async fn waiting_games_lists_every_turn_by_deadline(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let mut expected = Vec::new();
    for (id, player, deadline) in [
        ("late", "ann", 300),
        ("soon", "bob", 100),
        ("mid", "cid", 200),
    ] {
        let head = created(store, id).await;
        let mut commit = append(&head, &["e2e4"], None);
        commit.head.waiting = Some(Waiting {
            player: player.into(),
            since: at(0),
            deadline: at(deadline),
        });
        store.commit(&commit).await.unwrap();
        expected.push(commit.head);
    }
    // A game nobody is to move in is not listed.
    let idle = created(store, "idle").await;
    let mut finished = append(&idle, &["e2e4"], None);
    finished.head.waiting = None;
    store.commit(&finished).await.unwrap();
    let ids = |heads: Vec<Head>| -> Vec<String> { heads.into_iter().map(|h| h.id.0).collect() };
    assert_eq!(
        ids(store.waiting_games(at(1000)).await.unwrap()),
        ["soon", "mid", "late"]
    );
    assert_eq!(
        ids(store.waiting_games(at(200)).await.unwrap()),
        ["soon", "mid"]
    );
    assert!(store.waiting_games(at(99)).await.unwrap().is_empty());
    let all = store.waiting_games(at(1000)).await.unwrap();
    assert!(all.iter().all(|head| expected.contains(head)));
}

/// A finished game of `plies` moves as an import writes it: head at revision 1, the moves,
/// an ending, and a seat named only by the archive.
fn whole_game(id: &str, plies: u32) -> StoredGame {
    let texts: Vec<String> = (0..plies).map(|ply| format!("m{ply}")).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut commit = append(&head(id), &texts, None);
    commit.head.waiting = None;
    commit.head.to_move = None;
    commit.head.doc.seats[1] = SeatDoc::Named {
        name: "Morphy".into(),
    };
    commit.head.doc.imported = true;
    commit.head.doc.archive_tags = vec![("Event".into(), "Paris".into())];
    commit.head.doc.status = Status::Finished;
    commit.head.doc.ending = Some(Ending {
        at: at(500),
        rule: "checkmate".into(),
        results: vec!["win".into(), "loss".into()],
        by: None,
    });
    StoredGame {
        head: commit.head,
        moves: commit.moves,
    }
}

async fn imported_games_are_written_whole_once(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let game = whole_game("imp", 3);
    store.import_game(&game).await.unwrap();
    assert_eq!(store.load(&game.head.id).await.unwrap(), Some(game.clone()));
    let finished = store.finished_by("ann", 10).await.unwrap();
    assert_eq!(finished, std::slice::from_ref(&game.head));
    assert!(store.finished_by("Morphy", 10).await.unwrap().is_empty());
    assert!(matches!(
        store.import_game(&game).await,
        Err(StoreError::Conflict)
    ));
    let created = created(store, "taken").await;
    let mut clash = whole_game("taken", 2);
    clash.head.id = created.id.clone();
    assert!(store.import_game(&clash).await.is_err());
    assert_eq!(
        store.load(&created.id).await.unwrap().unwrap().head,
        created
    );
}

async fn long_imported_games_are_whole_or_absent(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let game = whole_game("long", 300);
    store.import_game(&game).await.unwrap();
    let loaded = store.load(&game.head.id).await.unwrap().unwrap();
    assert_eq!(loaded.moves.len(), 300);
    assert_eq!(loaded, game);
    let mut broken = whole_game("broken", 4);
    broken.moves[2].prev_hash = "x".into();
    assert!(matches!(
        store.import_game(&broken).await,
        Err(StoreError::Invalid(_))
    ));
    let mut unended = whole_game("unended", 4);
    unended.head.revision = 2;
    assert!(matches!(
        store.import_game(&unended).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(store.load(&broken.head.id).await.unwrap().is_none());
    let ids = store.game_ids().await.unwrap();
    assert_eq!(ids, [game.head.id]);
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

contract_tests!(
    mail_preferences_default_to_each_move_and_are_replaced,
    a_notice_is_claimed_once_until_released,
    waiting_games_lists_every_turn_by_deadline,
    a_single_use_token_is_used_once,
    imported_games_are_written_whole_once,
    long_imported_games_are_whole_or_absent,
    players_are_unique_by_handle_and_email,
    create_then_load_gives_the_head_back,
    creating_an_existing_game_conflicts,
    commits_append_moves_in_order,
    a_stale_commit_conflicts_and_writes_nothing,
    a_head_only_change_races_like_a_move,
    malformed_commits_are_refused,
    waiting_lists_games_by_deadline,
    finished_games_leave_the_waiting_list_and_are_listed_per_player,
    game_ids_lists_every_game,
    vacation_records_are_versioned,
);
