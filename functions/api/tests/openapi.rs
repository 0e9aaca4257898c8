//! The committed API description (`docs/openapi.json`) is the one the code generates.
//! Run with `MISSIVE_BLESS=1` to rewrite it after changing the API.

use std::path::PathBuf;

#[test]
fn the_committed_description_matches_the_code() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json");
    let generated = missive_api::openapi_text();
    if std::env::var_os("MISSIVE_BLESS").is_some() {
        std::fs::write(&file, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/openapi.json differs from the code: run `MISSIVE_BLESS=1 cargo test -p missive-api --test openapi`"
    );
    let doc: serde_json::Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    for path in ["/v1/games/{id}/moves", "/v1/auth/token", "/v1/openapi.json"] {
        assert!(doc["paths"][path].is_object(), "{path} is described");
    }
}
