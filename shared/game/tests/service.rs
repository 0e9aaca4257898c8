//! The use cases of the game service, each run on SQLite and on DynamoDB Local.

mod common;

use chrono::{DateTime, Duration, Utc};
use common::{THREE_DAYS, chess_game, invite, request, setup, start};
use missive_domain::{FeedEvent, Seat, SeatResult, Status, TimeControl};
use missive_game::{Config, NewGame, SeatRequest, ServiceError};
use missive_rules::Claim;
use missive_store::contract_tests;
use missive_store::testing::Kind;

async fn a_game_forms_starts_and_takes_moves(kind: Kind) {
    let s = setup(kind).await;
    let id = s
        .service
        .create_game(chess_game(vec![SeatRequest::Creator, SeatRequest::Open]))
        .await
        .unwrap();
    let forming = s.service.game_view(&id, Some("ann")).await.unwrap();
    assert_eq!(forming.status, Status::Forming);
    assert!(forming.deadline.is_none());
    assert!(matches!(
        s.try_play(&id, "ann", "e4").await,
        Err(ServiceError::NotActive(Status::Forming))
    ));
    assert_eq!(s.service.join(&id, "bob", None).await.unwrap(), Seat(1));

    let view = s.service.game_view(&id, Some("bob")).await.unwrap();
    assert_eq!(view.status, Status::Active);
    assert_eq!(view.to_move, Some(Seat(0)));
    assert_eq!(view.legal_moves.len(), 20);
    assert_eq!(view.deadline, Some(start() + Duration::days(3)));

    s.advance(Duration::hours(5));
    let accepted = s.play(&id, "ann", "e4").await;
    assert_eq!(
        (
            accepted.record.long.as_str(),
            accepted.record.short.as_str()
        ),
        ("e2e4", "e4")
    );
    s.play(&id, "bob", "c7c5").await;

    let view = s.service.game_view(&id, None).await.unwrap();
    assert_eq!(view.ply, 2);
    assert_eq!(
        view.position,
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(
        view.deadline,
        Some(start() + Duration::hours(5) + Duration::days(3))
    );
    let log = s.service.move_log(&id, None).await.unwrap();
    let shorts: Vec<&str> = log.iter().map(|m| m.short.as_str()).collect();
    assert_eq!(shorts, ["e4", "c5"]);
    let waiting = s.service.waiting_for("ann", None, 10).await.unwrap().items;
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].deadline, view.deadline);
    assert!(
        s.service
            .waiting_for("bob", None, 10)
            .await
            .unwrap()
            .items
            .is_empty()
    );
    s.assert_consistent().await;
}

async fn bad_requests_are_refused_with_reasons(kind: Kind) {
    let s = setup(kind).await;
    s.sign_up(&["ann"]).await;
    let new = |seats, time_control| NewGame {
        time_control,
        ..chess_game(seats)
    };
    let two = || vec![SeatRequest::Creator, SeatRequest::Open];
    let refusals = [
        new(vec![SeatRequest::Creator], THREE_DAYS),
        new(vec![SeatRequest::Open, SeatRequest::Open], THREE_DAYS),
        new(two(), TimeControl::DaysPerMove { days: 4 }),
        new(two(), TimeControl::Iccf { moves: 0, days: 30 }),
        new(vec![SeatRequest::Creator, invite("ann")], THREE_DAYS),
    ];
    for refused in refusals {
        assert!(
            matches!(
                s.service.create_game(refused.clone()).await,
                Err(ServiceError::Refused(_))
            ),
            "{refused:?}"
        );
    }
    let mut unknown = new(two(), THREE_DAYS);
    unknown.variant = "checkers".into();
    assert!(matches!(
        s.service.create_game(unknown).await,
        Err(ServiceError::Setup(_))
    ));

    let id = s.chess(THREE_DAYS).await;
    assert!(matches!(
        s.try_play(&id, "bob", "e5").await,
        Err(ServiceError::NotYourTurn)
    ));
    assert!(matches!(
        s.try_play(&id, "cid", "e4").await,
        Err(ServiceError::NotSeated { .. })
    ));
    assert!(matches!(
        s.try_play(&id, "ann", "e5").await,
        Err(ServiceError::Move(_))
    ));
    assert!(matches!(
        s.service.join(&id, "cid", None).await,
        Err(ServiceError::NotActive(Status::Active))
    ));
}

async fn a_stale_move_is_a_conflict_naming_the_current_ply(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "e4").await;
    s.play(&id, "bob", "e5").await;
    let stale = s.service.submit_move(&id, &request("ann", 1, "Nf3")).await;
    assert!(matches!(
        stale,
        Err(ServiceError::Conflict { current_ply: 2 })
    ));
}

