//! Import throughput with full move validation, side by side with two peers on the same
//! generated file in the same run: the `pgn-reader` crate with shakmaty (every SAN read and
//! played on a shakmaty position; a second row also reads each move's time, a third plays
//! no move, to show what the reading alone costs it), and python-chess's PGN reader. Our
//! reading is measured on every core as `missive archive convert` runs it
//! (`Reader::parallel`: one thread cuts the text into chunks at game boundaries, worker
//! threads read and replay the chunks' games), on two threads as a store's import runs it
//! (`Reader::pipelined`: one thread reads and splits, the other replays), and on one thread,
//! like the peers. Two more rows take the reading away: the games' SAN lists, read
//! beforehand, replayed by our rules (a `Game` deciding each game's end, repetitions
//! tracked) and by shakmaty. Prints one table; run once:
//! `cargo bench -p missive-archive --bench import` (`MISSIVE_PYTHON` names the interpreter,
//! `none` leaves python-chess out; `MISSIVE_BENCH_GAMES` the number of games, 10,000 by
//! default). Each Rust row's time is the best of three runs. Under `cargo test` (no `--bench`
//! argument) it runs on 20 games so the harness itself stays tested. Every row allocates with
//! mimalloc, as the `missive` command does.

use std::fs::File;
use std::io::BufReader;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use chrono::{NaiveDate, NaiveDateTime};

use missive_archive::{ExportOptions, Reader, Registry, export, sample::random_record};
use missive_rules::{AnyGame, Game, Options};
use pgn_reader::{RawComment, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Position};

/// The allocator of the `missive` command, which imports archives.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The row every speed is given as a multiple of.
const PEER: &str = "pgn-reader + shakmaty";

const PYTHON_READER: &str = r#"
import sys, time
import chess.pgn
start = time.perf_counter()
games = 0
moves = 0
with open(sys.argv[1], encoding="utf-8") as handle:
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if game.errors:
            raise SystemExit(f"python-chess rejected game {games + 1}: {game.errors}")
        games += 1
        moves += sum(1 for _ in game.mainline_moves())
print(games, moves, time.perf_counter() - start)
"#;

/// Games and plies read, and the seconds it took.
#[derive(Clone, Copy, Debug)]
struct Run {
    games: u64,
    plies: u64,
    seconds: f64,
}

/// The best of three runs of `read` (the counts must not change between runs).
fn best_of_three(read: impl Fn() -> Run) -> Run {
    let runs = [read(), read(), read()];
    for run in &runs[1..] {
        assert_eq!((run.games, run.plies), (runs[0].games, runs[0].plies));
    }
    runs.into_iter()
        .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
        .expect("three runs")
}

/// Our reading of `path` on every core, as `missive archive convert` reads files.
fn ours_parallel(path: &Path) -> Run {
    ours_threaded(path, |input, rules| Reader::parallel(input, rules))
}

/// Our reading of `path` on two threads, as a store's import reads files.
fn ours_pipelined(path: &Path) -> Run {
    ours_threaded(path, |input, rules| Reader::pipelined(input, rules))
}

