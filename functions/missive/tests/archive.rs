//! `missive archive`, run as a user runs it.

use std::path::PathBuf;
use std::process::{Command, Output};

fn missive(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(args)
        .output()
        .expect("missive runs")
}

fn file(name: &str, text: &str) -> PathBuf {
    let path =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("writes");
    path
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

const GAMES: &str = "[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n\n\
1. e4 {[%ccsnt 2026.11.29,10:12:05]} e5 2. Nf3 *\n\n\
[White \"Cy\"]\n[Black \"Di\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[White \"Ed\"]\n[Black \"Flo\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";

#[test]
fn convert_writes_good_games_and_reports_bad_ones() {
    let path = file("games.pgn", GAMES);
    let output = missive(&["archive", "convert", path.to_str().unwrap()]);
    assert!(!output.status.success());
    let out = text(&output.stdout);
    assert_eq!(out.matches("[Digest \"sha256:").count(), 2, "{out}");
    assert!(out.contains("1. e4 {[%ccsnt 2026.11.29,10:12:05]} 1... e5 2. Nf3 *"));
    let err = text(&output.stderr);
    assert!(
        err.contains("game 2, line 11, column 13: move 3: illegal move `Ke3`"),
        "{err}"
    );
    assert!(err.contains("2 games converted, 1 rejected"), "{err}");
}

#[test]
fn convert_to_pgn_in_long_notation() {
    let path = file("one.pgn", "1. e4 e5 2. Nf3 *\n");
    let output = missive(&[
        "archive",
        "convert",
        path.to_str().unwrap(),
        "--to",
        "pgn",
        "--notation",
        "long",
    ]);
    assert!(output.status.success());
    let out = text(&output.stdout);
    assert!(out.ends_with("\n1. e2e4 e7e5 2. g1f3 *\n\n"), "{out}");
    assert!(!out.contains("Digest"));
}

#[test]
fn signed_games_verify_until_altered() {
    let keys = missive(&["archive", "keygen"]);
    assert!(keys.status.success());
    let keys = text(&keys.stdout);
    let (secret, public) = keys.trim().split_once('\n').expect("two lines");
    assert!(secret.starts_with("ed25519-secret:") && public.starts_with("ed25519:"));
    let secret_file = file("secret", secret);
    let path = file("plain.pgn", GAMES);
    let signed = missive(&[
        "archive",
        "convert",
        path.to_str().unwrap(),
        "--sign",
        secret_file.to_str().unwrap(),
    ]);
    let signed = text(&signed.stdout);
    let signed_file = file("signed.pgn", &signed);
    let ok = missive(&[
        "archive",
        "verify",
        signed_file.to_str().unwrap(),
        "--key",
        public,
    ]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout),
        "game 1 (line 1, Ann - Bo): ok\ngame 2 (line 13, Ed - Flo): ok\n"
    );

    let altered = file("altered.pgn", &signed.replace("10:12:05", "10:12:06"));
    let bad = missive(&[
        "archive",
        "verify",
        altered.to_str().unwrap(),
        "--key",
        public,
    ]);
    assert!(!bad.status.success());
    let err = text(&bad.stderr);
    assert!(
        err.contains(
            "game 1 (line 1, Ann - Bo): digest mismatch: the moves, their times or the events \
             altered; invalid signature"
        ),
        "{err}"
    );
    assert_eq!(text(&bad.stdout), "game 2 (line 13, Ed - Flo): ok\n");
}

#[test]
fn a_bad_key_is_refused() {
    let path = file("key-check.pgn", "1. e4 *\n");
    let output = missive(&[
        "archive",
        "verify",
        path.to_str().unwrap(),
        "--key",
        "ed25519:AAAA",
    ]);
    assert!(!output.status.success());
    assert!(text(&output.stderr).contains("invalid public key: expected 32 bytes, found 3"));
}

