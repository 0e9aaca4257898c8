//! The notifier function's handler: DynamoDB stream records of the game table in, turn
//! mails out (through [`Scheduler::game_changed`]), batch item failures back.
//!
//! Only head records matter: every commit replaces the game's head, so the head's record
//! carries each change, including the moves appended with it and the start of a game.
//! A head record is handled when the turn moved on: its new image has a player to move and
//! a ply (or player to move) other than the old image's; when the game ended: the old
//! image had a player to move and the new one has none; or when something was logged
//! besides moves (the number of events changed: a message, a draw offer and its answers,
//! which its players are told of). Each game is handled once per
//! batch. Mails are claimed in the store before they are sent, so a record delivered again
//! (Lambda retries, a repeated event) sends nothing more.
//!
//! Webhooks are delivered out of line, so mail never waits for them; before it answers, the
//! handler waits (at most [`HOOKS_WAIT`]) for the deliveries its batch handed over, since
//! the function is frozen once it answered. Deliveries still under way then are the
//! sweep's.
//!
//! A record that cannot be handled (unreadable, store or mail failure) is reported in
//! `batchItemFailures` with its sequence number, and handling stops there: Lambda retries
//! the stream from that record, so the records after it come again anyway.

use std::collections::HashSet;
use std::time::Duration;

use aws_lambda_events::dynamodb::{Event, EventRecord};
use aws_lambda_events::streams::{DynamoDbBatchItemFailure, DynamoDbEventResponse};
use missive_domain::GameId;
use missive_metrics::Metric;
use missive_notify::Scheduler;
use missive_store::dynamodb::keys;
use serde::Deserialize;

/// The parts of a head item the handler reads.
#[derive(Debug, Deserialize)]
struct HeadImage {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(default)]
    ply: Option<u32>,
    #[serde(default)]
    wait_player: Option<String>,
    #[serde(default)]
    events: Option<u32>,
}

/// What a record asks for.
#[derive(Debug, PartialEq, Eq)]
enum Change {
    /// Not a head whose turn moved on: nothing to do.
    Nothing,
    /// The turn moved on in this game, or it ended.
    Turn(GameId),
}

/// The longest a batch waits for its webhook deliveries (the function's timeout is 60 s).
pub const HOOKS_WAIT: Duration = Duration::from_secs(40);

/// Handles one batch of stream records, then waits for the webhook deliveries it handed
/// over (at most [`HOOKS_WAIT`]); the answer lists the first record that failed.
pub async fn handle(notifier: &Scheduler, event: Event) -> DynamoDbEventResponse {
    let mut handled: HashSet<GameId> = HashSet::new();
    let mut batch_item_failures = Vec::new();
    record_lag(&event);
    for record in &event.records {
        let result = match change_of(record) {
            Ok(Change::Nothing) => continue,
            Ok(Change::Turn(game)) if handled.contains(&game) => continue,
            Ok(Change::Turn(game)) => notifier
                .game_changed(&game)
                .await
                .map(|_| {
                    handled.insert(game);
                })
                .map_err(|e| e.to_string()),
            Err(error) => Err(error),
        };
        if let Err(error) = result {
            tracing::warn!(event_id = %record.event_id, %error, "stream record failed");
            batch_item_failures.push(DynamoDbBatchItemFailure {
                item_identifier: record.change.sequence_number.clone(),
            });
            break;
        }
    }
    if !notifier.hooks_settled(HOOKS_WAIT).await {
        tracing::warn!("webhook deliveries still under way; the sweep goes on with them");
    }
    DynamoDbEventResponse {
        batch_item_failures,
    }
}

/// Records how long the batch's oldest record waited in the stream ([`Metric::StreamLag`]).
fn record_lag(event: &Event) {
    let now = chrono::Utc::now();
    let oldest = event
        .records
        .iter()
        .map(|record| record.change.approximate_creation_date_time)
        // A record without the time reads as the epoch: it says nothing of the lag.
        .filter(|created| created.timestamp() > 0)
        .min();
    if let Some(oldest) = oldest {
        let waited = (now - oldest).num_milliseconds().max(0);
        missive_metrics::record(Metric::StreamLag, waited as f64);
    }
}

/// Reads what a record says changed.
fn change_of(record: &EventRecord) -> Result<Change, String> {
    let item: HeadImage = serde_dynamo::from_item(record.change.keys.clone())
        .map_err(|e| format!("record keys: {e}"))?;
    if item.sk != keys::HEAD || record.event_name == "REMOVE" {
        return Ok(Change::Nothing);
    }
    let id = keys::game_of_pk(&item.pk).ok_or_else(|| format!("a head under {}", item.pk))?;
    let new: HeadImage = serde_dynamo::from_item(record.change.new_image.clone())
        .map_err(|e| format!("new image of game {id}: {e}"))?;
    let old: Option<HeadImage> = if record.change.old_image.is_empty() {
        None
    } else {
        let old = serde_dynamo::from_item(record.change.old_image.clone())
            .map_err(|e| format!("old image of game {id}: {e}"))?;
        Some(old)
    };
    let moved_on = match (&old, &new.wait_player) {
        // A game created with someone to move already.
        (None, Some(_)) => true,
        // A game still forming, or one imported finished.
        (None, None) => false,
        (Some(old), Some(_)) => (old.ply, &old.wait_player) != (new.ply, &new.wait_player),
        // Nobody is to move any more: the game has just ended.
        (Some(old), None) => old.wait_player.is_some(),
    };
    let logged = old.as_ref().is_some_and(|old| old.events != new.events);
    Ok(if moved_on || logged {
        Change::Turn(id)
    } else {
        Change::Nothing
    })
}
