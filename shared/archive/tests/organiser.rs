//! A tournament organiser's acts in the archive: a pause, a resumption, a deadline's
//! extension and an adjudication are written as comments in log order, inside the signed
//! content, and read back as they were (an adjudication's reason exactly, whatever it
//! holds); malformed ones are refused with their place, and one a reader does not know
//! breaks the seal of the game it is in.

use chrono::{DateTime, Utc};
use missive_archive::{
    Canonical, Entry, ExportOptions, GameRecord, GameResult, KeyPair, MoveEntry, OrganiserAct,
    OrganiserEntry, Reason, Registry, VerifyError, check_seal, export, read, sign, verify,
};
use missive_rules::SeatResult;

/// 2027.01.15,08:00:00 and `hours` later.
fn at(hours: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(1_800_000_000 + hours * 3_600, 0)
}

fn organiser(act: OrganiserAct, hours: i64) -> Entry {
    Entry::Organiser(OrganiserEntry { act, at: at(hours) })
}

/// A reason that would end its comment, hold a command, break a line or lose its spaces if
/// it were written as it is.
const REASON: &str = "Both agree} {[%resign white]}  100%\n%not an escape; white's win is clear";

/// Two moves, then every act of an organiser, the game adjudicated; signed with `key`.
fn adjudicated(key: &KeyPair) -> GameRecord {
    let mv = |text: &str, hours| Entry::Move(MoveEntry::new(text, at(hours)));
    let mut record = GameRecord {
        variant: "chess".into(),
        options: String::new(),
        players: vec!["ann".into(), "bob".into()],
        start: None,
        tags: vec![("Event".into(), "Winter cup".into())],
        entries: vec![
            mv("e2e4", 0),
            organiser(OrganiserAct::Paused, 1),
            organiser(OrganiserAct::Resumed, 30),
            mv("e7e5", 31),
            organiser(
                OrganiserAct::DeadlineExtended {
                    days: 3,
                    by: "tess".into(),
                },
                32,
            ),
            organiser(
                OrganiserAct::Adjudicated {
                    by: "tess".into(),
                    reason: REASON.into(),
                },
                40,
            ),
        ],
        result: Some(GameResult {
            rule: "adjudication".into(),
            results: vec![SeatResult::Win, SeatResult::Loss],
        }),
        signature: None,
    };
    sign(&mut record, key, &Registry).expect("signs");
    record
}

fn text_of(record: &GameRecord) -> String {
    export(record, ExportOptions::default(), &Registry).expect("exports")
}

#[test]
fn each_act_is_written_in_log_order_and_reads_back_as_it_was() {
    let key = KeyPair::from_seed([4; 32]);
    let record = adjudicated(&key);
    let text = text_of(&record);
    let flat = text.replace('\n', " ");
    let written = [
        "1. e4 {[%ccsnt 2027.01.15,08:00:00]} {[%pause 2027.01.15,09:00:00]}",
        "{[%resume 2027.01.16,14:00:00]} 1... e5 {[%ccsnt 2027.01.16,15:00:00]}",
        "{[%extend 3 tess 2027.01.16,16:00:00]}",
        "{[%adjudicate tess 2027.01.17,00:00:00] Both agree%7D %7B[%25resign white]%7D%20%20100%25%0A%25not \
         an escape; white's win is clear} 1-0",
    ];
    for part in written {
        assert!(flat.contains(part), "{part}\nin\n{text}");
    }
    assert!(text.lines().all(|line| !line.starts_with('%')), "{text}");
    let game = read(text.as_bytes())
        .next()
        .expect("a game")
        .expect("reads");
    assert_eq!(game.record.entries, record.entries);
    assert_eq!(verify(&game, Some(&key.public())), []);
    assert_eq!(text_of(&game.record), text, "written again the same");
}

#[test]
fn the_acts_are_inside_the_signed_content() {
    let key = KeyPair::from_seed([4; 32]);
    let record = adjudicated(&key);
    let play = Canonical::of(&record).play;
    for line in [
        "event pause - 2027-01-15T09:00:00Z\n",
        "event resume - 2027-01-16T14:00:00Z\n",
        "event extend - 3 tess 2027-01-16T16:00:00Z\n",
        "event adjudicate - tess 2027-01-17T00:00:00Z Both agree%7D %7B[%25resign white]%7D",
    ] {
        assert!(play.contains(line), "{line}\nin\n{play}");
    }
    let text = text_of(&record);
    let alterations = [
        ("[%extend 3 tess", "[%extend 4 tess"),
        (
            "[%pause 2027.01.15,09:00:00]",
            "[%pause 2027.01.15,09:30:00]",
        ),
        ("win is clear}", "win is plain}"),
    ];
    for (from, to) in alterations {
        let altered = text.replacen(from, to, 1);
        assert_ne!(altered, text, "{from}");
        let game = read(altered.as_bytes()).next().unwrap().expect("reads");
        let failures = verify(&game, Some(&key.public()));
        assert_eq!(failures.len(), 2, "{from}: {failures:?}");
        assert!(matches!(failures[0], VerifyError::Digest(_)), "{from}");
    }
}

