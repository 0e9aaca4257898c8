//! Data-parallel reading: the text cut into chunks at likely game boundaries, each chunk read
//! and replayed on a worker thread, the outcomes given in input order, exactly as one reader
//! of the whole text gives them.
//!
//! A splitting thread reads the input in blocks of [`BLOCK`] bytes and cuts it just before a
//! `[` that begins a line after an empty one (`\n\n[`, `\n\r\n[`, `\r\r[`), counting the lines
//! before each chunk. A worker reads a chunk as a text of its own that starts at that line,
//! between games, and says whether it ended between games (the last game ended with its
//! termination marker, only blanks after it, no read error) and on which line.
//!
//! A cut is *clean* when one reader of the whole text would stand there exactly as a worker
//! starts: between games, at the start of the line counted. After a line end the lexer's
//! place is its line alone, and between games nothing of a game is carried over but its
//! count (the caller adds the games before a chunk to its games' numbers); so a cut is clean
//! when the chunk before started clean, ended between games, and reached the line counted.
//! Otherwise (a false boundary: inside a comment, in a game's tags, after a game without a
//! termination marker, ...) the caller reads on itself, from where the chunk's last game
//! began, through the next chunks' bytes, until a game ends where only white space is left
//! of a chunk and the line then reached is the one counted at the next chunk's start: from
//! that chunk on, the workers' outcomes hold again. A game without a termination marker
//! followed by a tag pair at a cut is thus read again alone and the workers' outcomes taken
//! up at once after it.

use std::any::Any;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};

use memchr::{memchr, memchr_iter, memmem, memrchr, memrchr_iter};

use crate::error::ImportError;
use crate::lexer::Cursor;
use crate::replay::{self, Imported};
use crate::rules::Rules;
use crate::syntax::{self, Place, RawGame};

/// The bytes the splitting thread reads at a time: a chunk is about that long, and at most
/// [`LONGEST`] blocks. Half a megabyte: large enough that a chunk's costs (its buffers, its
/// hand-overs) are small beside its games', small enough that a file of tens of megabytes
/// makes many chunks, so that the workers end close together.
pub const BLOCK: usize = 1 << 19;

/// How many blocks the bytes of a chunk may reach without a blank line before a tag pair:
/// past that, the chunk is cut where a line begins with a tag pair, or after any line end,
/// or, in text without line ends, anywhere (the chunk after such a cut does not start
/// clean: the caller reads through it).
const LONGEST: usize = 4;

/// How many chunks per worker may be cut ahead of the caller: memory holds at most about
/// `2 * workers + 3` chunks and their outcomes.
const CHUNKS_PER_WORKER: usize = 2;

/// The worker threads: as many as the machine runs at once, at least two (the splitting
/// thread and the caller mostly wait) and at most four (past that the splitting thread and
/// the caller's renumbering keep up no better, and memory grows with every worker).
fn workers() -> usize {
    std::thread::available_parallelism()
        .map_or(2, usize::from)
        .clamp(2, 4)
}

/// The rules a worker replays games with: shared by every thread.
pub type SharedRules = &'static (dyn Rules + Sync);

/// One game read: its outcome, and where its first text that is not UTF-8 is (for the
/// reader's [`crate::EncodingWarning`]; `None` for a game refused before its replay).
#[derive(Debug)]
pub struct Outcome {
    /// The game or the error that refused it.
    pub game: Result<Imported, ImportError>,
    /// Where its first text that is not UTF-8 is.
    pub not_utf8: Option<Place>,
}

impl Outcome {
    /// Replays `raw` as [`crate::Reader::new`] does.
    fn of(raw: &Result<RawGame, ImportError>, rules: &dyn Rules, texts: bool) -> Outcome {
        match raw {
            Ok(raw) => Outcome {
                game: replay::import(raw, rules, texts),
                not_utf8: raw.not_utf8,
            },
            Err(error) => Outcome {
                game: Err(error.clone()),
                not_utf8: None,
            },
        }
    }

    /// The game's number in the input: its number in its chunk after `before` games.
    fn renumbered(mut self, before: usize) -> Outcome {
        match &mut self.game {
            Ok(game) => game.number += before,
            Err(error) => error.game += before,
        }
        self
    }

    /// The game's number.
    pub fn number(&self) -> usize {
        match &self.game {
            Ok(game) => game.number,
            Err(error) => error.game,
        }
    }
}

/// The read error that ended the input, kept to be raised again by every reader of the
/// chunk it ends (an [`io::Error`] is not `Clone`; its text, all a game's error keeps, is).
#[derive(Clone, Debug)]
struct Failure {
    kind: io::ErrorKind,
    text: String,
}

impl Failure {
    fn of(error: &io::Error) -> Failure {
        Failure {
            kind: error.kind(),
            text: error.to_string(),
        }
    }

