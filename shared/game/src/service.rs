//! The service object and the one way every use case changes a game: read it, replay it
//! through the rules, decide on a draft, and commit the draft on the condition that nobody
//! changed the game meanwhile (re-deciding on the new state when someone did).

use std::sync::Arc;

use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use missive_rules::{AnyGame, Outcome, SetupError, Variant, registry};
use missive_store::{
    Commit, Ending, GameDoc, GameId, Head, MoveRecord, Period, Status, Store, StoreError,
    StoredGame, Waiting,
};

use crate::timing::current_turn;
use crate::{Clock, ServiceError};

/// Finds a variant by id: [`registry::variant`] unless a caller brings its own list.
pub type Catalog = fn(&str) -> Result<&'static dyn Variant, SetupError>;

/// How often a use case re-decides after losing a race before giving up.
const ATTEMPTS: usize = 32;

/// Settings of the service.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Vacation days each player may take per calendar year.
    pub vacation_days_per_year: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            vacation_days_per_year: 45,
        }
    }
}

/// Where the service reports each game it changed, right after the commit (the local
/// server's notifier listens; in AWS the table's stream plays this part).
pub type Changes = tokio::sync::mpsc::UnboundedSender<GameId>;

/// The game service: every use case of correspondence play, over a store, the rules
/// registry and a clock.
#[derive(Clone)]
pub struct GameService {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) catalog: Catalog,
    pub(crate) config: Config,
    changes: Option<Changes>,
}

impl GameService {
    /// A service over `store`, telling time by `clock`, with the rules registry's variants.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> GameService {
        GameService {
            store,
            clock,
            catalog: registry::variant,
            config: Config::default(),
            changes: None,
        }
    }

    /// The same service sending the id of every game it changes to `changes` after the
    /// commit. A closed receiver is ignored: the change stands either way.
    pub fn with_changes(mut self, changes: Changes) -> GameService {
        self.changes = Some(changes);
        self
    }

    /// The same service finding variants through `catalog` instead of the registry.
    pub fn with_catalog(mut self, catalog: Catalog) -> GameService {
        self.catalog = catalog;
        self
    }

    /// The same service with `config`.
    pub fn with_config(mut self, config: Config) -> GameService {
        self.config = config;
        self
    }

    /// The store underneath.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Now, to the millisecond (the precision the store keeps).
    pub(crate) fn now(&self) -> DateTime<Utc> {
        let now = self.clock.now();
        now.duration_trunc(TimeDelta::milliseconds(1))
            .unwrap_or(now)
    }

    /// Reads a game and replays it; `NotFound` if there is none.
    pub(crate) async fn load(&self, id: &GameId) -> Result<Loaded, ServiceError> {
        let stored = self.stored(id).await?;
        let game = replay(self.catalog, &stored)?;
        Ok(Loaded { stored, game })
    }

    /// Reads a game; `NotFound` if there is none.
    pub(crate) async fn stored(&self, id: &GameId) -> Result<StoredGame, ServiceError> {
        self.store
            .load(id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(id.clone()))
    }

    /// Reads a game as `viewer` (a player, or `None` for anyone) may see it: `NotFound` if
    /// there is none, or if it is private and `viewer` is not one of its players, so its
    /// existence does not leak.
    pub(crate) async fn stored_for(
        &self,
        id: &GameId,
        viewer: Option<&str>,
    ) -> Result<StoredGame, ServiceError> {
        let stored = self.stored(id).await?;
        if !stored.head.doc.visible_to(viewer) {
            return Err(ServiceError::NotFound(id.clone()));
        }
        Ok(stored)
    }

    /// Runs `decide` on a fresh draft of game `id` and commits what it changed, retrying on
    /// the newest state whenever another writer got there first. `decide` must be a pure
    /// decision over the draft: it may run several times.
    pub(crate) async fn transact<T>(
        &self,
        id: &GameId,
        mut decide: impl FnMut(&mut Draft) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        for _ in 0..ATTEMPTS {
            let loaded = self.load(id).await?;
            let now = self.now();
            let vacations = match &loaded.stored.head.waiting {
                // Only past the stored deadline can vacations matter (they only extend it).
                Some(waiting) if now > waiting.deadline => {
                    self.store.vacation(&waiting.player).await?.periods
                }
                _ => Vec::new(),
            };
            let mut draft = Draft::new(loaded, now, vacations);
            let value = decide(&mut draft)?;
            let Some(commit) = draft.into_commit() else {
                return Ok(value);
            };
            match self.store.commit(&commit).await {
                Ok(()) => {
                    if let Some(changes) = &self.changes {
                        let _ = changes.send(id.clone());
                    }
                    return Ok(value);
                }
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ServiceError::Contended)
    }
}

