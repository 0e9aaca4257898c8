//! The notifier function's handler: DynamoDB stream records of the game table in, the
//! players' feed items its commits left to it written (through
//! [`Scheduler::tell_change`]), turn mails out (through [`Scheduler::game_changed`]),
//! batch item failures back.
//!
//! A commit that appends entries leaves its feed items to this reader where the functions
//! say so (`MISSIVE_FEED_FROM_STREAM`, which the template sets): the handler decides them
//! again from the head's old and new images and writes them, for every record of the batch
//! in order, before it attends any game, so that the events are there for the connections
//! and webhooks it sends them to, and so that a mail that fails cannot hold them back.
//! Told again (a retried batch), an item adds nothing; told late (a batch retried for a
//! while), it still reaches every reader (see [`missive_store::FeedStore::tell`]).
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
//! `batchItemFailures` with its sequence number, and handling stops there (the records
//! after it are told, not attended, when only its mail failed): Lambda retries the stream
//! from that record, so the records after it come again anyway.

use std::collections::HashSet;
use std::time::Duration;

use aws_lambda_events::dynamodb::{Event, EventRecord};
use aws_lambda_events::streams::{DynamoDbBatchItemFailure, DynamoDbEventResponse};
use missive_domain::{GameId, Head};
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
    #[serde(default)]
    body: Option<String>,
}

impl HeadImage {
    /// The head the image holds.
    fn head(&self, game: &GameId) -> Result<Head, String> {
        let body = self
            .body
            .as_deref()
            .ok_or(format!("a head of game {game} without body"))?;
        serde_json::from_str(body).map_err(|e| format!("the head of game {game}: {e}"))
    }
}

/// What a record asks for.
#[derive(Debug, PartialEq, Eq)]
enum Change {
    /// Not a head whose turn moved on: nothing to do.
    Nothing,
    /// The turn moved on in this game, it ended, or something was logged; `told`: the
    /// head before the change and after it, whose feed items are to be written (none for
    /// a game created).
    Turn {
        game: GameId,
        told: Option<Box<(Head, Head)>>,
    },
}

/// The place in the batch of the first record that failed, and why.
type Failure = (usize, String);

/// The longest a batch waits for its webhook deliveries (the function's timeout is 60 s).
pub const HOOKS_WAIT: Duration = Duration::from_secs(40);

/// Handles one batch of stream records: writes the feed items of every change, then attends
/// each game changed once, then waits for the webhook deliveries that handed over (at most
/// [`HOOKS_WAIT`]); the answer lists the first record that failed.
pub async fn handle(notifier: &Scheduler, event: Event) -> DynamoDbEventResponse {
    record_lag(&event);
    let changes: Vec<Result<Change, String>> = event.records.iter().map(change_of).collect();
    let untold = tell(notifier, &changes).await.err();
    let told = untold.as_ref().map_or(changes.len(), |(index, _)| *index);
    let failure = attend(notifier, &changes[..told]).await.err().or(untold);
    let mut batch_item_failures = Vec::new();
    if let Some((index, error)) = failure {
        let record = &event.records[index];
        tracing::warn!(event_id = %record.event_id, %error, "stream record failed");
        batch_item_failures.push(DynamoDbBatchItemFailure {
            item_identifier: record.change.sequence_number.clone(),
        });
    }
    if !notifier.hooks_settled(HOOKS_WAIT).await {
        tracing::warn!("webhook deliveries still under way; the sweep goes on with them");
    }
    DynamoDbEventResponse {
        batch_item_failures,
    }
}

/// Writes the feed items of every change of `changes`, in order; the first record that
/// could not be read or told.
async fn tell(notifier: &Scheduler, changes: &[Result<Change, String>]) -> Result<(), Failure> {
    for (index, change) in changes.iter().enumerate() {
        let (before, after) = match change {
            Err(error) => return Err((index, error.clone())),
            Ok(Change::Turn {
                told: Some(heads), ..
            }) => heads.as_ref(),
            Ok(_) => continue,
        };
        notifier
            .tell_change(before, after)
            .await
            .map_err(|error| (index, error.to_string()))?;
    }
    Ok(())
}

/// Attends each game `changes` changed, once; the first record whose game could not be
/// attended.
async fn attend(notifier: &Scheduler, changes: &[Result<Change, String>]) -> Result<(), Failure> {
    let mut handled: HashSet<&GameId> = HashSet::new();
    for (index, change) in changes.iter().enumerate() {
        let Ok(Change::Turn { game, .. }) = change else {
            continue;
        };
        if handled.contains(game) {
            continue;
        }
        notifier
            .game_changed(game)
            .await
            .map_err(|error| (index, error.to_string()))?;
        handled.insert(game);
    }
    Ok(())
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
    if !moved_on && !logged {
        return Ok(Change::Nothing);
    }
    let told = match &old {
        Some(old) => Some(Box::new((old.head(&id)?, new.head(&id)?))),
        None => None,
    };
    Ok(Change::Turn { game: id, told })
}
