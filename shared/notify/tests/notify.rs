//! The notifier over real stores (SQLite and DynamoDB Local), the game service with a
//! hand-driven clock and a real outbox: which mails go out, once each.

use std::sync::Arc;

use chrono::Duration;
use missive_auth::{MOVE_LINK_GRACE, Purpose};
use missive_domain::{EndRule, GameId, MailPreference, Reason, Status, TimeControl};
use missive_game::{NewGame, SeatRequest};
use missive_mail::Outbox;
use missive_notify::Scheduler;
use missive_notify::testing::{Sent, Setup, URL, start};
use missive_rules::{Notation, Variant, registry};
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
    assert_eq!(mail.subject, "ann vs bob, chess");
    for part in [
        "Your move: ann played 1. e4.",
        "The moves:\n1. e4\n",
        "White: ",
        "Pe4",
        "Time left: 3 days (until",
    ] {
        assert!(
            mail.text.contains(part),
            "{part} missing from\n{}",
            mail.text
        );
    }
    for header in [
        "multipart/alternative",
        "List-Unsubscribe: <http://missive.test/unsubscribe/",
        "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    ] {
        assert!(mail.raw.contains(header), "{header} missing from {mail:?}");
    }
    let root = format!("<game-{id}@");
    for header in ["In-Reply-To: ", "References: "] {
        assert!(mail.raw.contains(&format!("{header}{root}")), "{mail:?}");
    }
    assert!(mail.raw.contains("Auto-Submitted: auto-generated\r\n"));
    assert!(mail.text.contains("replies to it are not read"));
    assert_board_picture(mail, 1);
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

/// The board picture the mail's HTML shows by `cid:`, decoded: its size and pixels.
fn picture(mail: &Sent) -> ((u32, u32), Vec<u8>) {
    let start = mail.html.find("src=\"cid:").expect("a cid: picture") + "src=\"cid:".len();
    let cid = &mail.html[start..start + mail.html[start..].find('"').expect("a quote")];
    let part = mail
        .inline
        .iter()
        .find(|part| part.content_id == cid)
        .unwrap_or_else(|| panic!("no part for cid:{cid} in {:?}", mail.inline));
    assert_eq!(part.content_type, "image/png");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(&part.data));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut pixels).expect("the image data");
    ((frame.width, frame.height), pixels)
}