#[test]
fn import_stores_finished_games_and_export_writes_them_back() {
    let games = file("import.pgn", GAMES);
    let db = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-archive.db", std::process::id()));
    let store = format!("sqlite:{}", db.display());
    let output = missive(&[
        "archive",
        "import",
        games.to_str().unwrap(),
        "--player",
        "ed",
        "--store",
        &store,
        "--create",
    ]);
    assert!(!output.status.success(), "rejected games fail the command");
    let err = text(&output.stderr);
    assert!(
        err.contains("game 1, line 1, column 1: refused: the game has no result"),
        "{err}"
    );
    assert!(err.contains("game 2, line 11, column 13: move 3"), "{err}");
    assert!(err.contains("1 games imported, 2 rejected"), "{err}");
    let out = text(&output.stdout);
    let id = out
        .trim()
        .strip_prefix("game 3, line 13: imported as ")
        .unwrap_or_else(|| panic!("{out}"));

    let export = |args: &[&str]| {
        let mut all = vec!["archive", "export", "--store", &store];
        all.extend(args);
        let output = missive(&all);
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let everything = export(&[]);
    assert!(everything.contains("[White \"ed\"]"), "{everything}");
    assert!(everything.contains("[Black \"Flo\"]"), "{everything}");
    assert!(everything.contains(&format!("[GameId \"{id}\"]")));
    assert_eq!(export(&["--game", id]), everything);
    assert_eq!(export(&["--player", "ed"]), everything);
    assert_eq!(export(&["--player", "Flo"]), "");
    let output = missive(&["archive", "export", "--store", &store, "--game", "nope"]);
    assert!(text(&output.stderr).contains("no game nope"));
    let output = missive(&["check", "--store", &store]);
    assert!(output.status.success(), "{}", text(&output.stdout));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// The PGN files of the archive's collection of real games, in path order.
fn real_games() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/archive/tests/data/real"),
    ];
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

#[test]
fn import_stores_every_finished_game_of_the_real_collection() {
    let db =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-real.db", std::process::id()));
    let store = format!("sqlite:{}", db.display());
    let (mut imported, mut rejected) = (0, 0);
    for path in real_games() {
        let output = missive(&[
            "archive",
            "import",
            path.to_str().unwrap(),
            "--store",
            &store,
            "--create",
        ]);
        let err = text(&output.stderr);
        let (stored, refused) = err
            .lines()
            .find_map(|line| {
                line.strip_suffix(" rejected")?
                    .split_once(" games imported, ")
            })
            .unwrap_or_else(|| panic!("{}: {err}", path.display()));
        imported += stored.parse::<usize>().expect("a count");
        rejected += refused.parse::<usize>().expect("a count");
        let warned = err.contains(
            "warning: game 96, line 1335, column 1: the text is not UTF-8; read as \
             Windows-1252 (1 game)",
        );
        assert_eq!(
            warned,
            path.ends_with("pychess/puzzles/mate_in_2.pgn"),
            "{err}"
        );
    }
    assert_eq!((imported, rejected), (1154, 298));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

#[test]
fn exports_are_signed_with_the_archive_key_and_imports_check_the_seal() {
    let folder =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-sealed", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let games = file("sealed.pgn", GAMES);
    let store = |name: &str| format!("sqlite:{}", folder.join(name).display());
    let (first, second) = (store("first.db"), store("second.db"));
    let key = "ed25519-secret:AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
    let run = |args: &[&str], store: &str| {
        let mut all = args.to_vec();
        all.extend(["--store", store, "--create", "--archive-key", key]);
        missive(&all)
    };
    run(&["archive", "import", games.to_str().unwrap()], &first);
    let output = run(&["archive", "export"], &first);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let exported = text(&output.stdout);
    assert!(exported.contains("[Signature \"ed25519:"), "{exported}");
    let output = run(&["archive", "key"], &first);
    let public = text(&output.stdout);
    assert!(public.starts_with("ed25519:"), "{public}");
    let signed = file("signed.pgn", &exported);
    let output = missive(&[
        "archive",
        "verify",
        signed.to_str().unwrap(),
        "--key",
        public.trim(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));

    let output = run(&["archive", "import", signed.to_str().unwrap()], &second);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).ends_with(", verified\n"),
        "{}",
        text(&output.stdout)
    );
    let altered = file("altered.pgn", &exported.replacen("1. d4", "1. e4", 1));
    let output = run(&["archive", "import", altered.to_str().unwrap()], &second);
    assert!(!output.status.success());
    let err = text(&output.stderr);
    assert!(err.contains("digest mismatch: the moves"), "{err}");
    let _ = std::fs::remove_dir_all(&folder);
}