    fn error(&self) -> io::Error {
        io::Error::new(self.kind, self.text.clone())
    }
}

/// A panic on another thread, to raise again on the caller's.
type Panic = Box<dyn Any + Send + 'static>;

/// A chunk for a worker to read.
struct Job {
    bytes: Vec<u8>,
    line: usize,
    failure: Option<Failure>,
    result: SyncSender<Result<Done, Panic>>,
}

/// What a worker made of a chunk.
struct Done {
    /// The chunk's bytes, given back.
    bytes: Vec<u8>,
    /// The outcomes of its games, numbered from 1.
    outcomes: Vec<Outcome>,
    /// How many of them hold whatever follows the chunk: all but a last game the chunk's
    /// end cut off.
    settled: usize,
    /// Where the reading stood right after the settled games: offset in the chunk, and
    /// place.
    resume: (u64, Cursor),
    /// True when the reading ended between games, without a read error.
    between: bool,
    /// The line the reading reached at the chunk's end.
    end_line: usize,
}

/// Reads a chunk that starts between games at the start of its line, in place.
fn read_chunk(job: Job, rules: &dyn Rules, texts: bool) -> Done {
    let failure = job.failure.as_ref().map(Failure::error);
    let mut games = syntax::Games::in_place(job.bytes, failure, Cursor::at_line(job.line));
    let mut outcomes = Vec::new();
    // Where the reading stood before the last game, and after it (before any blanks).
    let mut before_last = (0, games.cursor());
    let after_last = loop {
        let point = (games.offset(), games.cursor());
        let Some(raw) = games.next() else {
            break point;
        };
        before_last = point;
        outcomes.push(Outcome::of(&raw, rules, texts));
        if let Ok(raw) = raw {
            games.recycle(raw);
        }
    };
    let between = games.ended_between();
    let (settled, resume) = match between {
        true => (outcomes.len(), after_last),
        false => (outcomes.len().saturating_sub(1), before_last),
    };
    Done {
        end_line: games.cursor().line,
        bytes: games.into_bytes(),
        outcomes,
        settled,
        resume,
        between,
    }
}

/// A worker: reads chunks until the splitting thread stops handing them out.
fn work(jobs: &Mutex<Receiver<Job>>, rules: SharedRules, texts: bool) {
    loop {
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        let result = job.result.clone();
        let done = catch_unwind(AssertUnwindSafe(|| read_chunk(job, rules, texts)));
        // The caller may have stopped reading: the chunk's outcomes are then dropped.
        let _ = result.send(done);
    }
}

/// A chunk cut from the input, with its worker's outcomes once they come.
struct Chunk {
    /// Its number among the chunks, from 0.
    index: usize,
    /// The input offset of its first byte.
    start: u64,
    /// The line it starts on, as the splitting thread counted.
    line: usize,
    /// True when it starts right after a line end (or at the input's start), as a worker
    /// reads it: only then may it join the chunk before.
    clean_start: bool,
    /// How many bytes it has (its worker holds them until it is done).
    length: usize,
    /// The read error that ends it (the input's last chunk only).
    failure: Option<Failure>,
    result: Receiver<Result<Done, Panic>>,
    done: Option<Done>,
}

impl Chunk {
    /// The input offset after its last byte.
    fn end(&self) -> u64 {
        self.start + self.length as u64
    }

    /// Its bytes, once its worker is done with them.
    fn bytes(&mut self) -> &[u8] {
        &self.done().bytes
    }

    /// Its worker's outcomes, waiting for them; a worker's panic is raised again here.
    fn done(&mut self) -> &mut Done {
        let done = match self.done.take() {
            Some(done) => done,
            None => match self.result.recv() {
                Ok(Ok(done)) => done,
                Ok(Err(panic)) => resume_unwind(panic),
                Err(_) => resume_unwind(Box::new("a worker thread ended without its chunk")),
            },
        };
        self.done.insert(done)
    }
}

/// What the splitting thread sends the caller.
enum Message {
    Chunk(Chunk),
    /// The splitting thread panicked (the input's reader did).
    Panicked(Panic),
}

/// The chunks cut and not yet done with, in order.
struct Queue {
    incoming: Receiver<Message>,
    /// Where the buffers of chunks done with go back to the splitting thread, to be read
    /// into again (fresh memory costs a page fault a page).
    spent: Sender<Vec<u8>>,
    ahead: VecDeque<Chunk>,
    /// The index of the first chunk of `ahead` (of the next to come when it is empty).
    first: usize,
}

