//! An archive's import as a whole: the importer's quotas, the working time, and the games
//! stored batch after batch, each batch prepared while the store writes the one before.
//!
//! Both front ends import through here: an HTTP request's archive text
//! ([`GameService::import_archive`]: an import slot, the day's bytes and games, the games one
//! request may carry, a working time after which the games not stored yet are answered as
//! not imported), and a file the operator's command streams ([`ImportBatches`] with no
//! working time), whose outcomes come back batch by batch as its progress.

use std::collections::VecDeque;
use std::io::Cursor;

use missive_archive::{ImportError, Imported, Reader, Registry};

use crate::{GameService, ImportOutcome, ImportPermit, ServiceError, WorkTime};

/// Games of an HTTP request's archive stored with one write of the store: small enough
/// that the request's working time is looked at often.
pub const REQUEST_IMPORT_BATCH: usize = 100;

/// Games of a file the `missive archive import` command stores with one write of the store.
pub const FILE_IMPORT_BATCH: usize = 500;

/// Why a game read is not stored once the request's working time is up.
const TIME_UP: &str = "not imported: the request's working time was up; post it again";

/// What became of an archive's import: an outcome per game read, in archive order, and
/// what the reader warns of (text that is not UTF-8, where reading stopped).
#[derive(Debug)]
pub struct ArchiveImport {
    /// Each game read: its new id, or why it was refused and where.
    pub games: Vec<ImportOutcome>,
    /// The reader's warnings, with game, line and column.
    pub warnings: Vec<String>,
}

impl ArchiveImport {
    /// The games stored.
    pub fn imported(&self) -> usize {
        self.games.iter().filter(|game| game.id.is_some()).count()
    }
}

impl GameService {
    /// Imports the archive `text` of an HTTP request for the player of `permit` (taken with
    /// [`GameService::begin_import`] before the text arrived), and gives the import's slot
    /// back in every case: the text's bytes counted against the player's day, its games read
    /// (on the blocking pool, at most one more than a request may carry, none once the
    /// working time is up) and counted against the request and the day, then stored in
    /// batches of [`REQUEST_IMPORT_BATCH`] while the working time lasts. Refused as
    /// [`ServiceError::Limited`] or [`ServiceError::TooMuch`] by a quota, nothing stored.
    pub async fn import_archive(
        &self,
        permit: ImportPermit,
        text: impl AsRef<[u8]> + Send + 'static,
    ) -> Result<ArchiveImport, ServiceError> {
        let bytes = text.as_ref().len() as u64;
        let permit = self.count_import_bytes(permit, bytes).await?;
        let import = self.import_within(&permit, text).await;
        self.abandon_import(permit).await;
        import
    }

    /// Ends an import whatever became of it: gives its slot back, a failure to do so only
    /// logged (the slot then expires by itself).
    pub async fn abandon_import(&self, permit: ImportPermit) {
        let player = permit.player().to_string();
        if let Err(error) = self.end_import(permit).await {
            tracing::warn!(%player, %error, "an import slot was not given back: it expires");
        }
    }

    /// Reads and stores the games of `text` within `permit`.
    async fn import_within(
        &self,
        permit: &ImportPermit,
        text: impl AsRef<[u8]> + Send + 'static,
    ) -> Result<ArchiveImport, ServiceError> {
        let (read, warnings) = read_games(permit, text).await;
        self.count_import_games(permit, read.len() as u64).await?;
        let mut batches = ImportBatches::new(
            self,
            Some(permit.player()),
            REQUEST_IMPORT_BATCH,
            permit.time(),
        );
        let mut games = Vec::with_capacity(read.len());
        for game in read {
            games.extend(batches.push(game).await);
        }
        games.extend(batches.finish().await);
        Ok(ArchiveImport { games, warnings })
    }
}

/// Reads the games of `text` on the blocking pool: at most one more than `permit` lets a
/// request carry (enough to tell it carries too many), and none once its time is up (a
/// warning says where the reader stopped); with the reader's warnings.
async fn read_games(
    permit: &ImportPermit,
    text: impl AsRef<[u8]> + Send + 'static,
) -> (Vec<Result<Imported, ImportError>>, Vec<String>) {
    let most = permit.games_per_request().map_or(usize::MAX, |n| {
        usize::try_from(n).unwrap_or(usize::MAX).saturating_add(1)
    });
    let time = permit.time();
    tokio::task::spawn_blocking(move || {
        let mut reader = Reader::new(Cursor::new(text), &Registry).without_move_texts();
        let mut games = Vec::new();
        let mut warnings = Vec::new();
        while games.len() < most {
            if time.is_up() {
                warnings.push(format!(
                    "reading stopped after game {}: the request's working time is up; \
                     post the rest of the archive again",
                    games.len()
                ));
                break;
            }
            let Some(game) = reader.next() else { break };
            games.push(game);
        }
        warnings.extend(reader.warning().map(ToString::to_string));
        (games, warnings)
    })
    .await
    .expect("reading an archive does not panic")
}

