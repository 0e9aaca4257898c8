//! The parts of FEN text shared by the variants played on a rectangular grid: the piece
//! placement (last rank first, runs of empty points as digits) and the move counters.

use crate::PositionError;

/// The field name used in placement errors.
pub(crate) const PLACEMENT: &str = "piece placement";

/// Writes a placement of `files` x `ranks` points, rank `ranks - 1` first; `letter` gives
/// the FEN letter of the piece on (file, rank), both 0-based, if any.
pub(crate) fn write_placement(
    files: u8,
    ranks: u8,
    letter: impl Fn(u8, u8) -> Option<char>,
) -> String {
    let mut text = String::with_capacity(usize::from(files) * usize::from(ranks));
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..files {
            match letter(file, rank) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        text.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    text.push(c);
                }
            }
        }
        if empty > 0 {
            text.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

/// Reads a placement of `files` x `ranks` points, calling `put(file, rank, letter)` for
/// every piece letter; `put` refuses unknown letters. Every rank must describe exactly
/// `files` points.
pub(crate) fn read_placement(
    text: &str,
    files: u8,
    ranks: u8,
    mut put: impl FnMut(u8, u8, char) -> Result<(), PositionError>,
) -> Result<(), PositionError> {
    let rank_texts: Vec<&str> = text.split('/').collect();
    if rank_texts.len() != usize::from(ranks) {
        return Err(PositionError::new(
            PLACEMENT,
            format!(
                "expected {ranks} ranks separated by `/`, found {}",
                rank_texts.len()
            ),
        ));
    }
    for (i, rank_text) in rank_texts.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=9).contains(n)) {
                file = file.saturating_add(n as u8);
                continue;
            }
            if file >= files {
                file = files + 1;
                break;
            }
            put(file, rank, c)?;
            file += 1;
        }
        if file != files {
            return Err(PositionError::new(
                PLACEMENT,
                format!("rank {} does not describe exactly {files} points", rank + 1),
            ));
        }
    }
    Ok(())
}

/// Reads the halfmove clock and the full-move number from the fields after the fourth
/// (`0` and `1` when left out); the full-move number must be at least 1.
pub(crate) fn read_counters(fields: &[&str]) -> Result<(u32, u32), PositionError> {
    let halfmoves = read_counter(fields.get(4), "halfmove clock", 0)?;
    let fullmoves = read_counter(fields.get(5), "fullmove number", 1)?;
    if fullmoves == 0 {
        return Err(PositionError::new("fullmove number", "must be at least 1"));
    }
    Ok((halfmoves, fullmoves))
}

fn read_counter(
    text: Option<&&str>,
    field: &'static str,
    default: u32,
) -> Result<u32, PositionError> {
    match text {
        None => Ok(default),
        Some(t) => t.parse().map_err(|_| {
            PositionError::new(field, format!("expected a whole number, found `{t}`"))
        }),
    }
}

/// The error for a letter that names no piece.
pub(crate) fn unknown_letter(letter: char, rank: u8) -> PositionError {
    PositionError::new(
        PLACEMENT,
        format!("unknown piece letter `{letter}` on rank {}", rank + 1),
    )
}
