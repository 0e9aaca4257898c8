//! A game being changed: the aggregate every use case decides on. It holds the head as
//! read, the rules game advanced by any new moves and the document as edited so far, and
//! makes the state changes of correspondence play (a move, a recorded event, the start once
//! every seat is taken, the end), then turns into the one [`Commit`] the store writes: the
//! new head, the entries appended, the wake-up and what the players are told.
//!
//! Pure: it reads no store and no clock (the time of the change is given, `now`).

use chrono::{DateTime, Utc};
use missive_rules::{AnyGame, MoveError, Outcome, Seat, SeatResult};
use thiserror::Error;

use crate::timing::{Turn, current_turn, joined};
use crate::{
    Commit, ConditionalLine, Ending, EventRecord, GameDoc, GameEvent, Head, MoveRecord, Period,
    Reason, SeatClock, SeatDoc, Status, Waiting, WakeChange, told_of_change,
};

/// The ending rule of a game its tournament's organiser adjudicated.
pub const ADJUDICATION: &str = "adjudication";

/// Why a change to a game is refused.
#[derive(Debug, Error)]
pub enum GameError {
    /// The player does not sit in this game.
    #[error("{player} does not sit in this game")]
    NotSeated {
        /// The player.
        player: String,
    },
    /// It is another seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game is not in the status the change needs.
    #[error("the game is {}", .0.words())]
    NotActive(Status),
    /// The move was refused by the rules.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The change breaks a rule of play (a seat already out of the game acting).
    #[error("refused: {0}")]
    Refused(String),
}

/// An entry appended by a change, in the order it happened.
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

/// A game being changed at one moment: the state read, the rules game advanced by any new
/// moves, and the document as edited so far.
pub struct Game {
    now: DateTime<Utc>,
    /// The head as read.
    head: Head,
    rules: Box<dyn AnyGame>,
    doc: GameDoc,
    /// The whole log as read, when the decision asked for it or needed it (past the stored
    /// deadline).
    log: Option<Vec<MoveRecord>>,
    appended: Vec<Appended>,
    clocks: Vec<SeatClock>,
    /// The vacations of the player to move, read only when the stored deadline has passed.
    vacations: Vec<Period>,
}

impl Game {
    /// The game at `head`, whose rules game `rules` is at the head's position, changed at
    /// `now`; with its whole `log` if it was read, and the `vacations` of the player to move
    /// if the stored deadline has passed. Every seat's clock is the head's resume point's,
    /// else counted from the log.
    pub fn new(
        head: Head,
        rules: Box<dyn AnyGame>,
        log: Option<Vec<MoveRecord>>,
        now: DateTime<Utc>,
        vacations: Vec<Period>,
    ) -> Game {
        let seats = head.doc.seats.len();
        let clocks = match (&head.resume, &log) {
            (Some(resume), _) => resume.clocks.clone(),
            (None, Some(log)) => clocks_of(seats, head.doc.started_at, log),
            (None, None) => vec![SeatClock::default(); seats],
        };
        Game {
            now,
            doc: head.doc.clone(),
            head,
            rules,
            log,
            appended: Vec::new(),
            clocks,
            vacations,
        }
    }

    /// The time of the change.
    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// The head as read, before this change.
    pub fn head(&self) -> &Head {
        &self.head
    }

    /// The rules game, at the position after the moves appended so far.
    pub fn rules(&self) -> &dyn AnyGame {
        self.rules.as_ref()
    }

    /// The document as edited so far.
    pub fn doc(&self) -> &GameDoc {
        &self.doc
    }

    /// The whole log as read, if this change read it.
    pub fn log(&self) -> Option<&[MoveRecord]> {
        self.log.as_deref()
    }

    /// The moves this change appended.
    pub fn appended_moves(&self) -> impl Iterator<Item = &MoveRecord> {
        self.appended.iter().filter_map(|entry| match entry {
            Appended::Move(mv) => Some(mv),
            Appended::Event(_) => None,
        })
    }

