//! Lambda smoke test: the built `api` binary runs against a minimal Lambda Runtime API
//! served here on loopback (`AWS_LAMBDA_RUNTIME_API`) and answers API Gateway v2 events,
//! over SQLite and over DynamoDB Local, logging JSON lines with an access line each.
//!
//! The time from starting the process to its first answer (a readiness check, which
//! reads the store: the SDK's set-up is included) is printed as the cold start;
//! `MISSIVE_API_BIN` times another build (docs/performance.md):
//! `MISSIVE_API_BIN=target/release/api cargo test -p missive-api --test lambda -- --nocapture`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use missive_store::testing::{temp_db_path, unique_name};
use serde_json::{Value, json};
use tokio::sync::{Mutex as AsyncMutex, mpsc};

/// The runtime API's state: events waiting to be handed out, answers coming back.
#[derive(Clone)]
struct Runtime {
    events: Arc<AsyncMutex<mpsc::Receiver<(String, Value)>>>,
    answers: mpsc::Sender<(String, Value)>,
    errors: Arc<Mutex<Vec<String>>>,
}

async fn next(State(runtime): State<Runtime>) -> impl IntoResponse {
    let Some((id, event)) = runtime.events.lock().await.recv().await else {
        // No more events: keep the function waiting, as Lambda would.
        std::future::pending::<()>().await;
        unreachable!()
    };
    let deadline = (chrono::Utc::now() + chrono::Duration::seconds(30)).timestamp_millis();
    let mut headers = HeaderMap::new();
    headers.insert("lambda-runtime-aws-request-id", id.parse().unwrap());
    headers.insert(
        "lambda-runtime-deadline-ms",
        deadline.to_string().parse().unwrap(),
    );
    headers.insert(
        "lambda-runtime-invoked-function-arn",
        "arn:aws:lambda:us-east-1:123456789012:function:api"
            .parse()
            .unwrap(),
    );
    headers.insert("lambda-runtime-trace-id", "Root=1-0-0".parse().unwrap());
    (headers, axum::Json(event))
}

async fn respond(
    State(runtime): State<Runtime>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> StatusCode {
    let value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    runtime.answers.send((id, value)).await.unwrap();
    StatusCode::ACCEPTED
}

async fn error(State(runtime): State<Runtime>, body: String) -> StatusCode {
    runtime.errors.lock().unwrap().push(body);
    StatusCode::ACCEPTED
}

/// An API Gateway HTTP API (payload 2.0) event.
fn event(method: &str, path: &str, body: Option<Value>) -> Value {
    json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {
            "host": "abc.execute-api.us-east-1.amazonaws.com",
            "content-type": "application/json",
            "x-request-id": "smoke-1"
        },
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc",
            "domainName": "abc.execute-api.us-east-1.amazonaws.com",
            "domainPrefix": "abc",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "192.0.2.1",
                "userAgent": "smoke"
            },
            "requestId": "req",
            "routeKey": "$default",
            "stage": "$default",
            "time": "01/Mar/2026:12:00:00 +0000",
            "timeEpoch": 1772366400000i64
        },
        "body": body.map(|b| b.to_string()),
        "isBase64Encoded": false
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_binary_answers_api_gateway_events() {
    let db = temp_db_path();
    answers_api_gateway_events(&format!("sqlite:{}", db.display())).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_binary_answers_from_dynamodb() {
    let table = unique_name("missive-lambda");
    missive_store::testing::dynamo_table_named(&table).await;
    answers_api_gateway_events(&format!("dynamodb:{table}")).await;
}

/// Runs the api binary over `store` and checks its answers to a few events.
async fn answers_api_gateway_events(store: &str) {
    let (event_tx, event_rx) = mpsc::channel(8);
    let (answer_tx, mut answer_rx) = mpsc::channel(8);
    let runtime = Runtime {
        events: Arc::new(AsyncMutex::new(event_rx)),
        answers: answer_tx,
        errors: Arc::new(Mutex::new(Vec::new())),
    };
    let app = Router::new()
        .route("/2018-06-01/runtime/invocation/next", get(next))
        .route(
            "/2018-06-01/runtime/invocation/{id}/response",
            post(respond),
        )
        .route("/2018-06-01/runtime/invocation/{id}/error", post(error))
        .route("/2018-06-01/runtime/init/error", post(error))
        .with_state(runtime.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });

    let outbox = std::env::temp_dir().join(unique_name("missive-lambda-outbox"));
    let started = Instant::now();
    // MISSIVE_API_BIN runs another build of the binary (a release one, to time its start).
    let binary = std::env::var("MISSIVE_API_BIN").unwrap_or(env!("CARGO_BIN_EXE_api").into());
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
            201,
        ),
        (event("GET", "/v1/players/ann", None), 200),
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
    assert_eq!(access["fields"]["status"], 201, "{access}");
    assert_eq!(access["span"]["method"], "POST", "{access}");
    assert_eq!(access["span"]["request_id"], "smoke-1", "{access}");
    let _ = std::fs::remove_dir_all(outbox);
}
