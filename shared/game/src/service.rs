//! The service object and the one way every use case changes a game: read what it needs,
//! decide on the domain's aggregate ([`missive_domain::Game`], pure: its state changes and
//! the commit it turns into), and commit on the condition that nobody changed the game
//! meanwhile (re-deciding on the new state when someone did). The service reads, retries
//! and commits; it decides nothing itself.
//!
//! What a change reads is the head alone: it carries what the next move needs
//! ([`missive_domain::Resume`]: where the rules take the game up again, and every seat's
//! clock), so a move reads one record and writes one transaction whatever the game's length.
//! The whole log is read only where a decision needs it: a request that may be a retry of an
//! earlier one (its ply has passed, or its idempotency key was used), a turn past its stored
//! deadline (vacations then decide, and the clock of every earlier turn), and heads written
//! before they carried what the next move needs (replayed once; the next change writes it).

use std::sync::Arc;

use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use missive_archive::{KeyPair, PublicKey};
use missive_domain::{Commit, Game, GameDoc, GameId, Head, Seat, SeatDoc, Status, StoredGame};
use missive_metrics::Metric;
use missive_rules::{AnyGame, SetupError, Variant, registry};
use missive_store::{Store, StoreError, Usage};

use crate::rules::{replay, resumed};
use crate::{Clock, Quotas, ServiceError};

/// Finds a variant by id: [`registry::variant`] unless a caller brings its own list.
pub type Catalog = fn(&str) -> Result<&'static dyn Variant, SetupError>;

/// How often a use case re-decides after losing a race before giving up.
pub(crate) const ATTEMPTS: usize = 32;

/// Settings of the service.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Vacation days each player may take per calendar year.
    pub vacation_days_per_year: u32,
    /// How much the service does for one sender (mails, imports).
    pub quotas: Quotas,
    /// Whether webhooks may be plain `http://` and name loopback or private hosts (tests,
    /// and a server on one machine whose operator wants it); never in the cloud.
    pub local_hooks: bool,
    /// Whether a change that appends entries leaves its feed items out of its commit, for
    /// the reader of the store's change stream to write after it
    /// ([`GameService::tell_change`]): on AWS, where the table's stream drives the
    /// notifier, so that a move's transaction holds no feed item. Only where such a reader
    /// runs: without one the items are never written.
    pub feed_from_stream: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            vacation_days_per_year: 45,
            quotas: Quotas::default(),
            local_hooks: false,
            feed_from_stream: false,
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
    /// The archive keys, oldest first: the last signs the archives the server exports, and
    /// every one is trusted on the ones it imports. Empty: archives go out unsigned.
    pub(crate) archive_keys: Arc<[KeyPair]>,
    changes: Option<Changes>,
}

/// What a decision reads beyond the head.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// The whole log.
    pub log: bool,
}

