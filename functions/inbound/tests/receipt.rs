//! The inbound function's handler fed SES receipt events, over both stores: the reply a
//! receipt names is read from the message store and played once however often SES invokes
//! the function with it; a reply with a forged address plays nothing and mails nobody;
//! a message SES found a virus in is not even read.

use std::collections::HashMap;

use async_trait::async_trait;
use missive_auth::MoveLink;
use missive_domain::{GameId, Seat};
use missive_inbound::{Outcome, Replies};
use missive_inbound_function::{Messages, ReceiptEvent, handle};
use missive_notify::links::reply_address;
use missive_notify::testing::Setup;
use missive_store::testing::Kind;
use serde_json::json;

/// The messages SES stored, by id.
struct Stored(HashMap<String, String>);

#[async_trait]
impl Messages for Stored {
    async fn message(&self, message_id: &str) -> Result<Vec<u8>, String> {
        self.0
            .get(message_id)
            .map(|raw| raw.as_bytes().to_vec())
            .ok_or_else(|| format!("no message {message_id}"))
    }
}

/// A receipt of the message `id` for `recipient`, with SES's virus verdict.
fn receipt(id: &str, recipient: &str, virus: &str) -> ReceiptEvent {
    let event = json!({ "Records": [{
        "eventSource": "aws:ses",
        "eventVersion": "1.0",
        "ses": {
            "mail": {
                "messageId": id,
                "source": "ann@example.org",
                "destination": [recipient],
                "timestamp": "2030-01-07T08:00:00.000Z",
            },
            "receipt": {
                "recipients": [recipient],
                "timestamp": "2030-01-07T08:00:00.000Z",
                "spamVerdict": { "status": "PASS" },
                "virusVerdict": { "status": virus },
                "action": { "type": "Lambda", "invocationType": "Event" },
            },
        },
    }]});
    serde_json::from_value(event).unwrap()
}

/// A reply from ann saying `answer`, addressed (in its headers) to someone else, as a
/// mail forwarded on by an alias would be: only the envelope names the reply address.
fn reply(answer: &str) -> String {
    format!(
        "From: ann@example.org\r\nTo: Missive <moves@example.org>\r\nSubject: Re: Your move\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{answer}\r\n\r\n> Make your move\r\n"
    )
}

async fn ann_to_move(setup: &Setup) -> (GameId, String) {
    let game = setup.chess().await;
    let link = MoveLink {
        handle: "ann".into(),
        game: game.clone(),
        seat: Seat(0),
        ply: 0,
    };
    let address = reply_address(&setup.authority, "reply@example.org", &link).unwrap();
    (game, address)
}

/// Replies played over `setup`'s service, refusals mailed by its notifier.
fn replies_of(setup: &Setup) -> Replies {
    Replies::new(
        setup.service.clone(),
        setup.authority.clone(),
        setup.notifier.clone(),
    )
}

async fn ply_of(setup: &Setup, game: &GameId) -> u32 {
    setup
        .service
        .notice_state(game)
        .await
        .unwrap()
        .unwrap()
        .0
        .ply
}

async fn a_received_reply_plays_once(kind: Kind) {
    let setup = Setup::new(kind).await;
    let (game, address) = ann_to_move(&setup).await;
    let replies = replies_of(&setup);
    let stored = Stored(HashMap::from([("m1".to_string(), reply("e4"))]));
    for _ in 0..2 {
        let outcomes = handle(&replies, &stored, receipt("m1", &address, "PASS"))
            .await
            .unwrap();
        assert!(matches!(&outcomes[..], [Outcome::Played { short, .. }] if short == "e4"));
    }
    assert_eq!(ply_of(&setup, &game).await, 1);
    assert!(
        setup
            .take_mail()
            .iter()
            .all(|mail| mail.to != "ann@example.org")
    );
}

async fn forged_and_infected_replies_play_nothing(kind: Kind) {
    let setup = Setup::new(kind).await;
    let (game, address) = ann_to_move(&setup).await;
    let replies = replies_of(&setup);
    let forged = address
        .replacen("reply+", "reply+a", 1)
        .replacen("a@", "@", 1);
    let stored = Stored(HashMap::from([("m1".to_string(), reply("e4"))]));
    let outcomes = handle(&replies, &stored, receipt("m1", &forged, "PASS"))
        .await
        .unwrap();
    assert!(
        matches!(&outcomes[..], [Outcome::Dropped { .. }]),
        "{outcomes:?}"
    );
    let unread = handle(&replies, &stored, receipt("m2", &address, "FAIL")).await;
    assert_eq!(unread, Ok(Vec::new()));
    let missing = handle(&replies, &stored, receipt("m3", &address, "PASS")).await;
    assert!(missing.is_err());
    assert_eq!(ply_of(&setup, &game).await, 0);
    assert!(setup.take_mail().is_empty());
}

/// Runs each listed test once per store.
macro_rules! per_store {
    ($($name:ident),*) => {
        mod on_sqlite {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Kind::Sqlite).await;
            })*
        }
        mod on_dynamodb {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Kind::DynamoDb).await;
            })*
        }
    };
}

per_store!(
    a_received_reply_plays_once,
    forged_and_infected_replies_play_nothing
);
