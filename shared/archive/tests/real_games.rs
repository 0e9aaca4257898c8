//! Real PGN files from public packages (`tests/data/real`, each source in its own folder with
//! its licence and a README saying where it came from), read as import reads them: how many
//! games are accepted and why each other one is refused, counted per source and per reason;
//! and python-chess's verdict on every game beside ours (`tests/peers/verdicts.py`, run with
//! `$MISSIVE_PYTHON`, default `python3`, with python-chess installed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use missive_archive::{EncodingWarning, Reason, read};
use missive_rules::{MoveError, SetupError};
use serde_json::Value;

/// What import makes of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Read, replayed and finished: import stores it.
    Accepted {
        /// Its score, `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// Its moves in long notation (UCI).
        moves: Vec<String>,
    },
    /// Read and replayed but without a result: import refuses it, as it stores finished
    /// games only.
    Unfinished,
    /// Refused by the reader, for this kind of reason.
    Refused(String),
}

/// One game of the collection and what import makes of it.
#[derive(Debug)]
struct Game {
    /// The file, relative to `tests/data/real`.
    file: String,
    /// The game's number in its file, from 1.
    number: usize,
    verdict: Verdict,
}

fn collection_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/real")
}

/// Every PGN file of the collection, in path order.
fn files() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![collection_root()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("reads the collection") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn relative(path: &Path) -> String {
    path.strip_prefix(collection_root())
        .expect("inside the collection")
        .display()
        .to_string()
}

/// The source of a file: its first folder.
fn source(file: &str) -> &str {
    file.split('/').next().expect("a folder")
}

/// The kind of a refusal, without what differs from game to game of one kind.
fn kind(reason: &Reason) -> String {
    match reason {
        Reason::Setup(SetupError::UnknownVariant { id, .. }) => format!("unknown variant `{id}`"),
        Reason::Move {
            error: MoveError::Unreadable { text, .. },
            ..
        } => format!("unreadable move `{text}`"),
        Reason::Move {
            error: MoveError::Illegal { text, .. },
            ..
        } => format!("illegal move `{text}`"),
        other => other.to_string(),
    }
}

/// What import makes of each game of `path`, and the reader's warning.
fn ours(path: &Path) -> (Vec<Game>, Option<EncodingWarning>) {
    let file = std::fs::File::open(path).expect("opens");
    let mut reader = read(std::io::BufReader::new(file));
    let mut games = Vec::new();
    for read in reader.by_ref() {
        let (number, verdict) = match read {
            Ok(game) => (
                game.number,
                match &game.record.result {
                    Some(result) => Verdict::Accepted {
                        result: result.score_text(),
                        moves: game.record.moves().map(|m| m.text.clone()).collect(),
                    },
                    None => Verdict::Unfinished,
                },
            ),
            Err(error) => (error.game, Verdict::Refused(kind(&error.reason))),
        };
        games.push(Game {
            file: relative(path),
            number,
            verdict,
        });
    }
    (games, reader.warning().cloned())
}

/// Games, accepted, unfinished and refused, per source.
const SOURCES: &[(&str, [usize; 4])] = &[
    ("chess.js", [100, 100, 0, 0]),
    ("pgn-parser", [11, 10, 0, 1]),
    ("pychess", [1319, 1033, 283, 3]),
    ("python-chess", [22, 11, 2, 9]),
];

/// Each reason for refusing a game, with how many games it refuses; `unfinished` counts the
/// games import refuses for having no result.
const REFUSALS: &[(&str, usize)] = &[
    ("illegal move `Nxg5`", 1),
    (
        "invalid position, castling rights: `K` needs the king on e1",
        1,
    ),
    (
        "invalid position, castling rights: `q` needs the king on e8",
        1,
    ),
    ("unfinished", 285),
    ("unknown variant `Antichess`", 2),
    ("unknown variant `Crazyhouse`", 2),
    ("unknown variant `fischerandom`", 4),
    ("unreadable move `Sf3`", 1),
    ("unreadable move `Z0`", 1),
];

/// The one file that is not UTF-8, and the warning its reading gives.
const LATIN_1: (&str, &str) = (
    "pychess/puzzles/mate_in_2.pgn",
    "game 96, line 1335, column 1: the text is not UTF-8; read as Windows-1252 (1 game)",
);

#[test]
fn the_collection_imports_as_recorded() {
    let mut sources: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    for path in files() {
        let (games, warning) = ours(&path);
        let file = relative(&path);
        let expected = (file == LATIN_1.0).then_some(LATIN_1.1);
        assert_eq!(
            warning.map(|w| w.to_string()).as_deref(),
            expected,
            "{file}"
        );
        let counts = sources.entry(source(&file).to_string()).or_default();
        for game in games {
            counts[0] += 1;
            let refusal = match game.verdict {
                Verdict::Accepted { .. } => {
                    counts[1] += 1;
                    continue;
                }
                Verdict::Unfinished => {
                    counts[2] += 1;
                    "unfinished".to_string()
                }
                Verdict::Refused(kind) => {
                    counts[3] += 1;
                    kind
                }
            };
            *refusals.entry(refusal).or_default() += 1;
        }
    }
    let expected: BTreeMap<String, [usize; 4]> = SOURCES
        .iter()
        .map(|(source, counts)| (source.to_string(), *counts))
        .collect();
    assert_eq!(sources, expected, "[games, accepted, unfinished, refused]");
    let expected: BTreeMap<String, usize> = REFUSALS
        .iter()
        .map(|(reason, count)| (reason.to_string(), *count))
        .collect();
    assert_eq!(refusals, expected);
}

/// python-chess's verdict on every game of `paths`, in order (see `tests/peers/verdicts.py`).
fn theirs(paths: &[PathBuf]) -> Vec<Value> {
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/verdicts.py");
    let output = Command::new(&python)
        .arg(&script)
        .args(paths)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `{python}` ({e}); install Python 3 and `pip install chess`")
        });
    assert!(
        output.status.success(),
        "the python-chess peer failed (is python-chess installed? pip install chess): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

/// The games on which we and python-chess disagree about why a game is not importable,
/// each explained in `docs/archive.md` (Reading PGN from other tools): file, game, our
/// verdict, python-chess's verdict.
const DIFFERENCES: &[(&str, usize, &str, &str)] = &[
    // python-chess skips the `S` it does not know and reads `Sf3` (German for Nf3) as `f3`.
    (
        "pgn-parser/sampleGameThrow.pgn",
        1,
        "unreadable move `Sf3`",
        "unfinished",
    ),
    // A FEN whose castling rights its pieces contradict: python-chess reads the rights as
    // Chess960 ones.
    (
        "pychess/lessons/lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_Francesco_Super_2018.01.03.pgn",
        15,
        "invalid position, castling rights: `K` needs the king on e1",
        "variant",
    ),
    // A side variation that is not legal where it stands: python-chess fails on the first
    // and loses its place in the main line after the second; import drops variations.
    (
        "pychess/puzzles/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn",
        17,
        "unfinished",
        "failed",
    ),
    (
        "pychess/puzzles/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn",
        18,
        "unfinished",
        "illegal",
    ),
];

/// Our verdict as the peer's vocabulary has it, for a game neither of us imports.
fn refusal_class(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted { .. } => "finished",
        Verdict::Unfinished => "unfinished",
        Verdict::Refused(kind) if kind.starts_with("unknown variant") => "variant",
        Verdict::Refused(_) => "illegal",
    }
}

