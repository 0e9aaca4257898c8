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

mod decode;
mod error;
mod lexer;
mod parallel;
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
use std::sync::mpsc::{Receiver, Sender, TrySendError, channel, sync_channel};

pub use decode::EncodingWarning;
pub use error::{ExportError, ImportError, Reason, VerifyError};
pub use record::{
    Argument, Entry, Event, EventKind, GameRecord, GameResult, MessageEntry, MoveEntry,
    OrganiserAct, OrganiserEntry, TimeControl,
};
pub use replay::{Imported, ReplayedGame, SealPlaces};
pub use rules::{Registry, Rules};
pub use seal::{Canonical, KeyPair, PublicKey, Section, signature_key_id};
pub use syntax::Place;
pub use text::seat_tag;
pub use writer::{ExportOptions, Format, canonical, export, export_signed, sign};

/// The games of an archive or PGN text, each replayed through the rules: an iterator of
/// records or of the error that rejected a game. One bad game never stops the others; memory
/// use does not grow with the size of the input. Text that is not UTF-8 is read as
/// Windows-1252, and [`Reader::warning`] says so.
pub struct Reader<'r, R> {
    source: Source<R>,
    rules: &'r dyn Rules,
    warning: Option<EncodingWarning>,
    /// Whether each record's move entries hold the moves' long notation.
    texts: bool,
}

/// Where a reader's games come from.
enum Source<R> {
    /// Read, split and replayed on the caller's thread.
    Inline(Box<syntax::Games<R>>),
    /// Read and split on a thread of their own, handed over in batches: at most
    /// [`BATCHES_IN_FLIGHT`] batches of at most [`BATCH`] games ahead.
    Thread {
        batches: Receiver<Batch>,
        /// The games of the batch being replayed.
        current: std::vec::IntoIter<RawResult>,
        /// Games replayed, handed back for the reading thread to read the next ones into
        /// their buffers.
        spent: Sender<syntax::RawGame>,
        offset: Arc<AtomicU64>,
    },
    /// Read in chunks replayed on threads of their own ([`parallel`]).
    Parallel(parallel::Parallel),
}

/// A raw game as the reading thread hands it over.
type RawResult = Result<syntax::RawGame, ImportError>;

/// Raw games handed over together: a busy replay takes one hand-over per batch rather than
/// one per game.
type Batch = Vec<RawResult>;

/// The most games in one batch.
const BATCH: usize = 16;

/// How many batches a pipelined reader's reading thread may be ahead of the replay.
const BATCHES_IN_FLIGHT: usize = 4;

impl<'r, R: BufRead> Reader<'r, R> {
    /// Reads `input` with the variants of `rules`.
    pub fn new(input: R, rules: &'r dyn Rules) -> Reader<'r, R> {
        Reader {
            source: Source::Inline(Box::new(syntax::Games::new(input))),
            rules,
            warning: None,
            texts: true,
        }
    }

    /// Bytes of input consumed so far.
    pub fn offset(&self) -> u64 {
        match &self.source {
            Source::Inline(games) => games.offset(),
            Source::Thread { offset, .. } => offset.load(Ordering::Relaxed),
            Source::Parallel(games) => games.offset(),
        }
    }
}

impl<R> Reader<'_, R> {
    /// Leaves the moves' texts out of the records: each [`MoveEntry::text`] is empty, and
    /// the game replayed ([`Imported::game`]) writes a move's notation when asked (as
    /// [`Imported::canonical`] does). For a caller that takes the moves from the replay, as
    /// the game store's import does: no text is written for a move nobody reads.
    pub fn without_move_texts(mut self) -> Self {
        self.texts = false;
        self
    }

    /// Whether the games given so far held text that is not UTF-8 (read as Windows-1252):
    /// where the first was and how many games held some. A caller tells the user once the
    /// games are read. Games refused before their moves were replayed are not counted.
    pub fn warning(&self) -> Option<&EncodingWarning> {
        self.warning.as_ref()
    }

    /// Notes that game `number` has text that is not UTF-8, the first at `place`, in the
    /// warning.
    fn note_encoding(&mut self, number: usize, place: Option<Place>) {
        let Some(place) = place else {
            return;
        };
        match &mut self.warning {
            Some(warning) => warning.games += 1,
            None => self.warning = Some(EncodingWarning::first(number, place.line, place.column)),
        }
    }
}