impl Queue {
    /// The chunk `index`, waiting for it; `None` past the input's end (or when it was
    /// dropped). A panic of the splitting thread is raised again here.
    fn chunk(&mut self, index: usize) -> Option<&mut Chunk> {
        while self.first + self.ahead.len() <= index {
            match self.incoming.recv() {
                Ok(Message::Chunk(chunk)) => self.ahead.push_back(chunk),
                Ok(Message::Panicked(panic)) => resume_unwind(panic),
                Err(_) => return None,
            }
        }
        self.ahead.get_mut(index.checked_sub(self.first)?)
    }

    /// Drops the chunks before `index` received so far, handing their buffers back.
    fn drop_before(&mut self, index: usize) {
        while self.first < index
            && let Some(chunk) = self.ahead.pop_front()
        {
            self.first += 1;
            // A worker may still hold the buffer: it is then dropped with its outcomes.
            let done = chunk.done.or_else(|| chunk.result.try_recv().ok()?.ok());
            if let Some(done) = done {
                let _ = self.spent.send(done.bytes);
            }
        }
    }
}

/// The chunks' bytes back to back from a point in one of them, for the caller's own reading.
struct Spliced {
    queue: Rc<RefCell<Queue>>,
    index: usize,
    at: usize,
}

/// How far behind what a [`Spliced`] handed out a chunk must end to be dropped: farther than
/// the lexer reads ahead, so that a chunk the caller's reading is in is kept. (Dropping one
/// sooner would only cost the caller a chance to go back to the workers' outcomes.)
const KEEP_BEHIND: u64 = 4 * BLOCK as u64;

impl Read for Spliced {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let mut queue = self.queue.borrow_mut();
        loop {
            let Some(chunk) = queue.chunk(self.index) else {
                return Ok(0);
            };
            let bytes = chunk.bytes();
            let rest = &bytes[self.at.min(bytes.len())..];
            if !rest.is_empty() {
                let n = rest.len().min(buffer.len());
                buffer[..n].copy_from_slice(&rest[..n]);
                self.at += n;
                return Ok(n);
            }
            if let Some(failure) = &chunk.failure {
                return Err(failure.error());
            }
            let handed = chunk.end();
            self.index += 1;
            self.at = 0;
            let stale = queue
                .ahead
                .iter()
                .take_while(|c| c.end() + KEEP_BEHIND < handed)
                .count();
            let first = queue.first;
            queue.drop_before(first + stale);
        }
    }
}

/// What the caller is giving.
enum Mode {
    /// Outcomes of the worker's chunk `index` (the first of the queue's chunks).
    Chunk {
        index: usize,
        settled: std::vec::IntoIter<Outcome>,
        /// The last game, if the chunk's end cut it off: it holds only if the next chunk
        /// joins.
        open: Option<Box<Outcome>>,
    },
    /// Games read on the caller's thread from `start`, the workers' outcomes not holding.
    Inline {
        games: Box<syntax::Games<Spliced>>,
        start: u64,
    },
    Ended,
}

/// The reading under way.
struct Running {
    queue: Rc<RefCell<Queue>>,
    rules: SharedRules,
    texts: bool,
    /// Games given before the current chunk or inline reading.
    before: usize,
    mode: Mode,
    offset: u64,
}

/// A reader's games read in parallel: [`Parallel::next`] gives them in input order, each as
/// [`crate::Reader::new`] would. Threads start on the first game asked for; they end when
/// the input ends or once this is dropped (the splitting thread after the read it is in).
/// A panic on any of them is raised again on the caller's thread.
pub struct Parallel {
    state: State,
}

/// Starts the threads, given whether move entries keep their texts.
type Start = Box<dyn FnOnce(bool) -> Running>;

enum State {
    Unstarted(Start),
    Running(Box<Running>),
    /// While starting.
    Gone,
}

impl Parallel {
    /// Games of `input` replayed with `rules`, the input read in blocks of `block` bytes.
    pub fn new<R: BufRead + Send + 'static>(
        input: R,
        rules: SharedRules,
        block: usize,
    ) -> Parallel {
        let block = block.max(1);
        Parallel {
            state: State::Unstarted(Box::new(move |texts| {
                Running::start(input, rules, block, texts)
            })),
        }
    }

    /// The next game, each move entry with its text when `texts` says so (as on the first
    /// call: the threads start then).
    pub fn next(&mut self, texts: bool) -> Option<Outcome> {
        if let State::Unstarted(_) = self.state
            && let State::Unstarted(start) = std::mem::replace(&mut self.state, State::Gone)
        {
            self.state = State::Running(Box::new(start(texts)));
        }
        match &mut self.state {
            State::Running(running) => running.next(),
            _ => None,
        }
    }

    /// Bytes of input read through: the end of the chunks given so far, or where the
    /// caller's own reading is.
    pub fn offset(&self) -> u64 {
        match &self.state {
            State::Running(running) => running.offset(),
            _ => 0,
        }
    }
}

