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
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

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
    source: Source<R>,
    rules: &'r dyn Rules,
}

/// Where a reader's raw games come from.
enum Source<R> {
    /// Read and split on the caller's thread.
    Inline(Box<syntax::Games<R>>),
    /// Read and split on a thread of their own, at most [`GAMES_IN_FLIGHT`] games ahead.
    Thread {
        games: Receiver<Result<syntax::RawGame, ImportError>>,
        offset: Arc<AtomicU64>,
    },
}

/// How many raw games a pipelined reader's reading thread may be ahead of the replay.
const GAMES_IN_FLIGHT: usize = 64;

impl<'r, R: BufRead> Reader<'r, R> {
    /// Reads `input` with the variants of `rules`.
    pub fn new(input: R, rules: &'r dyn Rules) -> Reader<'r, R> {
        Reader {
            source: Source::Inline(Box::new(syntax::Games::new(input))),
            rules,
        }
    }

    /// Bytes of input consumed so far.
    pub fn offset(&self) -> u64 {
        match &self.source {
            Source::Inline(games) => games.offset(),
            Source::Thread { offset, .. } => offset.load(Ordering::Relaxed),
        }
    }
}

impl<'r, R: BufRead + Send + 'static> Reader<'r, R> {
    /// Reads `input` with the variants of `rules` on two threads: one reads the text and
    /// splits it into games, the caller's replays them through the rules. The same games and
    /// errors in the same order as [`Reader::new`]; memory stays bounded (a fixed number of
    /// games in flight).
    pub fn pipelined(input: R, rules: &'r dyn Rules) -> Reader<'r, R> {
        let (sender, games) = sync_channel(GAMES_IN_FLIGHT);
        let offset = Arc::new(AtomicU64::new(0));
        let progress = Arc::clone(&offset);
        std::thread::spawn(move || {
            let mut raw = syntax::Games::new(input);
            while let Some(game) = raw.next() {
                progress.store(raw.offset(), Ordering::Relaxed);
                if sender.send(game).is_err() {
                    break;
                }
            }
        });
        Reader {
            source: Source::Thread { games, offset },
            rules,
        }
    }
}

impl<R: BufRead> Iterator for Reader<'_, R> {
    type Item = Result<Imported, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        let raw = match &mut self.source {
            Source::Inline(games) => games.next()?,
            Source::Thread { games, .. } => games.recv().ok()?,
        };
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
