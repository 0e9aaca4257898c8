//! The texts of a `closed_logs` row: every move of a game that is over, in one JSON array,
//! and (from schema version 19) every event of it, in another.
//!
//! A row holds each move as `[seat, long, short, at, key, flags]` (`at` in milliseconds,
//! `key` or `null`, `flags` 1 for a draw offer plus 2 for a conditional move) and each event
//! as `[ply, seat, at, event]` (`seat` or `null`, `event` the event's JSON). An entry's place
//! in its array is its ply or its sequence number, and the hashes are left out: each is the
//! SHA-256 of the entry before it and the entry's fields, so a load computes them again
//! ([`rechain`]). An entry changed in the row then no longer chains to the head's
//! `last_hash` (or to the next event kept in the `events` table), as a changed hash would.
//! This keeps a row to about a sixth of the records' JSON, and the writer of a bulk import,
//! which mostly spends its time on rows, to two rows a game.
//!
//! Rows written before these forms hold the move records' own JSON, objects with their
//! hashes (schema version 9 to 14), or no events (version 9 to 18, the events in the
//! `events` table); they are read as they are.

use missive_domain::{EventRecord, GameEvent, GameId, MoveRecord, Seat, rechain};
use serde::Serialize;

use crate::StoreError;

/// A move's `flags` bit: a draw was offered with it.
const DRAW_OFFER: u8 = 1;
/// A move's `flags` bit: the service played it from its seat's conditional line.
const CONDITIONAL: u8 = 2;

/// A move as a row keeps it.
#[derive(Serialize)]
struct Packed<'a>(u8, &'a str, &'a str, i64, Option<&'a str>, u8);

/// A move as a row gives it back.
type Unpacked = (u8, String, String, i64, Option<String>, u8);

/// An event as a row keeps it.
#[derive(Serialize)]
struct PackedEvent<'a>(u32, Option<u8>, i64, &'a GameEvent);

/// An event as a row gives it back.
type UnpackedEvent = (u32, Option<u8>, i64, GameEvent);

/// The row's text for `moves`, which must be a whole log from ply 0.
pub(super) fn encode(moves: &[MoveRecord]) -> Result<String, StoreError> {
    let packed: Vec<Packed<'_>> = moves
        .iter()
        .map(|mv| {
            let flags = (mv.draw_offer as u8 * DRAW_OFFER) | (mv.conditional as u8 * CONDITIONAL);
            Packed(
                mv.seat.0,
                &mv.long,
                &mv.short,
                mv.at.timestamp_millis(),
                mv.key.as_deref(),
                flags,
            )
        })
        .collect();
    Ok(serde_json::to_string(&packed)?)
}

/// The row's text for `events`, which must be every event of a log from sequence number 0.
pub(super) fn encode_events(events: &[EventRecord]) -> Result<String, StoreError> {
    let packed: Vec<PackedEvent<'_>> = events
        .iter()
        .map(|event| {
            PackedEvent(
                event.ply,
                event.seat.map(|seat| seat.0),
                event.at.timestamp_millis(),
                &event.event,
            )
        })
        .collect();
    Ok(serde_json::to_string(&packed)?)
}

/// The log of game `game` from a row's texts: its moves from `moves`, its events from
/// `packed_events` (`None` for a row without them) followed by `kept_events` (those kept in
/// the `events` table, in order), every hash left out chained again; `Corrupt` if a text
/// is not of its form.
pub(super) fn decode(
    game: &GameId,
    moves: &str,
    packed_events: Option<&str>,
    kept_events: Vec<EventRecord>,
) -> Result<(Vec<MoveRecord>, Vec<EventRecord>), StoreError> {
    let mut events = match packed_events {
        Some(text) => {
            let mut events = unpack_events(text)?;
            events.extend(kept_events);
            events
        }
        None => kept_events,
    };
    if moves.starts_with("[{") {
        return Ok((serde_json::from_str(moves)?, events));
    }
    let unpacked: Vec<Unpacked> = serde_json::from_str(moves)?;
    let mut moves = unpacked
        .into_iter()
        .zip(0..)
        .map(|(mv, ply)| unpack(mv, ply))
        .collect::<Result<Vec<_>, _>>()?;
    rechain(game, &mut moves, &mut events);
    Ok((moves, events))
}

/// The events of a row's `text`, numbered from 0, their hashes still empty.
fn unpack_events(text: &str) -> Result<Vec<EventRecord>, StoreError> {
    let unpacked: Vec<UnpackedEvent> = serde_json::from_str(text)?;
    unpacked
        .into_iter()
        .zip(0..)
        .map(|((ply, seat, at, event), seq)| {
            Ok(EventRecord {
                seq,
                ply,
                seat: seat.map(Seat),
                at: super::read::millis(at)?,
                event,
                prev_hash: String::new(),
                hash: String::new(),
            })
        })
        .collect()
}