impl Running {
    /// Starts the splitting thread and the workers.
    fn start<R: BufRead + Send + 'static>(
        input: R,
        rules: SharedRules,
        block: usize,
        texts: bool,
    ) -> Running {
        let workers = workers();
        let (chunks, incoming) = sync_channel(CHUNKS_PER_WORKER * workers);
        let (jobs, queued) = channel();
        let (spent, recycled) = channel();
        let queued = Arc::new(Mutex::new(queued));
        for _ in 0..workers {
            let queued = Arc::clone(&queued);
            std::thread::spawn(move || work(&queued, rules, texts));
        }
        std::thread::spawn(move || {
            let cutter = Cutter::new(block, recycled);
            let panicked = catch_unwind(AssertUnwindSafe(|| split(input, cutter, &jobs, &chunks)));
            if let Err(panic) = panicked {
                let _ = chunks.send(Message::Panicked(panic));
            }
        });
        let mut running = Running {
            queue: Rc::new(RefCell::new(Queue {
                incoming,
                spent,
                ahead: VecDeque::new(),
                first: 0,
            })),
            rules,
            texts,
            before: 0,
            mode: Mode::Ended,
            offset: 0,
        };
        running.enter(0);
        running
    }

    fn offset(&self) -> u64 {
        match &self.mode {
            Mode::Inline { games, start, .. } => start + games.offset(),
            _ => self.offset,
        }
    }

    /// Gives the outcomes of chunk `index` from now on (the chunks before it dropped), or
    /// ends when there is none.
    fn enter(&mut self, index: usize) {
        let mut queue = self.queue.borrow_mut();
        queue.drop_before(index);
        let Some(chunk) = queue.chunk(index) else {
            self.mode = Mode::Ended;
            return;
        };
        self.offset = chunk.end();
        let done = chunk.done();
        let mut settled = std::mem::take(&mut done.outcomes);
        let open = settled.split_off(done.settled).pop().map(Box::new);
        self.mode = Mode::Chunk {
            index,
            settled: settled.into_iter(),
            open,
        };
    }

    fn next(&mut self) -> Option<Outcome> {
        loop {
            match &mut self.mode {
                Mode::Chunk { settled, .. } => {
                    if let Some(outcome) = settled.next() {
                        return Some(outcome.renumbered(self.before));
                    }
                    if let Some(outcome) = self.leave_chunk() {
                        return Some(outcome);
                    }
                }
                Mode::Inline { .. } => return self.next_inline(),
                Mode::Ended => return None,
            }
        }
    }

    /// Goes on from the current chunk, its settled outcomes given: to the next chunk when
    /// it joins (giving the current chunk's last game when it was open), else to reading on
    /// this thread from where that last game began.
    fn leave_chunk(&mut self) -> Option<Outcome> {
        let Mode::Chunk { index, open, .. } = std::mem::replace(&mut self.mode, Mode::Ended) else {
            return None;
        };
        let before = self.before;
        let mut queue = self.queue.borrow_mut();
        let (chunk_start, between, end_line, resume, settled) = {
            let chunk = queue.chunk(index)?;
            let done = chunk.done();
            let facts = (done.between, done.end_line, done.resume, done.settled);
            (chunk.start, facts.0, facts.1, facts.2, facts.3)
        };
        let Some(next) = queue.chunk(index + 1) else {
            // The input ends with this chunk, as it does for one reader of the whole text.
            return open.map(|outcome| outcome.renumbered(before));
        };
        let joins = between && next.clean_start && next.line == end_line;
        drop(queue);
        if joins {
            self.before += settled + usize::from(open.is_some());
            self.enter(index + 1);
            return open.map(|outcome| outcome.renumbered(before));
        }
        self.before += settled;
        self.read_inline(index, chunk_start, resume);
        None
    }

    /// Reads on this thread from `resume` (offset and place) in chunk `index`, which starts
    /// at input offset `start`.
    fn read_inline(&mut self, index: usize, start: u64, (at, cursor): (u64, Cursor)) {
        let input = Spliced {
            queue: Rc::clone(&self.queue),
            index,
            at: at as usize,
        };
        self.mode = Mode::Inline {
            games: Box::new(syntax::Games::resuming(input, cursor)),
            start: start + at,
        };
    }

    /// The next game read on this thread; back to the workers' outcomes after it when they
    /// hold again.
    fn next_inline(&mut self) -> Option<Outcome> {
        let Mode::Inline { games, start } = &mut self.mode else {
            return None;
        };
        let Some(raw) = games.next() else {
            self.offset = *start + games.offset();
            self.mode = Mode::Ended;
            return None;
        };
        let outcome = Outcome::of(&raw, self.rules, self.texts).renumbered(self.before);
        let (reached, cursor) = (*start + games.offset(), games.cursor());
        if let Some(index) = self.rejoin(reached, cursor) {
            self.before = outcome.number();
            self.enter(index);
        }
        Some(outcome)
    }

    /// The chunk from which the workers' outcomes hold again, the caller's own reading
    /// having reached `offset` at `cursor` between games: the chunk after the one `offset`
    /// is in, when only white space is left of that one and the line then reached is the
    /// one counted at the next chunk's start.
    fn rejoin(&mut self, offset: u64, mut cursor: Cursor) -> Option<usize> {
        let mut queue = self.queue.borrow_mut();
        let stale = queue.ahead.iter().take_while(|c| c.end() < offset).count();
        let first = queue.first;
        queue.drop_before(first + stale);
        let chunk = queue.ahead.front_mut()?;
        let index = chunk.index + 1;
        let at = usize::try_from(offset.checked_sub(chunk.start)?).ok()?;
        let rest = chunk.bytes().get(at..)?;
        if !rest.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        cursor.advance_over(rest);
        let next = queue.chunk(index)?;
        (next.clean_start && next.line == cursor.line && cursor.column == 1).then_some(index)
    }
}