impl GameService {
    /// A service over `store`, telling time by `clock`, with the rules registry's variants.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> GameService {
        GameService {
            store,
            clock,
            catalog: registry::variant,
            config: Config::default(),
            archive_keys: Arc::new([]),
            changes: None,
        }
    }

    /// The same service signing the archives it exports with `key`, and accepting the
    /// signed archives it imports only with `key`'s signature. Without a key it exports
    /// unsigned archives and refuses signed ones.
    pub fn with_archive_key(self, key: KeyPair) -> GameService {
        self.with_archive_keys(vec![key])
    }

    /// The same service with the archive key set `keys`, oldest first (a key rotated out
    /// but not yet removed comes before its successor): the last signs the archives it
    /// exports, and a signed archive it imports must carry the signature of one of them.
    /// An empty set is no key at all.
    pub fn with_archive_keys(mut self, keys: Vec<KeyPair>) -> GameService {
        self.archive_keys = keys.into();
        self
    }

    /// The key the service signs its archives with: the newest of its set.
    pub(crate) fn archive_signing_key(&self) -> Option<&KeyPair> {
        self.archive_keys.last()
    }

    /// The public half of the archive key that signs, if the service has one: what anyone
    /// checks the server's new archives with.
    pub fn archive_public_key(&self) -> Option<PublicKey> {
        self.archive_signing_key().map(KeyPair::public)
    }

    /// The public halves of every archive key, oldest first (the signing one last): what
    /// checks the archives the server exported before and after its rotations.
    pub fn archive_public_keys(&self) -> Vec<PublicKey> {
        self.archive_keys.iter().map(KeyPair::public).collect()
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

    /// The store underneath, for tests that set up or inspect what it holds. Everything
    /// else goes through the use cases, [`GameService::probe_store`] and
    /// [`GameService::store_usage`].
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Whether the store answers one cheap read (a player no handle can name); its error
    /// as the store gave it otherwise. What a readiness probe asks.
    pub async fn probe_store(&self) -> Result<(), StoreError> {
        self.store.player("").await.map(|_| ())
    }

    /// What the store has cost this process so far (round trips, capacity), for the
    /// operator's measurements.
    pub fn store_usage(&self) -> Usage {
        self.store.usage()
    }

    /// Now, to the millisecond (the precision the store keeps).
    pub(crate) fn now(&self) -> DateTime<Utc> {
        let now = self.clock.now();
        now.duration_trunc(TimeDelta::milliseconds(1))
            .unwrap_or(now)
    }

    /// Reads a game's head; `GameNotFound` if there is none.
    pub(crate) async fn head_of(&self, id: &GameId) -> Result<Head, ServiceError> {
        self.store
            .head(id)
            .await?
            .ok_or_else(|| ServiceError::GameNotFound(id.clone()))
    }

    /// Reads a game's head as `viewer` may see it: `GameNotFound` if there is none, or if it is
    /// private and `viewer` is not one of its players, so its existence does not leak.
    pub(crate) async fn head_for(&self, id: &GameId, viewer: &str) -> Result<Head, ServiceError> {
        let head = self.head_of(id).await?;
        if !head.doc.visible_to(Some(viewer)) {
            return Err(ServiceError::GameNotFound(id.clone()));
        }
        Ok(head)
    }

    /// Reads a game with its whole log; `GameNotFound` if there is none.
    pub(crate) async fn stored(&self, id: &GameId) -> Result<StoredGame, ServiceError> {
        self.store
            .load(id)
            .await?
            .ok_or_else(|| ServiceError::GameNotFound(id.clone()))
    }

    /// Reads a game as `viewer` (a player, or `None` for anyone) may see it: `GameNotFound` if
    /// there is none, or if it is private and `viewer` is not one of its players, so its
    /// existence does not leak.
    pub(crate) async fn stored_for(
        &self,
        id: &GameId,
        viewer: Option<&str>,
    ) -> Result<StoredGame, ServiceError> {
        let stored = self.stored(id).await?;
        if !stored.head.doc.visible_to(viewer) {
            return Err(ServiceError::GameNotFound(id.clone()));
        }
        Ok(stored)
    }

    /// The game's head and the rules game it is at, as `viewer` may see it, from the head
    /// alone (a head written before it carried its resume point is replayed from its log).
    pub(crate) async fn current(
        &self,
        id: &GameId,
        viewer: Option<&str>,
    ) -> Result<(Head, Box<dyn AnyGame>), ServiceError> {
        let head = self.head_of(id).await?;
        if !head.doc.visible_to(viewer) {
            return Err(ServiceError::GameNotFound(id.clone()));
        }
        match resumed(self.catalog, &head)? {
            Some(game) => Ok((head, game)),
            None => {
                let stored = self.stored(id).await?;
                let game = replay(self.catalog, &stored)?;
                Ok((stored.head, game))
            }
        }
    }

    /// [`GameService::transact_as`] for a decision that needs nothing beyond the head.
    pub(crate) async fn change<T>(
        &self,
        id: &GameId,
        access: Access<'_>,
        decide: impl FnMut(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.transact_as(id, access, |_| Needs::default(), decide)
            .await
    }

    /// Runs `decide` on game `id` as freshly read and commits what it changed, retrying on
    /// the newest state whenever another writer got there first. `needs` says, given the
    /// head, whether the decision needs the whole log. `decide` must be a pure decision over
    /// the game: it may run several times. The service itself acts: every game is there.
    pub(crate) async fn transact<T>(
        &self,
        id: &GameId,
        needs: impl Fn(&Head) -> Needs,
        decide: impl FnMut(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.transact_as(id, Access::Service, needs, decide).await
    }

    /// [`GameService::transact`] for `access`: a game it does not reach is `GameNotFound`, told
    /// right after the head is read and before anything else is decided or read, exactly as
    /// for a game that does not exist.
    pub(crate) async fn transact_as<T>(
        &self,
        id: &GameId,
        access: Access<'_>,
        needs: impl Fn(&Head) -> Needs,
        mut decide: impl FnMut(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        let mut key_used = false;
        for _ in 0..ATTEMPTS {
            let mut draft = self.draft(id, access, &needs, key_used).await?;
            let value = decide(&mut draft)?;
            let Some(commit) = draft.into_commit() else {
                return Ok(value);
            };
            let commit = self.to_store(commit);
            match self.store.commit(&commit).await {
                Ok(()) => {
                    missive_metrics::count(Metric::Moves, commit.moves.len());
                    self.changed(id);
                    if commit.finishes {
                        self.settle_end(&commit.head).await;
                    }
                    return Ok(value);
                }
                Err(StoreError::Conflict) => continue,
                // A key used before: decide again with the log, which has its first use.
                Err(StoreError::KeyUsed) if !key_used => key_used = true,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ServiceError::Contended)
    }

    /// `commit` as the store is to write it: without the feed items its entries tell of when
    /// they are left to the change stream's reader ([`Config::feed_from_stream`]).
    fn to_store(&self, mut commit: Commit) -> Commit {
        let appends = !commit.moves.is_empty() || !commit.events.is_empty();
        if self.config.feed_from_stream && appends {
            commit.feed.clear();
        }
        commit
    }

    /// Settles at once what the end of the game at `head` changes beyond it (ratings, its
    /// tournament: [`GameService::game_ended`]); a failure is left to the notifier, which
    /// settles it again before it mails the game's end.
    async fn settle_end(&self, head: &Head) {
        if let Err(error) = Box::pin(self.game_ended(head)).await {
            tracing::warn!(game = %head.id, %error, "the game's end is settled later");
        }
    }

    /// Reports game `id` changed to the change feed, if there is one.
    pub(crate) fn changed(&self, id: &GameId) {
        if let Some(changes) = &self.changes {
            let _ = changes.send(id.clone());
        }
    }

    /// The commit that starts `head`, a new game (forming, revision 0) whose every seat is
    /// taken: active from now, the first turn's clock running, its wake-up due at once.
    /// Nothing is written.
    pub(crate) fn start_commit(&self, head: Head) -> Result<Commit, ServiceError> {
        let corrupt = |reason: &str| ServiceError::Corrupt {
            game: head.id.clone(),
            reason: reason.to_string(),
        };
        let game = resumed(self.catalog, &head)?.ok_or_else(|| corrupt("no resume point"))?;
        let mut draft = Game::new(head.clone(), game, None, self.now(), Vec::new());
        if !draft.start_if_full() {
            return Err(corrupt("a seat is not taken"));
        }
        draft
            .into_commit()
            .ok_or_else(|| corrupt("the start changed nothing"))
    }

    /// A draft of game `id` with what `needs` asks for (and the log anyway when `log`).
    async fn draft(
        &self,
        id: &GameId,
        access: Access<'_>,
        needs: &impl Fn(&Head) -> Needs,
        log: bool,
    ) -> Result<Game, ServiceError> {
        let now = self.now();
        let head = self.head_of(id).await?;
        if !access.reaches(&head.doc) {
            return Err(ServiceError::GameNotFound(id.clone()));
        }
        let late = head.waiting.as_ref().is_some_and(|w| now > w.deadline);
        let game = resumed(self.catalog, &head)?;
        let stored = if log || late || needs(&head).log || game.is_none() {
            Some(self.stored(id).await?)
        } else {
            None
        };
        let (head, game, log) = match stored {
            Some(stored) => {
                let game = match game {
                    Some(game) if stored.head == head => game,
                    _ => replay(self.catalog, &stored)?,
                };
                (stored.head, game, Some(stored.moves))
            }
            None => (head, game.expect("resumed when no log was read"), None),
        };
        // Only past the stored deadline can vacations matter (they only extend it).
        let vacations = match &head.waiting {
            Some(waiting) if now > waiting.deadline => {
                self.store.vacation(&waiting.player).await?.periods
            }
            _ => Vec::new(),
        };
        Ok(Game::new(head, game, log, now, vacations))
    }
}

/// Who acts on a game, and so which games are there for them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Access<'a> {
    /// The service itself (time-outs, checks): every game.
    Service,
    /// A player: the games they may see (public ones, and private ones they sit or are
    /// invited in).
    Player(&'a str),
    /// A player taking a seat: the games they may see, and private games still forming with
    /// an open seat (whoever has the id of a private game is invited to its open seats).
    Joiner(&'a str),
}

impl Access<'_> {
    /// Whether a game of `doc` is there for this access.
    fn reaches(self, doc: &GameDoc) -> bool {
        match self {
            Access::Service => true,
            Access::Player(player) => doc.visible_to(Some(player)),
            Access::Joiner(player) => {
                doc.visible_to(Some(player))
                    || (doc.status == Status::Forming && doc.seats.contains(&SeatDoc::Open))
            }
        }
    }
}

/// The seat `player` sits in.
pub(crate) fn seat_of(doc: &GameDoc, player: &str) -> Result<Seat, ServiceError> {
    doc.seat_of(player).ok_or_else(|| ServiceError::NotSeated {
        player: player.to_string(),
    })
}