/// A game read from the store and replayed through the rules.
pub(crate) struct Loaded {
    pub stored: StoredGame,
    pub game: Box<dyn AnyGame>,
}

/// Replays a stored game through the rules: every move must be legal in turn.
pub fn replay(catalog: Catalog, stored: &StoredGame) -> Result<Box<dyn AnyGame>, ServiceError> {
    let doc = &stored.head.doc;
    let corrupt = |reason: String| ServiceError::Corrupt {
        game: stored.head.id.clone(),
        reason,
    };
    let mut game = catalog(&doc.variant)
        .and_then(|v| v.new_game(&doc.options, doc.start_position.as_deref()))
        .map_err(|e| corrupt(e.to_string()))?;
    for mv in &stored.moves {
        game.play(&mv.long)
            .map_err(|e| corrupt(format!("move {} ({}): {e}", mv.ply, mv.long)))?;
    }
    Ok(game)
}

/// A game being changed by a use case: the state read, the rules game advanced by any new
/// moves, and the document as edited so far.
pub(crate) struct Draft {
    pub now: DateTime<Utc>,
    pub head: Head,
    pub log: Vec<MoveRecord>,
    pub game: Box<dyn AnyGame>,
    pub doc: GameDoc,
    pub appended: Vec<MoveRecord>,
    /// The vacations of the player to move, read only when the stored deadline has passed.
    vacations: Vec<Period>,
}

impl Draft {
    fn new(loaded: Loaded, now: DateTime<Utc>, vacations: Vec<Period>) -> Draft {
        let Loaded { stored, game } = loaded;
        Draft {
            now,
            doc: stored.head.doc.clone(),
            head: stored.head,
            log: stored.moves,
            game,
            appended: Vec::new(),
            vacations,
        }
    }

    /// The seat `player` sits in.
    pub fn seat_of(&self, player: &str) -> Result<u8, ServiceError> {
        seat_of(&self.doc, player)
    }

    /// The seat `player` sits in, which must still be playing: in a three-seat game a nation
    /// already out has no say in draws and cannot resign again (leaving ends nothing).
    pub fn playing_seat_of(&self, player: &str) -> Result<u8, ServiceError> {
        let seat = self.seat_of(player)?;
        if !self.game.is_playing(missive_rules::Seat(seat)) {
            return Err(ServiceError::refused(
                "your side is already out of the game: leaving it ends nothing",
            ));
        }
        Ok(seat)
    }

    /// The seat `player` sits in, which must be the seat to move in an active game.
    pub fn mover(&self, player: &str) -> Result<u8, ServiceError> {
        self.require_active()?;
        let seat = self.seat_of(player)?;
        if self.game.to_move().map(|s| s.0) != Some(seat) {
            return Err(ServiceError::NotYourTurn);
        }
        Ok(seat)
    }

    /// Refuses unless the game is being played.
    pub fn require_active(&self) -> Result<(), ServiceError> {
        match self.doc.status {
            Status::Active => Ok(()),
            status => Err(ServiceError::NotActive(status)),
        }
    }

    /// Every move: the log read plus the moves appended by this draft.
    pub fn moves(&self) -> impl Iterator<Item = &MoveRecord> {
        self.log.iter().chain(&self.appended)
    }

