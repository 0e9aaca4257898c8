//! A store written by version 0.1, before the typed domain model and heads that carry what
//! the next move needs (tests/data/before-typed-model): it opens, every game replays to its
//! head and shows and exports as it did then, the games upgrade in place, and play goes on.
//! Also: a tournament start kept where the version before this one kept it is moved into
//! the sweep's index by the upgrade.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use missive_domain::{GameId, Status, Tournament, TournamentStart};
use missive_game::{GameService, ManualClock, Membership, MoveRequest, WakeSubject};
use missive_store::contract_tests;
use missive_store::testing::{Kind, TestStore, open_tournament};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/before-typed-model")
        .join(name)
}

/// The old store of `kind`, the service over it with a clock an hour after it was written,
/// and what the old version served.
async fn old_store(kind: Kind) -> (TestStore, GameService, Arc<ManualClock>, Value) {
    let test =
        TestStore::written_before(kind, &data("store.sqlite"), &data("dynamodb-items.json")).await;
    let served = match kind {
        Kind::Sqlite => "sqlite-served.json",
        Kind::DynamoDb => "dynamodb-served.json",
    };
    let served: Value =
        serde_json::from_str(&std::fs::read_to_string(data(served)).unwrap()).unwrap();
    let written = served["views"]["chess-active"]["deadline"]
        .as_str()
        .and_then(|text| text.parse::<DateTime<Utc>>().ok())
        .unwrap();
    let clock = Arc::new(ManualClock::new(
        written - Duration::days(3) + Duration::hours(1),
    ));
    let service = GameService::new(test.store.clone(), clock.clone());
    (test, service, clock, served)
}

fn game(served: &Value, name: &str) -> GameId {
    GameId(served["ids"][name].as_str().unwrap().to_string())
}

/// `view` as served then, with its ending's time in RFC 3339 as views give it since (it was
/// milliseconds since the epoch; the stored record still is).
fn rfc3339_ending(view: &Value) -> Value {
    let mut view = view.clone();
    if let Some(ms) = view["ending"]["at"].as_i64() {
        let at = chrono::DateTime::from_timestamp_millis(ms).unwrap();
        view["ending"]["at"] = serde_json::to_value(at).unwrap();
    }
    view
}

/// Who saw each game when it was served (the private game's player; ann otherwise).
fn viewer(name: &str) -> &'static str {
    if name == "chess-private" {
        "bob"
    } else {
        "ann"
    }
}

async fn an_old_store_replays_and_shows_every_game_as_it_did(kind: Kind) {
    let (_test, service, _clock, served) = old_store(kind).await;
    let report = service.check_all().await.unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.games, served["ids"].as_object().unwrap().len());
    for (name, old_view) in served["views"].as_object().unwrap() {
        let id = game(&served, name);
        let view = service.game_view(&id, Some(viewer(name))).await.unwrap();
        let mut view = serde_json::to_value(&view).unwrap();
        // Shown since: whether an imported game was signed by this server.
        assert_eq!(view["verified"].take(), Value::Bool(false), "{name}");
        view.as_object_mut().unwrap().remove("verified");
        assert_eq!(view, rfc3339_ending(old_view), "{name}");
        let record = service.archive_record(&id, Some(viewer(name))).await;
        let text = missive_archive::export(
            &record.unwrap(),
            missive_archive::ExportOptions::default(),
            &missive_archive::Registry,
        )
        .unwrap();
        let old = served["archives"][name].as_str().unwrap();
        let text = without_added_tags(&text);
        let (text, old) = (without_options(&text, name), old.to_string());
        if text != old {
            // The tags' digest covers the added tag; everything else is as it was.
            assert_eq!(without_digest(&text), without_digest(&old), "{name}");
        }
    }
}

