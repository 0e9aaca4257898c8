//! Tamper evidence: altering one move, one time, the result or a player breaks the digest
//! (naming the altered part) and the signature; the intact game passes.

use chrono::DateTime;
use missive_archive::{
    Entry, ExportOptions, GameRecord, GameResult, KeyPair, MoveEntry, Registry, Section,
    VerifyError, export, read, sign, verify,
};
use missive_rules::SeatResult;

fn signed_game(key: &KeyPair) -> String {
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
                Entry::Move(MoveEntry {
                    text: mv.to_string(),
                    received: DateTime::from_timestamp(1_800_000_000 + i as i64 * 86_400, 0),
                })
            })
            .collect(),
        result: Some(GameResult {
            rule: "resignation".into(),
            results: vec![SeatResult::Win, SeatResult::Loss],
        }),
        signature: None,
    };
    sign(&mut record, key, &Registry).expect("signs");
    export(&record, ExportOptions::default(), &Registry).expect("exports")
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
