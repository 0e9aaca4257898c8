//! The service object and the one way every use case changes a game: read what it needs,
//! decide on a draft, and commit the draft on the condition that nobody changed the game
//! meanwhile (re-deciding on the new state when someone did).
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
use missive_domain::{
    Commit, Ending, EventRecord, GameDoc, GameEvent, GameId, Head, MoveRecord, Period, Reason,
    Resume, Seat, SeatClock, SeatDoc, Status, StoredGame, Waiting, WakeChange,
};
use missive_rules::{AnyGame, Outcome, SetupError, Variant, registry};
use missive_store::{Store, StoreError};

use crate::timing::{Turn, current_turn, joined};
use crate::{Clock, Quotas, ServiceError};

/// Finds a variant by id: [`registry::variant`] unless a caller brings its own list.
pub type Catalog = fn(&str) -> Result<&'static dyn Variant, SetupError>;

/// How often a use case re-decides after losing a race before giving up.
pub(crate) const ATTEMPTS: usize = 32;

/// The ending rule of a game its tournament's organiser adjudicated.
pub const ADJUDICATION: &str = "adjudication";

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
}

impl Default for Config {
    fn default() -> Config {
        Config {
            vacation_days_per_year: 45,
            quotas: Quotas::default(),
            local_hooks: false,
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
    /// The key the server signs its archives with and checks the ones it imports against.
    pub(crate) archive_key: Option<Arc<KeyPair>>,
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
            archive_key: None,
            changes: None,
        }
    }

    /// The same service signing the archives it exports with `key`, and accepting the
    /// signed archives it imports only with `key`'s signature. Without a key it exports
    /// unsigned archives and refuses signed ones.
    pub fn with_archive_key(mut self, key: KeyPair) -> GameService {
        self.archive_key = Some(Arc::new(key));
        self
    }

    /// The public half of the archive key, if the service has one: what anyone checks the
    /// server's archives with.
    pub fn archive_public_key(&self) -> Option<PublicKey> {
        self.archive_key.as_ref().map(|key| key.public())
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
        decide: impl FnMut(&mut Draft) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.transact_as(id, access, |_| Needs::default(), decide)
            .await
    }

