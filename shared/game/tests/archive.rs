//! Export and import through the game service on both stores: exported games import as
//! finished games that check, with every act of their log.

mod common;

use chrono::Duration;
use common::{THREE_DAYS, chess_game, logged_events, request, setup};
use missive_archive::Registry;
use missive_domain::{SeatDoc, Status};
use missive_game::{MoveRequest, NewGame, SeatRequest, ServiceError};
use missive_rules::Claim;
use missive_store::contract_tests;
use missive_store::testing::Kind;

async fn exported_games_import_as_finished_games_that_check(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    s.play(&id, "ann", "f3").await;
    let offer = MoveRequest {
        offer_draw: true,
        message: None,
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
        message: None,
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

/// A move or an event the archive gives no time takes the latest time before it (the
/// game's first time when none precedes it), so the game's times stay in order and it
/// exports as a text that imports again, with the same times.
async fn entries_without_a_time_take_the_time_before_them_and_import_again(kind: Kind) {
    let s = setup(kind).await;
    let text = "[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n\n\
        {[%draw-offer white]} 1. f3 1... e5 {[%ccsnt 2030.01.05,00:05:00]} 2. g4 \
        2... Qh4# {[%ccsnt 2030.01.06,10:00:00]} 0-1\n";
    let read = missive_archive::read(text.as_bytes()).next().unwrap();
    let outcome = s.service.import_game(None, read).await;
    let copy = outcome.id.clone().unwrap_or_else(|| panic!("{outcome}"));
    let times = |log: Vec<missive_domain::MoveRecord>| {
        log.iter()
            .map(|mv| mv.at.format("%d %H:%M").to_string())
            .collect::<Vec<_>>()
    };
    let imported = times(s.service.move_log(&copy, None).await.unwrap());
    assert_eq!(imported, ["05 00:05", "05 00:05", "05 00:05", "06 10:00"]);
    let offer = s.test.store.load(&copy).await.unwrap().unwrap().events[0].at;
    assert_eq!(offer.format("%d %H:%M").to_string(), "05 00:05");

    let exported = s.service.archive_text(&copy, None).await.unwrap();
    let read = missive_archive::read(exported.as_bytes()).next().unwrap();
    let outcome = s.service.import_game(None, read).await;
    let again = outcome.id.clone().unwrap_or_else(|| panic!("{outcome}"));
    assert_eq!(
        times(s.service.move_log(&again, None).await.unwrap()),
        imported
    );
    assert_eq!(
        logged_events(&s, &again).await,
        logged_events(&s, &copy).await
    );
    s.assert_consistent().await;
}

contract_tests!(
    exported_games_import_as_finished_games_that_check,
    every_act_is_in_the_log_and_survives_export_and_import,
    entries_without_a_time_take_the_time_before_them_and_import_again,
);
