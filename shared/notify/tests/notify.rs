//! The notifier over real stores (SQLite and DynamoDB Local), the game service with a
//! hand-driven clock and a real outbox: which mails go out, once each.

use std::sync::Arc;

use chrono::Duration;
use missive_auth::Purpose;
use missive_domain::{EndRule, MailPreference, Reason, Status};
use missive_mail::Outbox;
use missive_notify::Notifier;
use missive_notify::testing::{Sent, Setup, URL, start};
use missive_store::contract_tests;
use missive_store::testing::Kind;

async fn a_turn_mails_the_player_to_move_once(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    assert!(s.notifier.game_changed(&id).await.unwrap());
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "ann@example.org");
    assert!(
        mails[0].text.contains("you move first"),
        "{}",
        mails[0].text
    );

    s.play(&id, "ann", "e4", 0).await;
    assert!(s.notifier.game_changed(&id).await.unwrap());
    assert!(!s.notifier.game_changed(&id).await.unwrap());
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1, "{mails:?}");
    let mail = &mails[0];
    assert_eq!(mail.to, "bob@example.org");
    assert!(
        mail.subject.contains("Your move in chess against ann"),
        "{}",
        mail.subject
    );
    for part in [
        "ann played 1. e4",
        "White: ",
        "Pe4",
        "Time left: 3 days 0 hours",
        "multipart/alternative",
        "<img src=\"http://missive.test/v1/games/",
        "List-Unsubscribe: <http://missive.test/unsubscribe/",
        "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    ] {
        assert!(
            mail.text.contains(part),
            "{part} missing from\n{}",
            mail.text
        );
    }
    let now = start().timestamp();
    let claims = s
        .authority
        .verify(&mail.token("play"), Purpose::MoveLink, now)
        .unwrap();
    assert_eq!(
        (claims.sub.as_str(), claims.game, claims.seat, claims.ply),
        ("bob", Some(id.0.clone()), Some(1), Some(1))
    );
    let unsubscribe = s
        .authority
        .verify(&mail.token("unsubscribe"), Purpose::Unsubscribe, now)
        .unwrap();
    assert_eq!(unsubscribe.sub, "bob");
}

async fn a_conditional_reply_mails_the_next_player_only(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    s.service
        .set_conditional_lines(&id, "ann", &[vec!["e5".into(), "Nf3".into()]])
        .await
        .unwrap();
    s.play(&id, "bob", "e5", 1).await;
    assert!(s.notifier.game_changed(&id).await.unwrap());
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "bob@example.org");
    assert!(
        mails[0].text.contains("ann played 2. Nf3"),
        "{}",
        mails[0].text
    );
    let claims = s
        .authority
        .verify(
            &mails[0].token("play"),
            Purpose::MoveLink,
            start().timestamp(),
        )
        .unwrap();
    assert_eq!(claims.ply, Some(3));
}

async fn a_reminder_goes_out_once_at_80_percent(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    s.notifier.game_changed(&id).await.unwrap();
    s.take_mail();
    s.clock.advance(Duration::hours(57));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.reminders, 0, "{report:?}");
    s.clock.advance(Duration::minutes(36));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!((report.reminders, report.turns), (1, 0), "{report:?}");
    assert_eq!(s.notifier.sweep().await.unwrap().reminders, 0);
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "bob@example.org");
    assert!(
        mails[0]
            .subject
            .starts_with("Reminder: 14 hours 24 minutes left"),
        "{}",
        mails[0].subject
    );
    assert!(mails[0].text.contains("80% of your time"));
}

async fn the_sweep_mails_turns_no_event_announced_and_ends_games_on_time(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.turns, 1, "{report:?}");
    assert_eq!(s.notifier.sweep().await.unwrap().turns, 0);
    assert!(!s.notifier.game_changed(&id).await.unwrap());
    assert_eq!(s.take_mail().len(), 1);
    s.clock.advance(Duration::days(3) + Duration::minutes(1));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.timeouts, 1, "{report:?}");
    let view = s.service.store().load(&id).await.unwrap().unwrap();
    assert_eq!(view.head.doc.status, Status::Finished);
    assert_eq!(
        view.head.doc.ending.unwrap().rule,
        Reason::Rule(EndRule::Timeout)
    );
}

