//! The chess example of `docs/archive.md` is what export writes, and it verifies with the
//! public key the document gives.

use missive_archive::{ExportOptions, PublicKey, Registry, export, read, verify};

const KEY: &str = "ed25519:9P6rPqxdeLVwuU84J3yRnOff7kDSySnY8KtJLdHrL1Q=";

fn chess_example() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/archive.md");
    let doc = std::fs::read_to_string(path).expect("docs/archive.md");
    let start = doc
        .find("<!-- chess example begin -->")
        .expect("begin marker");
    let end = doc.find("<!-- chess example end -->").expect("end marker");
    let block = &doc[start..end];
    let body = &block[block.find("```\n").expect("fence") + 4..block.rfind("```").expect("fence")];
    format!("{body}\n")
}

#[test]
fn the_documented_chess_game_verifies_and_is_what_export_writes() {
    let text = chess_example();
    let game = read(text.as_bytes())
        .next()
        .expect("a game")
        .expect("imports");
    let key = PublicKey::from_text(KEY).expect("the documented key");
    assert_eq!(verify(&game, Some(&key)), []);
    assert_eq!(
        export(&game.record, ExportOptions::default(), &Registry).expect("exports"),
        text
    );
    assert_eq!(key.to_text(), KEY);
}
