//! Races, retries and round trips, on SQLite and on DynamoDB Local.

mod common;

use std::sync::Arc;

use common::{THREE_DAYS, request, setup};
use missive_game::ServiceError;
use missive_store::contract_tests;
use missive_store::testing::Kind;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Fifty players' clients race to make the first move: exactly one is accepted, every
/// other one is told the game moved on, and the log holds one move.
async fn fifty_concurrent_submitters_one_accepted(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    let service = Arc::new(s.service.clone());
    let moves = ["e4", "d4", "c4", "Nf3", "g3"];
    let racers: Vec<_> = (0..50)
        .map(|i| {
            let (service, id) = (Arc::clone(&service), id.clone());
            let request = request("ann", 0, moves[i % moves.len()]);
            tokio::spawn(async move { service.submit_move(&id, &request).await })
        })
        .collect();
    let (mut accepted, mut conflicts) = (0, 0);
    for racer in racers {
        match racer.await.unwrap() {
            Ok(_) => accepted += 1,
            Err(ServiceError::Conflict { current_ply: 1 }) => conflicts += 1,
            Err(other) => panic!("unexpected answer: {other}"),
        }
    }
    assert_eq!((accepted, conflicts), (1, 49));
    let log = s.service.move_log(&id, None).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].ply, 0);
    s.assert_consistent().await;
}

/// The same request sent many times at once (a client retrying over a bad network): every
/// answer is the same and only one move is played.
async fn concurrent_retries_of_one_request_play_one_move(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    let service = Arc::new(s.service.clone());
    let request = request("ann", 0, "e4");
    let retries: Vec<_> = (0..20)
        .map(|_| {
            let (service, id, request) = (Arc::clone(&service), id.clone(), request.clone());
            tokio::spawn(async move { service.submit_move(&id, &request).await })
        })
        .collect();
    let mut answers = Vec::new();
    for retry in retries {
        answers.push(retry.await.unwrap().unwrap());
    }
    assert!(answers.windows(2).all(|pair| pair[0] == pair[1]));
    assert_eq!(s.service.move_log(&id, None).await.unwrap().len(), 1);
}

/// An accepted move costs two round trips, whatever the game's length: read the head (one
/// record), write the transaction. Measured on every move of a long random game.
async fn an_accepted_move_reads_one_record_and_writes_once(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    let store = s.service.store();
    let mut rng = StdRng::seed_from_u64(7);
    for ply in 0..120_u32 {
        let view = s.service.game_view(&id, None).await.unwrap();
        if view.legal_moves.is_empty() {
            break;
        }
        let text = &view.legal_moves[rng.random_range(0..view.legal_moves.len())];
        let player = if ply % 2 == 0 { "ann" } else { "bob" };
        let before = store.usage();
        s.service
            .submit_move(&id, &request(player, ply, text))
            .await
            .unwrap();
        let after = store.usage();
        let cost = (
            after.round_trips - before.round_trips,
            after.reads - before.reads,
            after.items_read - before.items_read,
        );
        assert_eq!(cost, (2, 1, 1), "move {ply} ({text})");
    }
}

contract_tests!(
    fifty_concurrent_submitters_one_accepted,
    concurrent_retries_of_one_request_play_one_move,
    an_accepted_move_reads_one_record_and_writes_once,
);