async fn digest_players_get_one_mail_a_day(kind: Kind) {
    let s = Setup::new(kind).await;
    s.service
        .set_mail_preference("bob", MailPreference::DailyDigest)
        .await
        .unwrap();
    let first = s.chess().await;
    let second = s.chess().await;
    for id in [&first, &second] {
        s.play(id, "ann", "d4", 0).await;
        assert!(!s.notifier.game_changed(id).await.unwrap());
    }
    s.take_mail();
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.digests, 1, "{report:?}");
    assert_eq!(s.notifier.sweep().await.unwrap().digests, 0);
    let mails = s.take_mail();
    let digests: Vec<&Sent> = mails.iter().filter(|m| m.to == "bob@example.org").collect();
    assert_eq!(digests.len(), 1, "{mails:?}");
    assert_eq!(digests[0].subject, "2 games are waiting for your move");
    for id in [&first, &second] {
        assert!(digests[0].text.contains(&id.0));
    }
    s.clock.advance(Duration::days(1));
    assert_eq!(s.notifier.sweep().await.unwrap().digests, 1);
}

async fn players_who_want_no_mail_get_none(kind: Kind) {
    let s = Setup::new(kind).await;
    s.service
        .set_mail_preference("bob", MailPreference::None)
        .await
        .unwrap();
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    assert!(!s.notifier.game_changed(&id).await.unwrap());
    s.clock.advance(Duration::hours(70));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report, Default::default());
    assert!(s.take_mail().is_empty());
}

async fn a_finished_game_tells_each_player_how_it_ended_once(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    s.take_mail();
    s.service.resign(&id, "bob").await.unwrap();
    assert!(s.notifier.game_changed(&id).await.unwrap());
    assert!(!s.notifier.game_changed(&id).await.unwrap());
    let mut mails = s.take_mail();
    mails.sort_by(|a, b| a.to.cmp(&b.to));
    let told: Vec<(&str, bool)> = mails
        .iter()
        .map(|mail| {
            (
                mail.to.as_str(),
                mail.subject.starts_with("Game over in chess"),
            )
        })
        .collect();
    assert_eq!(told, [("ann@example.org", true), ("bob@example.org", true)]);
    for (mail, result) in mails.iter().zip(["You won", "You lost"]) {
        for part in [
            result,
            "has ended: resignation by bob",
            "http://missive.test/games/",
            "/archive",
            "List-Unsubscribe: <http://missive.test/unsubscribe/",
        ] {
            assert!(
                mail.text.contains(part),
                "{part} missing from\n{}",
                mail.text
            );
        }
        assert!(!mail.text.contains("/play/"), "no move link after the end");
    }

    s.service
        .set_mail_preference("ann", MailPreference::None)
        .await
        .unwrap();
    let second = s.chess().await;
    s.service.resign(&second, "ann").await.unwrap();
    s.take_mail();
    assert!(s.notifier.game_changed(&second).await.unwrap());
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1, "ann wants no mail");
    assert!(mails[0].text.contains("You won"), "{}", mails[0].text);
}

async fn a_mail_that_fails_is_claimed_again(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    // An outbox whose folder is a file cannot take mail.
    let blocked = s.outbox.with_extension("file");
    std::fs::write(&blocked, "").unwrap();
    let failing = Notifier::new(
        s.service.clone(),
        s.authority.clone(),
        Arc::new(Outbox::new(&blocked, "missive@example.org")),
        s.clock.clone(),
        URL,
    );
    assert!(failing.game_changed(&id).await.is_err());
    let report = failing.sweep().await.unwrap();
    assert_eq!(report.failures.len(), 1, "{report:?}");
    std::fs::remove_file(&blocked).unwrap();
    assert!(s.notifier.game_changed(&id).await.unwrap());
    assert_eq!(s.take_mail().len(), 1);
}

contract_tests!(
    a_finished_game_tells_each_player_how_it_ended_once,
    a_mail_that_fails_is_claimed_again,
    a_turn_mails_the_player_to_move_once,
    a_conditional_reply_mails_the_next_player_only,
    a_reminder_goes_out_once_at_80_percent,
    the_sweep_mails_turns_no_event_announced_and_ends_games_on_time,
    digest_players_get_one_mail_a_day,
    players_who_want_no_mail_get_none,
);