/// Games gathered into batches of a given size and stored through an [`ImportPipeline`]
/// while a working time lasts: once it is up, each batch left is answered as not imported.
pub struct ImportBatches {
    pipeline: ImportPipeline,
    batch: Vec<Result<Imported, ImportError>>,
    size: usize,
    time: WorkTime,
}

impl ImportBatches {
    /// Batches of `size` games (at least one) stored with `service` for `importer`, within
    /// `time` ([`WorkTime::UNLIMITED`] for none).
    pub fn new(
        service: &GameService,
        importer: Option<&str>,
        size: usize,
        time: WorkTime,
    ) -> ImportBatches {
        let size = size.max(1);
        ImportBatches {
            pipeline: ImportPipeline::new(service, importer),
            batch: Vec::with_capacity(size),
            size,
            time,
        }
    }

    /// Adds one game as the reader gave it, starting its batch once the batch is full: the
    /// outcomes of the earliest batches done by then (none before), in order.
    pub async fn push(&mut self, game: Result<Imported, ImportError>) -> Vec<ImportOutcome> {
        self.batch.push(game);
        if self.batch.len() < self.size {
            return Vec::new();
        }
        self.start_batch().await
    }

    /// Stores the games left and waits for every batch under way: the outcomes not given
    /// yet, in order.
    pub async fn finish(mut self) -> Vec<ImportOutcome> {
        let mut done = self.start_batch().await;
        done.extend(self.pipeline.finish().await);
        done
    }

    /// Starts storing the batch gathered, or answers it as not imported once the working
    /// time is up (after every batch under way is done, so outcomes stay in order).
    async fn start_batch(&mut self) -> Vec<ImportOutcome> {
        if self.batch.is_empty() {
            return Vec::new();
        }
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.size));
        if !self.time.is_up() {
            return self.pipeline.push(batch).await;
        }
        let mut done = self.pipeline.finish().await;
        done.extend(
            batch
                .iter()
                .map(|game| ImportOutcome::unstored(game, &TIME_UP)),
        );
        done
    }
}

/// Imports batch after batch: each batch is prepared ([`GameService::prepare_imports`], the
/// processor's work) and then stored ([`GameService::store_imports`]) on a thread of the
/// blocking pool, while the caller reads the next; at most [`ImportPipeline::IN_FLIGHT`]
/// batches are under way at once. Outcomes come back in the order the games were pushed.
/// The thread that made a batch's records also frees them once they are stored: the
/// allocator frees memory of the thread's own for far less than another thread's.
pub struct ImportPipeline {
    service: GameService,
    importer: Option<String>,
    in_flight: VecDeque<tokio::task::JoinHandle<Vec<ImportOutcome>>>,
}

impl ImportPipeline {
    /// Batches prepared or stored at once, besides the one the caller reads.
    pub const IN_FLIGHT: usize = 3;

    /// A pipeline storing with `service`, for `importer`.
    pub fn new(service: &GameService, importer: Option<&str>) -> ImportPipeline {
        ImportPipeline {
            service: service.clone(),
            importer: importer.map(str::to_string),
            in_flight: VecDeque::new(),
        }
    }

    /// Starts preparing and storing `batch`: the outcomes of the earliest batches, once
    /// more than [`ImportPipeline::IN_FLIGHT`] are under way (none before).
    pub async fn push(&mut self, batch: Vec<Result<Imported, ImportError>>) -> Vec<ImportOutcome> {
        let service = self.service.clone();
        let importer = self.importer.clone();
        let runtime = tokio::runtime::Handle::current();
        self.in_flight
            .push_back(tokio::task::spawn_blocking(move || {
                let prepared = service.prepare_imports(importer.as_deref(), batch);
                runtime.block_on(service.store_imports(prepared))
            }));
        let mut done = Vec::new();
        while self.in_flight.len() > Self::IN_FLIGHT {
            done.extend(self.next_done().await);
        }
        done
    }

    /// Waits for every batch under way: their outcomes, in order (none if none is).
    pub async fn finish(&mut self) -> Vec<ImportOutcome> {
        let mut done = Vec::new();
        while !self.in_flight.is_empty() {
            done.extend(self.next_done().await);
        }
        done
    }

    /// The outcomes of the earliest batch under way, once it is stored.
    async fn next_done(&mut self) -> Vec<ImportOutcome> {
        match self.in_flight.pop_front() {
            Some(batch) => batch
                .await
                .expect("storing a batch of imports does not panic"),
            None => Vec::new(),
        }
    }
}