/// The splitting thread: reads `input` in blocks, cuts it into chunks, hands each to the
/// workers and, in order, to the caller; stops at the input's end or when the caller is
/// gone.
fn split<R: BufRead>(
    mut input: R,
    mut cutter: Cutter,
    jobs: &Sender<Job>,
    chunks: &SyncSender<Message>,
) {
    let block = cutter.block;
    loop {
        let searched = cutter.pending.len();
        let read = (&mut input)
            .take(block as u64)
            .read_to_end(&mut cutter.pending);
        let ended = match read {
            Ok(n) if n == block => None,
            Ok(_) => Some(None),
            Err(error) => Some(Some(Failure::of(&error))),
        };
        let cut = match ended {
            None => cut(&cutter.pending, searched, LONGEST * block),
            Some(_) => Some((cutter.pending.len(), true)),
        };
        if let Some((cut, clean)) = cut
            && !cutter.send(cut, clean, ended.clone().flatten(), jobs, chunks)
        {
            return;
        }
        if ended.is_some() {
            return;
        }
    }
}

/// The splitting thread's bytes not yet in a chunk, and where they are.
struct Cutter {
    pending: Vec<u8>,
    /// The bytes read at a time.
    block: usize,
    start: u64,
    line: usize,
    /// Whether the pending bytes start right after a line end.
    clean: bool,
    index: usize,
    /// Buffers of chunks the caller is done with.
    recycled: Receiver<Vec<u8>>,
}

impl Cutter {
    /// Nothing cut yet, blocks of `block` bytes, buffers taken back from `recycled`.
    fn new(block: usize, recycled: Receiver<Vec<u8>>) -> Cutter {
        Cutter {
            pending: Vec::with_capacity(block),
            block,
            start: 0,
            line: 1,
            clean: true,
            index: 0,
            recycled,
        }
    }

    /// An empty buffer for at least `capacity` bytes: one the caller is done with if any.
    fn buffer(&self, capacity: usize) -> Vec<u8> {
        let mut buffer = self.recycled.try_recv().unwrap_or_default();
        buffer.clear();
        buffer.reserve(capacity);
        buffer
    }

    /// Sends the first `cut` pending bytes as a chunk (with `failure` when the input ends
    /// with them), the bytes after them starting `clean` or not; false when the caller is
    /// gone. An empty chunk is sent only for a failure.
    fn send(
        &mut self,
        cut: usize,
        clean: bool,
        failure: Option<Failure>,
        jobs: &Sender<Job>,
        chunks: &SyncSender<Message>,
    ) -> bool {
        if cut == 0 && failure.is_none() {
            return true;
        }
        // The next chunk's buffer takes the bytes after the cut and the next block at once.
        let mut rest = self.buffer(self.pending.len() - cut + self.block);
        rest.extend_from_slice(&self.pending[cut..]);
        self.pending.truncate(cut);
        let bytes = std::mem::replace(&mut self.pending, rest);
        let (result, done) = sync_channel(1);
        let chunk = Chunk {
            index: self.index,
            start: self.start,
            line: self.line,
            clean_start: std::mem::replace(&mut self.clean, clean),
            length: bytes.len(),
            failure: failure.clone(),
            result: done,
            done: None,
        };
        self.index += 1;
        self.start = chunk.end();
        self.line += lines(&bytes);
        let job = Job {
            bytes,
            line: chunk.line,
            failure,
            result,
        };
        jobs.send(job).is_ok() && chunks.send(Message::Chunk(chunk)).is_ok()
    }
}