/// The archive text without the tags exported since (the time control, the end date).
fn without_added_tags(text: &str) -> String {
    text.lines()
        .filter(|line| !line.starts_with("[TimeControl ") && !line.starts_with("[EndDate "))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The archive text without its `Digest` tag.
fn without_digest(text: &str) -> String {
    text.lines()
        .filter(|line| !line.starts_with("[Digest "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The archive text without the `Options` tag the export of a game of edition 0 adds where
/// its readings have changed since (naming the rules it was played under), checking it is
/// there exactly for those games.
fn without_options(text: &str, name: &str) -> String {
    let old_readings = ["trid-fs", "trid-fs-half-turn", "trid-wtdcf", "dynamo"];
    let tag = text.lines().find(|line| line.starts_with("[Options "));
    assert_eq!(
        tag.is_some(),
        old_readings.contains(&name),
        "{name}: {tag:?}"
    );
    match tag {
        Some(tag) => text.replacen(&format!("{tag}\n"), "", 1),
        None => text.to_string(),
    }
}

async fn old_games_upgrade_in_place_once(kind: Kind) {
    let (test, service, _clock, served) = old_store(kind).await;
    let games = served["ids"].as_object().unwrap().len();
    assert_eq!(service.upgrade_all().await.unwrap(), games);
    assert_eq!(service.upgrade_all().await.unwrap(), 0);
    let report = service.check_all().await.unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    for name in served["ids"].as_object().unwrap().keys() {
        let head = test
            .store
            .head(&game(&served, name))
            .await
            .unwrap()
            .unwrap();
        assert!(head.resume.is_some(), "{name}");
    }
    let active = service
        .games_of("ann", Membership::Active, None, 50)
        .await
        .unwrap();
    let ids: Vec<GameId> = active.items.iter().map(|g| g.id.clone()).collect();
    assert!(ids.contains(&game(&served, "chess-active")), "{ids:?}");
    assert!(ids.iter().all(|id| *id != game(&served, "chess-resigned")));
    let due = service
        .due(0, DateTime::<Utc>::MAX_UTC, None, 500)
        .await
        .unwrap();
    let due_anywhere = due.items.len()
        + match kind {
            Kind::Sqlite => 0,
            Kind::DynamoDb => {
                let mut more = 0;
                for shard in 1..service.wake_shards() {
                    let page = service.due(shard, DateTime::<Utc>::MAX_UTC, None, 500);
                    more += page.await.unwrap().items.len();
                }
                more
            }
        };
    let waiting = served["views"]
        .as_object()
        .unwrap()
        .values()
        .filter(|view| view["status"] == "active")
        .count();
    assert_eq!(
        due_anywhere, waiting,
        "every game someone is to move in wakes once"
    );
}

async fn old_games_play_on_with_or_without_an_upgrade(kind: Kind) {
    let (_test, service, _clock, served) = old_store(kind).await;
    for name in ["chess-long", "trid-fs-half-turn", "sanguo", "chess-iccf"] {
        let id = game(&served, name);
        for _ in 0..4 {
            let view = service.game_view(&id, None).await.unwrap();
            if view.status != Status::Active {
                break;
            }
            let seat = view.to_move.unwrap();
            let player = view.seats[seat.index()].player().unwrap().to_string();
            let request = MoveRequest {
                player,
                expected_ply: view.ply,
                key: missive_store::testing::unique_name("old"),
                text: view.legal_moves[0].clone(),
                offer_draw: false,
                message: None,
            };
            service.submit_move(&id, &request).await.unwrap();
        }
    }
    let report = service.check_all().await.unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
}

/// Every wake-up due by `until`, over every shard.
async fn due_anywhere(service: &GameService, until: DateTime<Utc>) -> Vec<WakeSubject> {
    let mut subjects = Vec::new();
    for shard in 0..service.wake_shards() {
        let page = service.due(shard, until, None, 500).await.unwrap();
        subjects.extend(page.items.into_iter().map(|wake| wake.subject));
    }
    subjects
}

/// An open tournament with a start date whose start was kept where an earlier version
/// kept it (on DynamoDB, a list of its own) is not due until `missive upgrade` stores it
/// again, which makes its start a wake-up in the sweep's index; nothing else changes.
async fn old_tournament_starts_move_into_the_sweep_index(kind: Kind) {
    let test = TestStore::new(kind).await;
    let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
    let service = GameService::new(test.store.clone(), Arc::new(ManualClock::new(start)));
    let tournament = Tournament {
        start: TournamentStart::At { at: start },
        players: vec!["ann".into(), "bob".into()],
        ..open_tournament("01J00000000000000000000T01", start - Duration::days(7), 1)
    };
    test.store.put_tournament(&tournament).await.unwrap();
    test.write_old_tournament_start(&tournament.id.0, start.timestamp_millis())
        .await;
    let due = WakeSubject::Tournament(tournament.id.clone());
    let later = start + Duration::hours(1);
    assert_eq!(
        due_anywhere(&service, later).await.contains(&due),
        kind == Kind::Sqlite
    );
    assert_eq!(service.upgrade_all().await.unwrap(), 1);
    assert_eq!(due_anywhere(&service, later).await, [due]);
    let stored = test.store.tournament(&tournament.id).await.unwrap();
    let expected = Tournament {
        revision: 2,
        ..tournament
    };
    assert_eq!(stored, Some(expected));
}

/// The games called off in an old store (an invitation dan declined, a game dan aborted
/// against cat) are listed for their players and invitees once it is upgraded: on SQLite
/// from the moment the file is opened (its migration reads the heads), on DynamoDB from
/// the upgrade on.
async fn old_games_called_off_are_listed_once_upgraded(kind: Kind) {
    let (_test, service, _clock, served) = old_store(kind).await;
    let service = &service;
    let listed = |player: &'static str| async move {
        let page = service.cancelled_for(player, None, 10).await.unwrap();
        page.items.into_iter().map(|g| g.id).collect::<Vec<_>>()
    };
    let aborted = game(&served, "chess-aborted");
    let declined = game(&served, "xiangqi-declined");
    if kind == Kind::Sqlite {
        assert_eq!(listed("dan").await, [aborted.clone(), declined.clone()]);
    }
    service.upgrade_all().await.unwrap();
    assert_eq!(listed("dan").await, [aborted.clone(), declined.clone()]);
    assert_eq!(listed("bob").await, [declined]);
    assert_eq!(listed("cat").await, [aborted]);
    assert!(listed("ann").await.is_empty());
}

contract_tests!(
    old_games_called_off_are_listed_once_upgraded,
    an_old_store_replays_and_shows_every_game_as_it_did,
    old_games_upgrade_in_place_once,
    old_games_play_on_with_or_without_an_upgrade,
    old_tournament_starts_move_into_the_sweep_index,
);