async fn a_retried_key_gets_the_same_answer_and_one_move(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    let first = request("ann", 0, "e4");
    let answer = s.service.submit_move(&id, &first).await.unwrap();
    s.advance(Duration::minutes(3));
    assert_eq!(s.service.submit_move(&id, &first).await.unwrap(), answer);
    s.play(&id, "bob", "e5").await;
    // Even after the game moved on, the key still finds its first answer.
    assert_eq!(s.service.submit_move(&id, &first).await.unwrap(), answer);
    assert_eq!(s.service.move_log(&id, None).await.unwrap().len(), 2);
}

async fn fools_mate_ends_the_game_by_checkmate(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    for (player, text) in [("ann", "f3"), ("bob", "e5"), ("ann", "g4"), ("bob", "Qh4#")] {
        s.play(&id, player, text).await;
    }
    let view = s.service.game_view(&id, None).await.unwrap();
    assert_eq!(view.status, Status::Finished);
    let ending = view.ending.unwrap();
    assert_eq!(
        (ending.rule.as_str(), ending.results),
        ("checkmate", vec![SeatResult::Loss, SeatResult::Win])
    );
    assert!(view.legal_moves.is_empty());
    assert!(
        s.service
            .waiting_for("ann", None, 10)
            .await
            .unwrap()
            .items
            .is_empty()
    );
    for player in ["ann", "bob"] {
        let finished = s
            .service
            .finished_by(player, None, 10, None)
            .await
            .unwrap()
            .items;
        assert_eq!(finished.len(), 1);
        assert_eq!(finished[0].id, id);
    }
    assert!(matches!(
        s.try_play(&id, "ann", "a3").await,
        Err(ServiceError::NotActive(Status::Finished))
    ));
    s.assert_consistent().await;
}

async fn draws_need_every_seat_and_lapse_with_a_move(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    let mut offer = request("ann", 0, "e4");
    offer.offer_draw = true;
    s.service.submit_move(&id, &offer).await.unwrap();
    let view = s.service.game_view(&id, None).await.unwrap();
    assert_eq!(view.draw_offers, [Seat(0)]);
    // Bob answers with a move: the offer lapses.
    s.play(&id, "bob", "e5").await;
    assert!(
        s.service
            .game_view(&id, None)
            .await
            .unwrap()
            .draw_offers
            .is_empty()
    );
    assert!(matches!(
        s.service.accept_draw(&id, "ann").await,
        Err(ServiceError::Refused(_))
    ));
    assert_eq!(s.service.offer_draw(&id, "bob").await.unwrap(), None);
    s.service.decline_draw(&id, "ann").await.unwrap();
    assert_eq!(s.service.offer_draw(&id, "bob").await.unwrap(), None);
    let ending = s.service.accept_draw(&id, "ann").await.unwrap().unwrap();
    assert_eq!(
        (ending.rule.as_str(), ending.results),
        ("agreement", vec![SeatResult::Draw, SeatResult::Draw])
    );
}

async fn resigning_and_claiming_end_the_game(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "e4").await;
    assert!(matches!(
        s.service
            .claim_draw(&id, "bob", Claim::ThreefoldRepetition)
            .await,
        Err(ServiceError::Claim(_))
    ));
    let ending = s.service.resign(&id, "bob").await.unwrap();
    assert_eq!(
        (ending.rule.as_str(), ending.by),
        ("resignation", Some(Seat(1)))
    );
    assert_eq!(
        ending.results,
        [
            SeatResult::parse("win").unwrap(),
            SeatResult::parse("loss").unwrap()
        ]
    );

    let id = s.chess(THREE_DAYS).await;
    for round in 0..2 {
        for (player, text) in [
            ("ann", "Nf3"),
            ("bob", "Nf6"),
            ("ann", "Ng1"),
            ("bob", "Ng8"),
        ] {
            s.play(&id, player, text).await;
        }
        let claimable = s.service.game_view(&id, None).await.unwrap().claimable;
        assert_eq!(claimable.is_empty(), round == 0, "round {round}");
    }
    let ending = s
        .service
        .claim_draw(&id, "ann", Claim::ThreefoldRepetition)
        .await
        .unwrap();
    assert_eq!(ending.rule.as_str(), "threefold-repetition");
    s.assert_consistent().await;
}

