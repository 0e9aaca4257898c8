//! A game's log: moves and events, written once each, chained by hashes so that changing or
//! removing any entry breaks the chain; a game as stored (head and log); one change to it.

use chrono::{DateTime, Utc};
use missive_rules::{EndRule, Seat};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::lines::Lines;
use crate::{FeedItem, GameId, Head, Status};

/// SHA-256 of `text` in lower-case hex.
pub fn hex_sha256(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// `bytes` in lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    let mut hex = Vec::with_capacity(bytes.len() * 2);
    for byte in bytes {
        hex.extend_from_slice(&HEX_DIGITS[usize::from(*byte)]);
    }
    String::from_utf8(hex).expect("hex digits are ASCII")
}

/// The two hex digits of each byte.
const HEX_DIGITS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0; 2]; 256];
    let mut byte = 0;
    while byte < 256 {
        pairs[byte] = [DIGITS[byte >> 4], DIGITS[byte & 0x0f]];
        byte += 1;
    }
    pairs
};

/// A move in the log: written once, never changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Moves before this one: the first move has ply 0.
    pub ply: u32,
    /// The seat that played it.
    pub seat: Seat,
    /// Long (canonical) notation.
    pub long: String,
    /// Short notation.
    pub short: String,
    /// When the service accepted it.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub at: DateTime<Utc>,
    /// The client's idempotency key; `None` for moves the service played (conditional).
    pub key: Option<String>,
    /// Whether a draw was offered with the move.
    pub draw_offer: bool,
    /// Whether the service played it on its seat's behalf, from the seat's conditional
    /// line (absent, false, in moves stored before it was kept).
    #[serde(default)]
    pub conditional: bool,
    /// The previous entry's hash (empty for the first).
    pub prev_hash: String,
    /// SHA-256 over the previous hash and this record's content, in hex.
    pub hash: String,
}

impl MoveRecord {
    /// The hash a record with these contents must carry: SHA-256 in hex of the game id,
    /// the previous hash and every field, so any change to the log breaks the chain (a move
    /// played from a conditional line adds a line, so the hashes of moves stored before
    /// the flag existed are unchanged).
    pub fn chain_hash(&self, game: &GameId) -> String {
        let mut lines = Lines::new();
        lines
            .text(&game.0)
            .text(&self.prev_hash)
            .number(self.ply)
            .number(self.seat.0)
            .text(&self.long)
            .number(self.at.timestamp_millis())
            .text(self.key.as_deref().unwrap_or(""))
            .text(if self.draw_offer { "true" } else { "false" });
        if self.conditional {
            lines.text("conditional");
        }
        lines.hex()
    }

    /// Fills `hash` from the other fields.
    pub fn sealed(mut self, game: &GameId) -> MoveRecord {
        self.hash = self.chain_hash(game);
        self
    }
}

