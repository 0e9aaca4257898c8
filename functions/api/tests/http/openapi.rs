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
        "docs/openapi.json differs from the code: run `MISSIVE_BLESS=1 cargo test -p missive-api --test http openapi`"
    );
    let doc: serde_json::Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    for path in ["/v1/games/{id}/moves", "/v1/auth/token", "/v1/openapi.json"] {
        assert!(doc["paths"][path].is_object(), "{path} is described");
    }
}

/// Every operation says who may call it and declares the answers every route can give; a
/// secured one declares 401; no time is a number.
#[test]
fn every_operation_declares_its_security_and_common_answers() {
    let doc: serde_json::Value = serde_json::from_str(&missive_api::openapi_text()).unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let name = format!("{method} {path}");
            let id = operation["operationId"].as_str().expect(&name);
            assert!(
                ids.insert(id.to_string()),
                "{name}: operation id {id} twice"
            );
            assert!(operation["summary"].is_string(), "{name}: no summary");
            let security = operation["security"].as_array().expect(&name);
            let responses = &operation["responses"];
            for status in ["408", "414", "429", "431", "500", "503"] {
                assert!(responses[status].is_object(), "{name}: no {status}");
            }
            if security.iter().any(|s| s.get("bearer").is_some()) {
                assert!(responses["401"].is_object(), "{name}: secured without 401");
            }
        }
    }
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        for field in ["at", "start", "end", "created_at", "expires_at", "deadline"] {
            let property = &schema["properties"][field];
            if property.is_object() {
                assert_eq!(
                    property["format"], "date-time",
                    "{name}.{field} is RFC 3339"
                );
            }
        }
    }
}
