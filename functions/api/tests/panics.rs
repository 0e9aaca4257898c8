//! A handler that panics (here the mailer behind sign-up) is answered 500 in the API's
//! error shape, and the same process goes on serving: under `missive serve`'s server and
//! under the Lambda runtime (`lambda_http::run`, fed by a Runtime API on loopback).

use std::sync::Arc;
use std::time::Duration;

use missive_mail::{Mail, MailError, Mailer};
use missive_store::testing::Kind;
use serde_json::{Value, json};

mod common;
mod runtime;

use common::{Options, Server};
use runtime::{event, runtime_api};

/// A mailer that panics on every mail.
struct Panicking;

#[async_trait::async_trait]
impl Mailer for Panicking {
    async fn send(&self, _: &Mail) -> Result<(), MailError> {
        panic!("the mailer broke")
    }
}

/// A server whose sign-up mail panics.
async fn panicking_server() -> Server {
    let options = Options {
        mailer: Some(Arc::new(Panicking)),
        ..Options::default()
    };
    Server::start_with(Kind::Sqlite, options).await
}

/// Asserts `status` and `body` are the panic's answer: 500, `internal`, nothing leaked.
fn assert_panic_answer(status: u16, body: &Value) {
    assert_eq!(status, 500, "{body}");
    assert_eq!(body["error"]["code"], "internal", "{body}");
    assert!(!body.to_string().contains("the mailer broke"), "{body}");
}

/// Under `missive serve`'s server, then under the Lambda runtime: the panicking sign-up is
/// answered 500, and the next request is served by the same process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_is_answered_500_and_the_process_goes_on() {
    let (addr, runtime, events, mut answers) = runtime_api().await;
    // SAFETY: set before anything else in this process (its only test) reads the
    // environment; the Lambda runtime reads them once, when it starts below.
    unsafe {
        std::env::set_var("AWS_LAMBDA_RUNTIME_API", addr.to_string());
        std::env::set_var("AWS_LAMBDA_FUNCTION_NAME", "api");
        std::env::set_var("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        std::env::set_var("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256");
        std::env::set_var("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/api");
        std::env::set_var("AWS_LAMBDA_LOG_STREAM_NAME", "panics");
    }
    let server = panicking_server().await;
    let sign_up = json!({"handle": "ann", "email": "ann@example.org"});
    let signed_up = server
        .http
        .post(format!("{}/v1/players", server.base))
        .json(&sign_up)
        .send()
        .await
        .unwrap();
    let status = signed_up.status().as_u16();
    assert_panic_answer(status, &signed_up.json().await.unwrap());
    let variants = server
        .http
        .get(format!("{}/v1/variants", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(variants.status(), 200);

    let router = server.app.clone().router();
    // The runtime's future is not `Send`: it runs on a thread of its own, as in `main`.
    std::thread::spawn(move || {
        let executor = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        executor.block_on(lambda_http::run(router))
    });
    let cases = [
        ("panics", event("POST", "/v1/players", Some(sign_up)), 500),
        ("after", event("GET", "/v1/variants", None), 200),
    ];
    for (id, event, expected) in cases {
        events.send((id.to_string(), event)).await.unwrap();
        let (answered, answer) = tokio::time::timeout(Duration::from_secs(30), answers.recv())
            .await
            .expect("the function answers")
            .unwrap();
        assert_eq!(answered, id);
        let status = answer["statusCode"].as_u64().unwrap() as u16;
        let body: Value = serde_json::from_str(answer["body"].as_str().unwrap()).unwrap();
        if expected == 500 {
            assert_panic_answer(status, &body);
        } else {
            assert_eq!(status, expected, "{answer}");
        }
    }
    assert!(runtime.errors.lock().unwrap().is_empty());
}
