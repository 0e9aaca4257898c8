//! MailStore: mail choices with their defaults, and notices claimed once until released.

use missive_domain::{GameId, LeaveEdge, MailPreference, MessageMail, Notice};
use missive_store::{MailStore, store_checks};

use crate::fixtures::at;

async fn mail_preferences_default_to_each_move_and_are_replaced(store: &(impl MailStore + ?Sized)) {
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

async fn a_notice_is_claimed_once_until_released(store: &(impl MailStore + ?Sized)) {
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

async fn message_mail_defaults_to_with_turn_and_is_replaced(store: &(impl MailStore + ?Sized)) {
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

store_checks!(
    mail_preferences_default_to_each_move_and_are_replaced,
    a_notice_is_claimed_once_until_released,
    message_mail_defaults_to_with_turn_and_is_replaced,
);