/// Something that happened in a game other than a move: what the record of the game keeps
/// beside the moves. The event record's seat is the seat it concerns (for an elimination,
/// the nation that went out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum GameEvent {
    /// A draw offered without a move (an offer made with a move is part of the move).
    DrawOffered,
    /// The seat withdrew the draw it offered.
    DrawWithdrawn,
    /// The draw other seats offered was accepted.
    DrawAccepted,
    /// The draw other seats offered was declined: every standing offer lapsed.
    DrawDeclined,
    /// A draw claim the rules upheld.
    DrawClaimed {
        /// The rule claimed.
        rule: EndRule,
    },
    /// A claim the rules refused (a draw by rule, or a win on time: `timeout`); the game
    /// went on.
    ClaimRefused {
        /// The rule claimed.
        rule: EndRule,
    },
    /// The seat resigned.
    Resigned,
    /// The seat to move ran out of time.
    TimedOut,
    /// A seated player called the game off before its first move.
    Aborted,
    /// An invited player declined the invitation.
    InvitationDeclined,
    /// The seat's player wrote to the game's other players: plain text, shown to the
    /// game's players only.
    Message {
        /// What they wrote (normalised by the service: line feeds only, no other control
        /// characters).
        text: String,
    },
    /// The seat's player took a vacation, which stops their clock from `from` to `to`.
    VacationTaken {
        /// When it starts.
        #[serde(with = "chrono::serde::ts_milliseconds")]
        from: DateTime<Utc>,
        /// When it ends.
        #[serde(with = "chrono::serde::ts_milliseconds")]
        to: DateTime<Utc>,
    },
    /// The seat's player ended their vacation at the event's time, before it was over (one
    /// that had not started yet was called off): their clock runs again from then.
    VacationEnded,
    /// The seat (a nation of a three-seat game) is out, and its army passed to `heir`.
    Eliminated {
        /// The seat that took the army over: the one that had just moved.
        heir: Seat,
    },
    /// The tournament's organiser paused it: from now no clock of the game runs.
    Paused,
    /// The tournament's organiser resumed it: the clocks run again, the pause given back.
    Resumed,
    /// The tournament's organiser stopped the game's clocks for `days` days from now: the
    /// turn's deadline moves that much later.
    DeadlineExtended {
        /// The organiser.
        by: String,
        /// Days.
        days: u16,
    },
    /// The tournament's organiser ended the game with a result (the ending's), for
    /// `reason`; it concerns no seat.
    Adjudicated {
        /// The organiser.
        by: String,
        /// Why, in the organiser's words.
        reason: String,
    },
}

/// An event in the log: written once, never changed, chained with the moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRecord {
    /// Events before this one in the game, from 0.
    pub seq: u32,
    /// Moves before it: it happened after move `ply - 1` and before move `ply`.
    pub ply: u32,
    /// The seat whose act it was, if any.
    pub seat: Option<Seat>,
    /// When it happened.
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub at: DateTime<Utc>,
    /// What happened.
    pub event: GameEvent,
    /// The previous entry's hash (empty for the first).
    pub prev_hash: String,
    /// SHA-256 over the previous hash and this record's content, in hex.
    pub hash: String,
}

impl EventRecord {
    /// The hash a record with these contents must carry (see [`MoveRecord::chain_hash`]).
    pub fn chain_hash(&self, game: &GameId) -> String {
        let mut lines = Lines::new();
        lines
            .text("event")
            .text(&game.0)
            .text(&self.prev_hash)
            .number(self.seq)
            .number(self.ply);
        match self.seat {
            Some(seat) => lines.number(seat.0),
            None => lines.text(""),
        };
        lines
            .number(self.at.timestamp_millis())
            .text(&serde_json::to_string(&self.event).unwrap_or_default())
            .hex()
    }

    /// Fills `hash` from the other fields.
    pub fn sealed(mut self, game: &GameId) -> EventRecord {
        self.hash = self.chain_hash(game);
        self
    }
}

/// One entry of a log, in the log's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogEntry<'a> {
    /// A move.
    Move(&'a MoveRecord),
    /// An event.
    Event(&'a EventRecord),
}

impl LogEntry<'_> {
    /// The entry's hash.
    pub fn hash(&self) -> &str {
        match self {
            LogEntry::Move(mv) => &mv.hash,
            LogEntry::Event(event) => &event.hash,
        }
    }

    /// The hash of the entry before it.
    pub fn prev_hash(&self) -> &str {
        match self {
            LogEntry::Move(mv) => &mv.prev_hash,
            LogEntry::Event(event) => &event.prev_hash,
        }
    }

    /// The hash the entry's contents call for.
    pub fn chain_hash(&self, game: &GameId) -> String {
        match self {
            LogEntry::Move(mv) => mv.chain_hash(game),
            LogEntry::Event(event) => event.chain_hash(game),
        }
    }
}

/// The moves and events in log order: the events after move `p - 1` (ply `p`) come before
/// move `p`, in their order.
pub fn merged<'a>(moves: &'a [MoveRecord], events: &'a [EventRecord]) -> Vec<LogEntry<'a>> {
    let mut entries = Vec::with_capacity(moves.len() + events.len());
    let mut events = events.iter().peekable();
    for mv in moves {
        while let Some(event) = events.next_if(|e| e.ply <= mv.ply) {
            entries.push(LogEntry::Event(event));
        }
        entries.push(LogEntry::Move(mv));
    }
    entries.extend(events.map(LogEntry::Event));
    entries
}

