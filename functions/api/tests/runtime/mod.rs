//! A minimal Lambda Runtime API on loopback, for running the api function (as a process or
//! in this one) the way Lambda runs it: events are handed out on `next`, answers and
//! errors collected.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::{Mutex as AsyncMutex, mpsc};

/// The runtime API's state: events waiting to be handed out, answers coming back.
#[derive(Clone)]
pub struct Runtime {
    pub events: Arc<AsyncMutex<mpsc::Receiver<(String, Value)>>>,
    pub answers: mpsc::Sender<(String, Value)>,
    pub errors: Arc<Mutex<Vec<String>>>,
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
pub fn event(method: &str, path: &str, body: Option<Value>) -> Value {
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

/// A Runtime API on loopback: its address, its state, where events are handed to it and
/// where the function's answers come out.
pub async fn runtime_api() -> (
    std::net::SocketAddr,
    Runtime,
    mpsc::Sender<(String, Value)>,
    mpsc::Receiver<(String, Value)>,
) {
    let (event_tx, event_rx) = mpsc::channel(8);
    let (answer_tx, answer_rx) = mpsc::channel(8);
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
    (addr, runtime, event_tx, answer_rx)
}
