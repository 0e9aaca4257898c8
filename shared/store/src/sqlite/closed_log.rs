//! The text of a `closed_logs` row: every move of a game that is over, in one JSON array.
//!
//! A row holds each move as `[seat, long, short, at, key, flags]` (`at` in milliseconds,
//! `key` or `null`, `flags` 1 for a draw offer plus 2 for a conditional move). The ply is
//! the move's place in the array, and the hashes are left out: each is the SHA-256 of the
//! entry before it and the move's fields, so a load computes them again from the game's
//! events ([`rechain`]). A move changed in the row then breaks the chain at the next event
//! or at the head's `last_hash`, as a changed hash would. This keeps a row to about a sixth
//! of the move records' JSON, which the writer of a bulk import mostly spends its time on.
//!
//! Rows written before this form (schema version 9 to 14) hold the move records' own JSON,
//! objects with their hashes; they are read as they are.

use missive_domain::{EventRecord, GameId, MoveRecord, Seat, rechain};
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

/// The moves of game `game` from the row's `text`, their hashes chained through `events`
/// (the game's events, in order); `Corrupt` if the text is neither form.
pub(super) fn decode(
    game: &GameId,
    text: &str,
    events: &[EventRecord],
) -> Result<Vec<MoveRecord>, StoreError> {
    if text.starts_with("[{") {
        return Ok(serde_json::from_str(text)?);
    }
    let unpacked: Vec<Unpacked> = serde_json::from_str(text)?;
    let mut moves = unpacked
        .into_iter()
        .zip(0..)
        .map(|(mv, ply)| unpack(mv, ply))
        .collect::<Result<Vec<_>, _>>()?;
    rechain(game, &mut moves, events);
    Ok(moves)
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
    fn a_log_reads_back_with_every_hash() {
        let (moves, events) = log();
        let text = encode(&moves).unwrap();
        assert!(!text.contains(&moves[0].hash), "no hash is kept: {text}");
        assert_eq!(decode(&game(), &text, &events).unwrap(), moves);
    }

    #[test]
    fn rows_of_move_records_still_read() {
        let (moves, events) = log();
        let text = serde_json::to_string(&moves).unwrap();
        assert_eq!(decode(&game(), &text, &events).unwrap(), moves);
    }

    #[test]
    fn a_changed_move_breaks_the_chain() {
        let (moves, events) = log();
        let text = encode(&moves).unwrap().replace("\"m1\"", "\"m9\"");
        let read = decode(&game(), &text, &events).unwrap();
        let chained = merged(&read, &events)
            .windows(2)
            .all(|pair| pair[1].prev_hash() == pair[0].hash());
        assert!(!chained);
    }

    #[test]
    fn unknown_flags_are_corrupt() {
        let error = decode(&game(), r#"[[0,"e2e4","e4",1000,null,4]]"#, &[]).unwrap_err();
        assert!(matches!(error, StoreError::Corrupt(_)), "{error:?}");
    }
}