/// Fills the hashes a log was kept without, each from the entry before it: every move's
/// `prev_hash` and `hash`, and those of every event kept without its hash (an empty
/// `hash`); an event kept with its hash keeps it, and the entry after it chains from it.
/// These are the hashes the log had when it was written: a log changed since then no
/// longer chains to its kept hashes or to its head's `last_hash`, a broken chain, as
/// `missive check` reports it.
pub fn rechain(game: &GameId, moves: &mut [MoveRecord], events: &mut [EventRecord]) {
    let mut events = events.iter_mut().peekable();
    let mut chain = String::new();
    for mv in moves {
        while let Some(event) = events.next_if(|e| e.ply <= mv.ply) {
            rechain_event(game, event, &mut chain);
        }
        mv.prev_hash = std::mem::take(&mut chain);
        mv.hash = mv.chain_hash(game);
        chain.clone_from(&mv.hash);
    }
    for event in events {
        rechain_event(game, event, &mut chain);
    }
}

/// [`rechain`] for one event after the entry whose hash is `chain`: fills its hashes if it
/// was kept without them; `chain` becomes its hash.
fn rechain_event(game: &GameId, event: &mut EventRecord, chain: &mut String) {
    if event.hash.is_empty() {
        event.prev_hash = std::mem::take(chain);
        event.hash = event.chain_hash(game);
    }
    chain.clone_from(&event.hash);
}

/// A game as stored: its head and its whole log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The head.
    pub head: Head,
    /// Every move, ply 0 first.
    pub moves: Vec<MoveRecord>,
    /// Every event, in order.
    pub events: Vec<EventRecord>,
}

impl StoredGame {
    /// Every entry of the log, in order.
    pub fn entries(&self) -> Vec<LogEntry<'_>> {
        merged(&self.moves, &self.events)
    }

    /// Checks a whole game written at once is well formed: the head at revision 1 and past
    /// every move, the log numbered from 0 and chained, an ending if it is finished. Gives
    /// the commit that would have produced it from nothing.
    pub fn as_first_commit(&self) -> Result<Commit, InvalidCommit> {
        self.clone().into_first_commit()
    }

    /// [`StoredGame::as_first_commit`], taking the game rather than copying it.
    pub fn into_first_commit(self) -> Result<Commit, InvalidCommit> {
        let finishes = self.head.doc.status == Status::Finished;
        let cancels = self.head.doc.status == Status::Cancelled;
        let commit = Commit {
            head: self.head,
            expected_revision: 0,
            expected_ply: 0,
            expected_events: 0,
            moves: self.moves,
            events: self.events,
            finishes,
            cancels,
            wake: WakeChange::Clear,
            feed: Vec::new(),
        };
        commit.check()?;
        Ok(commit)
    }
}

/// A write that breaks the log's invariants: a bug in the caller. Nothing was written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct InvalidCommit(pub String);

/// What a commit does to the game's wake-up: the time the notifier next has something to do
/// for it (a turn mail, a reminder, a deadline, a digest, the mails of its end), which the
/// sweep's index orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WakeChange {
    /// Leaves it as it is (the turn did not change).
    Keep,
    /// Sets it.
    At(DateTime<Utc>),
    /// Removes it: nothing more to do.
    Clear,
}