impl<'r, R: BufRead + Send + 'static> Reader<'r, R> {
    /// Reads `input` with the variants of `rules` on two threads: one reads the text and
    /// splits it into games, the caller's replays them through the rules. The same games and
    /// errors in the same order as [`Reader::new`], for little more processor time: the
    /// reading for a caller whose other threads keep the other cores busy, as a store's
    /// import does with its preparation and its writer. Memory stays bounded (a fixed number
    /// of games in flight, each game replayed handed back to the reading thread, which reads
    /// the next into its buffers).
    pub fn pipelined(input: R, rules: &'r dyn Rules) -> Reader<'r, R> {
        let (sender, batches) = sync_channel(BATCHES_IN_FLIGHT);
        let (spent, recycled) = channel();
        let offset = Arc::new(AtomicU64::new(0));
        let progress = Arc::clone(&offset);
        std::thread::spawn(move || {
            let mut raw = syntax::Games::new(input);
            let mut batch = Vec::with_capacity(BATCH);
            loop {
                if let Ok(spare) = recycled.try_recv() {
                    raw.recycle(spare);
                }
                let Some(game) = raw.next() else { break };
                progress.store(raw.offset(), Ordering::Relaxed);
                batch.push(game);
                // A replay waiting for games gets them at once; a busy one gets them by
                // the batch.
                batch = match sender.try_send(batch) {
                    Ok(()) => Vec::with_capacity(BATCH),
                    Err(TrySendError::Full(full)) if full.len() < BATCH => full,
                    Err(TrySendError::Full(full)) => match sender.send(full) {
                        Ok(()) => Vec::with_capacity(BATCH),
                        Err(_) => return,
                    },
                    Err(TrySendError::Disconnected(_)) => return,
                };
            }
            if !batch.is_empty() {
                let _ = sender.send(batch);
            }
        });
        Reader {
            source: Source::Thread {
                batches,
                current: Vec::new().into_iter(),
                spent,
                offset,
            },
            rules,
            warning: None,
            texts: true,
        }
    }

    /// Reads `input` with the variants of `rules` on every core: one thread reads the text
    /// and cuts it into chunks at likely game boundaries, workers (one a core, two to four)
    /// read and replay the chunks' games, the caller's thread gives them in order. The same
    /// games, errors and warning in the same order as [`Reader::new`], for any input (where
    /// a cut was not a game boundary, the games around it are read again on the caller's
    /// thread), in the least time when the cores are free, for somewhat more processor time
    /// than [`Reader::pipelined`]. Memory stays bounded (a fixed number of chunks in
    /// flight). The threads start with the first game asked for and end once the input is
    /// read or the reader dropped; a panic on one of them is raised again on the caller's
    /// thread.
    pub fn parallel(input: R, rules: &'static (dyn Rules + Sync)) -> Reader<'r, R> {
        Reader::in_blocks(input, rules, parallel::BLOCK)
    }

    /// [`Reader::parallel`], the input read in blocks of `block` bytes.
    fn in_blocks(input: R, rules: &'static (dyn Rules + Sync), block: usize) -> Reader<'r, R> {
        Reader {
            source: Source::Parallel(parallel::Parallel::new(input, rules, block)),
            rules,
            warning: None,
            texts: true,
        }
    }
}

impl<R: BufRead> Iterator for Reader<'_, R> {
    type Item = Result<Imported, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        let raw = match &mut self.source {
            Source::Inline(games) => games.next()?,
            Source::Thread {
                batches, current, ..
            } => match current.next() {
                Some(game) => game,
                None => {
                    *current = batches.recv().ok()?.into_iter();
                    current.next()?
                }
            },
            Source::Parallel(games) => {
                let outcome = games.next(self.texts)?;
                self.note_encoding(outcome.number(), outcome.not_utf8);
                return Some(outcome.game);
            }
        };
        let raw = match raw {
            Ok(raw) => raw,
            Err(error) => return Some(Err(error)),
        };
        self.note_encoding(raw.number, raw.not_utf8);
        let imported = replay::import(&raw, self.rules, self.texts);
        match &mut self.source {
            Source::Inline(games) => games.recycle(raw),
            // The reading thread may have ended: the game is then dropped.
            Source::Thread { spent, .. } => {
                let _ = spent.send(raw);
            }
            Source::Parallel(_) => {}
        }
        Some(imported)
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
    let content = game.canonical();
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

/// What the seal of a game read back proves, once [`check_seal`] accepted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sealed {
    /// Neither a digest nor a signature: nothing is proven.
    Unsealed,
    /// A digest that matches: the game is as it was sealed, by whoever sealed it.
    Digest,
    /// A signature by one of the keys given: the game is as that key's holder wrote it.
    Signed,
}

/// Checks the seal of a game read back, as import does: a `Digest` must match the content
/// (else the game is refused, at the first altered section's place, naming every altered
/// section) and a `Signature` must be one of `keys`' over it: the key its id names, or any
/// of them for a signature without an id (else refused at the tag, saying so when the id
/// names none of `keys`).
/// A game with neither is accepted as [`Sealed::Unsealed`].
pub fn check_seal(game: &Imported, keys: &[PublicKey]) -> Result<Sealed, ImportError> {
    let content = game.canonical();
    let refuse = |place: Place, reason: String| ImportError {
        game: game.number,
        line: place.line,
        column: place.column,
        reason: Reason::Seal(reason),
    };
    if let Some(digest) = &game.digest {
        let altered = content.altered_sections(digest);
        if let Some(first) = altered.first() {
            let error = VerifyError::Digest(altered.clone());
            return Err(refuse(game.places.of(*first), error.to_string()));
        }
    }
    let Some(signature) = &game.record.signature else {
        return Ok(match game.digest {
            Some(_) => Sealed::Digest,
            None => Sealed::Unsealed,
        });
    };
    if keys
        .iter()
        .any(|key| key.verify(&content, signature).is_ok())
    {
        return Ok(Sealed::Signed);
    }
    let unknown = signature_key_id(signature).filter(|id| keys.iter().all(|key| key.id() != *id));
    let why = match unknown {
        Some(id) => {
            format!("the signature is by key {id}, which is not this server's or was retired")
        }
        None => "the signature is not this server's".to_string(),
    };
    Err(refuse(
        game.places.signature,
        format!("{why} (remove the Signature tag to import the game unverified)"),
    ))
}