/// Where to cut the pending `bytes` (those from `from` newly read: no `[` before them begins
/// a game after an empty line, or they would have been cut there) and whether the bytes
/// after the cut start clean: before the last `[` beginning a line after an empty one, a
/// likely game boundary; or, once the bytes are longer than `longest`, before the last `[`
/// beginning a line, else after the last line feed, else at their end (not clean). A cut
/// after a CR is only ever before a `[`: after a CR, an LF would end no line.
fn cut(bytes: &[u8], from: usize, longest: usize) -> Option<(usize, bool)> {
    let blank_before = |before: &[u8]| {
        before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n") || before.ends_with(b"\r\r")
    };
    if let Some(at) = last_tag(bytes, from, blank_before) {
        return Some((at, true));
    }
    if bytes.len() <= longest {
        return None;
    }
    let line_before = |before: &[u8]| before.ends_with(b"\n") || before.ends_with(b"\r");
    let line = last_tag(bytes, 0, line_before);
    Some(
        match line.or_else(|| memrchr(b'\n', bytes).map(|at| at + 1)) {
            Some(at) => (at, true),
            None => (bytes.len(), false),
        },
    )
}

/// Where the last `[` of `bytes` from `from` on is that `begins` accepts, given the bytes
/// before it.
fn last_tag(bytes: &[u8], from: usize, begins: impl Fn(&[u8]) -> bool) -> Option<usize> {
    memrchr_iter(b'[', &bytes[from..])
        .map(|at| from + at)
        .find(|at| begins(&bytes[..*at]))
}

