//! The store contract: what every implementation must do, run against SQLite and DynamoDB
//! Local alike.

use chrono::{DateTime, Duration, Utc};
use missive_domain::{
    AppPassword, Challenge, ChallengeFilter, ChallengeId, ChallengeState, Commit, Cursor, EndRule,
    Ending, EventRecord, FeedEntry, FeedEvent, FeedItem, GameDoc, GameEvent, GameId, Head, Hook,
    HookId, HookState, LeaveEdge, MailPreference, MessageMail, MoveRecord, Notice, Page, Period,
    Player, RatingChange, RatingRecord, Reason, Seat, SeatDoc, SeatResult, StartJob, Status,
    StoredGame, TimeControl, Tournament, TournamentGame, TournamentId, TournamentStart,
    TournamentState, VacationRecord, Waiting, WakeChange,
};
use missive_store::testing::{Kind, TestStore};
use missive_store::{Membership, Store, StoreError, WakeSubject, contract_tests};

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
}

fn head(id: &str) -> Head {
    Head {
        id: GameId(id.to_string()),
        revision: 0,
        ply: 0,
        to_move: Some(Seat(0)),
        position: "start".into(),
        last_hash: String::new(),
        events: 0,
        waiting: None,
        resume: None,
        doc: GameDoc {
            variant: "chess".into(),
            options: String::new(),
            edition: 1,
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
            verified: false,
            tournament: None,
            pauses: Vec::new(),
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
                seat: Seat((ply % 2) as u8),
                long: text.to_string(),
                short: text.to_uppercase(),
                at: at(i64::from(ply) + 1),
                key: key.map(str::to_string),
                draw_offer: false,
                conditional: false,
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
    head.to_move = Some(Seat((head.ply % 2) as u8));
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
        expected_events: stored.events,
        moves,
        events: Vec::new(),
        finishes: false,
        wake: WakeChange::Keep,
        feed: Vec::new(),
    }
}

/// Every game id, page by page.
async fn all_ids(store: &dyn Store) -> Vec<GameId> {
    let mut ids = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let page = store.game_ids(cursor.as_ref(), 2).await.unwrap();
        ids.extend(page.items);
        match page.next {
            Some(next) => cursor = Some(next),
            None => return ids,
        }
    }
}