fn describe(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Accepted { result, .. } => format!("accepted {result}"),
        Verdict::Unfinished => "unfinished".into(),
        Verdict::Refused(kind) => kind.clone(),
    }
}

#[test]
fn python_chess_agrees_game_by_game() {
    let paths = files();
    let ours: Vec<Game> = paths.iter().flat_map(|path| ours(path).0).collect();
    let theirs = theirs(&paths);
    let place = |game: &Value| {
        let file = Path::new(game["file"].as_str().expect("a file"));
        (
            relative(file),
            game["game"].as_u64().expect("a number") as usize,
        )
    };
    let our_places: Vec<(String, usize)> =
        ours.iter().map(|g| (g.file.clone(), g.number)).collect();
    let their_places: Vec<(String, usize)> = theirs.iter().map(place).collect();
    assert_eq!(
        our_places, their_places,
        "both split the files into the same games"
    );

    let mut disagreements = Vec::new();
    let mut differences = Vec::new();
    for (game, peer) in ours.iter().zip(&theirs) {
        let verdict = peer["verdict"].as_str().expect("a verdict");
        let importable = matches!(verdict, "finished" | "ended");
        match &game.verdict {
            Verdict::Accepted { result, moves } if importable => {
                let their_moves: Vec<&str> = peer["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(|m| m.as_str().expect("a move"))
                    .collect();
                assert_eq!(moves, &their_moves, "{} game {}", game.file, game.number);
                assert_eq!(
                    Some(result.as_str()),
                    peer["result"].as_str(),
                    "{} game {}",
                    game.file,
                    game.number
                );
            }
            ours if importable || matches!(ours, Verdict::Accepted { .. }) => {
                disagreements.push(format!(
                    "{} game {}: we say {}, python-chess {verdict} ({})",
                    game.file,
                    game.number,
                    describe(ours),
                    peer["detail"]
                ));
            }
            ours if refusal_class(ours) != verdict => differences.push((
                game.file.clone(),
                game.number,
                describe(ours),
                verdict.to_string(),
            )),
            _ => {}
        }
    }
    assert_eq!(
        disagreements,
        Vec::<String>::new(),
        "every game python-chess reads as a legal finished standard game is accepted, and \
         no other"
    );
    let documented: Vec<(String, usize, String, String)> = DIFFERENCES
        .iter()
        .map(|(file, game, ours, theirs)| {
            (
                file.to_string(),
                *game,
                ours.to_string(),
                theirs.to_string(),
            )
        })
        .collect();
    assert_eq!(differences, documented);
}