async fn conditional_lines_answer_at_once_and_stay_private(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "e4").await;
    s.play(&id, "bob", "e5").await;
    let lines = vec![
        vec!["Nf3".to_string(), "Nc6".into(), "Bb5".into(), "a6".into()],
        vec!["Nf3".to_string(), "Nc6".into(), "Bc4".into(), "Bc5".into()],
        vec!["Nc3".to_string(), "Nf6".into()],
    ];
    let stored = s
        .service
        .set_conditional_lines(&id, "bob", &lines)
        .await
        .unwrap();
    assert_eq!(stored[0].moves, ["g1f3", "b8c6", "f1b5", "a7a6"]);
    assert!(
        s.service
            .game_view(&id, Some("ann"))
            .await
            .unwrap()
            .conditional
            .is_empty(),
        "the opponent never sees the lines"
    );
    assert_eq!(
        s.service
            .game_view(&id, Some("bob"))
            .await
            .unwrap()
            .conditional
            .len(),
        3
    );

    let answer = s.play(&id, "ann", "Nf3").await;
    let replies: Vec<&str> = answer.replies.iter().map(|m| m.short.as_str()).collect();
    assert_eq!(replies, ["Nc6"]);
    let bob_view = s.service.game_view(&id, Some("bob")).await.unwrap();
    assert_eq!((bob_view.ply, bob_view.to_move), (4, Some(Seat(0))));
    assert_eq!(bob_view.conditional.len(), 2, "the Nc3 line was left");

    // A move no line expected drops them all; bob moves by hand again.
    let answer = s.play(&id, "ann", "d4").await;
    assert!(answer.replies.is_empty());
    assert!(
        s.service
            .game_view(&id, Some("bob"))
            .await
            .unwrap()
            .conditional
            .is_empty()
    );

    let refusals: [Vec<Vec<String>>; 3] = [
        vec![vec!["exd4".into()]], // it is bob's move
        vec![vec!["Nxd4".into()]], // illegal (and bob's move)
        vec![
            vec!["a3".into(), "a6".into()],
            vec!["a3".into(), "h6".into()],
        ], // ambiguous
    ];
    s.play(&id, "bob", "exd4").await;
    for lines in &refusals[2..] {
        assert!(matches!(
            s.service.set_conditional_lines(&id, "bob", lines).await,
            Err(ServiceError::Refused(_))
        ));
    }
    for lines in &refusals[..2] {
        assert!(
            s.service
                .set_conditional_lines(&id, "ann", lines)
                .await
                .is_err(),
            "{lines:?}"
        );
    }
    s.assert_consistent().await;
}

async fn games_can_be_declined_or_aborted_before_the_first_move(kind: Kind) {
    let s = setup(kind).await;
    s.sign_up(&["bob", "wu", "wei"]).await;
    let new = chess_game(vec![SeatRequest::Creator, invite("bob")]);
    let declined = s.service.create_game(new).await.unwrap();
    assert!(matches!(
        s.service.decline(&declined, "cid").await,
        Err(ServiceError::Refused(_))
    ));
    s.service.decline(&declined, "bob").await.unwrap();
    let view = s.service.game_view(&declined, None).await.unwrap();
    assert_eq!(view.status, Status::Cancelled);
    assert_eq!(view.ending.unwrap().rule.as_str(), "declined");

    let aborted = s.chess(THREE_DAYS).await;
    s.service.abort(&aborted, "bob").await.unwrap();
    assert_eq!(
        s.service
            .game_view(&aborted, None)
            .await
            .unwrap()
            .ending
            .unwrap()
            .rule
            .as_str(),
        "aborted"
    );

    let played = s.chess(THREE_DAYS).await;
    s.play(&played, "ann", "e4").await;
    assert!(matches!(
        s.service.abort(&played, "ann").await,
        Err(ServiceError::Refused(_))
    ));
    assert!(
        s.service
            .finished_by("bob", None, 10, None)
            .await
            .unwrap()
            .items
            .is_empty()
    );
}

async fn private_games_are_hidden_from_everyone_else(kind: Kind) {
    let s = setup(kind).await;
    s.sign_up(&["bob", "wu", "wei"]).await;
    let id = s
        .service
        .create_game(NewGame {
            private: true,
            ..chess_game(vec![SeatRequest::Creator, invite("bob")])
        })
        .await
        .unwrap();
    for viewer in [Some("ann"), Some("bob")] {
        s.service.game_view(&id, viewer).await.unwrap();
        s.service.move_log(&id, viewer).await.unwrap();
    }
    for viewer in [None, Some("eve")] {
        assert!(matches!(
            s.service.game_view(&id, viewer).await,
            Err(ServiceError::GameNotFound(_))
        ));
        assert!(matches!(
            s.service.archive_record(&id, viewer).await,
            Err(ServiceError::GameNotFound(_))
        ));
        assert!(s.service.replayed(&id, viewer).await.is_err());
    }
    // Every change eve may ask for finds no game, before anything else is decided.
    let not_found = |result: Result<(), ServiceError>| {
        assert!(
            matches!(result, Err(ServiceError::GameNotFound(_))),
            "{result:?}"
        );
    };
    let eve = "eve";
    not_found(s.service.join(&id, eve, None).await.map(drop));
    not_found(s.service.decline(&id, eve).await);
    not_found(s.service.abort(&id, eve).await);
    s.service.join(&id, "bob", None).await.unwrap();
    not_found(s.try_play(&id, eve, "e4").await.map(drop));
    not_found(s.service.offer_draw(&id, eve).await.map(drop));
    not_found(s.service.accept_draw(&id, eve).await.map(drop));
    not_found(s.service.decline_draw(&id, eve).await);
    not_found(s.service.claim_timeout(&id, eve).await.map(drop));
    not_found(
        s.service
            .claim_draw(&id, eve, Claim::FiftyMoves)
            .await
            .map(drop),
    );
    not_found(s.service.resign(&id, eve).await.map(drop));
    let lines = [vec!["e5".to_string()]];
    not_found(
        s.service
            .set_conditional_lines(&id, eve, &lines)
            .await
            .map(drop),
    );
    assert!(matches!(
        s.try_play(&id, "bob", "e5").await,
        Err(ServiceError::NotYourTurn)
    ));
}