/// Our reading of `path` with the reader `open` makes.
fn ours_threaded(
    path: &Path,
    open: impl FnOnce(BufReader<File>, &'static Registry) -> Reader<'static, BufReader<File>>,
) -> Run {
    let start = Instant::now();
    let file = File::open(path).expect("opens the bench file");
    count_ours(
        open(BufReader::new(file), &Registry).without_move_texts(),
        start,
    )
}

/// Our import of `path` on the caller's thread (never inlined, so that a profiler can
/// single it out: `valgrind --tool=callgrind --toggle-collect=import::ours_inline`).
#[inline(never)]
fn ours_inline(path: &Path) -> Run {
    let start = Instant::now();
    let file = File::open(path).expect("opens the bench file");
    let reader = Reader::new(BufReader::new(file), &Registry).without_move_texts();
    count_ours(reader, start)
}

fn count_ours<R: std::io::BufRead>(reader: Reader<'_, R>, start: Instant) -> Run {
    let (mut games, mut plies) = (0, 0);
    for game in reader {
        let game = game.expect("every generated game imports");
        games += 1;
        plies += game.record.moves().count() as u64;
    }
    Run {
        games,
        plies,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// What the pgn-reader peer does with the games it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Peer {
    /// Every main-line SAN is read, checked against the legal moves of a shakmaty position
    /// and played; variations are skipped.
    Plays,
    /// As [`Peer::Plays`], and each move's time comment (`[%ccsnt 2026.08.04,11:39:37]`) is
    /// read too, as a user of the crate would read it (UTF-8 checked, the time parsed by
    /// chrono), and the times must not go backwards: part of what our reader checks and the
    /// plain peer does not.
    PlaysAndTimes,
    /// Every main-line SAN is read (pgn-reader parses it) and none is played: the reading
    /// alone, the part of the plain peer's time that is not shakmaty's.
    ReadsOnly,
}

/// The pgn-reader peer's visitor, doing what its [`Peer`] says.
struct Validator {
    peer: Peer,
}

/// A game's position, its plies so far and its latest move time.
type PeerMovetext = (Chess, u64, Option<NaiveDateTime>);

impl Visitor for Validator {
    type Tags = ();
    type Movetext = PeerMovetext;
    type Output = Result<u64, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((Chess::default(), 0, None))
    }

    fn san(
        &mut self,
        (position, plies, _): &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        if self.peer == Peer::ReadsOnly {
            *plies += 1;
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(position) {
            Ok(m) => {
                position.play_unchecked(m);
                *plies += 1;
                ControlFlow::Continue(())
            }
            Err(error) => ControlFlow::Break(Err(format!("{san_plus}: {error}"))),
        }
    }

    fn comment(
        &mut self,
        (_, _, latest): &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if self.peer != Peer::PlaysAndTimes {
            return ControlFlow::Continue(());
        }
        match move_time(comment.as_bytes(), *latest) {
            Ok(time) => {
                *latest = time.or(*latest);
                ControlFlow::Continue(())
            }
            Err(error) => ControlFlow::Break(Err(error)),
        }
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, (_, plies, _): Self::Movetext) -> Self::Output {
        Ok(plies)
    }
}

/// The time of a move-time comment, checked not to come before `latest`; `None` for another
/// comment.
fn move_time(
    comment: &[u8],
    latest: Option<NaiveDateTime>,
) -> Result<Option<NaiveDateTime>, String> {
    let text = std::str::from_utf8(comment).map_err(|e| e.to_string())?;
    let Some(rest) = text.trim().strip_prefix("[%ccsnt ") else {
        return Ok(None);
    };
    // The time may be followed by the conditional mark: ` [%conditional]`.
    let (value, _) = rest.split_once(']').ok_or("unclosed time")?;
    let time = fixed_width_time(value).ok_or_else(|| format!("{value}: not a time"))?;
    if latest.is_some_and(|latest| time < latest) {
        return Err(format!("{value}: before the move before"));
    }
    Ok(Some(time))
}

/// `2026.08.04,11:39:37` read field by field at fixed places (chrono's `parse_from_str`, the
/// obvious way, takes about three times as long), the date and time checked by chrono.
fn fixed_width_time(value: &str) -> Option<NaiveDateTime> {
    let bytes = value.as_bytes();
    let separators = [(4, b'.'), (7, b'.'), (10, b','), (13, b':'), (16, b':')];
    if bytes.len() != 19 || separators.iter().any(|&(at, byte)| bytes[at] != byte) {
        return None;
    }
    let field = |from: usize, to: usize| value[from..to].parse::<u32>().ok();
    let year = i32::try_from(field(0, 4)?).ok()?;
    NaiveDate::from_ymd_opt(year, field(5, 7)?, field(8, 10)?)?.and_hms_opt(
        field(11, 13)?,
        field(14, 16)?,
        field(17, 19)?,
    )
}

/// The pgn-reader peer over `path`, doing what `peer` says (never inlined, for a profiler:
/// `--toggle-collect=import::pgn_reader`).
#[inline(never)]
fn pgn_reader(path: &Path, peer: Peer) -> Run {
    let start = Instant::now();
    let file = File::open(path).expect("opens the bench file");
    let mut reader = pgn_reader::Reader::new(file);
    let (mut games, mut plies) = (0, 0);
    while let Some(read) = reader.read_game(&mut Validator { peer }).expect("reads") {
        plies += read.unwrap_or_else(|e| panic!("pgn-reader rejected game {}: {e}", games + 1));
        games += 1;
    }
    Run {
        games,
        plies,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// python-chess over `path`, in a subprocess timing itself; `None` when `MISSIVE_PYTHON` is
/// `none`.
fn python_chess(path: &Path) -> Option<Run> {
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    if python == "none" {
        return None;
    }
    let output = Command::new(&python)
        .args(["-c", PYTHON_READER])
        .arg(path)
        .output()
        .expect("runs the Python interpreter");
    assert!(
        output.status.success(),
        "python-chess failed (pip install chess): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reply = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<&str> = reply.split_whitespace().collect();
    Some(Run {
        games: fields[0].parse().expect("game count"),
        plies: fields[1].parse().expect("move count"),
        seconds: fields[2].parse().expect("seconds"),
    })
}

/// The SAN list of every game of `path`, as pgn-reader reads them.
fn san_lists(path: &Path) -> Vec<Vec<String>> {
    struct Collect;
    impl Visitor for Collect {
        type Tags = ();
        type Movetext = Vec<String>;
        type Output = Vec<String>;

        fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
            ControlFlow::Continue(Vec::new())
        }

        fn san(&mut self, sans: &mut Vec<String>, san_plus: SanPlus) -> ControlFlow<Vec<String>> {
            sans.push(san_plus.san.to_string());
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, _: &mut Vec<String>) -> ControlFlow<Vec<String>, Skip> {
            ControlFlow::Continue(Skip(true))
        }

        fn end_game(&mut self, sans: Vec<String>) -> Vec<String> {
            sans
        }
    }
    let mut reader = pgn_reader::Reader::new(File::open(path).expect("opens the bench file"));
    std::iter::from_fn(|| reader.read_game(&mut Collect).expect("reads")).collect()
}

/// The games' SAN lists replayed by our rules: each move read, checked legal and played,
/// repetitions tracked, each game's end decided after its last move (never inlined, for a
/// profiler: `--toggle-collect=import::rules_replay`).
#[inline(never)]
fn rules_replay(games: &[Vec<String>]) -> Run {
    let start = Instant::now();
    let mut plies = 0;
    for sans in games {
        let mut game = Game::new(missive_rules::chess::Chess::start(), Options::default());
        AnyGame::reserve(&mut game, sans.len());
        for san in sans {
            game.play_text(san).expect("a legal move");
        }
        std::hint::black_box(game.outcome());
        plies += sans.len() as u64;
    }
    Run {
        games: games.len() as u64,
        plies,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The games' SAN lists replayed by shakmaty: each move read, checked legal and played
/// (never inlined, for a profiler: `--toggle-collect=import::shakmaty_replay`).
#[inline(never)]
fn shakmaty_replay(games: &[Vec<String>]) -> Run {
    let start = Instant::now();
    let mut plies = 0;
    for sans in games {
        let mut position = Chess::default();
        for san in sans {
            let mv = shakmaty::san::San::from_ascii(san.as_bytes())
                .expect("SAN")
                .to_move(&position)
                .expect("a legal move");
            position.play_unchecked(mv);
        }
        std::hint::black_box(position.outcome());
        plies += sans.len() as u64;
    }
    Run {
        games: games.len() as u64,
        plies,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let count: u64 = std::env::var("MISSIVE_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|_| full)
        .unwrap_or(if full { 10_000 } else { 20 });
    let path =
        std::env::temp_dir().join(format!("missive-bench-{count}-{}.pgn", std::process::id()));
    let mut text = String::new();
    for seed in 0..count {
        let record = random_record(&Registry, "chess", seed, 160).expect("chess is registered");
        text.push_str(&export(&record, ExportOptions::default(), &Registry).expect("exports"));
    }
    std::fs::write(&path, &text).expect("writes the bench file");
    let megabytes = text.len() as f64 / 1e6;

    let sans = san_lists(&path);
    let runs = [
        (
            "missive-archive, parallel",
            Some(best_of_three(|| ours_parallel(&path))),
        ),
        (
            "missive-archive, pipelined",
            Some(best_of_three(|| ours_pipelined(&path))),
        ),
        (
            "missive-archive, 1 thread",
            Some(best_of_three(|| ours_inline(&path))),
        ),
        (PEER, Some(best_of_three(|| pgn_reader(&path, Peer::Plays)))),
        (
            "pgn-reader + times",
            Some(best_of_three(|| pgn_reader(&path, Peer::PlaysAndTimes))),
        ),
        (
            "pgn-reader, no replay",
            Some(best_of_three(|| pgn_reader(&path, Peer::ReadsOnly))),
        ),
        (
            "missive-rules, replay only",
            Some(best_of_three(|| rules_replay(&sans))),
        ),
        (
            "shakmaty, replay only",
            Some(best_of_three(|| shakmaty_replay(&sans))),
        ),
        ("python-chess", python_chess(&path)),
    ];
    let first = runs[0].1.expect("ours ran");
    for (name, run) in &runs {
        if let Some(run) = run {
            assert_eq!(
                (run.games, run.plies),
                (first.games, first.plies),
                "{name} sees the same games"
            );
        }
    }
    let peer = runs
        .iter()
        .find_map(|(name, run)| (*name == PEER).then_some(*run)?)
        .expect("pgn-reader ran")
        .seconds;
    println!(
        "file: {} games, {} plies, {megabytes:.1} MB",
        first.games, first.plies
    );
    println!(
        "{:<28} {:>10} {:>12} {:>10} {:>18}",
        "reader", "seconds", "games/s", "MB/s", "pgn-reader's time"
    );
    for (name, run) in &runs {
        match run {
            Some(run) => println!(
                "{name:<28} {:>10.3} {:>12.0} {:>10.2} {:>18}",
                run.seconds,
                run.games as f64 / run.seconds,
                megabytes / run.seconds,
                multiple(peer / run.seconds)
            ),
            None => println!("{name:<28} {:>10}", "-"),
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// A speed as a multiple of pgn-reader's: two decimals, and three significant digits below
/// a tenth (python-chess's row would otherwise read 0.00x).
fn multiple(ratio: f64) -> String {
    let decimals = match ratio {
        r if r >= 0.1 => 2,
        r => (-r.log10()).ceil() as usize + 2,
    };
    format!("{ratio:.decimals$}x")
}
