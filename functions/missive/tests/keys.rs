//! `missive key rotate|list|remove`, run as an operator runs it on a local store's folder:
//! a rotation adds a key that signs, a list shows ids and never secrets, the signing key and
//! unknown ids are refused, and the key file stays readable by its owner only.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use missive_archive::KeyPair;
use missive_auth::SigningKey;

/// What one run printed, stdout and stderr together, and whether it succeeded.
struct Run {
    ok: bool,
    out: String,
    err: String,
}

/// Runs `missive key ARGS --store sqlite:FOLDER/missive.db`.
fn key(folder: &Path, args: &[&str]) -> Run {
    let store = format!("sqlite:{}", folder.join("missive.db").display());
    let output: Output = Command::new(env!("CARGO_BIN_EXE_missive"))
        .arg("key")
        .args(args)
        .args(["--store", &store])
        .env_remove("MISSIVE_STORE")
        .output()
        .expect("missive runs");
    Run {
        ok: output.status.success(),
        out: String::from_utf8(output.stdout).expect("UTF-8"),
        err: String::from_utf8(output.stderr).expect("UTF-8"),
    }
}

/// A fresh folder holding `file` with `text`, as `missive serve` leaves it.
fn folder_with(file: &str, text: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "keys-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(file), text).unwrap();
    folder
}

/// The ids `list` prints, oldest first, and the one marked as signing.
fn listed(folder: &Path, args: &[&str]) -> (Vec<String>, String) {
    let mut list = vec!["list"];
    list.extend_from_slice(args);
    let run = key(folder, &list);
    assert!(run.ok, "{}", run.err);
    let mut ids = Vec::new();
    let mut signing = String::new();
    for (place, line) in run.out.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[0], (place + 1).to_string(), "{line}");
        if fields.last() == Some(&"signs") {
            signing = fields[1].to_string();
        }
        ids.push(fields[1].to_string());
    }
    (ids, signing)
}

/// The secret parts (base64) of the key lines of `file`.
fn secrets(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_once(':').map(|(_, secret)| secret.to_string()))
        .collect()
}

/// Checks that `file` is readable by its owner only.
fn private(file: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{}", file.display());
    }
}

#[test]
fn token_keys_rotate_list_and_remove() {
    let old = SigningKey::generate();
    let folder = folder_with("missive.key", &format!("{}\n", old.to_text()));
    let file = folder.join("missive.key");
    assert_eq!(listed(&folder, &[]), (vec![old.id()], old.id()));

    let rotated = key(&folder, &["rotate"]);
    assert!(rotated.ok, "{}", rotated.err);
    private(&file);
    let (ids, signing) = listed(&folder, &[]);
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_eq!(ids[0], old.id());
    assert_eq!(signing, ids[1]);
    assert_ne!(ids[1], old.id());
    assert!(rotated.out.contains(&ids[1]), "{}", rotated.out);
    let set = SigningKey::parse_set(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(set.iter().map(SigningKey::id).collect::<Vec<_>>(), ids);

    let refused = key(&folder, &["remove", &ids[1]]);
    assert!(!refused.ok);
    assert!(refused.err.contains("signs"), "{}", refused.err);
    let unknown = key(&folder, &["remove", "0badc0de"]);
    assert!(!unknown.ok);
    assert!(unknown.err.contains("no key 0badc0de"), "{}", unknown.err);
    assert_eq!(listed(&folder, &[]).0, ids, "nothing removed");

    let removed = key(&folder, &["remove", &old.id()]);
    assert!(removed.ok, "{}", removed.err);
    private(&file);
    assert_eq!(listed(&folder, &[]), (vec![ids[1].clone()], ids[1].clone()));

    let runs = [rotated, refused, unknown, removed, key(&folder, &["list"])];
    for secret in secrets(&file)
        .iter()
        .chain([&old.to_text()[6..].to_string()])
    {
        for run in &runs {
            assert!(
                !run.out.contains(secret.as_str()) && !run.err.contains(secret.as_str()),
                "a secret printed: {}{}",
                run.out,
                run.err
            );
        }
    }
}

#[test]
fn archive_keys_rotate_the_same_way_in_their_own_file() {
    let old = KeyPair::generate();
    let folder = folder_with("archive.key", &old.secret_text());
    let rotated = key(&folder, &["rotate", "--archive"]);
    assert!(rotated.ok, "{}", rotated.err);
    let (ids, signing) = listed(&folder, &["--archive"]);
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_eq!(ids[0], old.id());
    assert_eq!(signing, ids[1]);
    let text = std::fs::read_to_string(folder.join("archive.key")).unwrap();
    let set = missive_settings::archive_key_set(&text).unwrap();
    assert_eq!(set.iter().map(KeyPair::id).collect::<Vec<_>>(), ids);
    assert!(
        !folder.join("missive.key").exists(),
        "the token keys are not touched"
    );
    assert!(
        key(&folder, &["remove", "--archive", &ids[1]])
            .err
            .contains("signs")
    );
    assert!(key(&folder, &["remove", "--archive", &ids[0]]).ok);
    assert_eq!(listed(&folder, &["--archive"]).0, [ids[1].clone()]);
    for secret in secrets(&folder.join("archive.key")) {
        assert!(!rotated.out.contains(&secret), "{}", rotated.out);
    }
}

#[test]
fn a_missing_file_or_a_dynamodb_store_is_refused_saying_why() {
    let folder = folder_with("other", "");
    let missing = key(&folder, &["rotate"]);
    assert!(!missing.ok);
    assert!(missing.err.contains("no key file"), "{}", missing.err);
    assert!(!folder.join("missive.key").exists());
    let output = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["key", "list", "--store", "dynamodb:games"])
        .output()
        .expect("missive runs");
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("SQLite"), "{err}");
}
