//! A client nobody here wrote: `openapi-python-client` generates a Python package from the
//! committed `docs/openapi.json` (settings in `generated_client/config.yml`), and
//! `generated_client/play.py` plays two whole games with it against a real server on a
//! loopback port (sign-in, moves, a stale and an illegal move, messages, board pictures,
//! draw offers, resignation, export, import). The generated client raises on any status the
//! description does not declare. The interpreter is `$MISSIVE_PYTHON` (default `python3`)
//! with `openapi-python-client` installed (infra/python-requirements.txt).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Server;
use missive_store::testing::{Kind, unique_name};

/// Runs `python` with `args`, panicking with its output unless it succeeds.
fn run(python: &str, args: &[&str], python_path: Option<&Path>) -> String {
    let mut command = Command::new(python);
    command.args(args);
    if let Some(path) = python_path {
        command.env("PYTHONPATH", path);
    }
    let output = command.output().unwrap_or_else(|e| {
        panic!("cannot run `{python}` ({e}); install Python 3 and infra/python-requirements.txt")
    });
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{python} {args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test(flavor = "multi_thread")]
async fn a_generated_python_client_plays_whole_games() {
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/generated_client");
    let description = here.join("../../../../docs/openapi.json");
    let out = std::env::temp_dir().join(unique_name("missive-client"));
    let package = out.join("missive_client");
    run(
        &python,
        &[
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            description.to_str().unwrap(),
            "--config",
            here.join("config.yml").to_str().unwrap(),
            "--meta",
            "none",
            "--output-path",
            package.to_str().unwrap(),
        ],
        None,
    );
    let server = Server::start(Kind::Sqlite).await;
    let ann = server.sign_up_token("ann", "ann@example.org").await;
    let bob = server.sign_up_token("bob", "bob@example.org").await;
    let base = server.base.clone();
    let script = here.join("play.py");
    let python_path = out.clone();
    let said = tokio::task::spawn_blocking(move || {
        run(
            &python,
            &[script.to_str().unwrap(), &base, &ann, &bob],
            Some(&python_path),
        )
    })
    .await
    .unwrap();
    let _ = std::fs::remove_dir_all(&out);
    assert!(said.contains("played both games"), "{said}");
}
