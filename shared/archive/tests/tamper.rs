//! Tamper evidence: altering one move, one time, the result or a player breaks the digest
//! (naming the altered part) and the signature; the intact game passes. Import's check of
//! the seal refuses an altered game at the altered section, and a signature by a key it
//! does not trust.

use chrono::DateTime;
use missive_archive::{
    Entry, ExportOptions, GameRecord, GameResult, KeyPair, MessageEntry, MoveEntry, Reason,
    Registry, Sealed, Section, VerifyError, check_seal, export, read, sign, verify,
};
use missive_rules::Seat;
use missive_rules::SeatResult;

fn signed_game(key: &KeyPair) -> String {
    export(&signed_record(key), ExportOptions::default(), &Registry).expect("exports")
}

fn signed_record(key: &KeyPair) -> GameRecord {
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
    let mut record = GameRecord {
        variant: "chess".into(),
        options: String::new(),
        players: vec!["Alice".into(), "Bob".into()],
        start: None,
        tags: vec![("Event".into(), "Autumn cup".into())],
        entries: moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                Entry::Move(MoveEntry::new(
                    *mv,
                    DateTime::from_timestamp(1_800_000_000 + i as i64 * 86_400, 0),
                ))
            })
            .collect(),
        result: Some(GameResult {
            rule: "resignation".into(),
            results: vec![SeatResult::Win, SeatResult::Loss],
        }),
        signature: None,
    };
    sign(&mut record, key, &Registry).expect("signs");
    record
}

fn failures(text: &str, key: &KeyPair) -> Vec<VerifyError> {
    let game = read(text.as_bytes())
        .next()
        .expect("a game")
        .expect("still a legal game");
    verify(&game, Some(&key.public()))
}

#[test]
fn the_intact_game_verifies() {
    let key = KeyPair::from_seed([1; 32]);
    assert_eq!(failures(&signed_game(&key), &key), []);
}

#[test]
fn each_alteration_breaks_digest_and_signature() {
    let key = KeyPair::from_seed([1; 32]);
    let original = signed_game(&key);
    let cases = [
        ("Bb5 {", "Bc4 {", Section::Play),
        ("2027.01.17,08:00:00", "2027.01.17,08:00:01", Section::Play),
        ("[Result \"1-0\"]", "[Result \"0-1\"]", Section::Result),
        ("[White \"Alice\"]", "[White \"Alicia\"]", Section::Setup),
    ];
    for (from, to, section) in cases {
        assert!(original.contains(from), "{from} in\n{original}");
        let mut altered = original.replacen(from, to, 1);
        if section == Section::Result {
            altered = altered.replace("]} 1-0", "]} 0-1");
        }
        let found = failures(&altered, &key);
        assert_eq!(found.len(), 2, "{from}: {found:?}");
        assert_eq!(found[0], VerifyError::Digest(vec![section]), "{from}");
        assert!(matches!(found[1], VerifyError::Signature(_)), "{from}");
        assert!(
            found[0].to_string().contains(section.describe()),
            "{}",
            found[0]
        );
    }
}

#[test]
fn another_key_or_a_missing_seal_is_reported() {
    let key = KeyPair::from_seed([1; 32]);
    let other = KeyPair::from_seed([2; 32]);
    let text = signed_game(&key);
    let found = failures(&text, &other);
    assert!(
        matches!(found.as_slice(), [VerifyError::Signature(_)]),
        "{found:?}"
    );

    let unsealed: String = text
        .lines()
        .filter(|line| !line.starts_with("[Digest") && !line.starts_with("[Signature"))
        .map(|line| format!("{line}\n"))
        .collect();
    let found = failures(&unsealed, &key);
    assert_eq!(found, [VerifyError::NoDigest, VerifyError::NoSignature]);
}

/// What import's check of the seal says of `text`, trusting `keys`.
fn sealed(text: &str, keys: &[&KeyPair]) -> Result<Sealed, missive_archive::ImportError> {
    let game = read(text.as_bytes())
        .next()
        .expect("a game")
        .expect("legal");
    let keys: Vec<_> = keys.iter().map(|key| key.public()).collect();
    check_seal(&game, &keys)
}

/// The line (from 1) and column of the first occurrence of `needle` in `text`.
fn place_of(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("in the text");
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}