async fn created(store: &dyn Store, id: &str) -> Head {
    let head = head(id);
    store.create(&head, &[]).await.unwrap();
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
        store.create(&head, &[]).await,
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
    offer.doc.draw_offers = vec![Seat(0)];
    let offer = Commit {
        head: offer,
        expected_revision: 0,
        expected_ply: 0,
        expected_events: 0,
        moves: Vec::new(),
        events: Vec::new(),
        finishes: false,
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
    let mut ids: Vec<String> = all_ids(store).await.into_iter().map(|id| id.0).collect();
    ids.sort();
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

async fn handles_are_unique_without_regard_to_case(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let player = |handle: &str, email: &str| Player {
        handle: handle.into(),
        email: email.into(),
        created_at: at(0),
    };
    let ann = player("Ann", "ann@example.org");
    store.create_player(&ann).await.unwrap();
    for handle in ["ann", "ANN", "aNN"] {
        let other = player(handle, &format!("{handle}-2@example.org"));
        assert!(
            matches!(store.create_player(&other).await, Err(StoreError::Conflict)),
            "{handle}"
        );
        assert_eq!(store.player(handle).await.unwrap(), None, "{handle}");
        assert_eq!(
            store.player_by_email(&other.email).await.unwrap(),
            None,
            "the address stays free"
        );
        assert_eq!(
            store.player_by_handle_key(handle).await.unwrap(),
            Some(ann.clone())
        );
    }
    assert_eq!(store.player("Ann").await.unwrap(), Some(ann.clone()));
    assert_eq!(store.player_by_handle_key("bob").await.unwrap(), None);
    store
        .create_player(&player("bob", "ann-2@example.org"))
        .await
        .unwrap();
}

async fn players_written_before_handle_keys_keep_working(kind: Kind) {
    let players = [
        Player {
            handle: "ann".into(),
            email: "ann@example.org".into(),
            created_at: at(0),
        },
        Player {
            handle: "Bob".into(),
            email: "bob@example.org".into(),
            created_at: at(1),
        },
        Player {
            handle: "BOB".into(),
            email: "bob2@example.org".into(),
            created_at: at(2),
        },
    ];
    let test = TestStore::with_players_before_handle_keys(kind, &players).await;
    let store = test.store.as_ref();
    for player in &players {
        assert_eq!(
            store.player(&player.handle).await.unwrap().as_ref(),
            Some(player)
        );
        assert_eq!(
            store.player_by_email(&player.email).await.unwrap().as_ref(),
            Some(player)
        );
    }
    assert_eq!(
        store.player_by_handle_key("ANN").await.unwrap().as_ref(),
        Some(&players[0])
    );
    let newcomer = Player {
        handle: "Ann".into(),
        email: "new@example.org".into(),
        created_at: at(3),
    };
    assert!(matches!(
        store.create_player(&newcomer).await,
        Err(StoreError::Conflict)
    ));
    let carl = Player {
        handle: "carl".into(),
        ..newcomer
    };
    store.create_player(&carl).await.unwrap();
}

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

async fn a_dropped_counter_starts_again_unless_restarted_since(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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
        Notice::Leave {
            to: "ann".into(),
            player: "bob".into(),
            start: at(0),
            edge: LeaveEdge::Start,
        },
        Notice::Leave {
            to: "ann".into(),
            player: "bob".into(),
            start: at(0),
            edge: LeaveEdge::End,
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
        rule: Reason::Rule(EndRule::Checkmate),
        results: vec![SeatResult::Win, SeatResult::Loss],
        by: None,
    });
    StoredGame {
        head: commit.head,
        moves: commit.moves,
        events: Vec::new(),
    }
}

async fn imported_games_are_written_whole_once(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let game = whole_game("imp", 3);
    store.import_game(&game).await.unwrap();
    assert_eq!(store.load(&game.head.id).await.unwrap(), Some(game.clone()));
    let finished = store.finished_by("ann", None, 10).await.unwrap().items;
    assert_eq!(finished, std::slice::from_ref(&game.head));
    let morphy = store.finished_by("Morphy", None, 10).await.unwrap();
    assert!(morphy.items.is_empty());
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
    assert_eq!(all_ids(store).await, [game.head.id]);
}

async fn games_imported_in_a_batch_are_each_whole_or_absent(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let taken = created(store, "b-taken").await;
    let mut broken = whole_game("b-broken", 4);
    broken.moves[1].prev_hash = "x".into();
    let mut clash = whole_game("b-clash", 2);
    clash.head.id = taken.id.clone();
    let mut games: Vec<StoredGame> = (0..7).map(|n| whole_game(&format!("b{n}"), 30)).collect();
    games.insert(2, clash);
    games.insert(5, broken);
    games.push(whole_game("b-long", 150));
    let answers = store.import_games(games.clone()).await;
    assert_eq!(answers.len(), games.len());
    for (game, answer) in games.iter().zip(&answers) {
        let loaded = store.load(&game.head.id).await.unwrap();
        match game.head.id.0.as_str() {
            "b-taken" => {
                assert!(matches!(answer, Err(StoreError::Conflict)), "{answer:?}");
                assert_eq!(loaded.unwrap().head, taken);
            }
            "b-broken" => {
                assert!(matches!(answer, Err(StoreError::Invalid(_))), "{answer:?}");
                assert!(loaded.is_none());
            }
            _ => {
                assert!(answer.is_ok(), "{}: {answer:?}", game.head.id);
                assert_eq!(loaded.as_ref(), Some(game));
            }
        }
    }
    let finished = every_page(3, |cursor| async move {
        store.finished_by("ann", cursor.as_ref(), 3).await
    })
    .await;
    assert_eq!(finished.len(), 8, "each imported game once");
    let again = store.import_games(games[..2].to_vec()).await;
    assert!(again.iter().all(|a| matches!(a, Err(StoreError::Conflict))));
}

async fn the_server_s_events_and_conditional_moves_read_back(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_head_is_one_record_whatever_the_log(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn events_are_chained_with_the_moves_in_log_order(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_reused_idempotency_key_writes_nothing(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

/// Every item of a list, page by page of `size`, checking no page is larger.
async fn every_page<T, F, Fut>(size: usize, mut page: F) -> Vec<T>
where
    F: FnMut(Option<Cursor>) -> Fut,
    Fut: std::future::Future<Output = Result<missive_domain::Page<T>, StoreError>>,
{
    let mut items = Vec::new();
    let mut cursor = None;
    loop {
        let found = page(cursor).await.unwrap();
        assert!(found.items.len() <= size);
        items.extend(found.items);
        match found.next {
            Some(next) => cursor = Some(next),
            None => return items,
        }
    }
}

async fn lists_go_on_past_page_boundaries_with_private_games_among_them(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn members_see_their_current_games_until_they_end(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

/// Every wake-up due by `until`, over every shard.
async fn due(store: &dyn Store, until: DateTime<Utc>) -> Vec<missive_store::Wake> {
    let mut wakes = Vec::new();
    for shard in 0..store.wake_shards() {
        wakes.extend(
            every_page(2, |cursor| async move {
                store.due(shard, until, cursor.as_ref(), 2).await
            })
            .await,
        );
    }
    wakes.sort_by_key(|wake| (wake.at, wake.subject.to_string()));
    wakes
}

async fn wake_ups_are_due_in_time_and_move_only_from_where_they_were(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_wake_up_is_hastened_only_to_an_earlier_time(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_vacation_record_starts_at_revision_one(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    let zero = VacationRecord::default();
    assert!(matches!(
        store.put_vacation("ann", &zero).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.vacation("ann").await.unwrap(), zero);
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

/// An open challenge of `variant` published at minute `minute` by ann, for two seats.
fn challenge(id: &str, variant: &str, days: u16, minute: i64) -> Challenge {
    Challenge {
        id: ChallengeId(id.to_string()),
        revision: 1,
        creator: "ann".into(),
        variant: variant.into(),
        options: String::new(),
        time_control: TimeControl::DaysPerMove { days },
        rated: false,
        min_rating: None,
        seats: vec![Some("ann".into()), None],
        created_at: at(minute),
        expires_at: at(minute + 100),
        state: ChallengeState::Open,
    }
}

/// The ids of every open challenge `filter` lets through at `now`, page by page of 2.
async fn open_ids(store: &dyn Store, filter: &ChallengeFilter, now: DateTime<Utc>) -> Vec<String> {
    let listed = every_page(2, |cursor| async move {
        store.open_challenges(filter, now, cursor.as_ref(), 2).await
    })
    .await;
    listed.into_iter().map(|c| c.id.0).collect()
}

async fn challenges_are_listed_newest_first_while_open_by_filter(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn challenges_change_only_over_the_revision_before(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

/// The commit that starts a game of ann and bob from nothing, bob to move first.
fn start_of(id: &str) -> Commit {
    let mut head = head(id);
    head.revision = 1;
    head.waiting = Some(Waiting {
        player: "ann".into(),
        since: at(5),
        deadline: at(65),
    });
    Commit {
        head,
        expected_revision: 0,
        expected_ply: 0,
        expected_events: 0,
        moves: Vec::new(),
        events: Vec::new(),
        finishes: false,
        wake: WakeChange::At(at(5)),
        feed: Vec::new(),
    }
}

async fn the_last_seat_of_a_challenge_creates_its_game_in_the_same_write(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn message_mail_defaults_to_with_turn_and_is_replaced(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    assert_eq!(
        store.message_mail("ann").await.unwrap(),
        MessageMail::WithTurn
    );
    store
        .set_message_mail("ann", MessageMail::AtOnce)
        .await
        .unwrap();
    assert_eq!(
        store.message_mail("ann").await.unwrap(),
        MessageMail::AtOnce
    );
    store
        .set_message_mail("ann", MessageMail::WithTurn)
        .await
        .unwrap();
    assert_eq!(
        store.message_mail("ann").await.unwrap(),
        MessageMail::WithTurn
    );
    assert_eq!(
        store.message_mail("bob").await.unwrap(),
        MessageMail::WithTurn
    );
}

fn app_password(player: &str, id: &str, minute: i64) -> AppPassword {
    AppPassword {
        id: id.to_string(),
        player: player.to_string(),
        label: format!("{id}'s program"),
        hash: format!("$argon2id$v=19$m=19456,t=2,p=1$salt${id}"),
        created_at: at(minute),
        last_used: None,
    }
}

async fn app_passwords_are_kept_per_player_until_revoked(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = &test.store;
    assert!(store.app_passwords_of("ann").await.unwrap().is_empty());
    let second = app_password("ann", "b2", 2);
    let first = app_password("ann", "a1", 1);
    store.create_app_password(&second).await.unwrap();
    store.create_app_password(&first).await.unwrap();
    store
        .create_app_password(&app_password("bob", "a1", 3))
        .await
        .unwrap();
    assert!(matches!(
        store.create_app_password(&first).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.app_passwords_of("ann").await.unwrap(),
        vec![first.clone(), second.clone()]
    );
    assert_eq!(
        store.app_password("ann", "a1").await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(store.app_password("ann", "zz").await.unwrap(), None);

    store.touch_app_password("ann", "a1", at(9)).await.unwrap();
    let touched = store.app_password("ann", "a1").await.unwrap().unwrap();
    assert_eq!(touched.last_used, Some(at(9)));
    assert_eq!(
        store
            .app_password("bob", "a1")
            .await
            .unwrap()
            .unwrap()
            .last_used,
        None
    );

    assert!(store.revoke_app_password("ann", "a1").await.unwrap());
    assert!(!store.revoke_app_password("ann", "a1").await.unwrap());
    store.touch_app_password("ann", "a1", at(10)).await.unwrap();
    assert_eq!(store.app_password("ann", "a1").await.unwrap(), None);
    assert_eq!(store.app_passwords_of("ann").await.unwrap(), vec![second]);
    assert_eq!(store.app_passwords_of("bob").await.unwrap().len(), 1);
}

/// A feed item for `player` about game `game` at `time`.
fn told(player: &str, game: &str, time: DateTime<Utc>, event: FeedEvent) -> FeedItem {
    FeedItem {
        recipient: player.into(),
        at: time,
        game: GameId(game.into()),
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
    store: &dyn Store,
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

async fn feed_items_are_written_with_their_change_and_read_in_order(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn a_feed_item_that_lands_after_a_later_one_is_given_once(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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
    }
}

/// The webhooks due by `until` (the hook wake-ups of every shard), earliest first.
async fn due_hooks(store: &dyn Store, until: DateTime<Utc>) -> Vec<Hook> {
    due(store, until)
        .await
        .into_iter()
        .filter_map(|wake| match wake.subject {
            WakeSubject::Hook(hook) => Some(*hook),
            _ => None,
        })
        .collect()
}

async fn hooks_change_over_their_revision_and_are_due_while_active(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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
    store.put_hook(&hook("h3", "bob", 3)).await.unwrap();
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

fn tournament(id: &str, minute: i64, revision: u64) -> Tournament {
    missive_store::testing::open_tournament(id, at(minute), revision)
}

async fn tournaments_change_over_their_revision_and_are_listed_newest_first(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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
async fn a_starting_tournament_is_due_until_it_runs(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

async fn games_created_started_are_each_whole_once(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
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

fn rating(player: &str, variant: &str, value: f64, revision: u64) -> RatingRecord {
    RatingRecord {
        player: player.into(),
        variant: variant.into(),
        revision,
        rating: value,
        deviation: 200.0,
        volatility: 0.06,
        games: revision as u32,
        history: Vec::new(),
    }
}

async fn ratings_change_over_their_revision_and_rank_by_variant(kind: Kind) {
    let test = TestStore::new(kind).await;
    let store = test.store.as_ref();
    store
        .put_rating(&rating("ann", "chess", 1600.5, 1))
        .await
        .unwrap();
    store
        .put_rating(&rating("bob", "chess", 1710.25, 1))
        .await
        .unwrap();
    store
        .put_rating(&rating("cy", "chess", 1450.0, 1))
        .await
        .unwrap();
    store
        .put_rating(&rating("ann", "xiangqi", 1800.0, 1))
        .await
        .unwrap();
    assert!(matches!(
        store.put_rating(&rating("ann", "chess", 1500.0, 1)).await,
        Err(StoreError::Conflict)
    ));
    let mut raised = rating("cy", "chess", 1900.0, 2);
    raised.history.push(RatingChange {
        game: GameId("g1".into()),
        at: at(3),
        before: 1450.0,
        after: 1900.0,
        deviation_before: 200.0,
        volatility_before: 0.06,
    });
    store.put_rating(&raised).await.unwrap();
    assert!(matches!(
        store.put_rating(&rating("cy", "chess", 1000.0, 2)).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.rating("cy", "chess").await.unwrap(),
        Some(raised.clone())
    );
    assert_eq!(store.rating("cy", "xiangqi").await.unwrap(), None);
    let board: Vec<String> = store
        .leaderboard("chess", 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.player)
        .collect();
    assert_eq!(board, ["cy", "bob", "ann"]);
    assert_eq!(store.leaderboard("chess", 1).await.unwrap(), vec![raised]);
    let variants: Vec<String> = store
        .ratings_of("ann")
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.variant)
        .collect();
    assert_eq!(variants, ["chess", "xiangqi"]);
}

contract_tests!(
    tournaments_change_over_their_revision_and_are_listed_newest_first,
    a_starting_tournament_is_due_until_it_runs,
    games_created_started_are_each_whole_once,
    ratings_change_over_their_revision_and_rank_by_variant,
    hooks_change_over_their_revision_and_are_due_while_active,
    feed_items_are_written_with_their_change_and_read_in_order,
    a_feed_item_that_lands_after_a_later_one_is_given_once,
    challenges_are_listed_newest_first_while_open_by_filter,
    challenges_change_only_over_the_revision_before,
    the_last_seat_of_a_challenge_creates_its_game_in_the_same_write,
    message_mail_defaults_to_with_turn_and_is_replaced,
    handles_are_unique_without_regard_to_case,
    players_written_before_handle_keys_keep_working,
    counters_count_within_their_limit,
    a_dropped_counter_starts_again_unless_restarted_since,
    mail_preferences_default_to_each_move_and_are_replaced,
    a_notice_is_claimed_once_until_released,
    a_single_use_token_is_used_once,
    imported_games_are_written_whole_once,
    long_imported_games_are_whole_or_absent,
    games_imported_in_a_batch_are_each_whole_or_absent,
    the_server_s_events_and_conditional_moves_read_back,
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
    a_head_is_one_record_whatever_the_log,
    events_are_chained_with_the_moves_in_log_order,
    a_reused_idempotency_key_writes_nothing,
    lists_go_on_past_page_boundaries_with_private_games_among_them,
    members_see_their_current_games_until_they_end,
    wake_ups_are_due_in_time_and_move_only_from_where_they_were,
    a_wake_up_is_hastened_only_to_an_earlier_time,
    a_vacation_record_starts_at_revision_one,
    an_unreadable_time_is_corrupt,
    app_passwords_are_kept_per_player_until_revoked,
);

/// On SQLite, the moves of an imported game that is over take one row of `closed_logs`
/// (none of `moves`), which can be neither changed nor deleted; the game loads whole, its
/// hashes computed again, so a move changed behind the triggers' back breaks the chain.
#[tokio::test]
async fn a_finished_import_is_one_append_only_row_on_sqlite() {
    let file = missive_store::testing::temp_db_path();
    let test = TestStore::sqlite_at(file.clone());
    let game = whole_game("one-row", 40);
    test.store.import_game(&game).await.unwrap();
    assert_eq!(
        test.store.load(&game.head.id).await.unwrap(),
        Some(game.clone())
    );
    let conn = rusqlite::Connection::open(&file).unwrap();
    let count = |table: &str| -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
        .unwrap()
    };
    assert_eq!((count("moves"), count("closed_logs")), (0, 1));
    for change in [
        "UPDATE closed_logs SET moves = '[]'",
        "DELETE FROM closed_logs",
    ] {
        let refused = conn.execute(change, []).unwrap_err().to_string();
        assert!(refused.contains("append-only"), "{change}: {refused}");
    }
    let row: String = conn
        .query_row("SELECT moves FROM closed_logs", [], |row| row.get(0))
        .unwrap();
    assert!(
        !row.contains(&game.moves[0].hash),
        "the row keeps no hash: {row}"
    );
    let altered = row.replacen(&format!("\"{}\"", game.moves[3].long), "\"a1a2\"", 1);
    conn.execute_batch("DROP TRIGGER closed_logs_no_update")
        .unwrap();
    conn.execute("UPDATE closed_logs SET moves = ?1", [&altered])
        .unwrap();
    let loaded = test.store.load(&game.head.id).await.unwrap().unwrap();
    assert_eq!(loaded.moves[3].long, "a1a2");
    let entries = loaded.entries();
    let chained = entries
        .windows(2)
        .all(|pair| pair[1].prev_hash() == pair[0].hash());
    let ends_at_head = entries.last().map(|entry| entry.hash()) == Some(&loaded.head.last_hash);
    assert!(
        !(chained && ends_at_head),
        "a changed move breaks the chain"
    );
}
