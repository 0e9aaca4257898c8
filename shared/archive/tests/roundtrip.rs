//! Export, import, export: byte-identical for random games of every registered variant,
//! with times, events between moves and every kind of result; the imported record is the
//! exported one with its moves in long notation.

use missive_archive::sample::random_record;
use missive_archive::{
    ExportOptions, Format, GameRecord, KeyPair, Registry, export, read, sign, verify,
};
use missive_rules::{Notation, registry};
use proptest::prelude::*;

/// Every combination of format and notation.
const OPTIONS: [ExportOptions; 4] = [
    ExportOptions {
        format: Format::Archive,
        notation: Notation::Short,
    },
    ExportOptions {
        format: Format::Archive,
        notation: Notation::Long,
    },
    ExportOptions {
        format: Format::Pgn,
        notation: Notation::Short,
    },
    ExportOptions {
        format: Format::Pgn,
        notation: Notation::Long,
    },
];

fn import_one(text: &str) -> missive_archive::Imported {
    let mut games: Vec<_> = read(text.as_bytes()).collect();
    assert_eq!(games.len(), 1, "one game in:\n{text}");
    games
        .pop()
        .expect("one game")
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The record as the archive keeps it: moves in long notation.
fn normalised(record: &GameRecord) -> GameRecord {
    let text = export(
        record,
        ExportOptions {
            format: Format::Archive,
            notation: Notation::Long,
        },
        &Registry,
    )
    .expect("exports");
    import_one(&text).record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn export_import_export_is_identical(seed in any::<u64>(), sign_it in any::<bool>()) {
        for variant in registry::variants() {
            let mut record = random_record(&Registry, variant.id(), seed, 120)
                .expect("registered variants make records");
            if sign_it {
                sign(&mut record, &KeyPair::from_seed([7; 32]), &Registry).expect("signs");
            }
            for options in OPTIONS {
                let first = export(&record, options, &Registry).expect("exports");
                let imported = import_one(&first);
                let second = export(&imported.record, options, &Registry).expect("re-exports");
                prop_assert_eq!(&first, &second, "{} {:?}", variant.id(), options);
                if options.format == Format::Archive {
                    prop_assert_eq!(&imported.record, &normalised(&record));
                    let key = KeyPair::from_seed([7; 32]).public();
                    prop_assert!(verify(&imported, sign_it.then_some(&key)).is_empty());
                }
            }
        }
    }
}

#[test]
fn many_games_in_one_file_come_back_in_order() {
    let records: Vec<GameRecord> = (0..20)
        .map(|seed| random_record(&Registry, "chess", seed, 60).expect("chess"))
        .collect();
    let text: String = records
        .iter()
        .map(|r| export(r, ExportOptions::default(), &Registry).expect("exports"))
        .collect();
    let back: Vec<GameRecord> = read(text.as_bytes())
        .map(|game| game.expect("imports").record)
        .collect();
    let expected: Vec<GameRecord> = records.iter().map(normalised).collect();
    assert_eq!(back, expected);
}

#[test]
fn tags_the_archive_derives_are_not_written_twice() {
    let mut record = random_record(&Registry, "chess", 1, 10).expect("chess");
    for name in ["White", "Result", "Variant", "Digest", "Termination"] {
        record.tags.push((name.to_string(), "stray".to_string()));
    }
    let text = export(&record, ExportOptions::default(), &Registry).expect("exports");
    assert!(!text.contains("stray"), "{text}");
    let again = export(
        &import_one(&text).record,
        ExportOptions::default(),
        &Registry,
    );
    assert_eq!(again.expect("exports"), text);
}