/// The mail shows exactly `count` pictures, the first one a board of a sane size.
fn assert_board_picture(mail: &Sent, count: usize) {
    assert_eq!(mail.inline.len(), count, "{mail:?}");
    let ((width, height), _) = picture(mail);
    assert!(width >= 300 && height >= 300, "{width}x{height}");
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
        mails[0].text.contains("Reminder: 14 hours 24 minutes left"),
        "{}",
        mails[0].text
    );
    assert!(mails[0].text.contains("80% of the time for it is gone"));
    assert_board_picture(&mails[0], 1);
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
    assert!(
        digests[0].text.contains("move 1...:"),
        "{}",
        digests[0].text
    );
    for id in [&first, &second] {
        assert!(digests[0].text.contains(&id.0));
        assert!(digests[0].inline.is_empty(), "a digest shows no board");
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
        .map(|mail| (mail.to.as_str(), mail.subject == "ann vs bob, chess"))
        .collect();
    assert_eq!(told, [("ann@example.org", true), ("bob@example.org", true)]);
    for (mail, result) in mails.iter().zip(["You won", "You lost"]) {
        for part in [
            result,
            "Game over: resignation by bob.",
            "http://missive.test/games/",
            "/archive",
        ] {
            assert!(
                mail.text.contains(part),
                "{part} missing from\n{}",
                mail.text
            );
        }
        assert!(
            mail.raw
                .contains("List-Unsubscribe: <http://missive.test/unsubscribe/")
        );
        assert!(!mail.raw.contains("/play/"), "no move link after the end");
    }
    let seats = mails.iter().map(|mail| picture(mail).1).collect::<Vec<_>>();
    assert_ne!(
        seats[0], seats[1],
        "each player sees the end from their seat"
    );

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
    let failing = Scheduler::new(
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

/// The claims of the move link in `mail`, checked at the start of the tests' clock.
fn move_link_claims(s: &Setup, mail: &Sent) -> missive_auth::Claims {
    s.authority
        .verify(&mail.token("play"), Purpose::MoveLink, start().timestamp())
        .unwrap()
}

/// The headers every mail carries, checked on `mail` as written.
fn assert_mail_headers(mail: &Sent) {
    for header in [
        "Message-ID: <",
        "Date: ",
        "MIME-Version: 1.0",
        "List-Unsubscribe: <http://missive.test/unsubscribe/",
        "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    ] {
        assert!(mail.raw.contains(header), "{header} missing from {mail:?}");
    }
}

/// bob's leave from the second day for ten days: the turn mail counts it in the time left
/// and the link's life, the opponent hears when it starts and ends, and the reminder waits
/// for 80% of the running time, not of the days on the calendar.
async fn a_leave_moves_the_deadline_the_reminder_and_the_link_expiry(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    let leave = start() + Duration::days(1);
    s.service.take_vacation("bob", leave, 10).await.unwrap();
    assert!(s.notifier.game_changed(&id).await.unwrap());
    let mails = s.take_mail();
    let [turn] = &mails[..] else {
        panic!("one turn mail: {mails:?}")
    };
    assert!(
        turn.text
            .contains("Time left: 13 days (until 2030-01-20 08:00 UTC)"),
        "{}",
        turn.text
    );
    let real = start() + Duration::days(13);
    assert_eq!(
        move_link_claims(&s, turn).exp,
        (real + MOVE_LINK_GRACE).timestamp()
    );
    s.clock.advance(Duration::days(1));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!((report.leaves, report.reminders), (1, 0), "{report:?}");
    let mails = s.take_mail();
    let [told] = &mails[..] else {
        panic!("one leave mail: {mails:?}")
    };
    assert_eq!(told.to, "ann@example.org");
    assert_eq!(told.subject, "bob is on leave until 2030-01-18 08:00 UTC");
    assert!(
        told.text.contains(&format!("{URL}/games/{id}")),
        "{}",
        told.text
    );
    assert_mail_headers(told);
    assert_eq!(s.notifier.sweep().await.unwrap(), Default::default());
    // When 80% of three days would have gone by on the calendar, nothing is due.
    s.clock.advance(Duration::hours(34) + Duration::minutes(36));
    assert_eq!(s.notifier.sweep().await.unwrap().due, 0);
    s.clock.set(leave + Duration::days(10));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!((report.leaves, report.reminders), (1, 0), "{report:?}");
    let mails = s.take_mail();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].subject, "bob is back from leave");
    s.clock
        .set(start() + Duration::days(12) + Duration::hours(9) + Duration::minutes(36));
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.reminders, 1, "{report:?}");
    let mails = s.take_mail();
    let [reminder] = &mails[..] else {
        panic!("one reminder: {mails:?}")
    };
    assert!(
        reminder.text.contains("Reminder: 14 hours 24 minutes left"),
        "{}",
        reminder.text
    );
    assert_eq!(
        move_link_claims(&s, reminder).exp,
        (real + MOVE_LINK_GRACE).timestamp()
    );
}

/// A leave under way ended early: the opponent hears it is over, the days not used are
/// given back and the deadline counts only the days taken; a leave cancelled before it
/// starts sends nothing.
async fn a_leave_ended_early_or_cancelled(kind: Kind) {
    let s = Setup::new(kind).await;
    let id = s.chess().await;
    s.play(&id, "ann", "e4", 0).await;
    s.notifier.game_changed(&id).await.unwrap();
    s.take_mail();
    let booked = start() + Duration::hours(6);
    s.service.take_vacation("bob", booked, 2).await.unwrap();
    s.service.end_vacation("bob", booked).await.unwrap();
    s.service.take_vacation("bob", start(), 10).await.unwrap();
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.leaves, 1, "{report:?}");
    assert_eq!(
        s.take_mail()[0].subject,
        "bob is on leave until 2030-01-17 08:00 UTC"
    );
    s.clock.advance(Duration::hours(7));
    assert_eq!(
        s.notifier.sweep().await.unwrap().leaves,
        0,
        "the cancelled one"
    );
    s.clock.set(start() + Duration::days(2));
    s.service.end_vacation("bob", start()).await.unwrap();
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!(report.leaves, 1, "{report:?}");
    let mails = s.take_mail();
    assert_eq!(mails[0].subject, "bob is back from leave");
    assert!(
        mails[0].text.contains("ended at 2030-01-09 08:00 UTC"),
        "{}",
        mails[0].text
    );
    let balance = s.service.vacation_balance("bob").await.unwrap();
    assert_eq!((balance.used, balance.left), (2, 43));
    let view = s.service.game_view(&id, None).await.unwrap();
    assert_eq!(view.deadline, Some(start() + Duration::days(5)));
    assert!(view.on_leave.is_empty());
}

