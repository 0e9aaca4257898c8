//! The use cases of the game service, each run on SQLite and on DynamoDB Local.

mod common;

use chrono::Duration;
use common::{THREE_DAYS, chess_game, invite, request, setup, start};
use missive_archive::Registry;
use missive_domain::{Seat, SeatDoc, SeatResult, Status, TimeControl};
use missive_game::{MoveRequest, NewGame, SeatRequest, ServiceError};
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

async fn time_runs_out_for_the_seat_to_move(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "e4").await;
    s.advance(Duration::days(3));
    assert!(matches!(
        s.service.claim_timeout(&id, "ann").await,
        Err(ServiceError::Refused(_))
    ));
    assert_eq!(s.service.enforce_deadline(&id).await.unwrap(), None);
    s.advance(Duration::seconds(1));
    assert!(matches!(
        s.service.claim_timeout(&id, "bob").await,
        Err(ServiceError::Refused(_))
    ));
    let late = s.try_play(&id, "bob", "e5").await;
    let Err(ServiceError::TimeExpired(ending)) = late else {
        panic!("a late move must end the game on time: {late:?}");
    };
    assert_eq!(
        (ending.rule.as_str(), ending.by),
        ("timeout", Some(Seat(1)))
    );
    assert_eq!(
        ending.results,
        [
            SeatResult::parse("win").unwrap(),
            SeatResult::parse("loss").unwrap()
        ]
    );
    assert_eq!(s.service.move_log(&id, None).await.unwrap().len(), 1);
}

async fn a_timeout_against_bare_king_is_a_draw(kind: Kind) {
    let s = setup(kind).await;
    let id = s
        .service
        .create_game(NewGame {
            start_position: Some("4k3/8/8/8/8/8/8/4K2Q b - - 0 1".into()),
            time_control: TimeControl::DaysPerMove { days: 1 },
            ..chess_game(vec![invite("bob"), SeatRequest::Creator])
        })
        .await
        .unwrap();
    s.service.join(&id, "bob", None).await.unwrap();
    s.advance(Duration::days(2));
    // White (bob) has a queen; black (ann) is to move with a bare king and runs out of
    // time: white wins.
    let ending = s.service.claim_timeout(&id, "bob").await.unwrap();
    assert_eq!(
        ending.results,
        [
            SeatResult::parse("win").unwrap(),
            SeatResult::parse("loss").unwrap()
        ]
    );

    let id = s
        .service
        .create_game(NewGame {
            start_position: Some("4k3/8/8/8/8/8/8/4K2Q w - - 0 1".into()),
            time_control: TimeControl::DaysPerMove { days: 1 },
            ..chess_game(vec![SeatRequest::Creator, invite("bob")])
        })
        .await
        .unwrap();
    s.service.join(&id, "bob", None).await.unwrap();
    s.advance(Duration::days(2));
    // White (ann) runs out of time, but black's bare king can never mate: a draw.
    let ending = s.service.enforce_deadline(&id).await.unwrap().unwrap();
    assert_eq!(ending.rule.as_str(), "timeout-vs-insufficient-material");
    assert_eq!(
        ending.results,
        [
            SeatResult::parse("draw").unwrap(),
            SeatResult::parse("draw").unwrap()
        ]
    );
}

async fn vacations_stop_the_clock_within_the_yearly_limit(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "e4").await;
    s.service
        .take_vacation("bob", start() + Duration::days(1), 10)
        .await
        .unwrap();
    let view = s.service.game_view(&id, None).await.unwrap();
    assert_eq!(view.deadline, Some(start() + Duration::days(13)));
    assert_eq!(
        s.service.waiting_for("bob", None, 10).await.unwrap().items[0].deadline,
        view.deadline
    );
    s.advance(Duration::days(5));
    assert!(matches!(
        s.service.claim_timeout(&id, "ann").await,
        Err(ServiceError::Refused(_))
    ));
    // Past the stored deadline but within the vacation: the move stands.
    s.play(&id, "bob", "e5").await;

    let refusals = [
        (start() + Duration::days(30), 36), // 10 + 36 > 45
        (start() + Duration::days(8), 2),   // overlaps
        (start(), 1),                       // in the past
        (start() + Duration::days(30), 0),  // no days
    ];
    for (from, days) in refusals {
        assert!(
            matches!(
                s.service.take_vacation("bob", from, days).await,
                Err(ServiceError::Refused(_))
            ),
            "{from} {days}"
        );
    }
    let periods = s
        .service
        .take_vacation("bob", start() + Duration::days(30), 35)
        .await
        .unwrap();
    assert_eq!(periods.len(), 2);
}