/// One atomic change to a game: the new head and the entries appended with it.
///
/// It succeeds only if the stored head still has `expected_revision` and `expected_ply`
/// (the values the writer read) and no entry exists yet where the new ones go.
#[derive(Clone, Debug)]
pub struct Commit {
    /// The head after the change; its revision must be `expected_revision + 1` and its ply
    /// `expected_ply + moves.len()`.
    pub head: Head,
    /// The revision the writer read.
    pub expected_revision: u64,
    /// The ply the writer read.
    pub expected_ply: u32,
    /// How many events the log had when the writer read it: the new ones are numbered from
    /// there.
    pub expected_events: u32,
    /// The moves appended, plies `expected_ply..`.
    pub moves: Vec<MoveRecord>,
    /// The events appended, numbered from `expected_events`.
    pub events: Vec<EventRecord>,
    /// Whether this change ends the game: then every player gets a finished-games entry.
    pub finishes: bool,
    /// Whether this change calls the game off (declined, aborted): then every player and
    /// invitee gets a cancelled-games entry.
    pub cancels: bool,
    /// What the change does to the game's wake-up.
    pub wake: WakeChange,
    /// What the players are told of the change, written with it.
    pub feed: Vec<FeedItem>,
}

impl Commit {
    /// Checks the commit is well formed: the head one revision on, its ply past the new
    /// moves, the moves and events numbered from those read, every new entry chained to the
    /// one before and the last one's hash the head's.
    pub fn check(&self) -> Result<(), InvalidCommit> {
        let invalid = |reason: &str| Err(InvalidCommit(reason.to_string()));
        if self.head.revision != self.expected_revision + 1 {
            return invalid("the head's revision must be one more than the one read");
        }
        if self.head.ply as usize != self.expected_ply as usize + self.moves.len() {
            return invalid("the head's ply must count the appended moves");
        }
        let numbered = self
            .moves
            .iter()
            .zip(self.expected_ply..)
            .all(|(mv, ply)| mv.ply == ply);
        let events_numbered = self
            .events
            .iter()
            .zip(self.expected_events..)
            .all(|(event, seq)| event.seq == seq && event.ply <= self.head.ply);
        if !numbered || !events_numbered {
            return invalid("the entries must be numbered from the ones read");
        }
        let entries = merged(&self.moves, &self.events);
        let chained = entries
            .windows(2)
            .all(|pair| pair[1].prev_hash() == pair[0].hash());
        let last = entries
            .last()
            .is_none_or(|entry| entry.hash() == self.head.last_hash);
        if !chained || !last {
            return invalid("the entries must be chained and end at the head's last hash");
        }
        if (self.finishes || self.cancels) && self.head.doc.ending.is_none() {
            return invalid("a finishing or cancelling commit needs an ending");
        }
        Ok(())
    }

    /// Checks the commit starts a game that does not exist yet: well formed, from revision
    /// 0 and ply 0, without entries.
    pub fn check_start(&self) -> Result<(), InvalidCommit> {
        self.check()?;
        let fresh = self.expected_revision == 0
            && self.expected_ply == 0
            && self.moves.is_empty()
            && self.events.is_empty();
        if !fresh {
            return Err(InvalidCommit(
                "a game's start is a commit from revision 0 without entries".into(),
            ));
        }
        Ok(())
    }