/// The record of one packed move at `ply`, its hashes still empty.
fn unpack(
    (seat, long, short, at, key, flags): Unpacked,
    ply: u32,
) -> Result<MoveRecord, StoreError> {
    if flags & !(DRAW_OFFER | CONDITIONAL) != 0 {
        return Err(StoreError::Corrupt(format!(
            "closed log: move {ply} has unknown flags {flags}"
        )));
    }
    Ok(MoveRecord {
        ply,
        seat: Seat(seat),
        long,
        short,
        at: super::read::millis(at)?,
        key,
        draw_offer: flags & DRAW_OFFER != 0,
        conditional: flags & CONDITIONAL != 0,
        prev_hash: String::new(),
        hash: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use chrono::DateTime;
    use missive_domain::{GameEvent, merged};

    use super::*;

    fn game() -> GameId {
        GameId("01J0000000000000000000TEST".into())
    }

    fn event(seq: u32, ply: u32, prev_hash: &str) -> EventRecord {
        let at = DateTime::from_timestamp_millis(1_000 + seq as i64).unwrap();
        let event = EventRecord {
            seq,
            ply,
            seat: Some(Seat(0)),
            at,
            event: GameEvent::DrawDeclined,
            prev_hash: prev_hash.into(),
            hash: String::new(),
        };
        event.sealed(&game())
    }

    fn mv(ply: u32, prev_hash: &str, draw_offer: bool, conditional: bool) -> MoveRecord {
        MoveRecord {
            ply,
            seat: Seat((ply % 2) as u8),
            long: format!("m{ply}"),
            short: format!("s{ply}"),
            at: DateTime::from_timestamp_millis(10_000 + ply as i64).unwrap(),
            key: (ply == 1).then(|| "client key \"1\"".to_string()),
            draw_offer,
            conditional,
            prev_hash: prev_hash.into(),
            hash: String::new(),
        }
        .sealed(&game())
    }

    /// A log of an event, three moves, an event after the second move and a last event.
    fn log() -> (Vec<MoveRecord>, Vec<EventRecord>) {
        let first = event(0, 0, "");
        let m0 = mv(0, &first.hash, true, false);
        let m1 = mv(1, &m0.hash, false, true);
        let second = event(1, 2, &m1.hash);
        let m2 = mv(2, &second.hash, true, true);
        let last = event(2, 3, &m2.hash);
        (vec![m0, m1, m2], vec![first, second, last])
    }

    #[test]
    fn a_log_with_its_events_in_the_table_reads_back_with_every_hash() {
        let (moves, events) = log();
        let text = encode(&moves).unwrap();
        assert!(!text.contains(&moves[0].hash), "no hash is kept: {text}");
        let read = decode(&game(), &text, None, events.clone()).unwrap();
        assert_eq!(read, (moves, events));
    }

    #[test]
    fn a_log_with_its_events_in_the_row_reads_back_with_every_hash() {
        let (moves, events) = log();
        let packed = encode_events(&events).unwrap();
        assert!(
            !packed.contains(&events[0].hash),
            "no hash is kept: {packed}"
        );
        let read = decode(&game(), &encode(&moves).unwrap(), Some(&packed), Vec::new());
        assert_eq!(read.unwrap(), (moves, events));
    }

    #[test]
    fn events_kept_in_the_table_follow_those_of_the_row() {
        let (moves, mut events) = log();
        let kept = events.split_off(2);
        let packed = encode_events(&events).unwrap();
        let read = decode(
            &game(),
            &encode(&moves).unwrap(),
            Some(&packed),
            kept.clone(),
        );
        events.extend(kept);
        assert_eq!(read.unwrap(), (moves, events));
    }

    #[test]
    fn rows_of_move_records_still_read() {
        let (moves, events) = log();
        let text = serde_json::to_string(&moves).unwrap();
        let read = decode(&game(), &text, None, events.clone()).unwrap();
        assert_eq!(read, (moves, events));
    }

    #[test]
    fn a_changed_move_breaks_the_chain() {
        let (moves, events) = log();
        let text = encode(&moves).unwrap().replace("\"m1\"", "\"m9\"");
        let (read, events) = decode(&game(), &text, None, events).unwrap();
        let chained = merged(&read, &events)
            .windows(2)
            .all(|pair| pair[1].prev_hash() == pair[0].hash());
        assert!(!chained);
    }

    /// With every hash of the log computed again, a changed entry no longer ends the chain
    /// at the hash the log ended with (the head's `last_hash`).
    #[test]
    fn a_changed_event_in_the_row_changes_the_last_hash() {
        let (moves, events) = log();
        let last_hash = events[2].hash.clone();
        let packed = encode_events(&events).unwrap();
        let changed = packed.replacen("draw-declined", "draw-offered", 1);
        assert_ne!(changed, packed);
        let (_, read) = decode(
            &game(),
            &encode(&moves).unwrap(),
            Some(&changed),
            Vec::new(),
        )
        .unwrap();
        assert_ne!(read[2].hash, last_hash);
    }

    #[test]
    fn unknown_flags_are_corrupt() {
        let moves = r#"[[0,"e2e4","e4",1000,null,4]]"#;
        let error = decode(&game(), moves, None, Vec::new()).unwrap_err();
        assert!(matches!(error, StoreError::Corrupt(_)), "{error:?}");
    }

    #[test]
    fn events_not_of_their_form_are_corrupt() {
        let error = decode(&game(), "[]", Some(r#"[[0,null,"soon"]]"#), Vec::new()).unwrap_err();
        assert!(matches!(error, StoreError::Corrupt(_)), "{error:?}");
    }
}