/// What `player`'s feed holds: whom each item is for, when and what, oldest first.
async fn feed_of(s: &common::Setup, player: &str) -> Vec<(DateTime<Utc>, FeedEvent)> {
    let read = s
        .service
        .events(player, None, std::time::Duration::ZERO, 100);
    let events = read.await.unwrap().events;
    events.into_iter().map(|e| (e.at, e.event)).collect()
}

/// A game of messages, draw offers, a conditional reply played in the move's commit and a
/// resignation; with `told`, the service leaves each change's feed items out of its commit
/// and tells them after it from the heads before and after it, as the stream's reader does.
async fn a_game_told(kind: Kind, told: bool) -> common::Setup {
    let mut s = setup(kind).await;
    if told {
        let config = Config {
            feed_from_stream: true,
            ..Config::default()
        };
        s.service = s.service.clone().with_config(config);
    }
    let id = s.chess(THREE_DAYS).await;
    let lines = [["g1f3", "b8c6"].map(String::from).to_vec()];
    let steps = [
        ("ann", "e4"),
        ("bob", "message"),
        ("bob", "offer"),
        ("ann", "decline"),
        ("bob", "e5"),
        ("bob", "lines"),
        ("ann", "Nf3"),
        ("bob", "resign"),
    ];
    for (player, step) in steps {
        s.advance(Duration::minutes(7));
        let held = feed_of(&s, "ann").await.len() + feed_of(&s, "bob").await.len();
        let before = s.service.store().head(&id).await.unwrap().unwrap();
        match step {
            "message" => s.service.post_message(&id, player, "hi").await.map(drop),
            "offer" => s.service.offer_draw(&id, player).await.map(drop),
            "decline" => s.service.decline_draw(&id, player).await,
            "lines" => s
                .service
                .set_conditional_lines(&id, player, &lines)
                .await
                .map(drop),
            "resign" => s.service.resign(&id, player).await.map(drop),
            text => s.try_play(&id, player, text).await.map(drop),
        }
        .unwrap();
        let after = s.service.store().head(&id).await.unwrap().unwrap();
        if told {
            let now = feed_of(&s, "ann").await.len() + feed_of(&s, "bob").await.len();
            assert_eq!(now, held, "{step} wrote no feed item itself");
            s.service.tell_change(&before, &after).await.unwrap();
            // Told again, as a retried stream record is: nothing more.
            s.service.tell_change(&before, &after).await.unwrap();
        }
    }
    s
}

/// Each player's feed is the same whether the items are written with each change or told
/// after it, a move and the conditional reply played with it included.
async fn feed_items_told_after_each_change_are_those_written_with_it(kind: Kind) {
    let (with, after) = (
        a_game_told(kind, false).await,
        a_game_told(kind, true).await,
    );
    for player in ["ann", "bob"] {
        let expected = feed_of(&with, player).await;
        assert_eq!(feed_of(&after, player).await, expected, "{player}");
        assert!(expected.len() >= 5, "{player}: {expected:?}");
    }
}

contract_tests!(
    feed_items_told_after_each_change_are_those_written_with_it,
    private_games_are_hidden_from_everyone_else,
    a_game_forms_starts_and_takes_moves,
    bad_requests_are_refused_with_reasons,
    a_stale_move_is_a_conflict_naming_the_current_ply,
    a_retried_key_gets_the_same_answer_and_one_move,
    fools_mate_ends_the_game_by_checkmate,
    draws_need_every_seat_and_lapse_with_a_move,
    resigning_and_claiming_end_the_game,
    conditional_lines_answer_at_once_and_stay_private,
    games_can_be_declined_or_aborted_before_the_first_move,
);
