//! python-chess as the peer: it reads our chess output with the same moves, tags and
//! results, and we read its PGN of random games (comments, NAGs, nested variations) with the
//! same main line, tags and result. The interpreter is `$MISSIVE_PYTHON` (default `python3`)
//! with python-chess installed (`pip install chess`).

use std::path::{Path, PathBuf};
use std::process::Command;

use missive_archive::sample::random_record;
use missive_archive::{ExportOptions, Format, Registry, export, read};
use serde_json::Value;

fn peer(args: &[&str]) -> Vec<Value> {
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/pgn.py");
    let output = Command::new(&python)
        .arg(&script)
        .args(args)
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

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("{name}-{}.pgn", std::process::id()))
}

/// The tag pairs of a game's text, in order, unescaped.
fn written_tags(text: &str) -> Vec<(String, String)> {
    text.lines()
        .take_while(|line| line.starts_with('['))
        .map(|line| {
            let (name, value) = line[1..line.len() - 1]
                .split_once(' ')
                .expect("name and value");
            (name.to_string(), unescape(&value[1..value.len() - 1]))
        })
        .collect()
}

/// A tag value with PGN's escapes undone.
fn unescape(value: &str) -> String {
    value.replace("\\\"", "\"").replace("\\\\", "\\")
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

fn pairs(value: &Value) -> Vec<(String, String)> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|pair| {
            let pair = strings(pair);
            (pair[0].clone(), pair[1].clone())
        })
        .collect()
}

#[test]
fn python_chess_reads_our_chess_output_identically() {
    for format in [Format::Archive, Format::Pgn] {
        let options = ExportOptions {
            format,
            ..ExportOptions::default()
        };
        let mut texts = Vec::new();
        let mut records = Vec::new();
        for seed in 0..150 {
            let record = random_record(&Registry, "chess", seed, 200).expect("chess");
            texts.push(export(&record, options, &Registry).expect("exports"));
            records.push(record);
        }
        let path = scratch("ours");
        std::fs::write(&path, texts.concat()).expect("writes");
        let theirs = peer(&["read", path.to_str().expect("UTF-8 path")]);
        assert_eq!(theirs.len(), records.len());
        for ((game, text), record) in theirs.iter().zip(&texts).zip(&records) {
            assert_eq!(strings(&game["errors"]), Vec::<String>::new(), "{text}");
            let ours: Vec<String> = record.moves().map(|m| m.text.clone()).collect();
            assert_eq!(strings(&game["moves"]), ours, "{text}");
            // python-chess keeps a tag value's PGN escapes (`\"`, `\\`) as written.
            let headers: Vec<(String, String)> = pairs(&game["headers"])
                .into_iter()
                .map(|(name, value)| (name, unescape(&value)))
                .collect();
            assert_eq!(headers, written_tags(text), "{text}");
        }
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn we_read_python_chess_pgn_identically() {
    let path = scratch("theirs");
    let expected = peer(&["write", "200", "7", path.to_str().expect("UTF-8 path")]);
    let file = std::fs::File::open(&path).expect("opens");
    let ours: Vec<_> = read(std::io::BufReader::new(file)).collect();
    assert_eq!(ours.len(), expected.len());
    for (game, theirs) in ours.iter().zip(&expected) {
        let game = game.as_ref().unwrap_or_else(|e| panic!("{e}"));
        let moves: Vec<String> = game.record.moves().map(|m| m.text.clone()).collect();
        assert_eq!(moves, strings(&theirs["moves"]), "game {}", game.number);
        let headers = pairs(&theirs["headers"]);
        let tag = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .expect("python-chess writes the roster")
        };
        for name in ["Event", "Site", "Date", "Round"] {
            assert_eq!(game.record.tag(name), Some(tag(name).as_str()));
        }
        assert_eq!(game.record.players, [tag("White"), tag("Black")]);
        let result = game
            .record
            .result
            .as_ref()
            .map_or("*".to_string(), |r| r.score_text());
        assert_eq!(result, tag("Result"), "game {}", game.number);
    }
    let _ = std::fs::remove_file(path);
}