async fn iccf_time_is_banked_per_period(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(TimeControl::Iccf { moves: 2, days: 10 }).await;
    let deadline = || async {
        s.service
            .game_view(&id, None)
            .await
            .unwrap()
            .deadline
            .unwrap()
    };
    assert_eq!(deadline().await, start() + Duration::days(10));
    s.advance(Duration::days(4));
    s.play(&id, "ann", "e4").await; // ann used 4 of her 10 days
    s.advance(Duration::days(1));
    s.play(&id, "bob", "e5").await;
    // ann: 6 days left, her 1st move of 2 in the period made.
    assert_eq!(deadline().await, start() + Duration::days(5 + 6));
    s.advance(Duration::days(1));
    s.play(&id, "ann", "Nf3").await; // ann made 2 moves: 10 more days, 5 used, 15 left
    s.play(&id, "bob", "Nc6").await;
    assert_eq!(deadline().await, start() + Duration::days(6 + 15));
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

async fn three_seat_games_take_turns_and_end(kind: Kind) {
    let s = setup(kind).await;
    let id = s
        .service
        .create_game(NewGame {
            creator: "wei".into(),
            variant: "trio".into(),
            ..chess_game(vec![SeatRequest::Open, invite("wu"), SeatRequest::Creator])
        })
        .await
        .unwrap();
    s.service.join(&id, "wu", None).await.unwrap();
    assert_eq!(s.service.join(&id, "shu", None).await.unwrap(), Seat(0));
    let view = s.service.game_view(&id, None).await.unwrap();
    assert_eq!(view.seat_names, ["red", "green", "blue"]);
    assert_eq!(
        view.seats,
        ["shu", "wu", "wei"].map(|p| SeatDoc::Taken { player: p.into() })
    );
    let players = ["shu", "wu", "wei"];
    for ply in 0..6 {
        assert_eq!(
            s.service
                .waiting_for(players[ply % 3], None, 10)
                .await
                .unwrap()
                .items
                .len(),
            1
        );
        s.play(
            &id,
            players[ply % 3],
            if ply % 3 == 1 { "a2" } else { "a1" },
        )
        .await;
    }
    // Draws take all three seats.
    assert_eq!(s.service.offer_draw(&id, "shu").await.unwrap(), None);
    assert_eq!(s.service.accept_draw(&id, "wu").await.unwrap(), None);
    s.play(&id, "shu", "a1").await; // the move lapses the offers
    s.play(&id, "wu", "a2").await;
    s.play(&id, "wei", "a1").await;
    let view = s.service.game_view(&id, None).await.unwrap();
    let ending = view.ending.unwrap();
    assert_eq!(
        ending.results,
        [
            SeatResult::parse("loss").unwrap(),
            SeatResult::parse("win").unwrap(),
            SeatResult::parse("loss").unwrap()
        ]
    );
    for player in players {
        assert_eq!(
            s.service
                .finished_by(player, None, 10, None)
                .await
                .unwrap()
                .items
                .len(),
            1
        );
    }
    s.assert_consistent().await;
}

/// Three Kingdoms Xiangqi with Wu already out (its army passed to Shu), Wei to move.
const WU_OUT: &str = "9/Pr1Pr1Pr1Pr1Pr/1Cr1Fr1Fr1Cr1/9/RrHrErArKrArErHrRr|\
    9/Pgr1Pgr1Pgr1Pgr1Pgr/1Cgr1Fgr1Fgr1Cgr1/9/RgrHgrEgrAgr1AgrEgrHgrRgr|\
    9/Pb1Pb1Pb1Pb1Pb/1Cb1Fb1Fb1Cb1/9/RbHbEbAbKbAbEbHbRb wei wu 0 10";

async fn a_nation_already_out_has_no_say(kind: Kind) {
    let s = setup(kind).await;
    let id = s
        .service
        .create_game(NewGame {
            creator: "shu".into(),
            variant: "sanguo".into(),
            start_position: Some(WU_OUT.into()),
            ..chess_game(vec![SeatRequest::Creator, invite("wu"), invite("wei")])
        })
        .await
        .unwrap();
    s.service.join(&id, "wu", None).await.unwrap();
    s.service.join(&id, "wei", None).await.unwrap();
    for refused in [
        s.service.resign(&id, "wu").await.map(|_| ()),
        s.service.offer_draw(&id, "wu").await.map(|_| ()),
    ] {
        assert!(
            matches!(&refused, Err(ServiceError::Refused(reason)) if reason.contains("already out")),
            "{refused:?}"
        );
    }
    // The two nations still in the game agree a draw; Wu, already out, has lost.
    assert_eq!(s.service.offer_draw(&id, "shu").await.unwrap(), None);
    let ending = s.service.accept_draw(&id, "wei").await.unwrap().unwrap();
    assert_eq!(ending.rule.as_str(), "agreement");
    assert_eq!(
        ending.results,
        [
            SeatResult::parse("draw").unwrap(),
            SeatResult::parse("loss").unwrap(),
            SeatResult::parse("draw").unwrap()
        ]
    );
    s.assert_consistent().await;
}

async fn exported_games_import_as_finished_games_that_check(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "f3").await;
    let offer = MoveRequest {
        offer_draw: true,
        ..request("bob", 1, "e5")
    };
    s.service.submit_move(&id, &offer).await.unwrap();
    s.play(&id, "ann", "g4").await;
    s.play(&id, "bob", "Qh4#").await;
    let record = s.service.archive_record(&id, None).await.unwrap();
    let text = missive_archive::export(&record, Default::default(), &Registry).unwrap();
    let read: Vec<_> = missive_archive::read(text.as_bytes()).collect();
    assert_eq!(read.len(), 1);
    s.advance(Duration::days(10));
    let outcome = s
        .service
        .import_game(Some("BOB"), read.into_iter().next().unwrap())
        .await;
    let copy = outcome.id.clone().unwrap_or_else(|| panic!("{outcome}"));
    let view = s.service.game_view(&copy, None).await.unwrap();
    assert_eq!(view.status, Status::Finished);
    assert_eq!(view.ending.as_ref().unwrap().rule.as_str(), "checkmate");
    assert_eq!(
        view.seats,
        [
            SeatDoc::Named { name: "ann".into() },
            SeatDoc::Taken {
                player: "BOB".into()
            }
        ]
    );
    let original = s.service.move_log(&id, None).await.unwrap();
    let imported = s.service.move_log(&copy, None).await.unwrap();
    let shape = |log: &[missive_domain::MoveRecord]| {
        log.iter()
            .map(|m| (m.long.clone(), m.at.timestamp(), m.draw_offer))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&original), shape(&imported));
    s.assert_consistent().await;

    let unfinished = missive_archive::read("1. e4 e5 *\n".as_bytes())
        .next()
        .unwrap();
    let refused = s.service.import_game(None, unfinished).await;
    assert!(refused.id.is_none(), "{refused}");
    assert!(refused.to_string().contains("no result"), "{refused}");
}