    /// The seat `player` sits in.
    pub fn seat_of(&self, player: &str) -> Result<Seat, GameError> {
        self.doc
            .seat_of(player)
            .ok_or_else(|| GameError::NotSeated {
                player: player.to_string(),
            })
    }

    /// The seat `player` sits in, which must still be playing: in a three-seat game a nation
    /// already out has no say in draws and cannot resign again (leaving ends nothing).
    pub fn playing_seat_of(&self, player: &str) -> Result<Seat, GameError> {
        let seat = self.seat_of(player)?;
        if !self.rules.is_playing(seat) {
            return Err(GameError::Refused(
                "your side is already out of the game: leaving it ends nothing".into(),
            ));
        }
        Ok(seat)
    }

    /// The seat `player` sits in, which must be the seat to move in an active game.
    pub fn mover(&self, player: &str) -> Result<Seat, GameError> {
        self.require_active()?;
        let seat = self.seat_of(player)?;
        if self.rules.to_move() != Some(seat) {
            return Err(GameError::NotYourTurn);
        }
        Ok(seat)
    }

    /// Refuses unless the game is still forming.
    pub fn require_forming(&self) -> Result<(), GameError> {
        match self.doc.status {
            Status::Forming => Ok(()),
            status => Err(GameError::NotActive(status)),
        }
    }

