//! The operator's check: every stored log replays through the rules to exactly its head.

use missive_store::{GameId, StoredGame};
use serde::Serialize;

use crate::service::{Catalog, replay};
use crate::{GameService, ServiceError};

/// What a check of the whole store found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Games checked.
    pub games: usize,
    /// Moves replayed.
    pub moves: usize,
    /// Games that do not replay to their head, with the reason.
    pub problems: Vec<(GameId, String)>,
}

impl GameService {
    /// Checks every game in the store (see [`check_game`]).
    pub async fn check_all(&self) -> Result<CheckReport, ServiceError> {
        let mut report = CheckReport::default();
        for id in self.store.game_ids().await? {
            let Some(stored) = self.store.load(&id).await? else {
                report.problems.push((id, "listed but not found".into()));
                continue;
            };
            report.games += 1;
            report.moves += stored.moves.len();
            if let Err(reason) = check_game(self.catalog, &stored) {
                report.problems.push((id, reason));
            }
        }
        Ok(report)
    }
}

/// Checks one stored game: moves numbered from 0 without gaps, each hash chained to the one
/// before and matching its content, every move legal in turn, and the replay ending at the
/// head's ply, position and seat to move, with the head finished whenever the rules ended
/// the game.
pub fn check_game(catalog: Catalog, stored: &StoredGame) -> Result<(), String> {
    let head = &stored.head;
    let mut prev_hash = String::new();
    for (ply, mv) in stored.moves.iter().enumerate() {
        if mv.ply as usize != ply {
            return Err(format!("move {ply} is numbered {}", mv.ply));
        }
        if mv.prev_hash != prev_hash || mv.hash != mv.chain_hash(&head.id) {
            return Err(format!("the hash chain breaks at move {ply}"));
        }
        prev_hash = mv.hash.clone();
    }
    if head.last_hash != prev_hash {
        return Err("the head's last hash is not the last move's".into());
    }
    let game = replay(catalog, stored).map_err(|e| e.to_string())?;
    let mismatch = |what: &str, stored: String, replayed: String| {
        Err(format!(
            "{what}: head has {stored}, replay gives {replayed}"
        ))
    };
    if head.ply as usize != game.ply() {
        return mismatch("ply", head.ply.to_string(), game.ply().to_string());
    }
    if head.position != game.position_text() {
        return mismatch("position", head.position.clone(), game.position_text());
    }
    let active = head.doc.status == missive_store::Status::Active;
    let replayed_to_move = active.then(|| game.to_move().map(|s| s.0)).flatten();
    if head.to_move != replayed_to_move {
        return mismatch(
            "seat to move",
            format!("{:?}", head.to_move),
            format!("{replayed_to_move:?}"),
        );
    }
    if let Some(outcome) = game.outcome() {
        let ended_by = head.doc.ending.as_ref().map(|e| e.rule.as_str());
        if ended_by != Some(outcome.rule.as_str()) {
            return mismatch(
                "ending",
                format!("{ended_by:?}"),
                outcome.rule.as_str().to_string(),
            );
        }
    }
    Ok(())
}
