//! Long polls of the event feed held open at once, per process: each player may hold
//! [`RequestLimits::polls_per_player`](crate::RequestLimits) of them and the process
//! [`RequestLimits::polls_at_once`](crate::RequestLimits) in all. A poll beyond either budget is not
//! refused: it is answered at once, as if it had not asked to wait, so a flood of polls
//! costs its sender its waiting and nobody else anything. The budget also carries the
//! process's stop signal: when shutdown starts, every poll still waiting is answered with
//! what there is, so the drain is not spent holding them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use crate::lock;

/// The polls held open now and the stop signal; clones share them.
#[derive(Clone, Debug)]
pub struct Polls {
    budget: Arc<Budget>,
    stopping: Arc<watch::Sender<bool>>,
}

#[derive(Debug)]
struct Budget {
    at_once: Arc<Semaphore>,
    per_player: usize,
    players: Mutex<HashMap<String, usize>>,
}

/// One poll allowed to wait; its place in the budgets is given back when dropped.
#[derive(Debug)]
pub struct PollPermit {
    _at_once: OwnedSemaphorePermit,
    player: String,
    budget: Arc<Budget>,
}

impl Polls {
    /// Budgets of `per_player` polls for each player and `at_once` in all (0 lets no poll
    /// wait).
    pub fn new(per_player: usize, at_once: usize) -> Polls {
        Polls {
            budget: Arc::new(Budget {
                at_once: Arc::new(Semaphore::new(at_once)),
                per_player,
                players: Mutex::new(HashMap::new()),
            }),
            stopping: Arc::new(watch::channel(false).0),
        }
    }

    /// A permit for `player` to wait, unless the player's budget or the process's is
    /// spent.
    pub fn try_wait(&self, player: &str) -> Option<PollPermit> {
        let at_once = Arc::clone(&self.budget.at_once).try_acquire_owned().ok()?;
        let mut players = lock(&self.budget.players);
        let held = players.entry(player.to_string()).or_insert(0);
        if *held >= self.budget.per_player {
            if *held == 0 {
                players.remove(player);
            }
            return None;
        }
        *held += 1;
        Some(PollPermit {
            _at_once: at_once,
            player: player.to_string(),
            budget: Arc::clone(&self.budget),
        })
    }

    /// Ends every wait, now and later: shutdown has started.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Whether [`Polls::stop`] has been called.
    pub fn is_stopped(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Completes once [`Polls::stop`] has been called.
    pub async fn stopped(&self) {
        let mut stopping = self.stopping.subscribe();
        let _ = stopping.wait_for(|stopping| *stopping).await;
    }
}

impl Drop for PollPermit {
    fn drop(&mut self) {
        let mut players = lock(&self.budget.players);
        if let Some(held) = players.get_mut(&self.player) {
            *held -= 1;
            if *held == 0 {
                players.remove(&self.player);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_wait_within_both_budgets_and_give_their_place_back() {
        let polls = Polls::new(2, 3);
        let ann: Vec<_> = (0..2).map(|_| polls.try_wait("ann").unwrap()).collect();
        assert!(polls.try_wait("ann").is_none(), "ann's budget is spent");
        let bob = polls.try_wait("bob").unwrap();
        assert!(
            polls.try_wait("cy").is_none(),
            "the process's budget is spent"
        );
        drop(bob);
        assert!(polls.try_wait("cy").is_some());
        drop(ann);
        let again: Vec<_> = (0..2).map(|_| polls.try_wait("ann").unwrap()).collect();
        assert_eq!(again.len(), 2);
        assert!(Polls::new(4, 0).try_wait("ann").is_none());
    }

    #[tokio::test]
    async fn stop_ends_waits_begun_before_and_after() {
        let polls = Polls::new(1, 1);
        let waiting = tokio::spawn({
            let polls = polls.clone();
            async move { polls.stopped().await }
        });
        polls.stop();
        waiting.await.unwrap();
        polls.stopped().await;
    }
}
