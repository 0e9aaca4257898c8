//! The operator's check: every stored log replays through the rules to exactly its head.

use missive_domain::{Cursor, GameId, Resume, Status, StoredGame, Tournament, Window, clocks_of};
use missive_store::StoreError;
use serde::Serialize;

use crate::Catalog;
use crate::rules::replay;
use crate::service::Needs;
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
        for id in self.all_game_ids().await? {
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

    /// Brings every stored game up to what this version keeps (see [`GameService::upgrade`]),
    /// then stores every tournament with a wake-up (open with a start date, or starting)
    /// again at its next revision, so that its wake-up is in the sweep's index as this
    /// version keeps it (on DynamoDB an open one's start made before was in a list of its
    /// own), then rates again in rating periods the variants whose ratings were rated game
    /// by game (`crate::rating_upgrade`); gives how many games, tournaments and variants
    /// were rewritten.
    pub async fn upgrade_all(&self) -> Result<usize, ServiceError> {
        let mut upgraded = 0;
        for id in self.all_game_ids().await? {
            upgraded += usize::from(self.upgrade(&id).await?);
        }
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self.store.tournaments(cursor.as_ref(), 100).await?;
            for tournament in page.items {
                if tournament.wakes_at().is_none() {
                    continue;
                }
                let again = Tournament {
                    revision: tournament.revision + 1,
                    ..tournament
                };
                match self.store.put_tournament(&again).await {
                    Ok(()) => upgraded += 1,
                    // Changed meanwhile: that change wrote its start where this one would.
                    Err(StoreError::Conflict) => {}
                    Err(error) => return Err(error.into()),
                }
            }
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let now = self.clock.now();
        Ok(upgraded + self.rate_histories_in_periods(now).await?)
    }

    /// Brings game `id` up to what this version keeps: a game called off is listed for its
    /// players and invitees (its cancelled entries written again, where they are); a head
    /// written before it carried what the next move needs is replayed from its log and
    /// rewritten with it, with its players' lists and its wake-up (what a store written by
    /// an earlier version lacks). `true` if the head was rewritten; nothing else in the
    /// game changes.
    pub async fn upgrade(&self, id: &GameId) -> Result<bool, ServiceError> {
        let head = self.head_of(id).await?;
        if head.doc.status == Status::Cancelled {
            self.store.keep_cancelled(&head).await?;
        }
        if head.resume.is_some() {
            return Ok(false);
        }
        self.transact(
            id,
            |_| Needs { log: true },
            |draft| Ok(draft.head().resume.is_none()),
        )
        .await
    }

    /// Every game id in the store, page by page.
    pub async fn all_game_ids(&self) -> Result<Vec<GameId>, ServiceError> {
        let mut ids = Vec::new();
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self.store.game_ids(cursor.as_ref(), 500).await?;
            ids.extend(page.items);
            match page.next {
                Some(next) => cursor = Some(next),
                None => return Ok(ids),
            }
        }
    }
}

/// Checks one stored game: moves numbered from 0 and events from 0 without gaps, each
/// entry's hash chained to the one before and matching its content, every move legal in
/// turn, and the replay ending at the head's ply, position and seat to move, with the head
/// finished whenever the rules ended the game; a head that keeps what the next move needs
/// (its resume point and clocks) keeps exactly what the replay gives, its window reaching
/// back at least as far (see [`holds`]).
pub fn check_game(catalog: Catalog, stored: &StoredGame) -> Result<(), String> {
    let head = &stored.head;
    for (ply, mv) in stored.moves.iter().enumerate() {
        if mv.ply as usize != ply {
            return Err(format!("move {ply} is numbered {}", mv.ply));
        }
    }
    for (seq, event) in stored.events.iter().enumerate() {
        if event.seq as usize != seq {
            return Err(format!("event {seq} is numbered {}", event.seq));
        }
    }
    if head.events as usize != stored.events.len() {
        return Err(format!(
            "the head counts {} events, the log has {}",
            head.events,
            stored.events.len()
        ));
    }
    let mut prev_hash = String::new();
    for (index, entry) in stored.entries().iter().enumerate() {
        if entry.prev_hash() != prev_hash || entry.hash() != entry.chain_hash(&head.id) {
            return Err(format!("the hash chain breaks at entry {index} of the log"));
        }
        prev_hash = entry.hash().to_string();
    }
    if head.last_hash != prev_hash {
        return Err("the head's last hash is not the log's last entry's".into());
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
    let active = head.doc.status == Status::Active;
    let replayed_to_move = active.then(|| game.to_move()).flatten();
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
    if let Some(resume) = &head.resume {
        let replayed = Resume {
            window: game.window(),
            clocks: clocks_of(head.doc.seats.len(), head.doc.started_at, &stored.moves),
        };
        if resume.clocks != replayed.clocks || !holds(&resume.window, &replayed.window) {
            return mismatch(
                "resume point",
                format!("{resume:?}"),
                format!("{replayed:?}"),
            );
        }
    }
    Ok(())
}

/// Whether `kept`, a head's rules window, takes the game up as `replayed` (the replay's)
/// does: the same window, or one that starts earlier and ends with the same moves at the
/// same ply. A head written before a variant's window was cut shorter keeps the longer one
/// (Dynamo chess's reached back to the start until removals and promotions ended it); taken
/// up, it gives the same game, and the next change writes the shorter one.
fn holds(kept: &Window, replayed: &Window) -> bool {
    match kept.ply.cmp(&replayed.ply) {
        std::cmp::Ordering::Equal => kept == replayed,
        std::cmp::Ordering::Less => {
            kept.ply + kept.moves.len() == replayed.ply + replayed.moves.len()
                && kept.moves.ends_with(&replayed.moves)
        }
        std::cmp::Ordering::Greater => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(ply: usize, position: &str, moves: &[&str]) -> Window {
        Window {
            ply,
            position: position.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn a_window_that_reaches_further_back_to_the_same_moves_holds() {
        let replayed = window(2, "after two", &["c1c2", "c7c6"]);
        assert!(holds(&replayed, &replayed));
        let longer = window(0, "start", &["a1a2", "a7a6", "c1c2", "c7c6"]);
        assert!(holds(&longer, &replayed));
        for other in [
            window(2, "elsewhere", &["c1c2", "c7c6"]),
            window(0, "start", &["a1a2", "a7a6", "c1c2", "c7c5"]),
            window(0, "start", &["a1a2", "c1c2", "c7c6"]),
            window(3, "after three", &["c7c6"]),
        ] {
            assert!(!holds(&other, &replayed), "{other:?}");
        }
    }
}