/// The kinds of the events of `game`'s log, with their seats.
async fn logged_events(s: &common::Setup, game: &missive_domain::GameId) -> Vec<(String, u8)> {
    let stored = s.test.store.load(game).await.unwrap().unwrap();
    stored
        .events
        .iter()
        .map(|record| {
            let kind = serde_json::to_value(&record.event).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string();
            (kind, record.seat.map_or(99, |seat| seat.0))
        })
        .collect()
}

async fn every_act_is_in_the_log_and_survives_export_and_import(kind: Kind) {
    let mut s = setup(kind).await;
    s.service = s
        .service
        .clone()
        .with_archive_key(missive_archive::KeyPair::from_seed([7; 32]));
    let id = s.chess(THREE_DAYS).await;
    let forming = s
        .service
        .create_game(NewGame {
            creator: "bob".into(),
            ..chess_game(vec![SeatRequest::Creator, SeatRequest::Open])
        })
        .await
        .unwrap();
    s.service.offer_draw(&id, "ann").await.unwrap();
    s.advance(Duration::minutes(5));
    s.service.withdraw_draw(&id, "ann").await.unwrap();
    assert!(s.service.withdraw_draw(&id, "ann").await.is_err(), "once");
    s.play(&id, "ann", "e4").await;
    let offer = MoveRequest {
        offer_draw: true,
        ..request("bob", 1, "e5")
    };
    s.service.submit_move(&id, &offer).await.unwrap();
    s.advance(Duration::hours(1));
    s.service.decline_draw(&id, "ann").await.unwrap();
    let refused = s
        .service
        .claim_draw(&id, "ann", Claim::ThreefoldRepetition)
        .await;
    assert!(
        matches!(refused, Err(ServiceError::Claim(_))),
        "{refused:?}"
    );
    assert!(s.service.claim_timeout(&id, "bob").await.is_err());
    let vacation = s.clock_now() + Duration::hours(2);
    s.service.take_vacation("bob", vacation, 7).await.unwrap();
    let line = vec!["Nf3".to_string(), "Nc6".into()];
    s.service
        .set_conditional_lines(&id, "bob", &[line])
        .await
        .unwrap();
    s.advance(Duration::hours(3));
    let answer = s.play(&id, "ann", "Nf3").await;
    assert!(answer.replies[0].conditional && !answer.record.conditional);
    s.advance(Duration::hours(1));
    s.service.resign(&id, "ann").await.unwrap();

    let kinds = |events: Vec<(String, u8)>| {
        events
            .into_iter()
            .map(|(kind, seat)| format!("{kind} {seat}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(logged_events(&s, &id).await),
        [
            "draw-offered 0",
            "draw-withdrawn 0",
            "draw-declined 0",
            "claim-refused 0",
            "claim-refused 1",
            "vacation-taken 1",
            "resigned 0"
        ]
    );
    assert_eq!(
        kinds(logged_events(&s, &forming).await),
        ["vacation-taken 0"]
    );
    let text = s.service.archive_text(&id, None).await.unwrap();
    for part in [
        "[%draw-offer white 2030.01.01,00:00:00]",
        "[%draw-withdraw white 2030.01.01,00:05:00]",
        "1... e5 {[%ccsnt 2030.01.01,00:05:00]}\n{[%draw-offer black 2030.01.01,00:05:00]}",
        "[%draw-decline white 2030.01.01,01:05:00]",
        "[%claim-refused white threefold-repetition 2030.01.01,01:05:00]",
        "[%claim-refused black timeout 2030.01.01,01:05:00]",
        "[%vacation black 7 2030.01.01,03:05:00]",
        "2... Nc6 {[%ccsnt 2030.01.01,04:05:00] [%conditional]}",
        "[%resign white 2030.01.01,05:05:00]",
        "[TimeControl \"1/3\"]",
        "[EndDate \"2030.01.01\"]",
        "[Signature \"ed25519:",
    ] {
        assert!(text.contains(part), "{part} in\n{text}");
    }

    let read = missive_archive::read(text.as_bytes()).next().unwrap();
    let outcome = s.service.import_game(Some("bob"), read).await;
    let copy = outcome.id.clone().unwrap_or_else(|| panic!("{outcome}"));
    assert!(outcome.verified, "{outcome}");
    assert!(s.service.game_view(&copy, None).await.unwrap().verified);
    assert_eq!(s.service.archive_text(&copy, None).await.unwrap(), text);
    let played = logged_events(&s, &id).await;
    assert_eq!(logged_events(&s, &copy).await, played);
    s.assert_consistent().await;

    let alterations = [
        (
            "2030.01.01,05:05:00",
            "2030.01.01,05:05:01",
            "digest mismatch: the moves",
        ),
        (
            "2030.01.01,04:05:00",
            "2030.01.01,04:05:01",
            "times out of order",
        ),
    ];
    for (from, to, reason) in alterations {
        let altered = text.replacen(from, to, 1);
        let read = missive_archive::read(altered.as_bytes()).next().unwrap();
        let refused = s.service.import_game(Some("bob"), read).await;
        assert!(refused.id.is_none());
        let error = refused.error.unwrap();
        assert!(error.contains(reason), "{error}");
        assert!(refused.line > 1, "the place of the moves");
    }
    let unsigned: String = text
        .lines()
        .filter(|line| !line.starts_with("[Signature") && !line.starts_with("[Digest"))
        .map(|line| format!("{line}\n"))
        .collect();
    let read = missive_archive::read(unsigned.as_bytes()).next().unwrap();
    let outcome = s.service.import_game(None, read).await;
    assert!(outcome.id.is_some() && !outcome.verified, "{outcome}");
}

/// Three Kingdoms Xiangqi, Shu to move: `Rwu:e3` leaves Wu without a legal move, so Wu is
/// out and its army passes to Shu.
const WU_STUCK: &str = "9/9/9/9/5Kr3|9/Pg4Rr3/Rr8/3Pr5/4Kg4|9/9/9/9/5Kb3 shu - 0 0";

async fn an_elimination_is_logged_and_the_game_drawn_after_it_exports(kind: Kind) {
    let s = setup(kind).await;
    let id = s
        .service
        .create_game(NewGame {
            creator: "shu".into(),
            variant: "sanguo".into(),
            start_position: Some(WU_STUCK.into()),
            ..chess_game(vec![SeatRequest::Creator, invite("wu"), invite("wei")])
        })
        .await
        .unwrap();
    s.service.join(&id, "wu", None).await.unwrap();
    s.service.join(&id, "wei", None).await.unwrap();
    s.play(&id, "shu", "Rwu:e3").await;
    assert_eq!(logged_events(&s, &id).await, [("eliminated".into(), 1)]);
    let stored = s.test.store.load(&id).await.unwrap().unwrap();
    assert_eq!(
        stored.events[0].event,
        missive_domain::GameEvent::Eliminated { heir: Seat(0) }
    );
    s.service.offer_draw(&id, "wei").await.unwrap();
    s.service.accept_draw(&id, "shu").await.unwrap().unwrap();
    let text = s.service.archive_text(&id, None).await.unwrap();
    assert!(text.contains("{[%eliminated wu shu "), "{text}");
    assert!(text.contains("[Result \"1/2-0-1/2\"]"), "{text}");
    let read = missive_archive::read(text.as_bytes()).next().unwrap();
    let outcome = s.service.import_game(None, read).await;
    let copy = outcome.id.clone().unwrap_or_else(|| panic!("{outcome}"));
    assert_eq!(s.service.archive_text(&copy, None).await.unwrap(), text);
    let ending = s
        .service
        .game_view(&copy, None)
        .await
        .unwrap()
        .ending
        .unwrap();
    assert_eq!(
        ending.results,
        [SeatResult::Draw, SeatResult::Loss, SeatResult::Draw]
    );
    s.assert_consistent().await;
}

async fn private_games_are_hidden_from_everyone_else(kind: Kind) {
    let s = setup(kind).await;
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

contract_tests!(
    exported_games_import_as_finished_games_that_check,
    every_act_is_in_the_log_and_survives_export_and_import,
    an_elimination_is_logged_and_the_game_drawn_after_it_exports,
    private_games_are_hidden_from_everyone_else,
    a_game_forms_starts_and_takes_moves,
    bad_requests_are_refused_with_reasons,
    a_stale_move_is_a_conflict_naming_the_current_ply,
    a_retried_key_gets_the_same_answer_and_one_move,
    fools_mate_ends_the_game_by_checkmate,
    draws_need_every_seat_and_lapse_with_a_move,
    resigning_and_claiming_end_the_game,
    time_runs_out_for_the_seat_to_move,
    a_timeout_against_bare_king_is_a_draw,
    vacations_stop_the_clock_within_the_yearly_limit,
    iccf_time_is_banked_per_period,
    conditional_lines_answer_at_once_and_stay_private,
    games_can_be_declined_or_aborted_before_the_first_move,
    three_seat_games_take_turns_and_end,
    a_nation_already_out_has_no_say,
);