/// The line ends in `bytes`, as the lexer counts them: LF, CR and CRLF each end one line.
fn lines(bytes: &[u8]) -> usize {
    let feeds = memchr_iter(b'\n', bytes).count();
    if memchr(b'\r', bytes).is_none() {
        return feeds;
    }
    let returns = memchr_iter(b'\r', bytes).count();
    feeds + returns - memmem::find_iter(bytes, b"\r\n").count()
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Cursor as Bytes};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use missive_rules::{SetupError, Variant};
    use proptest::prelude::*;

    use super::*;
    use crate::syntax::tests::samples;
    use crate::{Reader, Registry};

    /// The outcomes, warning and final offset of a reader, as text, one line each.
    fn read_all<R: BufRead>(mut reader: Reader<'_, R>) -> Vec<String> {
        let mut lines: Vec<String> = reader.by_ref().map(|game| format!("{game:?}")).collect();
        lines.push(format!("{:?}", reader.warning()));
        lines.push(format!("offset {}", reader.offset()));
        lines
    }

    /// The first line where two readings differ, shortened, if any.
    fn difference(found: &[String], expected: &[String]) -> Option<String> {
        let short = |line: Option<&String>| {
            line.map_or("(none)".to_string(), |line| {
                line.chars().take(300).collect()
            })
        };
        let at =
            (0..found.len().max(expected.len())).find(|i| found.get(*i) != expected.get(*i))?;
        Some(format!(
            "line {at}:\n found    {}\n expected {}",
            short(found.get(at)),
            short(expected.get(at))
        ))
    }

    /// Asserts that `make`'s input reads alike on one thread and in chunks from blocks of
    /// each of `blocks` bytes.
    fn reads_alike<R: BufRead + Send + 'static>(make: impl Fn() -> R, blocks: &[usize]) {
        let alone = read_all(Reader::new(make(), &Registry));
        for block in blocks {
            let chunked = read_all(Reader::in_blocks(make(), &Registry, *block));
            if let Some(difference) = difference(&chunked, &alone) {
                panic!("in blocks of {block} bytes, {difference}");
            }
        }
    }

    fn bytes_alike(bytes: &[u8], blocks: &[usize]) {
        reads_alike(|| Bytes::new(bytes.to_vec()), blocks);
    }

    /// Games with every kind of false boundary, and the shapes around them.
    const FRAGMENTS: &[&[u8]] = &[
        b"\xEF\xBB\xBF% escape line\n[Event \"comment\"]\n[White \"x\"]\n\n",
        b"1. e4 {a comment\n\n[Event \"x\"]\n} e5 2. Nf3 1-0\n\n",
        b"[Event \"tags split\"]\n\n[White \"y\"]\n\n1. d4 d5 *\n\n",
        b"[Event \"no marker\"]\n\n1. e4 e5\n\n",
        b"[Event \"next\"]\n1. c4 *\n\njunk ) } \n\n",
        b"[Event \"1252\"]\n[White \"Ju\xe1rez\"]\n\n1. e4 {caf\xe9} *\n\r\n",
        b"[Event \"crlf\"]\r\n\r\n1. e4 ; note\r\n*\r\n\r\n",
        b"[Event \"cr\"]\r\r1. e4 *\r\r",
        b"[Event \"bom\"]\n\n\xEF\xBB\xBF1. e4 e5 0-1\n\n",
        b"% escape\n\n[Event \"illegal\"]\n\n1. e4 e9 2. Nf3 *\n\n",
        b"[Event \"open\"]\n\n1. e4 (1. d4\n\n[Event \"in a variation\"]\n\n1. d4) *\n\n",
        b"[Event \"open, bad tag next\"]\n\n1. e4\n\n[%bad]\n1. d4 *\n\n",
        b"[Event \"nag in tags\"]\n$1\n\n[Event \"after\"]\n\n1. e4 *\n\n",
        // A byte order mark between a CR and an LF: the lexer counts one line end there.
        b"[Event \"mark\"]\n\n1. e4 *\r\xEF\xBB\xBF\n\n[Event \"after\"]\n\n1. d4 *\n\n",
        b"[Event \"no blank\"]\n1. e4 1-0\n[Event \"line\"]\n1. d4 *\n",
        b"[Event \"one line\"] 1. e4 e5 1-0 [Event \"same line\"] 1. d4 d5 2. c4 0-1 ",
        b"[Event \"truncated\"]\n\n1. e4 e5 2. Nf",
    ];

    /// The fragments back to back.
    fn tricky() -> Vec<u8> {
        FRAGMENTS.concat()
    }

    #[test]
    fn each_real_file_reads_alike() {
        for bytes in samples() {
            bytes_alike(&bytes, &[1, 64, 4096, BLOCK]);
        }
    }

    #[test]
    fn the_whole_collection_reads_alike() {
        let all = samples().concat();
        bytes_alike(&all, &[7, 512, 65_536]);
        let alone = read_all(Reader::new(&all[..], &Registry).without_move_texts());
        let chunked = read_all(
            Reader::in_blocks(Bytes::new(all.clone()), &Registry, 300).without_move_texts(),
        );
        assert_eq!(difference(&chunked, &alone), None);
    }

    #[test]
    fn false_boundaries_read_alike() {
        let text = tricky();
        bytes_alike(&text, &(1..40).chain([64, 100, 1000]).collect::<Vec<_>>());
        let twice = [&text[..text.len() - 20], &text[..]].concat();
        bytes_alike(&twice, &[1, 3, 17, 200]);
        let one_line = b"[Event \"x\"] 1. e4 e5 1-0  1. d4 * ".repeat(30);
        bytes_alike(&one_line, &(1..30).collect::<Vec<_>>());
        // CR line ends, then an LF right after a CR: a cut between them is not clean.
        for games in 20..26 {
            let returns = [
                &b"1. e4 e5 1-0\r".repeat(games)[..],
                b"\n1. d4 *\r\n1. c4 *\n",
            ]
            .concat();
            bytes_alike(&returns, &(1..12).collect::<Vec<_>>());
        }
    }

    /// Bytes and the read error that ends them, as a reader.
    struct Tail<'b> {
        bytes: &'b [u8],
        failure: Option<&'b Failure>,
    }

    impl Read for Tail<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            if self.bytes.is_empty()
                && let Some(failure) = self.failure
            {
                return Err(failure.error());
            }
            self.bytes.read(buffer)
        }
    }

    /// Text with tokens longer than a lexer's own buffer holds (which it reads past without
    /// keeping), of every kind, ended by an unterminated comment.
    fn overlong() -> Vec<u8> {
        let long = |byte: &str| byte.repeat(300_000);
        let pieces = [
            format!("[Event \"comment\"]\n\n1. e4 {{{}}} e5 1-0\n\n", long("x")),
            format!("[Event \"symbol\"]\n\n1. {}(12)b e5 *\n\n", long("a")),
            format!("[Event \"{}\"]\n\n1. e4 *\n\n", long("v")),
            format!("[Event \"nag\"]\n\n1. e4 ${} *\n\n", long("1")),
            format!("[Event \"open\"]\n\n1. e4 {{{}", long("y")),
        ];
        [&tricky()[..], pieces.concat().as_bytes()].concat()
    }

    #[test]
    fn tokens_longer_than_a_buffer_read_alike_in_place() {
        let text = overlong();
        bytes_alike(&text, &[BLOCK, 100_000]);
        for failure in [
            None,
            Some(Failure::of(&io::Error::other("the disk is gone"))),
        ] {
            let read = || Tail {
                bytes: &text,
                failure: failure.as_ref(),
            };
            let cursor = Cursor::at_line(3);
            let streamed: Vec<_> = syntax::Games::resuming(read(), cursor).collect();
            let error = failure.as_ref().map(Failure::error);
            let in_place: Vec<_> = syntax::Games::in_place(text.clone(), error, cursor).collect();
            assert_eq!(in_place, streamed);
        }
    }

    /// A reader that gives its bytes a few at a time, then fails.
    struct Failing {
        bytes: Vec<u8>,
        at: usize,
    }

    impl Read for Failing {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            if self.at == self.bytes.len() {
                return Err(io::Error::other("the disk is gone"));
            }
            let n = buffer.len().min(5).min(self.bytes.len() - self.at);
            buffer[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_comes_at_the_same_game_and_line() {
        let text = [&tricky()[..], &samples()[1]].concat();
        for end in (0..text.len()).step_by(97).chain([text.len()]) {
            let failing = || {
                BufReader::new(Failing {
                    bytes: text[..end].to_vec(),
                    at: 0,
                })
            };
            reads_alike(failing, &[1, 50, 4096]);
        }
    }

    /// A reader that says when it is dropped.
    struct Watched {
        bytes: Bytes<Vec<u8>>,
        dropped: Arc<AtomicBool>,
    }

    impl Read for Watched {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            self.bytes.read(buffer)
        }
    }

    impl Drop for Watched {
        fn drop(&mut self) {
            self.dropped.store(true, Ordering::SeqCst);
        }
    }

    #[test]
    fn dropping_the_reader_ends_its_threads() {
        let game = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
        let dropped = Arc::new(AtomicBool::new(false));
        let input = Watched {
            bytes: Bytes::new(game.repeat(100_000).into_bytes()),
            dropped: Arc::clone(&dropped),
        };
        let mut reader = Reader::in_blocks(BufReader::new(input), &Registry, 256);
        assert_eq!(reader.by_ref().take(3).filter(Result::is_ok).count(), 3);
        let start = Instant::now();
        drop(reader);
        while !dropped.load(Ordering::SeqCst) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the threads go on"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Rules that panic when asked for a variant.
    struct Panicking;

    impl Rules for Panicking {
        fn variant(&self, _: &str) -> Result<&dyn Variant, SetupError> {
            panic!("no rules here")
        }
    }

    /// A reader that panics.
    struct Exploding;

    impl Read for Exploding {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            panic!("the reader broke")
        }
    }

    #[test]
    fn a_panic_on_another_thread_is_raised_on_the_callers() {
        let text = "[Event \"x\"]\n\n1. e4 *\n\n".repeat(50).into_bytes();
        let replay = std::panic::catch_unwind(|| {
            Reader::in_blocks(Bytes::new(text), &Panicking, 64).count()
        });
        assert!(replay.is_err());
        let reading = std::panic::catch_unwind(|| {
            Reader::in_blocks(BufReader::new(Exploding), &Registry, 64).count()
        });
        assert!(reading.is_err());
    }

    #[test]
    fn lines_count_as_the_lexer_counts_them() {
        for text in [
            "",
            "a",
            "\n",
            "\r\n",
            "\r",
            "\n\r",
            "\r\r\n\n",
            "x\r\ny\rz\n",
        ] {
            let mut cursor = Cursor::at_line(1);
            cursor.advance_over(text.as_bytes());
            assert_eq!(lines(text.as_bytes()) + 1, cursor.line, "{text:?}");
        }
    }

    #[test]
    fn chunks_stay_short_without_blank_lines() {
        let text = b"1. e4 *\n\n[A \"x\"]\n1. d4 *\n[B \"y\"] 1. c4 *\n1. e4 ";
        assert_eq!(cut(text, 0, 100), Some((9, true)), "after a blank line");
        assert_eq!(cut(&text[9..], 0, 100), None, "none while short");
        let line = cut(&text[9..], 0, 10);
        assert_eq!(line, Some((16, true)), "a tag pair at a line start");
        assert_eq!(
            cut(&text[26..], 0, 10),
            Some((15, true)),
            "after a line end"
        );
        assert_eq!(cut(&text[26..40], 0, 10), Some((14, false)), "anywhere");
    }

    proptest! {
        #[test]
        fn any_text_reads_alike(
            pieces in prop::collection::vec(
                (
                    0..FRAGMENTS.len(),
                    any::<prop::sample::Index>(),
                    prop::collection::vec(
                        prop::sample::select(&b" \n\n\r\t{}[[]()\"$;%.-*1eN\\\xe9\xef\xbb\xbf"[..]),
                        0..3,
                    ),
                ),
                1..16,
            ),
            block in 1usize..128,
        ) {
            let mut bytes = Vec::new();
            for (fragment, at, noise) in pieces {
                let fragment = FRAGMENTS[fragment];
                let at = at.index(fragment.len() + 1);
                bytes.extend_from_slice(&fragment[..at]);
                bytes.extend_from_slice(&noise);
                bytes.extend_from_slice(&fragment[at..]);
            }
            let alone = read_all(Reader::new(&bytes[..], &Registry));
            let chunked = read_all(Reader::in_blocks(Bytes::new(bytes), &Registry, block));
            prop_assert_eq!(difference(&chunked, &alone), None);
        }
    }
}