/// A digest counts the player's leave in each game's time left and in its link's life.
async fn digests_count_the_leave(kind: Kind) {
    let s = Setup::new(kind).await;
    s.service
        .set_mail_preference("bob", MailPreference::DailyDigest)
        .await
        .unwrap();
    let id = s.chess().await;
    s.play(&id, "ann", "d4", 0).await;
    s.service.take_vacation("bob", start(), 4).await.unwrap();
    let report = s.notifier.sweep().await.unwrap();
    assert_eq!((report.digests, report.leaves), (1, 1), "{report:?}");
    let mails = s.take_mail();
    let digest = mails
        .iter()
        .find(|m| m.to == "bob@example.org")
        .expect("bob's digest");
    assert!(digest.text.contains("7 days left"), "{}", digest.text);
    let real = start() + Duration::days(7);
    assert_eq!(
        move_link_claims(&s, digest).exp,
        (real + MOVE_LINK_GRACE).timestamp()
    );
    assert_mail_headers(digest);
}

/// The largest whole turn mail, headers, both parts and the picture.
const MOST_MAIL_BYTES: usize = 100_000;
/// The players seated in games of every variant, in seat order.
const TABLE: [&str; 3] = ["ann", "bob", "cy"];

/// A started game of `variant`, ann creating it and the others of [`TABLE`] invited and
/// seated in order.
async fn started(s: &Setup, variant: &dyn Variant) -> GameId {
    let others = &TABLE[1..variant.seat_names().len()];
    let seats = std::iter::once(SeatRequest::Creator)
        .chain(others.iter().map(|player| SeatRequest::Invite {
            player: player.to_string(),
        }))
        .collect();
    let id = s
        .service
        .create_game(NewGame {
            creator: "ann".into(),
            variant: variant.id().into(),
            options: String::new(),
            start_position: None,
            seats,
            time_control: TimeControl::DaysPerMove { days: 3 },
            rated: false,
            private: false,
        })
        .await
        .expect("create a game");
    for player in others {
        s.service.join(&id, player, None).await.expect("join");
    }
    id
}

/// Plays `plies` moves in game `id` of `variant` from its start, each picked from the legal
/// list by a fixed stride, for whoever is to move; stops early if the game ends.
async fn play_on(s: &Setup, id: &GameId, variant: &dyn Variant, plies: usize) {
    let mut game = variant.new_game("", None).expect("the variant starts");
    for ply in 0..plies {
        let legal = game.legal_moves(Notation::Long);
        let (Some(seat), false) = (game.to_move(), legal.is_empty()) else {
            return;
        };
        let pick = legal[(ply * 7 + 3) % legal.len()].clone();
        s.play(id, TABLE[seat.index()], &pick, ply as u32).await;
        game.play(&pick).expect("a legal move");
        if game.outcome().is_some() {
            return;
        }
    }
}

async fn every_variant_s_turn_mail_shows_its_board_within_100_kb(kind: Kind) {
    let s = Setup::new(kind).await;
    s.service
        .sign_up("cy", "cy@example.org")
        .await
        .expect("sign up");
    for variant in registry::variants() {
        // Each game in a mail window of its own: its invitations count against bob's and
        // cy's addresses.
        s.clock.advance(Duration::hours(1));
        let id = started(&s, *variant).await;
        // The mail that the game began, then one after nine moves from the start.
        for plies in [0, 9] {
            play_on(&s, &id, *variant, plies).await;
            assert!(s.notifier.game_changed(&id).await.unwrap());
            let mails = s.take_mail();
            let [mail] = &mails[..] else {
                panic!("{}: one mail, not {}", variant.id(), mails.len())
            };
            assert!(mail.subject.contains(variant.id()), "{}", mail.subject);
            assert!(
                mail.raw.len() <= MOST_MAIL_BYTES,
                "{} after {plies} plies: {} bytes",
                variant.id(),
                mail.raw.len()
            );
            assert_board_picture(mail, 1);
            println!(
                "{} after {plies} plies: {} bytes, picture {} bytes",
                variant.id(),
                mail.raw.len(),
                mail.inline[0].data.len()
            );
        }
    }
}

contract_tests!(
    every_variant_s_turn_mail_shows_its_board_within_100_kb,
    a_finished_game_tells_each_player_how_it_ended_once,
    a_mail_that_fails_is_claimed_again,
    a_turn_mails_the_player_to_move_once,
    a_conditional_reply_mails_the_next_player_only,
    a_reminder_goes_out_once_at_80_percent,
    the_sweep_mails_turns_no_event_announced_and_ends_games_on_time,
    digest_players_get_one_mail_a_day,
    players_who_want_no_mail_get_none,
    a_leave_moves_the_deadline_the_reminder_and_the_link_expiry,
    a_leave_ended_early_or_cancelled,
    digests_count_the_leave,
);
