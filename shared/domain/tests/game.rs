//! The game aggregate on its own, without a store: a head made once, a game started when
//! its last seat is taken, a move, and the commit each change turns into.

use chrono::{DateTime, Duration, Utc};
use missive_domain::{
    FeedEvent, Game, GameDoc, GameError, GameId, Head, Seat, SeatClock, SeatDoc, Status,
    TimeControl, WakeChange,
};
use missive_rules::{AnyGame, registry};

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
}

fn chess() -> Box<dyn AnyGame> {
    registry::variant("chess")
        .unwrap()
        .new_game("", None)
        .unwrap()
}

/// A chess game created at minute 0 by ann, bob's seat as given.
fn forming(bob: SeatDoc) -> Head {
    let doc = GameDoc {
        variant: "chess".into(),
        options: chess().options(),
        edition: registry::EDITION,
        start_position: None,
        seats: vec![
            SeatDoc::Taken {
                player: "ann".into(),
            },
            bob,
        ],
        time_control: TimeControl::DaysPerMove { days: 3 },
        rated: false,
        status: Status::Forming,
        created_by: "ann".into(),
        created_at: at(0),
        started_at: None,
        ending: None,
        draw_offers: Vec::new(),
        conditional: Vec::new(),
        private: false,
        imported: false,
        archive_tags: Vec::new(),
        verified: false,
        tournament: None,
        pauses: Vec::new(),
    };
    let clocks = vec![SeatClock::default(); 2];
    Head::new(GameId("g".into()), doc, chess().as_ref(), clocks)
}

fn bob() -> SeatDoc {
    SeatDoc::Taken {
        player: "bob".into(),
    }
}

#[test]
fn a_new_head_is_at_the_rules_start_and_nobody_waits() {
    let head = forming(SeatDoc::Open);
    assert_eq!((head.revision, head.ply, head.events), (0, 0, 0));
    assert_eq!(head.position, chess().position_text());
    assert_eq!((head.to_move, &head.waiting), (None, &None));
    assert!(head.last_hash.is_empty());
    assert_eq!(head.resume.unwrap().clocks, vec![SeatClock::default(); 2]);
}

#[test]
fn a_game_left_as_it_was_commits_nothing() {
    let mut game = Game::new(forming(SeatDoc::Open), chess(), None, at(1), Vec::new());
    assert!(!game.start_if_full(), "a seat is open");
    assert!(game.into_commit().is_none());
}

#[test]
fn the_last_seat_taken_starts_the_game_and_tells_its_players() {
    let mut game = Game::new(forming(bob()), chess(), None, at(5), Vec::new());
    assert!(game.start_if_full());
    let commit = game.into_commit().unwrap();
    let head = &commit.head;
    assert_eq!((commit.expected_revision, head.revision), (0, 1));
    assert_eq!(
        (head.doc.status, head.doc.started_at),
        (Status::Active, Some(at(5)))
    );
    assert_eq!(head.to_move, Some(Seat(0)));
    let waiting = head.waiting.as_ref().unwrap();
    assert_eq!((waiting.player.as_str(), waiting.since), ("ann", at(5)));
    assert_eq!(waiting.deadline, at(5) + Duration::days(3));
    assert_eq!(commit.wake, WakeChange::At(at(5)));
    let told: Vec<_> = commit
        .feed
        .iter()
        .map(|item| (item.recipient.as_str(), &item.event))
        .collect();
    assert!(told.contains(&("bob", &FeedEvent::GameStarted)), "{told:?}");
    assert!(
        told.iter()
            .any(|(to, event)| *to == "ann" && matches!(event, FeedEvent::YourTurn { .. })),
        "{told:?}"
    );
}

#[test]
fn a_move_is_appended_chained_and_its_clock_moved_on() {
    let mut start = Game::new(forming(bob()), chess(), None, at(5), Vec::new());
    start.start_if_full();
    let head = start.into_commit().unwrap().head;
    let rules = registry::variant("chess")
        .unwrap()
        .resume("", &head.resume.as_ref().unwrap().window)
        .unwrap();
    let mut game = Game::new(head, rules, None, at(65), Vec::new());
    assert!(matches!(game.mover("bob"), Err(GameError::NotYourTurn)));
    assert!(matches!(
        game.mover("cyd"),
        Err(GameError::NotSeated { .. })
    ));
    let seat = game.mover("ann").unwrap();
    let played = game.play(seat, "e4", None, false).unwrap();
    let commit = game.into_commit().unwrap();
    assert_eq!(commit.moves, vec![played.clone()]);
    assert_eq!((commit.expected_ply, commit.head.ply), (0, 1));
    assert_eq!(commit.head.last_hash, played.hash);
    assert_eq!(commit.head.to_move, Some(Seat(1)));
    let clocks = &commit.head.resume.as_ref().unwrap().clocks;
    assert_eq!((clocks[0].moves, clocks[0].used_ms), (1, 3_600_000));
    assert!(commit.check().is_ok());
}
