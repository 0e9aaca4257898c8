//! Clocks on both stores: time running out for the seat to move, vacations stopping
//! it within the yearly limit, ICCF time banked per period.

mod common;

use chrono::Duration;
use common::{THREE_DAYS, chess_game, invite, setup, start};
use missive_domain::{Seat, SeatResult, TimeControl};
use missive_game::{NewGame, SeatRequest, ServiceError};
use missive_store::contract_tests;
use missive_store::testing::Kind;

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
    s.sign_up(&["bob", "wu", "wei"]).await;
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

contract_tests!(
    time_runs_out_for_the_seat_to_move,
    a_timeout_against_bare_king_is_a_draw,
    vacations_stop_the_clock_within_the_yearly_limit,
    iccf_time_is_banked_per_period,
);