    /// Refuses unless the game is being played.
    pub fn require_active(&self) -> Result<(), GameError> {
        match self.doc.status {
            Status::Active => Ok(()),
            status => Err(GameError::NotActive(status)),
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
            .then(|| self.rules.to_move())
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
    ) -> Result<MoveRecord, GameError> {
        self.append_move(seat, text, key, draw_offer, false)
    }

    /// Plays `text` for `seat` from its conditional line, as [`Game::play`] does; the move
    /// is marked as played on the seat's behalf.
    pub fn play_conditional(&mut self, seat: Seat, text: &str) -> Result<MoveRecord, GameError> {
        self.append_move(seat, text, None, false, true)
    }

    fn append_move(
        &mut self,
        seat: Seat,
        text: &str,
        key: Option<String>,
        draw_offer: bool,
        conditional: bool,
    ) -> Result<MoveRecord, GameError> {
        let playing = self.playing_seats();
        let played = self.rules.play(text)?;
        let since = self.turn_start();
        let record = MoveRecord {
            ply: self.rules.ply() as u32 - 1,
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
        if let Some(outcome) = self.rules.outcome() {
            self.finish(&outcome, None);
        }
        Ok(record)
    }

    /// Seats `player` at seat `index` (free, of a forming game: the caller checked), then
    /// starts the game if that was the last free seat ([`Game::start_if_full`]).
    pub fn take_seat(&mut self, index: usize, player: &str) {
        self.doc.seats[index] = SeatDoc::Taken {
            player: player.to_string(),
        };
        self.start_if_full();
    }

    /// Adds `seat` to the standing draw offers (kept in seat order), if it is not there.
    pub fn offer_draw(&mut self, seat: Seat) {
        if !self.doc.draw_offers.contains(&seat) {
            self.doc.draw_offers.push(seat);
            self.doc.draw_offers.sort_unstable();
        }
    }

    /// Takes back the draw offer of `seat`, if it stands.
    pub fn withdraw_draw_offer(&mut self, seat: Seat) {
        self.doc.draw_offers.retain(|offered| *offered != seat);
    }

    /// Lets every standing draw offer lapse.
    pub fn clear_draw_offers(&mut self) {
        self.doc.draw_offers.clear();
    }

    /// Replaces the conditional lines of `owner` by `lines`; the other players' stay.
    pub fn set_conditional_lines(&mut self, owner: Seat, lines: Vec<ConditionalLine>) {
        self.doc.conditional.retain(|line| line.owner != owner);
        self.doc.conditional.extend(lines);
    }

    /// Moves the conditional lines on past the move `long` just played at `ply`: a line
    /// that foresaw it loses that move (and is dropped once empty), every other line is
    /// dropped, as the game left it.
    pub fn follow_conditional_lines(&mut self, ply: u32, long: &str) {
        self.doc.conditional.retain_mut(|line| {
            let matches = line.from == ply && line.moves.first().map(String::as_str) == Some(long);
            if matches {
                line.moves.remove(0);
                line.from += 1;
            }
            matches && !line.moves.is_empty()
        });
    }

    /// The game's clock pauses changed by `change` (a tournament's pause or resumption).
    pub fn change_pauses(&mut self, change: impl FnOnce(&mut Vec<Period>)) {
        change(&mut self.doc.pauses);
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
            .filter(|seat| self.rules.is_playing(*seat))
            .collect()
    }

    /// Records the elimination of every seat of `playing` the move of `mover` put out of the
    /// game (its army passes to the mover: the rules' own reading of a three-seat game).
    fn record_eliminations(&mut self, playing: &[Seat], mover: Seat) {
        for seat in eliminated(playing, self.rules.as_ref()) {
            self.record(GameEvent::Eliminated { heir: mover }, Some(seat));
        }
    }

    /// Records `event`, the act of `seat` if any, in the log; returns its sequence number.
    pub fn record(&mut self, event: GameEvent, seat: Option<Seat>) -> u32 {
        let seq = self.head.events + self.events_appended();
        let record = EventRecord {
            seq,
            ply: self.rules.ply() as u32,
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

    /// Whether this change appended an event the game's other players are told of by mail
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
    pub fn adjudicate(&mut self, results: Vec<SeatResult>) -> Ending {
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
        results: Vec<SeatResult>,
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
    /// this change.
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

    /// What this change does to the game's wake-up: due at once when the turn moved on (its
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

    /// The commit that stores this change, `None` if nothing changed (a head written before
    /// it carried its resume point is rewritten with one even then).
    pub fn into_commit(self) -> Option<Commit> {
        let unchanged = self.appended.is_empty() && self.doc == self.head.doc;
        if unchanged && self.head.resume.is_some() {
            return None;
        }
        let to_move = self.turn_seat();
        let waiting = self.waiting(to_move);
        let wake = self.wake(to_move, self.rules.ply() as u32);
        let finishes =
            self.doc.status == Status::Finished && self.head.doc.status != Status::Finished;
        let cancels =
            self.doc.status == Status::Cancelled && self.head.doc.status != Status::Cancelled;
        let last_hash = self.chain_end();
        let events = self.head.events + self.events_appended();
        let Game {
            now,
            head: before,
            rules,
            doc,
            appended,
            clocks,
            ..
        } = self;
        let head = Head {
            revision: before.revision + 1,
            last_hash,
            events,
            waiting,
            ..Head::new(before.id.clone(), doc, rules.as_ref(), clocks)
        };
        let (mut moves, mut entries) = (Vec::new(), Vec::new());
        for entry in appended {
            match entry {
                Appended::Move(mv) => moves.push(mv),
                Appended::Event(event) => entries.push(event),
            }
        }
        let feed = told_of_change(&before, &head, &moves, &entries, now);
        Some(Commit {
            head,
            expected_revision: before.revision,
            expected_ply: before.ply,
            expected_events: before.events,
            moves,
            events: entries,
            finishes,
            cancels,
            wake,
            feed,
        })
    }
}

/// The seats of `playing` that `rules` has put out of the game.
fn eliminated(playing: &[Seat], rules: &dyn AnyGame) -> Vec<Seat> {
    playing
        .iter()
        .copied()
        .filter(|seat| !rules.is_playing(*seat))
        .collect()
}

/// Every seat's clock after the moves of `log`, in a game of `seats` seats that started at
/// `started`.
pub fn clocks_of(
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
