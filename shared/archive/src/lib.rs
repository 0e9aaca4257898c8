//! Missive's game archive: a PGN-shaped text format for correspondence games of every
//! variant, specified in `docs/archive.md`.
//!
//! - [`GameRecord`] is the plain data of one game (the game service builds it from its log).
//! - [`export`] writes a record as archive text (or plain PGN) after replaying it through the
//!   rules; [`read`] streams the games of any PGN-like text back as records, replaying and
//!   checking every move, one game at a time with bounded memory.
//! - [`seal`] holds the tamper evidence: the canonical content, its digest and the Ed25519
//!   signature; [`verify`] checks a game read back.
//!
//! The archive knows no variant: notation and position text come from the rules registry
//! (or any other [`Rules`]), so a variant that registers itself is archived with no change here.

mod error;
mod lexer;
mod record;
mod replay;
mod rules;
pub mod sample;
pub mod seal;
mod syntax;
mod text;
mod writer;

use std::io::BufRead;

pub use error::{ExportError, ImportError, Reason, VerifyError};
pub use record::{Entry, Event, EventKind, GameRecord, GameResult, MoveEntry, TimeControl};
pub use replay::Imported;
pub use rules::{Registry, Rules};
pub use seal::{Canonical, KeyPair, PublicKey, Section};
pub use writer::{ExportOptions, Format, canonical, export, sign};

/// The games of an archive or PGN text, each replayed through the rules: an iterator of
/// records or of the error that rejected a game. One bad game never stops the others; memory
/// use does not grow with the size of the input.
pub struct Reader<'r, R> {
    games: syntax::Games<R>,
    rules: &'r dyn Rules,
}

impl<'r, R: BufRead> Reader<'r, R> {
    /// Reads `input` with the variants of `rules`.
    pub fn new(input: R, rules: &'r dyn Rules) -> Reader<'r, R> {
        Reader {
            games: syntax::Games::new(input),
            rules,
        }
    }

    /// Bytes of input consumed so far.
    pub fn offset(&self) -> u64 {
        self.games.offset()
    }
}

impl<R: BufRead> Iterator for Reader<'_, R> {
    type Item = Result<Imported, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        let raw = self.games.next()?;
        Some(raw.and_then(|raw| replay::import(raw, self.rules)))
    }
}

/// Reads `input` with the variants of the rules registry.
pub fn read<R: BufRead>(input: R) -> Reader<'static, R> {
    Reader::new(input, &Registry)
}

/// Checks a game read back: its `Digest` must match its content and, when `key` is given,
/// its `Signature` must be that key's over the content. Gives every failure found, none
/// when the game is intact.
pub fn verify(game: &Imported, key: Option<&PublicKey>) -> Vec<VerifyError> {
    let content = Canonical::of(&game.record);
    let mut failures = Vec::new();
    match &game.digest {
        None => failures.push(VerifyError::NoDigest),
        Some(digest) => {
            let altered = content.altered_sections(digest);
            if !altered.is_empty() {
                failures.push(VerifyError::Digest(altered));
            }
        }
    }
    if let Some(key) = key {
        match &game.record.signature {
            None => failures.push(VerifyError::NoSignature),
            Some(signature) => {
                if let Err(error) = key.verify(&content, signature) {
                    failures.push(VerifyError::Signature(error));
                }
            }
        }
    }
    failures
}
