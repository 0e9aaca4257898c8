//! Three-seat games on both stores: turns, eliminations, a nation already out.

mod common;

use common::{chess_game, invite, logged_events, setup};
use missive_domain::{Seat, SeatDoc, SeatResult};
use missive_game::{NewGame, SeatRequest, ServiceError};
use missive_store::contract_tests;
use missive_store::testing::Kind;

async fn three_seat_games_take_turns_and_end(kind: Kind) {
    let s = setup(kind).await;
    s.sign_up(&["bob", "wu", "wei"]).await;
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
    let (s, id) = three_kingdoms(kind, WU_OUT).await;
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

/// Three Kingdoms Xiangqi, Shu to move: `Rwu:e3` leaves Wu without a legal move, so Wu is
/// out and its army passes to Shu.
const WU_STUCK: &str = "9/9/9/9/5Kr3|9/Pg4Rr3/Rr8/3Pr5/4Kg4|9/9/9/9/5Kb3 shu - 0 0";

/// A game of Three Kingdoms Xiangqi from `start` on a fresh store of `kind`, every seat
/// taken (shu, wu, wei).
async fn three_kingdoms(kind: Kind, start: &str) -> (common::Setup, missive_domain::GameId) {
    let s = setup(kind).await;
    s.sign_up(&["wu", "wei"]).await;
    let id = s
        .service
        .create_game(NewGame {
            creator: "shu".into(),
            variant: "sanguo".into(),
            start_position: Some(start.into()),
            ..chess_game(vec![SeatRequest::Creator, invite("wu"), invite("wei")])
        })
        .await
        .unwrap();
    s.service.join(&id, "wu", None).await.unwrap();
    s.service.join(&id, "wei", None).await.unwrap();
    (s, id)
}

/// A game of Three Kingdoms Xiangqi on a fresh store of `kind` whose first move, Shu's
/// `Rwu:e3`, has put Wu out of the game.
async fn wu_out(kind: Kind) -> (common::Setup, missive_domain::GameId) {
    let (s, id) = three_kingdoms(kind, WU_STUCK).await;
    s.play(&id, "shu", "Rwu:e3").await;
    (s, id)
}

async fn an_elimination_is_logged_and_the_game_drawn_after_it_exports(kind: Kind) {
    let (s, id) = wu_out(kind).await;
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

/// An archive of a three-seat game that leaves out its elimination (an unsealed text
/// whose `%eliminated` comment was taken away) still imports it: eliminations are the
/// rules', as the reader's replay found them, with the move that caused them.
async fn an_import_logs_the_eliminations_the_rules_give(kind: Kind) {
    let (s, id) = wu_out(kind).await;
    s.service.resign(&id, "wei").await.unwrap();
    let text = s.service.archive_text(&id, None).await.unwrap();
    let start = text
        .find("{[%eliminated")
        .expect("the elimination is written");
    let end = start + text[start..].find('}').unwrap() + 1;
    let bare: String = format!("{}{}", &text[..start], &text[end..])
        .lines()
        .filter(|line| !line.starts_with("[Digest ") && !line.starts_with("[Signature "))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(!bare.contains("%eliminated"), "{bare}");
    let read = missive_archive::read(bare.as_bytes()).next().unwrap();
    let outcome = s.service.import_game(None, read).await;
    let copy = outcome.id.clone().unwrap_or_else(|| panic!("{outcome}"));
    assert_eq!(logged_events(&s, &copy).await, logged_events(&s, &id).await);
    let stored = s.test.store.load(&copy).await.unwrap().unwrap();
    assert_eq!(
        (stored.events[0].ply, &stored.events[0].event),
        (1, &missive_domain::GameEvent::Eliminated { heir: Seat(0) })
    );
    s.assert_consistent().await;
}

contract_tests!(
    an_import_logs_the_eliminations_the_rules_give,
    three_seat_games_take_turns_and_end,
    a_nation_already_out_has_no_say,
    an_elimination_is_logged_and_the_game_drawn_after_it_exports,
);