    /// When the game ended, for a commit that finishes it.
    pub fn finished_at(&self) -> Result<DateTime<Utc>, InvalidCommit> {
        self.head
            .doc
            .ending
            .as_ref()
            .map(|ending| ending.at)
            .ok_or_else(|| InvalidCommit("a finishing commit needs an ending".into()))
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn hex_writes_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0x10, 0xa5, 0xff]), "000f10a5ff");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn hex_sha256_is_the_standard_digest_in_lower_case_hex() {
        assert_eq!(
            hex_sha256("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex_sha256(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    fn a_move(conditional: bool, key: Option<&str>) -> MoveRecord {
        MoveRecord {
            ply: 12,
            seat: Seat(1),
            long: "e7e5".into(),
            short: "e5".into(),
            at: Utc.timestamp_millis_opt(1_700_000_000_123).unwrap(),
            key: key.map(str::to_string),
            draw_offer: true,
            conditional,
            prev_hash: "ab".repeat(32),
            hash: String::new(),
        }
    }

    /// The chain's definition, as the records of every stored log were hashed: the fields
    /// joined by new lines.
    #[test]
    fn a_move_hash_is_the_digest_of_its_fields_joined_by_new_lines() {
        let game = GameId("01HGAME".into());
        let plain = a_move(false, Some("key-1"));
        assert_eq!(
            plain.chain_hash(&game),
            hex_sha256(&format!(
                "01HGAME\n{}\n12\n1\ne7e5\n1700000000123\nkey-1\ntrue",
                "ab".repeat(32)
            ))
        );
        let conditional = a_move(true, None);
        assert_eq!(
            conditional.chain_hash(&game),
            hex_sha256(&format!(
                "01HGAME\n{}\n12\n1\ne7e5\n1700000000123\n\ntrue\nconditional",
                "ab".repeat(32)
            ))
        );
    }

    #[test]
    fn an_event_hash_is_the_digest_of_its_fields_joined_by_new_lines() {
        let game = GameId("01HGAME".into());
        let mut event = EventRecord {
            seq: 3,
            ply: 40,
            seat: Some(Seat(2)),
            at: Utc.timestamp_millis_opt(1_700_000_000_000).unwrap(),
            event: GameEvent::DrawClaimed {
                rule: EndRule::ThreefoldRepetition,
            },
            prev_hash: "cd".repeat(32),
            hash: String::new(),
        };
        let json = r#"{"kind":"draw-claimed","rule":"threefold-repetition"}"#;
        let expected = |seat: &str| {
            hex_sha256(&format!(
                "event\n01HGAME\n{}\n3\n40\n{seat}\n1700000000000\n{json}",
                "cd".repeat(32)
            ))
        };
        assert_eq!(event.chain_hash(&game), expected("2"));
        event.seat = None;
        assert_eq!(event.chain_hash(&game), expected(""));
    }

    /// A log of two moves, an event between them and one after the last, each sealed.
    fn sealed_log(game: &GameId) -> (Vec<MoveRecord>, Vec<EventRecord>) {
        let event = |seq: u32, ply: u32, prev_hash: &str| {
            EventRecord {
                seq,
                ply,
                seat: Some(Seat(0)),
                at: Utc.timestamp_millis_opt(1_700_000_000_000).unwrap(),
                event: GameEvent::DrawOffered,
                prev_hash: prev_hash.into(),
                hash: String::new(),
            }
            .sealed(game)
        };
        let mv = |ply: u32, prev_hash: &str| {
            MoveRecord {
                ply,
                prev_hash: prev_hash.into(),
                ..a_move(false, None)
            }
            .sealed(game)
        };
        let first = mv(0, "");
        let between = event(0, 1, &first.hash);
        let second = mv(1, &between.hash);
        let last = event(1, 2, &second.hash);
        (vec![first, second], vec![between, last])
    }

    /// Every hash left out is computed again as it was; a kept hash stays and the entry
    /// after it chains from it.
    #[test]
    fn rechain_fills_the_hashes_left_out_and_keeps_those_kept() {
        let game = GameId("01HGAME".into());
        let (moves, events) = sealed_log(&game);
        let strip = |prev_hash: &mut String, hash: &mut String| {
            prev_hash.clear();
            hash.clear();
        };
        let (mut bare_moves, mut bare_events) = (moves.clone(), events.clone());
        bare_moves
            .iter_mut()
            .for_each(|m| strip(&mut m.prev_hash, &mut m.hash));
        bare_events
            .iter_mut()
            .for_each(|e| strip(&mut e.prev_hash, &mut e.hash));
        rechain(&game, &mut bare_moves, &mut bare_events);
        assert_eq!((&bare_moves, &bare_events), (&moves, &events));

        let (mut bare_moves, mut kept_events) = (moves.clone(), events.clone());
        bare_moves
            .iter_mut()
            .for_each(|m| strip(&mut m.prev_hash, &mut m.hash));
        kept_events[0].hash = "ef".repeat(32);
        rechain(&game, &mut bare_moves, &mut kept_events);
        assert_eq!(bare_moves[1].prev_hash, "ef".repeat(32));
        assert_eq!(kept_events[1].hash, events[1].hash, "a kept hash stays");
    }
}
