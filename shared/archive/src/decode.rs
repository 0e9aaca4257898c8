//! The text of archive bytes: UTF-8, or Windows-1252 for text that is not UTF-8, and the
//! warning that tells a reader's caller the fallback was taken.

use std::borrow::Cow;
use std::fmt;

use encoding_rs::WINDOWS_1252;

/// `bytes` as text, and whether they had to be read as Windows-1252: UTF-8 when they are
/// valid UTF-8 (borrowed); otherwise Windows-1252, the encoding of older PGN files from
/// Windows tools, in which every byte is a character, so nothing is dropped or replaced.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), false),
        Err(_) => (WINDOWS_1252.decode_without_bom_handling(bytes).0, true),
    }
}

/// Text of the input that was not UTF-8 and was read as Windows-1252: where it first
/// appeared (game, line, column) and how many games hold such text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodingWarning {
    /// The first game with such text, counted from 1 in the file.
    pub game: usize,
    /// Its line, from 1.
    pub line: usize,
    /// Its column, from 1.
    pub column: usize,
    /// How many games hold such text.
    pub games: usize,
}

impl EncodingWarning {
    /// A warning for the first game found with such text.
    pub(crate) fn first(game: usize, line: usize, column: usize) -> EncodingWarning {
        EncodingWarning {
            game,
            line,
            column,
            games: 1,
        }
    }
}

impl fmt::Display for EncodingWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: the text is not UTF-8; read as Windows-1252 ({} {})",
            self.game,
            self.line,
            self.column,
            self.games,
            if self.games == 1 { "game" } else { "games" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_stays_and_anything_else_is_windows_1252() {
        assert_eq!(decode("Čapek €".as_bytes()), ("Čapek €".into(), false));
        assert_eq!(decode(b"Ju\xe1rez \x80 \x9c"), ("Juárez € œ".into(), true));
        assert_eq!(decode(b"\x81\x8d"), ("\u{81}\u{8d}".into(), true));
    }
}
