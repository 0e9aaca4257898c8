//! Lambda smoke test: the built `api` binary runs against a minimal Lambda Runtime API
//! served here on loopback (`AWS_LAMBDA_RUNTIME_API`) and answers API Gateway v2 events,
//! over SQLite and over DynamoDB Local, logging JSON lines with an access line each and
//! writing its metrics as embedded-metric-format lines on stdout; a setting it cannot start
//! with is posted as the init error.
//!
//! The time from starting the process to its first answer (a readiness check, which
//! reads the store: the SDK's set-up is included) is printed as the cold start;
//! `MISSIVE_API_BIN` times another build over DynamoDB Local, such as the artifact
//! `infra/build-lambdas.sh` zips (docs/performance.md), which links no SQLite: the SQLite
//! test always runs the test build.

use std::time::{Duration, Instant};

use missive_store::testing::{temp_db_path, unique_name};
use serde_json::{Value, json};

mod runtime;

use runtime::{event, runtime_api};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_binary_answers_api_gateway_events() {
    let db = temp_db_path();
    answers_api_gateway_events(
        env!("CARGO_BIN_EXE_api"),
        &format!("sqlite:{}", db.display()),
    )
    .await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_binary_answers_from_dynamodb() {
    let table = unique_name("missive-lambda");
    missive_store::testing::dynamo_table_named(&table).await;
    // MISSIVE_API_BIN runs another build of the binary (a release one, to time its start).
    let binary = std::env::var("MISSIVE_API_BIN").unwrap_or(env!("CARGO_BIN_EXE_api").into());
    answers_api_gateway_events(&binary, &format!("dynamodb:{table}")).await;
}

/// A setting the function cannot start with (a signing key that is not one): the process
/// posts the init error as JSON to the Runtime API, logs it as one JSON line, and exits 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_setting_is_reported_as_the_init_error() {
    let (addr, runtime, _events, _answers) = runtime_api().await;
    let db = temp_db_path();
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .env("AWS_LAMBDA_RUNTIME_API", addr.to_string())
        .env("MISSIVE_STORE", format!("sqlite:{}", db.display()))
        .env("MISSIVE_SIGNING_KEY", "not-a-key")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let errors = runtime.errors.lock().unwrap().clone();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let posted: Value = serde_json::from_str(&errors[0]).unwrap();
    assert_eq!(posted["errorType"], "Runtime.InitError", "{posted}");
    let message = posted["errorMessage"].as_str().unwrap();
    assert!(message.starts_with("signing key:"), "{posted}");
    let logs = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("a JSON line: {line}")))
        .collect();
    assert!(
        lines
            .iter()
            .any(|line| line["fields"]["event"] == "init_failed" && line["level"] == "ERROR"),
        "{logs}"
    );
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// Runs `binary` (an api build) over `store` and checks its answers to a few events.
async fn answers_api_gateway_events(binary: &str, store: &str) {
    let (addr, runtime, event_tx, mut answer_rx) = runtime_api().await;

    let outbox = std::env::temp_dir().join(unique_name("missive-lambda-outbox"));
    let started = Instant::now();
    let mut child = tokio::process::Command::new(binary)
        .env("AWS_LAMBDA_RUNTIME_API", addr.to_string())
        .env("AWS_LAMBDA_FUNCTION_NAME", "api")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/api")
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "smoke")
        .env("MISSIVE_STORE", store)
        .env(
            "MISSIVE_SIGNING_KEY",
            missive_auth::SigningKey::generate().to_text(),
        )
        .env("MISSIVE_OUTBOX", &outbox)
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();

    let cases = [
        (event("GET", "/v1/ready", None), 200),
        (event("GET", "/v1/variants", None), 200),
        (
            event(
                "POST",
                "/v1/players",
                Some(json!({"handle": "ann", "email": "ann@example.org"})),
            ),
            202,
        ),
        (event("GET", "/v1/players/ann", None), 404),
        (event("GET", "/v1/games/NOSUCHGAME", None), 404),
        (event("POST", "/v1/games", Some(json!({}))), 401),
    ];
    for (index, (event, expected)) in cases.into_iter().enumerate() {
        let id = format!("invocation-{index}");
        event_tx.send((id.clone(), event)).await.unwrap();
        let (answered, answer) = tokio::time::timeout(Duration::from_secs(30), answer_rx.recv())
            .await
            .expect("the function answers")
            .unwrap();
        if index == 0 {
            eprintln!(
                "cold start ({store}): first answer {:?} after the process started",
                started.elapsed()
            );
        }
        assert_eq!(answered, id);
        assert_eq!(answer["statusCode"], expected, "{answer}");
        let body: Value = serde_json::from_str(answer["body"].as_str().unwrap()).unwrap();
        if expected >= 400 {
            assert!(body["error"]["code"].is_string(), "{body}");
        }
        if index == 1 {
            assert_eq!(body[0]["id"], "chess");
        }
        assert_eq!(answer["headers"]["x-request-id"], "smoke-1");
    }
    assert!(runtime.errors.lock().unwrap().is_empty());
    child.kill().await.unwrap();
    let output = child.wait_with_output().await.unwrap();
    let logs = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("a JSON line: {line}")))
        .collect();
    let access = lines
        .iter()
        .find(|line| {
            line["fields"]["message"] == "answered" && line["span"]["route"] == "/v1/players"
        })
        .unwrap_or_else(|| panic!("an access line for the sign-up: {logs}"));
    assert_eq!(access["level"], "INFO", "{access}");
    assert_eq!(access["fields"]["status"], 202, "{access}");
    assert_eq!(access["span"]["method"], "POST", "{access}");
    assert_eq!(access["span"]["request_id"], "smoke-1", "{access}");
    assert_eq!(access["span"]["aws_request_id"], "invocation-2", "{access}");
    assert_eq!(access["span"]["trace_id"], "Root=1-0-0", "{access}");
    // The sign-up's mail is counted as an embedded-metric-format line on stdout.
    let metrics = String::from_utf8_lossy(&output.stdout);
    let sent = metrics
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| line["MailsSent"] == 1.0)
        .unwrap_or_else(|| panic!("a MailsSent metric line: {metrics}"));
    assert_eq!(sent["Function"], "api", "{sent}");
    assert_eq!(
        sent["_aws"]["CloudWatchMetrics"][0]["Namespace"], "Missive",
        "{sent}"
    );
    let _ = std::fs::remove_dir_all(outbox);
}
