//! Races, retries and round trips, on SQLite and on DynamoDB Local.

mod common;

use std::sync::Arc;

use common::{THREE_DAYS, request, setup};
use missive_game::ServiceError;
use missive_store::contract_tests;
use missive_store::testing::Kind;

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

/// An accepted move costs at most two round trips: read the game, write the transaction.
async fn an_accepted_move_costs_two_round_trips(kind: Kind) {
    let s = setup(kind).await;
    let id = s.chess(THREE_DAYS).await;
    let store = s.service.store();
    let line = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ];
    for (ply, text) in line.iter().enumerate() {
        let player = if ply % 2 == 0 { "ann" } else { "bob" };
        let before = store.round_trips();
        s.service
            .submit_move(&id, &request(player, ply as u32, text))
            .await
            .unwrap();
        assert_eq!(store.round_trips() - before, 2, "move {ply} ({text})");
    }
}

contract_tests!(
    fifty_concurrent_submitters_one_accepted,
    concurrent_retries_of_one_request_play_one_move,
    an_accepted_move_costs_two_round_trips,
);