    /// Runs `decide` on a fresh draft of game `id` and commits what it changed, retrying on
    /// the newest state whenever another writer got there first. `needs` says, given the
    /// head, whether the decision needs the whole log. `decide` must be a pure decision over
    /// the draft: it may run several times. The service itself acts: every game is there.
    pub(crate) async fn transact<T>(
        &self,
        id: &GameId,
        needs: impl Fn(&Head) -> Needs,
        decide: impl FnMut(&mut Draft) -> Result<T, ServiceError>,
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
        mut decide: impl FnMut(&mut Draft) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        let mut key_used = false;
        for _ in 0..ATTEMPTS {
            let mut draft = self.draft(id, access, &needs, key_used).await?;
            let value = decide(&mut draft)?;
            let Some(commit) = draft.into_commit() else {
                return Ok(value);
            };
            match self.store.commit(&commit).await {
                Ok(()) => {
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
        let mut draft = Draft::new(head.clone(), game, None, self.now(), Vec::new());
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
    ) -> Result<Draft, ServiceError> {
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
        Ok(Draft::new(head, game, log, now, vacations))
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

/// The rules game of `doc`'s variant, edition and options, from `start` (the standard start
/// when `None`).
pub(crate) fn rules_game(
    catalog: Catalog,
    doc: &GameDoc,
    start: Option<&str>,
) -> Result<Box<dyn AnyGame>, SetupError> {
    let variant = catalog(&doc.variant)?;
    let options = variant.edition_options(doc.edition, &doc.options)?;
    variant.new_game(&options, start)
}

/// The rules game `head` is at, taken up from its resume point; `None` for a head written
/// before it carried one.
pub(crate) fn resumed(
    catalog: Catalog,
    head: &Head,
) -> Result<Option<Box<dyn AnyGame>>, ServiceError> {
    let Some(resume) = &head.resume else {
        return Ok(None);
    };
    let corrupt = |reason: String| ServiceError::Corrupt {
        game: head.id.clone(),
        reason,
    };
    let doc = &head.doc;
    let variant = catalog(&doc.variant).map_err(|e| corrupt(e.to_string()))?;
    let game = variant
        .edition_options(doc.edition, &doc.options)
        .and_then(|options| variant.resume(&options, &resume.window))
        .map_err(|e| corrupt(format!("resume point: {e}")))?;
    Ok(Some(game))
}

/// Replays a stored game through the rules: every move must be legal in turn.
pub fn replay(catalog: Catalog, stored: &StoredGame) -> Result<Box<dyn AnyGame>, ServiceError> {
    let doc = &stored.head.doc;
    let corrupt = |reason: String| ServiceError::Corrupt {
        game: stored.head.id.clone(),
        reason,
    };
    let mut game = rules_game(catalog, doc, doc.start_position.as_deref())
        .map_err(|e| corrupt(e.to_string()))?;
    game.reserve(stored.moves.len());
    for mv in &stored.moves {
        game.play_long(&mv.long)
            .map_err(|e| corrupt(format!("move {} ({}): {e}", mv.ply, mv.long)))?;
    }
    Ok(game)
}

/// The seats of `playing` that `game` has put out of the game.
pub(crate) fn eliminated(playing: &[Seat], game: &dyn AnyGame) -> Vec<Seat> {
    playing
        .iter()
        .copied()
        .filter(|seat| !game.is_playing(*seat))
        .collect()
}

/// Every seat's clock after the moves of `log`, in a game of `seats` seats that started at
/// `started`.
pub(crate) fn clocks_of(
    seats: usize,
    started: Option<DateTime<Utc>>,
    log: &[MoveRecord],
) -> Vec<SeatClock> {
    let mut clocks = vec![SeatClock::default(); seats];
    let mut turn_start = started;
    for mv in log {
        if let (Some(clock), Some(since)) = (clocks.get_mut(mv.seat.index()), turn_start) {
            clock.moves += 1;
            clock.used_ms += (mv.at - since).num_milliseconds().max(0);
        }
        turn_start = Some(mv.at);
    }
    clocks
}

/// An entry appended by a draft, in the order it happened.
enum Appended {
    Move(MoveRecord),
    Event(EventRecord),
}

impl Appended {
    fn hash(&self) -> &str {
        match self {
            Appended::Move(mv) => &mv.hash,
            Appended::Event(event) => &event.hash,
        }
    }
}

/// A game being changed by a use case: the state read, the rules game advanced by any new
/// moves, and the document as edited so far.
pub(crate) struct Draft {
    pub now: DateTime<Utc>,
    /// The head as read.
    pub head: Head,
    pub game: Box<dyn AnyGame>,
    pub doc: GameDoc,
    /// The whole log as read, when the decision asked for it or needed it (past the stored
    /// deadline).
    log: Option<Vec<MoveRecord>>,
    appended: Vec<Appended>,
    clocks: Vec<SeatClock>,
    /// The vacations of the player to move, read only when the stored deadline has passed.
    vacations: Vec<Period>,
}

impl Draft {
    fn new(
        head: Head,
        game: Box<dyn AnyGame>,
        log: Option<Vec<MoveRecord>>,
        now: DateTime<Utc>,
        vacations: Vec<Period>,
    ) -> Draft {
        let seats = head.doc.seats.len();
        let clocks = match (&head.resume, &log) {
            (Some(resume), _) => resume.clocks.clone(),
            (None, Some(log)) => clocks_of(seats, head.doc.started_at, log),
            (None, None) => vec![SeatClock::default(); seats],
        };
        Draft {
            now,
            doc: head.doc.clone(),
            head,
            game,
            log,
            appended: Vec::new(),
            clocks,
            vacations,
        }
    }

    /// The whole log as read, if this draft read it.
    pub fn log(&self) -> Option<&[MoveRecord]> {
        self.log.as_deref()
    }

    /// The moves this draft appended.
    pub fn appended_moves(&self) -> impl Iterator<Item = &MoveRecord> {
        self.appended.iter().filter_map(|entry| match entry {
            Appended::Move(mv) => Some(mv),
            Appended::Event(_) => None,
        })
    }

    /// The seat `player` sits in.
    pub fn seat_of(&self, player: &str) -> Result<Seat, ServiceError> {
        seat_of(&self.doc, player)
    }

    /// The seat `player` sits in, which must still be playing: in a three-seat game a nation
    /// already out has no say in draws and cannot resign again (leaving ends nothing).
    pub fn playing_seat_of(&self, player: &str) -> Result<Seat, ServiceError> {
        let seat = self.seat_of(player)?;
        if !self.game.is_playing(seat) {
            return Err(ServiceError::refused(
                "your side is already out of the game: leaving it ends nothing",
            ));
        }
        Ok(seat)
    }

    /// The seat `player` sits in, which must be the seat to move in an active game.
    pub fn mover(&self, player: &str) -> Result<Seat, ServiceError> {
        self.require_active()?;
        let seat = self.seat_of(player)?;
        if self.game.to_move() != Some(seat) {
            return Err(ServiceError::NotYourTurn);
        }
        Ok(seat)
    }

    /// Refuses unless the game is still forming.
    pub fn require_forming(&self) -> Result<(), ServiceError> {
        match self.doc.status {
            Status::Forming => Ok(()),
            status => Err(ServiceError::NotActive(status)),
        }
    }

    /// Refuses unless the game is being played.
    pub fn require_active(&self) -> Result<(), ServiceError> {
        match self.doc.status {
            Status::Active => Ok(()),
            status => Err(ServiceError::NotActive(status)),
        }
    }

    /// When the current turn started: the last move's time, else the game's start.
    fn turn_start(&self) -> Option<DateTime<Utc>> {
        match self.appended_moves().last() {
            Some(mv) => Some(mv.at),
            None => self
                .head
                .waiting
                .as_ref()
                .map(|w| w.since)
                .or(self.doc.started_at),
        }
    }

    /// The turn of `seat` now, its clock ignoring vacations.
    fn turn(&self, seat: Seat) -> Option<Turn> {
        Turn::of(
            &self.doc,
            self.clocks.get(seat.index())?,
            self.turn_start()?,
        )
    }

    /// Whether the seat to move's time has run out, counting its player's vacations and
    /// the game's pauses.
    pub fn time_is_up(&self) -> bool {
        let (Some(seat), Some(waiting)) = (self.turn_seat(), &self.head.waiting) else {
            return false;
        };
        if self.now <= waiting.deadline {
            return false;
        }
        let log = self.log.as_deref().unwrap_or_default();
        let stops = joined(&self.vacations, &self.doc.pauses);
        current_turn(&self.doc, log, seat, &stops)
            .is_some_and(|turn| self.now > turn.deadline(&stops))
    }

    /// The seat whose clock runs, while the game is active.
    pub fn turn_seat(&self) -> Option<Seat> {
        (self.doc.status == Status::Active)
            .then(|| self.game.to_move())
            .flatten()
    }

    /// The hash the next entry chains to.
    fn chain_end(&self) -> String {
        self.appended
            .last()
            .map_or_else(|| self.head.last_hash.clone(), |e| e.hash().to_string())
    }

    /// Plays `text` for `seat`, appending the move; ends the game if the rules say so.
    pub fn play(
        &mut self,
        seat: Seat,
        text: &str,
        key: Option<String>,
        draw_offer: bool,
    ) -> Result<MoveRecord, ServiceError> {
        self.append_move(seat, text, key, draw_offer, false)
    }

    /// Plays `text` for `seat` from its conditional line, as [`Draft::play`] does; the move
    /// is marked as played on the seat's behalf.
    pub fn play_conditional(&mut self, seat: Seat, text: &str) -> Result<MoveRecord, ServiceError> {
        self.append_move(seat, text, None, false, true)
    }

    fn append_move(
        &mut self,
        seat: Seat,
        text: &str,
        key: Option<String>,
        draw_offer: bool,
        conditional: bool,
    ) -> Result<MoveRecord, ServiceError> {
        let playing = self.playing_seats();
        let played = self.game.play(text)?;
        let since = self.turn_start();
        let record = MoveRecord {
            ply: self.game.ply() as u32 - 1,
            seat,
            long: played.long,
            short: played.short,
            at: self.now,
            key,
            draw_offer,
            conditional,
            prev_hash: self.chain_end(),
            hash: String::new(),
        }
        .sealed(&self.head.id);
        if let (Some(clock), Some(since)) = (self.clocks.get_mut(seat.index()), since) {
            clock.moves += 1;
            clock.used_ms += (self.now - since).num_milliseconds().max(0);
        }
        self.appended.push(Appended::Move(record.clone()));
        self.record_eliminations(&playing, seat);
        self.doc.draw_offers = if draw_offer { vec![seat] } else { Vec::new() };
        if let Some(outcome) = self.game.outcome() {
            self.finish(&outcome, None);
        }
        Ok(record)
    }

    /// Starts the game, its clocks running from now, if it is forming and every seat is
    /// taken; whether it did.
    pub fn start_if_full(&mut self) -> bool {
        let full = self.doc.seats.iter().all(|s| s.player().is_some());
        if self.doc.status != Status::Forming || !full {
            return false;
        }
        self.doc.status = Status::Active;
        self.doc.started_at = Some(self.now);
        true
    }

    /// The seats still in the game.
    fn playing_seats(&self) -> Vec<Seat> {
        (0..self.doc.seats.len() as u8)
            .map(Seat)
            .filter(|seat| self.game.is_playing(*seat))
            .collect()
    }

    /// Records the elimination of every seat of `playing` the move of `mover` put out of the
    /// game (its army passes to the mover: the rules' own reading of a three-seat game).
    fn record_eliminations(&mut self, playing: &[Seat], mover: Seat) {
        for seat in eliminated(playing, self.game.as_ref()) {
            self.record(GameEvent::Eliminated { heir: mover }, Some(seat));
        }
    }

    /// Records `event`, the act of `seat` if any, in the log; returns its sequence number.
    pub fn record(&mut self, event: GameEvent, seat: Option<Seat>) -> u32 {
        let seq = self.head.events + self.events_appended();
        let record = EventRecord {
            seq,
            ply: self.game.ply() as u32,
            seat,
            at: self.now,
            event,
            prev_hash: self.chain_end(),
            hash: String::new(),
        }
        .sealed(&self.head.id);
        self.appended.push(Appended::Event(record));
        seq
    }

    /// Whether this draft appended an event the game's other players are told of by mail
    /// (a message, a draw offered, accepted or declined).
    fn appended_notes(&self) -> bool {
        self.appended.iter().any(|entry| {
            matches!(entry, Appended::Event(record) if matches!(
                record.event,
                GameEvent::Message { .. }
                    | GameEvent::DrawOffered
                    | GameEvent::DrawAccepted
                    | GameEvent::DrawDeclined
            ))
        })
    }

    fn events_appended(&self) -> u32 {
        self.appended
            .iter()
            .filter(|entry| matches!(entry, Appended::Event(_)))
            .count() as u32
    }

    /// Ends the game with `outcome`, brought about by seat `by` if any; returns the ending.
    pub fn finish(&mut self, outcome: &Outcome, by: Option<Seat>) -> Ending {
        self.end(
            Status::Finished,
            Reason::Rule(outcome.rule),
            outcome.results.clone(),
            by,
        )
    }

    /// Ends the game with `results` as its organiser adjudicated it.
    pub fn adjudicate(&mut self, results: Vec<missive_rules::SeatResult>) -> Ending {
        let rule = Reason::Recorded(ADJUDICATION.into());
        self.end(Status::Finished, rule, results, None)
    }

    /// Ends the game without a result (aborted, declined).
    pub fn cancel(&mut self, reason: Reason, by: Option<Seat>) {
        self.end(Status::Cancelled, reason, Vec::new(), by);
    }

    fn end(
        &mut self,
        status: Status,
        rule: Reason,
        results: Vec<missive_rules::SeatResult>,
        by: Option<Seat>,
    ) -> Ending {
        let ending = Ending {
            at: self.now,
            rule,
            results,
            by,
        };
        self.doc.status = status;
        self.doc.ending = Some(ending.clone());
        self.doc.draw_offers.clear();
        self.doc.conditional.clear();
        ending
    }

    /// Who is to move and until when (the game's pauses counted, vacations not), after
    /// this draft.
    fn waiting(&self, to_move: Option<Seat>) -> Option<Waiting> {
        let seat = to_move?;
        let player = self.doc.player_in(seat)?.to_string();
        let turn = self.turn(seat)?;
        Some(Waiting {
            player,
            since: turn.since,
            deadline: turn.deadline(&self.doc.pauses),
        })
    }

    /// What this draft does to the game's wake-up: due at once when the turn moved on (its
    /// mail), the game ended (its mails) or something its players are told of happened (a
    /// message, a draw offer and its answers), gone when it was called off, else as it was. A
    /// head written before it carried its resume point wakes at its turn's start, so the
    /// notifier looks at it once.
    fn wake(&self, to_move: Option<Seat>, ply: u32) -> WakeChange {
        let was_active = self.head.doc.status == Status::Active;
        if let (None, Some(waiting)) = (&self.head.resume, &self.head.waiting) {
            return WakeChange::At(waiting.since);
        }
        match self.doc.status {
            Status::Active
                if !was_active || (self.head.to_move, self.head.ply) != (to_move, ply) =>
            {
                WakeChange::At(self.now)
            }
            Status::Finished if self.head.doc.status != Status::Finished => {
                WakeChange::At(self.now)
            }
            Status::Cancelled if self.head.doc.status != Status::Cancelled => WakeChange::Clear,
            _ if self.appended_notes() => WakeChange::At(self.now),
            _ => WakeChange::Keep,
        }
    }

    /// The commit that stores this draft, `None` if nothing changed (a head written before
    /// it carried its resume point is rewritten with one even then).
    fn into_commit(self) -> Option<Commit> {
        let unchanged = self.appended.is_empty() && self.doc == self.head.doc;
        if unchanged && self.head.resume.is_some() {
            return None;
        }
        let to_move = (self.doc.status == Status::Active)
            .then(|| self.game.to_move())
            .flatten();
        let ply = self.game.ply() as u32;
        let waiting = self.waiting(to_move);
        let wake = self.wake(to_move, ply);
        let finishes =
            self.doc.status == Status::Finished && self.head.doc.status != Status::Finished;
        let last_hash = self.chain_end();
        let events = self.head.events + self.events_appended();
        let resume = Resume {
            window: self.game.window(),
            clocks: self.clocks.clone(),
        };
        let (mut moves, mut entries) = (Vec::new(), Vec::new());
        for entry in self.appended {
            match entry {
                Appended::Move(mv) => moves.push(mv),
                Appended::Event(event) => entries.push(event),
            }
        }
        let head = Head {
            id: self.head.id.clone(),
            revision: self.head.revision + 1,
            ply,
            to_move,
            position: self.game.position_text(),
            last_hash,
            events,
            waiting,
            doc: self.doc,
            resume: Some(resume),
        };
        let feed = crate::feed::told_of(&self.head, &head, &moves, &entries, self.now);
        Some(Commit {
            head,
            expected_revision: self.head.revision,
            expected_ply: self.head.ply,
            expected_events: self.head.events,
            moves,
            events: entries,
            finishes,
            wake,
            feed,
        })
    }
}

/// The seat `player` sits in.
pub(crate) fn seat_of(doc: &GameDoc, player: &str) -> Result<Seat, ServiceError> {
    doc.seat_of(player).ok_or_else(|| ServiceError::NotSeated {
        player: player.to_string(),
    })
}