#[test]
fn import_refuses_an_altered_game_at_the_altered_section() {
    let key = KeyPair::from_seed([1; 32]);
    let original = signed_game(&key);
    assert_eq!(sealed(&original, &[&key]), Ok(Sealed::Signed));
    let cases = [
        ("2027.01.17,08:00:00", "2027.01.17,08:00:01", "e4 {[%ccsnt"),
        ("[White \"Alice\"]", "[White \"Alicia\"]", "[Event"),
    ];
    for (from, to, at) in cases {
        let altered = original.replacen(from, to, 1);
        let error = sealed(&altered, &[&key]).expect_err("refused");
        assert_eq!(
            (error.line, error.column),
            place_of(&altered, at),
            "{error}"
        );
        assert!(matches!(error.reason, Reason::Seal(_)), "{error}");
        assert!(error.to_string().contains("digest mismatch"), "{error}");
    }
}

#[test]
fn import_trusts_only_the_keys_it_is_given() {
    let key = KeyPair::from_seed([1; 32]);
    let other = KeyPair::from_seed([2; 32]);
    let text = signed_game(&key);
    let error = sealed(&text, &[&other]).expect_err("another key's");
    assert_eq!((error.line, error.column), place_of(&text, "[Signature"));
    assert!(error.to_string().contains("not this server's"), "{error}");
    assert!(error.to_string().contains(&key.id()), "{error}");
    assert_eq!(sealed(&text, &[&other, &key]), Ok(Sealed::Signed));
    assert_eq!(sealed(&text, &[&key, &other]), Ok(Sealed::Signed));

    let unsigned: String = text
        .lines()
        .filter(|line| !line.starts_with("[Signature"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(sealed(&unsigned, &[]), Ok(Sealed::Digest));
    let unsealed: String = unsigned
        .lines()
        .filter(|line| !line.starts_with("[Digest"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(sealed(&unsealed, &[]), Ok(Sealed::Unsealed));
}

/// Messages are written as comments outside the seal: the archive with them verifies with
/// the signature made without them, the text can neither close the comment early nor slip a
/// command in, no line starts with `%`, and reading drops them.
#[test]
fn messages_are_outside_the_seal() {
    let key = KeyPair::from_seed([1; 32]);
    let mut record = signed_record(&key);
    let message = |seat: u8, day: i64, text: &str| {
        Entry::Message(MessageEntry {
            seat: Seat(seat),
            at: DateTime::from_timestamp(1_800_000_000 + day * 86_400 + 600, 0).unwrap(),
            text: text.into(),
        })
    };
    record
        .entries
        .insert(1, message(1, 0, "Good luck} {[%resign white]}"));
    let long = format!("{} 100% sure\n%not an escape", "word ".repeat(30));
    record.entries.insert(3, message(0, 1, &long));
    let text = export(&record, ExportOptions::default(), &Registry).expect("exports");
    let flat = text.replace('\n', " ");
    assert!(
        flat.contains("{[%message black 2027.01.15,08:10:00] Good luck) {[ %resign white])}"),
        "{text}"
    );
    assert!(text.lines().all(|line| !line.starts_with('%')), "{text}");
    assert_eq!(failures(&text, &key), []);
    let game = read(text.as_bytes()).next().unwrap().unwrap();
    assert_eq!(game.record.moves().count(), 6);
    assert!(
        game.record
            .entries
            .iter()
            .all(|e| !matches!(e, Entry::Message(_)))
    );
    assert!(game.record.result.is_some());
}

/// A signature of the form written before signatures named their key (`ed25519:<base64>`)
/// is checked with every key given, so archives exported before a rotation still import.
#[test]
fn signatures_without_a_key_id_are_tried_with_every_key() {
    let key = KeyPair::from_seed([1; 32]);
    let other = KeyPair::from_seed([2; 32]);
    let text = signed_game(&key).replacen(&format!("ed25519:{}:", key.id()), "ed25519:", 1);
    assert!(!text.contains(&key.id()), "{text}");
    assert_eq!(sealed(&text, &[&other, &key]), Ok(Sealed::Signed));
    assert_eq!(failures(&text, &key), []);
    let error = sealed(&text, &[&other]).expect_err("another key's");
    assert!(error.to_string().contains("not this server's"), "{error}");
    assert!(!error.to_string().contains(&other.id()), "{error}");
}
