//! The examples of `docs/archive.md` are what export writes: each reads back through its
//! variant's rules, its digest holds, and export writes it again unchanged; the chess game
//! also verifies with the public key the document gives.

use missive_archive::{ExportOptions, Imported, PublicKey, Registry, export, read, verify};

const KEY: &str = "ed25519:9P6rPqxdeLVwuU84J3yRnOff7kDSySnY8KtJLdHrL1Q=";

/// The variants with an example in the document.
const EXAMPLES: &[&str] = &[
    "chess",
    "sanguo",
    "dynamo",
    "xiangqi",
    "trid-fs",
    "trid-wtdcf",
];

/// The text of `variant`'s example: the code block between its markers.
fn example(variant: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/archive.md");
    let doc = std::fs::read_to_string(path).expect("docs/archive.md");
    let begin = format!("<!-- {variant} example begin -->");
    let end = format!("<!-- {variant} example end -->");
    let start = doc.find(&begin).unwrap_or_else(|| panic!("{begin}"));
    let end = doc.find(&end).unwrap_or_else(|| panic!("{end}"));
    let block = &doc[start..end];
    let body = &block[block.find("```\n").expect("fence") + 4..block.rfind("```").expect("fence")];
    format!("{body}\n")
}

/// The one game of `text`, read through the rules.
fn only_game(variant: &str, text: &str) -> Imported {
    let mut games = read(text.as_bytes());
    let game = games
        .next()
        .expect("a game")
        .unwrap_or_else(|e| panic!("{variant}: {e}"));
    assert!(games.next().is_none(), "{variant}: one game");
    game
}

#[test]
fn every_documented_game_reads_back_and_is_what_export_writes() {
    for variant in EXAMPLES {
        let text = example(variant);
        let game = only_game(variant, &text);
        assert_eq!(game.record.variant, *variant);
        assert_eq!(verify(&game, None), [], "{variant}");
        assert_eq!(
            export(&game.record, ExportOptions::default(), &Registry).expect("exports"),
            text,
            "{variant}"
        );
    }
}

#[test]
fn the_documented_chess_game_verifies_with_the_documented_key() {
    let game = only_game("chess", &example("chess"));
    let key = PublicKey::from_text(KEY).expect("the documented key");
    assert_eq!(verify(&game, Some(&key)), []);
    assert_eq!(key.to_text(), KEY);
}