    /// Whether the seat to move's time has run out, counting its player's vacations.
    pub fn time_is_up(&self) -> bool {
        let (Some(seat), Some(waiting)) = (self.turn_seat(), &self.head.waiting) else {
            return false;
        };
        if self.now <= waiting.deadline {
            return false;
        }
        current_turn(&self.doc, &self.log, seat, &self.vacations)
            .is_some_and(|turn| self.now > turn.deadline(&self.vacations))
    }

    /// The seat whose clock runs, while the game is active.
    pub fn turn_seat(&self) -> Option<u8> {
        (self.doc.status == Status::Active)
            .then(|| self.game.to_move().map(|s| s.0))
            .flatten()
    }

    /// Plays `text` for `seat`, appending the move; ends the game if the rules say so.
    pub fn play(
        &mut self,
        seat: u8,
        text: &str,
        key: Option<String>,
        draw_offer: bool,
    ) -> Result<MoveRecord, ServiceError> {
        let played = self.game.play(text)?;
        let prev_hash = self
            .appended
            .last()
            .map_or_else(|| self.head.last_hash.clone(), |mv| mv.hash.clone());
        let record = MoveRecord {
            ply: self.head.ply + self.appended.len() as u32,
            seat,
            long: played.long,
            short: played.short,
            at: self.now,
            key,
            draw_offer,
            prev_hash,
            hash: String::new(),
        }
        .sealed(&self.head.id);
        self.appended.push(record.clone());
        self.doc.draw_offers = if draw_offer { vec![seat] } else { Vec::new() };
        if let Some(outcome) = self.game.outcome() {
            self.finish(&outcome, None);
        }
        Ok(record)
    }

    /// Ends the game with `outcome`, brought about by seat `by` if any; returns the ending.
    pub fn finish(&mut self, outcome: &Outcome, by: Option<u8>) -> Ending {
        self.end(
            Status::Finished,
            outcome.rule.as_str(),
            outcome
                .results
                .iter()
                .map(|r| r.as_str().to_string())
                .collect(),
            by,
        )
    }

    /// Ends the game without a result (`aborted`, `declined`).
    pub fn cancel(&mut self, rule: &str, by: Option<u8>) {
        self.end(Status::Cancelled, rule, Vec::new(), by);
    }

    fn end(&mut self, status: Status, rule: &str, results: Vec<String>, by: Option<u8>) -> Ending {
        let ending = Ending {
            at: self.now,
            rule: rule.to_string(),
            results,
            by,
        };
        self.doc.status = status;
        self.doc.ending = Some(ending.clone());
        self.doc.draw_offers.clear();
        self.doc.conditional.clear();
        ending
    }

    /// The commit that stores this draft, `None` if nothing changed.
    fn into_commit(self) -> Option<Commit> {
        if self.appended.is_empty() && self.doc == self.head.doc {
            return None;
        }
        let to_move = (self.doc.status == Status::Active)
            .then(|| self.game.to_move().map(|s| s.0))
            .flatten();
        let log: Vec<MoveRecord> = self.moves().cloned().collect();
        let waiting = to_move.and_then(|seat| {
            let player = self.doc.seats[usize::from(seat)].player()?.to_string();
            let turn = current_turn(&self.doc, &log, seat, &[])?;
            Some(Waiting {
                player,
                since: turn.since,
                deadline: turn.deadline(&[]),
            })
        });
        let finishes =
            self.doc.status == Status::Finished && self.head.doc.status != Status::Finished;
        let head = Head {
            id: self.head.id.clone(),
            revision: self.head.revision + 1,
            ply: self.game.ply() as u32,
            to_move,
            position: self.game.position_text(),
            last_hash: log.last().map_or_else(String::new, |mv| mv.hash.clone()),
            waiting,
            doc: self.doc,
        };
        Some(Commit {
            head,
            expected_revision: self.head.revision,
            expected_ply: self.head.ply,
            moves: self.appended,
            finishes,
        })
    }
}

/// The seat `player` sits in.
pub(crate) fn seat_of(doc: &GameDoc, player: &str) -> Result<u8, ServiceError> {
    doc.seats
        .iter()
        .position(|seat| seat.player() == Some(player))
        .map(|index| index as u8)
        .ok_or_else(|| ServiceError::NotSeated {
            player: player.to_string(),
        })
}