#[test]
fn acts_without_a_time_or_a_reason_read_and_write_back() {
    let text = "[Result \"1/2-1/2\"]\n[Termination \"adjudication\"]\n\n\
                {[%pause]} 1. e4 {[%resume] [%extend 60 ann]} 1... e5 {[%adjudicate ann]} 1/2-1/2\n";
    let game = read(text.as_bytes())
        .next()
        .expect("a game")
        .expect("reads");
    let acts: Vec<(OrganiserAct, Option<DateTime<Utc>>)> = game
        .record
        .entries
        .iter()
        .filter_map(|entry| match entry {
            Entry::Organiser(organiser) => Some((organiser.act.clone(), organiser.at)),
            _ => None,
        })
        .collect();
    let extension = OrganiserAct::DeadlineExtended {
        days: 60,
        by: "ann".into(),
    };
    let adjudication = OrganiserAct::Adjudicated {
        by: "ann".into(),
        reason: String::new(),
    };
    assert_eq!(
        acts,
        [
            (OrganiserAct::Paused, None),
            (OrganiserAct::Resumed, None),
            (extension, None),
            (adjudication, None)
        ]
    );
    let written = text_of(&game.record);
    let flat = written.replace('\n', " ");
    assert!(flat.contains("{[%adjudicate ann]} 1/2-1/2"), "{written}");
    let again = read(written.as_bytes()).next().unwrap().expect("reads");
    assert_eq!(again.record.entries, game.record.entries);
}

#[test]
fn a_malformed_act_is_refused_with_its_place() {
    let cases = [
        (
            "1. e4 {[%extend white]} *",
            "`extend` needs the number of days",
        ),
        (
            "1. e4 {[%extend 3]} *",
            "`extend` needs the organiser's handle",
        ),
        ("1. e4 {[%extend]} *", "`extend` needs the number of days"),
        (
            "1. e4 {[%adjudicate]} *",
            "`adjudicate` needs the organiser's handle",
        ),
        ("1. e4 {[%pause now]} *", "too many arguments for `pause`"),
        (
            "1. e4 {[%extend 3 ann bob]} *",
            "too many arguments for `extend`",
        ),
    ];
    for (text, reason) in cases {
        let error = read(text.as_bytes())
            .next()
            .expect("a game")
            .expect_err(text);
        assert_eq!((error.game, error.line, error.column), (1, 1, 7), "{text}");
        assert!(error.reason.to_string().contains(reason), "{text}: {error}");
    }
    let late = "1. e4 {[%ccsnt 2027.01.15,08:00:00]} {[%pause 2027.01.15,07:00:00]} *";
    let error = read(late.as_bytes()).next().unwrap().expect_err(late);
    assert_eq!((error.line, error.column), (1, 38));
    assert!(matches!(error.reason, Reason::Order(_)), "{error}");
}

/// A reader that does not know an act reads past it as it reads past any command not the
/// archive's own: the game's seal, which covers the act, then refuses it where its moves and
/// events begin.
#[test]
fn an_act_the_reader_does_not_know_breaks_the_seal() {
    let key = KeyPair::from_seed([4; 32]);
    let text = text_of(&adjudicated(&key)).replace("[%pause ", "[%halt ");
    let game = read(text.as_bytes()).next().unwrap().expect("reads");
    assert!(
        !game
            .record
            .entries
            .contains(&organiser(OrganiserAct::Paused, 1))
    );
    let error = check_seal(&game, &[key.public()]).expect_err("the seal breaks");
    let first_move = text
        .lines()
        .position(|line| line.starts_with("1. e4"))
        .unwrap();
    assert_eq!(
        (error.line, error.column),
        (first_move + 1, 4),
        "at `e4`: {error}"
    );
    assert!(error.to_string().contains("digest mismatch"), "{error}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Whatever an adjudication's reason holds, it reads back exactly and signed.
    #[test]
    fn any_reason_reads_back_exactly(reason in ".*", spaced in "[ a-z%{}\n]{0,40}") {
        let key = KeyPair::from_seed([4; 32]);
        for reason in [reason, spaced] {
            let mut record = adjudicated(&key);
            record.entries.truncate(5);
            record.entries.push(organiser(
                OrganiserAct::Adjudicated { by: "tess".into(), reason },
                40,
            ));
            sign(&mut record, &key, &Registry).expect("signs");
            let text = text_of(&record);
            let game = read(text.as_bytes()).next().expect("a game").expect("reads");
            proptest::prop_assert_eq!(&game.record.entries, &record.entries);
            proptest::prop_assert!(verify(&game, Some(&key.public())).is_empty());
        }
    }
}

/// Pieces of organiser commands, put together at random.
const PIECES: &[&str] = &[
    "{[%pause]}",
    "{[%resume 2027.01.15,09:00:00]}",
    "{[%extend 3 tess]}",
    "{[%extend 2 tess 2027.01.15,09:00:00 ",
    "{[%adjudicate tess] ",
    "{[%adjudicate tess 2027.01.15,10:00:00]",
    "{[%pause",
    "[%",
    "]",
    "}",
    "{",
    " ",
    "  ",
    "\n",
    "%",
    "%7D",
    "%2",
    "%e2%82",
    "word",
    "1. e4 {[%ccsnt 2027.01.15,08:00:00]}",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// As the reader's fuzz target asks of any input: a game of organiser commands that
    /// reads writes text that reads back and writes again the same.
    #[test]
    fn what_reads_writes_back_the_same(picks in proptest::collection::vec(0..PIECES.len(), 0..40)) {
        let movetext: String = picks.iter().map(|i| PIECES[*i]).collect();
        let text = format!("[Result \"*\"]\n\n{movetext} *\n");
        for game in read(text.as_bytes()).flatten() {
            let written = text_of(&game.record);
            let back = read(written.as_bytes()).next().expect("a game").expect("reads back");
            proptest::prop_assert_eq!(&back.record.entries, &game.record.entries);
            proptest::prop_assert_eq!(text_of(&back.record), written);
        }
    }
}
