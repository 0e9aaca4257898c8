//! The cloud path, offline: the real `api`, `notifier` and `sweeper` binaries, each run by
//! a Lambda Runtime API on loopback, over DynamoDB Local (its stream on, read as Lambda's
//! event source mapping reads it) and moto's server standing in for SSM (the signing key,
//! a SecureString), SES (mail, read back from moto) and SQS (the notifier's failure queue).
//!
//! The functions leave each move's feed items to the notifier, as the template has them
//! (`MISSIVE_FEED_FROM_STREAM`). A whole chess game is played through API Gateway events;
//! the turn mails the notifier sends from the stream are read back from SES, and the
//! players' feeds it writes from the stream through the API; a notifier whose mail SES
//! refuses fails its batch, which after its retries is described on the failure queue, the
//! move's events in the feed all the same, once; the scheduled sweeper ends a game whose
//! time ran out. An app follows a game over the WebSocket API
//! alone: API Gateway's WebSocket events go to the api function, and what the api and
//! notifier functions post to the `@connections` API is captured by a loopback endpoint
//! standing in for it.
//!
//! Needs moto's server (`pip install "moto[server]"`, in infra/python-requirements.txt) in
//! `MISSIVE_PYTHON`'s Python and DynamoDB Local (`infra/test.sh` starts it); without moto
//! the test says so and passes, except under CI. The three binaries are this package's
//! `sweeper` and its siblings `api` and `notifier` in the same target folder, which cargo
//! builds for their own packages' integration tests: `cargo test --workspace` builds them
//! all.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{TimeDelta, Utc};
use missive_aws::testing::Moto;
use missive_domain::TimeControl;
use missive_game::{GameService, ManualClock, NewGame, SeatRequest};
use missive_store::SocketStore;
use missive_store::testing::unique_name;
use serde_json::{Value, json};
use tokio::sync::mpsc;

// The Runtime API the api function's own tests run it under.
#[path = "../../api/tests/runtime/mod.rs"]
mod runtime;

use runtime::{Runtime, event, runtime_api};

/// The region and test credentials every part is reached with.
const REGION: &str = "us-east-1";
const ACCESS_KEY: &str = "missivetest";
/// The signing key's parameter, the sender and the failure queue of the stack.
const KEY_PARAMETER: &str = "/missive/signing-key";
const SENDER: &str = "Missive <missive@example.org>";
const FAILURE_QUEUE: &str = "notifier-failures";
/// How often the harness's event source mapping retries a failed batch before it gives up
/// and describes it on the failure queue (the template's mapping retries 50 times).
const RETRIES: usize = 2;

/// The mail SES was given, as moto's server holds it.
trait SesMail {
    /// Every raw mail SES was given, in order: (recipients, message text).
    async fn mails(&self) -> Vec<(Vec<String>, String)>;
    /// The texts of the mails SES was given for `to`, in order.
    async fn mails_to(&self, to: &str) -> Vec<String>;
    /// Waits (at most 30 s) for a mail to `to` after the first `seen`: the first such.
    async fn mail_after(&self, to: &str, seen: usize) -> String;
}

impl SesMail for Moto {
    async fn mails(&self) -> Vec<(Vec<String>, String)> {
        let data: Value = reqwest::get(format!("{}/moto-api/data.json", self.endpoint))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        data["ses"]["RawMessage"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|message| {
                let to = message["destinations"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|d| d.as_str().map(String::from))
                    .collect();
                (to, message["raw_data"].as_str().unwrap_or("").to_string())
            })
            .collect()
    }

    async fn mails_to(&self, to: &str) -> Vec<String> {
        self.mails()
            .await
            .into_iter()
            .filter(|(recipients, _)| recipients.iter().any(|r| r == to))
            .map(|(_, text)| text)
            .collect()
    }

    async fn mail_after(&self, to: &str, seen: usize) -> String {
        let started = Instant::now();
        loop {
            if let Some(text) = self.mails_to(to).await.into_iter().nth(seen) {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no mail to {to} after the first {seen} in SES"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// A call of an AWS JSON-protocol API at `endpoint`, signed with a signature neither moto
/// nor DynamoDB Local checks (both read the service, the region and the key id from it).
async fn aws_json(endpoint: &str, service: &str, target: &str, body: Value) -> Value {
    let version = if service == "ssm" { "1.1" } else { "1.0" };
    let answer = reqwest::Client::new()
        .post(endpoint)
        .header("x-amz-target", target)
        .header("content-type", format!("application/x-amz-json-{version}"))
        .header("x-amz-date", "20260101T000000Z")
        .header(
            "authorization",
            format!(
                "AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/20260101/{REGION}/{service}/aws4_request, \
                 SignedHeaders=host;x-amz-date, Signature=00"
            ),
        )
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = answer.status();
    let text = answer.text().await.unwrap();
    assert!(status.is_success(), "{target}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// What moto holds for the stack: the signing key, the verified sender domain, the queue.
async fn provision(moto: &Moto) -> String {
    let key = missive_auth::SigningKey::generate().to_text();
    let parameter = json!({"Name": KEY_PARAMETER, "Type": "SecureString", "Value": key});
    aws_json(&moto.endpoint, "ssm", "AmazonSSM.PutParameter", parameter).await;
    let verify = [
        ("Action", "VerifyDomainIdentity"),
        ("Domain", "example.org"),
    ];
    moto.query("ses", &verify).await;
    let queue = json!({"QueueName": FAILURE_QUEUE});
    let created = aws_json(&moto.endpoint, "sqs", "AmazonSQS.CreateQueue", queue).await;
    created["QueueUrl"].as_str().unwrap().to_string()
}

/// One Lambda function's binary run by its own Runtime API.
struct Function {
    events: mpsc::Sender<(String, Value)>,
    answers: mpsc::Receiver<(String, Value)>,
    runtime: Runtime,
    _process: tokio::process::Child,
    invocations: usize,
}

impl Function {
    /// Starts the binary `name` (beside the sweeper's) with the stack's environment over
    /// `table`, mail sent as `sender`.
    async fn start(name: &str, moto: &Moto, table: &str, sender: &str) -> Function {
        Function::start_with(name, moto, table, sender, &[]).await
    }

    /// [`Function::start`] with more environment variables.
    async fn start_with(
        name: &str,
        moto: &Moto,
        table: &str,
        sender: &str,
        more: &[(&str, &str)],
    ) -> Function {
        let (addr, runtime, events, answers) = runtime_api().await;
        let process = tokio::process::Command::new(binary(name))
            .envs(more.iter().copied())
            .env("AWS_LAMBDA_RUNTIME_API", addr.to_string())
            .env("AWS_LAMBDA_FUNCTION_NAME", name)
            .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
            .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
            .env("AWS_LAMBDA_LOG_GROUP_NAME", format!("/aws/lambda/{name}"))
            .env("AWS_LAMBDA_LOG_STREAM_NAME", "cloud")
            .env("AWS_REGION", REGION)
            .env("AWS_ACCESS_KEY_ID", ACCESS_KEY)
            .env("AWS_SECRET_ACCESS_KEY", ACCESS_KEY)
            .env("AWS_ENDPOINT_URL", &moto.endpoint)
            .env_remove("MISSIVE_SIGNING_KEY")
            .env("MISSIVE_SIGNING_KEY_PARAMETER", KEY_PARAMETER)
            .env("MISSIVE_STORE", format!("dynamodb:{table}"))
            .env("MISSIVE_SES", "true")
            .env("MISSIVE_MAIL_FROM", sender)
            .env("MISSIVE_PUBLIC_URL", "https://missive.test")
            .env("MISSIVE_FEED_FROM_STREAM", "true")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("{name} starts: {e}"));
        Function {
            events,
            answers,
            runtime,
            _process: process,
            invocations: 0,
        }
    }

    /// Invokes the function with `event` and waits for its answer.
    async fn invoke(&mut self, event: Value) -> Value {
        self.invocations += 1;
        let id = format!("invocation-{}", self.invocations);
        self.events.send((id.clone(), event)).await.unwrap();
        let answered = tokio::time::timeout(Duration::from_secs(60), self.answers.recv()).await;
        let (answered, answer) = answered
            .unwrap_or_else(|_| panic!("no answer; errors: {:?}", self.runtime.errors))
            .unwrap();
        assert_eq!(answered, id);
        answer
    }

    /// The events of the player `token` signs in through the api function's feed
    /// (`GET /v1/events`, JSON lines, which Lambda's answer carries base64-encoded),
    /// oldest first.
    async fn feed(&mut self, token: &str) -> Vec<Value> {
        let mut request = event("GET", "/v1/events", None);
        request["headers"]["authorization"] = json!(format!("Bearer {token}"));
        let answer = self.invoke(request).await;
        assert_eq!(answer["statusCode"], 200, "{answer}");
        let body = answer["body"].as_str().unwrap_or_default();
        let body = match answer["isBase64Encoded"].as_bool() {
            Some(true) => String::from_utf8(STANDARD.decode(body).unwrap()).unwrap(),
            _ => body.to_string(),
        };
        body.lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// Invokes the api function with an API Gateway event; the status and the JSON body.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u64, Value) {
        let mut request = event(method, path, body);
        if let Some(token) = token {
            request["headers"]["authorization"] = json!(format!("Bearer {token}"));
        }
        let answer = self.invoke(request).await;
        let body = answer["body"].as_str().unwrap_or("null");
        let status = answer["statusCode"].as_u64().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }
}

/// The binary `name` of this build: the sweeper's, or a sibling's in the same folder.
fn binary(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_sweeper")).with_file_name(name);
    assert!(
        path.exists(),
        "{} is not built: run `cargo test --workspace`, or build the package's tests first",
        path.display()
    );
    path
}

/// Lambda's event source mapping over the table's stream, as the template sets it up:
/// head records only, in order, a failed batch retried from its first failed record, given
/// up on after [`RETRIES`] and then described on the failure queue.
struct StreamMapping {
    endpoint: String,
    stream: String,
    iterators: Vec<(String, Option<String>)>,
}

impl StreamMapping {
    /// Turns the stream of `table` on (new and old images) and reads it from its start.
    async fn open(endpoint: &str, table: &str) -> StreamMapping {
        let on = json!({
            "TableName": table,
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}
        });
        aws_json(endpoint, "dynamodb", "DynamoDB_20120810.UpdateTable", on).await;
        let described = json!({"TableName": table});
        let table = aws_json(
            endpoint,
            "dynamodb",
            "DynamoDB_20120810.DescribeTable",
            described,
        )
        .await;
        let stream = table["Table"]["LatestStreamArn"]
            .as_str()
            .unwrap()
            .to_string();
        StreamMapping {
            endpoint: endpoint.to_string(),
            stream,
            iterators: Vec::new(),
        }
    }

    /// The head records written since the last call, in order.
    async fn new_heads(&mut self) -> Vec<Value> {
        let described = aws_json(
            &self.endpoint,
            "dynamodb",
            "DynamoDBStreams_20120810.DescribeStream",
            json!({"StreamArn": self.stream}),
        )
        .await;
        for shard in described["StreamDescription"]["Shards"].as_array().unwrap() {
            let id = shard["ShardId"].as_str().unwrap().to_string();
            if !self.iterators.iter().any(|(known, _)| *known == id) {
                let asked = json!({"StreamArn": self.stream, "ShardId": id, "ShardIteratorType": "TRIM_HORIZON"});
                let iterator = aws_json(
                    &self.endpoint,
                    "dynamodb",
                    "DynamoDBStreams_20120810.GetShardIterator",
                    asked,
                )
                .await;
                let iterator = iterator["ShardIterator"].as_str().map(String::from);
                self.iterators.push((id, iterator));
            }
        }
        let mut records = Vec::new();
        for (_, iterator) in &mut self.iterators {
            while let Some(current) = iterator.clone() {
                let read = aws_json(
                    &self.endpoint,
                    "dynamodb",
                    "DynamoDBStreams_20120810.GetRecords",
                    json!({"ShardIterator": current}),
                )
                .await;
                let batch = read["Records"].as_array().cloned().unwrap_or_default();
                *iterator = read["NextShardIterator"].as_str().map(String::from);
                if batch.is_empty() {
                    break;
                }
                records.extend(batch);
            }
        }
        records
            .into_iter()
            .filter(|record| record["dynamodb"]["Keys"]["SK"]["S"] == "HEAD")
            .map(|mut record| {
                record["eventSourceARN"] = json!(self.stream);
                record
            })
            .collect()
    }

    /// Hands the new head records to `notifier` in one batch, as the mapping does; what it
    /// fails is retried from the first failed record, and after [`RETRIES`] described on
    /// the queue at `queue_url` of `moto`. Whether the batch was given up on.
    async fn deliver(&mut self, notifier: &mut Function, moto: &Moto, queue_url: &str) -> bool {
        let mut batch = self.new_heads().await;
        if batch.is_empty() {
            return false;
        }
        for _ in 0..=RETRIES {
            let answer = notifier.invoke(json!({"Records": batch})).await;
            let Some(failed) = answer["batchItemFailures"][0]["itemIdentifier"].as_str() else {
                return false;
            };
            let from = batch
                .iter()
                .position(|r| r["dynamodb"]["SequenceNumber"] == failed)
                .expect("the failed record is in the batch");
            batch.drain(..from);
        }
        let described = json!({
            "requestContext": {"condition": "RetryAttemptsExhausted", "approximateInvokeCount": RETRIES + 1},
            "DDBStreamBatchInfo": {
                "streamArn": self.stream,
                "startSequenceNumber": batch[0]["dynamodb"]["SequenceNumber"],
                "endSequenceNumber": batch[batch.len() - 1]["dynamodb"]["SequenceNumber"],
                "batchSize": batch.len(),
            }
        });
        let message = json!({"QueueUrl": queue_url, "MessageBody": described.to_string()});
        aws_json(&moto.endpoint, "sqs", "AmazonSQS.SendMessage", message).await;
        true
    }
}

/// Signs `handle` up through the api function, the confirmation token read from the mail
/// SES was given; the access token.
async fn sign_up(api: &mut Function, moto: &Moto, handle: &str) -> String {
    let email = format!("{handle}@example.org");
    let body = json!({"handle": handle, "email": email});
    let (status, answer) = api.call("POST", "/v1/players", None, Some(body)).await;
    assert_eq!(status, 202, "{answer}");
    let mail = moto.mail_after(&email, 0).await;
    let token = mail
        .lines()
        .find_map(|line| line.strip_prefix("X-Missive-Token: "))
        .unwrap()
        .trim()
        .to_string();
    let (status, answer) = api
        .call(
            "POST",
            "/v1/auth/token",
            None,
            Some(json!({"token": token})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    answer["access_token"].as_str().unwrap().to_string()
}

/// A chess game of three days a move created through the api function by the holder of
/// `creator`, its other seat taken by the holder of `joiner`: its id.
async fn chess_game(api: &mut Function, creator: &str, joiner: &str) -> String {
    let created = json!({
        "variant": "chess",
        "seats": [{"kind": "creator"}, {"kind": "open"}],
        "time_control": {"kind": "days-per-move", "days": 3}
    });
    let (status, game) = api
        .call("POST", "/v1/games", Some(creator), Some(created))
        .await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let path = format!("/v1/games/{id}/join");
    let (status, joined) = api.call("POST", &path, Some(joiner), Some(json!({}))).await;
    assert_eq!(status, 200, "{joined}");
    id
}

/// What the functions run against: moto provisioned, a fresh table with its stream read.
struct Stack {
    moto: Moto,
    queue_url: String,
    table: String,
    store: missive_store::DynamoDbStore,
    stream: StreamMapping,
}

impl Stack {
    /// Moto's server provisioned and a fresh table named after `name`, its stream on; `None`
    /// (the test skipped, said on stderr) without moto, except under CI.
    async fn start(name: &str) -> Option<Stack> {
        let moto = Moto::start().await?;
        let dynamodb = std::env::var("AWS_ENDPOINT_URL_DYNAMODB")
            .expect("DynamoDB Local: run through infra/test.sh");
        let queue_url = provision(&moto).await;
        let table = unique_name(name);
        let store = missive_store::testing::dynamo_table_named(&table).await;
        let stream = StreamMapping::open(&dynamodb, &table).await;
        Some(Stack {
            moto,
            queue_url,
            table,
            store,
            stream,
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_the_cloud_path() {
    let Some(Stack {
        moto,
        queue_url,
        table,
        store,
        mut stream,
    }) = Stack::start("missive-cloud").await
    else {
        return;
    };

    let mut api = Function::start("api", &moto, &table, SENDER).await;
    let mut notifier = Function::start("notifier", &moto, &table, SENDER).await;
    let ann = sign_up(&mut api, &moto, "ann").await;
    let bob = sign_up(&mut api, &moto, "bob").await;

    // A chess game to Scholar's mate, each move answered by the notifier's turn mail.
    let id = chess_game(&mut api, &ann, &bob).await;
    let moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
    for (ply, san) in moves.iter().enumerate() {
        let (mover, waiter) = if ply % 2 == 0 {
            (&ann, "bob")
        } else {
            (&bob, "ann")
        };
        let waiter = format!("{waiter}@example.org");
        let seen = moto.mails_to(&waiter).await.len();
        let body = json!({"move": san, "expected_ply": ply});
        let path = format!("/v1/games/{id}/moves");
        let (status, answer) = api.call("POST", &path, Some(mover), Some(body)).await;
        assert_eq!(status, 201, "{san}: {answer}");
        assert!(!stream.deliver(&mut notifier, &moto, &queue_url).await);
        let told = moto.mail_after(&waiter, seen).await;
        assert!(told.contains(san), "{san} in the mail after it: {told}");
        let expected = if ply + 1 < moves.len() {
            "/play/"
        } else {
            "You lost"
        };
        assert!(
            told.contains(expected),
            "{expected} in the mail after {san}: {told}"
        );
    }
    let (_, finished) = api
        .call("GET", &format!("/v1/games/{id}"), None, None)
        .await;
    assert_eq!(finished["status"], "finished", "{finished}");
    let won = moto.mails_to("ann@example.org").await;
    assert!(won.iter().any(|text| text.contains("You won")), "{won:?}");
    // The commits left the players' feed items to the notifier: each is there once.
    let told = api.feed(&bob).await;
    let told = kinds(&told);
    assert_eq!(
        told.iter().filter(|kind| **kind == "moved").count(),
        4,
        "{told:?}"
    );
    assert_eq!(
        told.iter().filter(|kind| **kind == "your-turn").count(),
        3,
        "{told:?}"
    );
    assert_eq!(told.last(), Some(&"game-over"), "{told:?}");

    // A notifier whose sender SES refuses: its batch fails, and is described on the queue.
    let mut refused =
        Function::start("notifier", &moto, &table, "Missive <m@unverified.test>").await;
    let second = chess_game(&mut api, &ann, &bob).await;
    let (status, _) = api
        .call(
            "POST",
            &format!("/v1/games/{second}/moves"),
            Some(&ann),
            Some(json!({"move": "d4", "expected_ply": 0})),
        )
        .await;
    assert_eq!(status, 201);
    assert!(
        stream.deliver(&mut refused, &moto, &queue_url).await,
        "the batch is given up on"
    );
    let received = aws_json(
        &moto.endpoint,
        "sqs",
        "AmazonSQS.ReceiveMessage",
        json!({"QueueUrl": queue_url, "MaxNumberOfMessages": 10}),
    )
    .await;
    let messages = received["Messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(messages.len(), 1, "{received}");
    let described: Value = serde_json::from_str(messages[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!(
        described["DDBStreamBatchInfo"]["streamArn"],
        json!(stream.stream)
    );
    // The move's events were told before the mail failed, once whatever the retries.
    let told: Vec<Value> = api.feed(&bob).await;
    let second_game: Vec<&Value> = told
        .iter()
        .filter(|e| e["game"] == second.as_str())
        .collect();
    let kinds_told: Vec<&str> = second_game
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds_told,
        ["game-started", "moved", "your-turn"],
        "{told:?}"
    );

    // A game created ten days ago in which nobody moved: the scheduled sweeper ends it.
    let past = Utc::now() - TimeDelta::days(10);
    let service = GameService::new(
        std::sync::Arc::new(store),
        std::sync::Arc::new(ManualClock::new(past)),
    );
    let stale = service
        .create_game(NewGame {
            creator: "ann".into(),
            variant: "chess".into(),
            options: String::new(),
            start_position: None,
            seats: vec![
                SeatRequest::Creator,
                SeatRequest::Invite {
                    player: "bob".into(),
                },
            ],
            time_control: TimeControl::DaysPerMove { days: 3 },
            rated: false,
            private: false,
        })
        .await
        .unwrap();
    service.join(&stale, "bob", None).await.unwrap();
    let mut sweeper = Function::start("sweeper", &moto, &table, SENDER).await;
    let scheduled = json!({
        "version": "0", "id": "sweep-1", "detail-type": "Scheduled Event", "source": "aws.events",
        "account": "123456789012", "time": Utc::now().to_rfc3339(), "region": REGION,
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/sweep"], "detail": {}
    });
    let swept = sweeper.invoke(scheduled).await;
    assert!(swept["timeouts"].as_u64().unwrap() >= 1, "{swept}");
    let (_, ended) = api
        .call("GET", &format!("/v1/games/{stale}"), None, None)
        .await;
    assert_eq!(ended["status"], "finished", "{ended}");
}

/// API Gateway's `@connections` API on loopback: each `POST /{stage}/@connections/{id}`
/// is captured; connections marked gone are answered 410 (`GoneException`).
#[derive(Clone, Default)]
struct Connections {
    posts: std::sync::Arc<std::sync::Mutex<Vec<(String, Value)>>>,
    gone: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Connections {
    /// Serves on a free loopback port: the stage endpoint the functions are given.
    async fn start(&self) -> String {
        use axum::extract::{Path, State};
        use axum::http::StatusCode;
        use axum::response::IntoResponse;
        async fn post(
            State(connections): State<Connections>,
            Path((_, id)): Path<(String, String)>,
            body: String,
        ) -> axum::response::Response {
            if connections.gone.lock().unwrap().contains(&id) {
                let gone = [("x-amzn-errortype", "GoneException")];
                return (StatusCode::GONE, gone, r#"{"message":"gone"}"#).into_response();
            }
            let message = serde_json::from_str(&body).unwrap();
            connections.posts.lock().unwrap().push((id, message));
            StatusCode::OK.into_response()
        }
        let app = axum::Router::new()
            .route("/{stage}/@connections/{id}", axum::routing::post(post))
            .with_state(self.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{addr}/prod")
    }

    /// The messages posted to connection `id` so far.
    fn to(&self, id: &str) -> Vec<Value> {
        let posts = self.posts.lock().unwrap();
        posts
            .iter()
            .filter(|(to, _)| to == id)
            .map(|(_, message)| message.clone())
            .collect()
    }

    /// How many messages were posted in all.
    fn count(&self) -> usize {
        self.posts.lock().unwrap().len()
    }
}

/// An API Gateway WebSocket API event of `kind` (`CONNECT`, `MESSAGE`, `DISCONNECT`) on
/// route `route` for connection `id`, with `headers`, `query` and `body`.
fn socket_event(
    kind: &str,
    route: &str,
    id: &str,
    headers: Value,
    query: Option<Value>,
    body: Option<&str>,
) -> Value {
    json!({
        "headers": headers,
        "queryStringParameters": query,
        "requestContext": {
            "routeKey": route,
            "eventType": kind,
            "extendedRequestId": "ext",
            "requestTime": "01/Mar/2026:12:00:00 +0000",
            "messageDirection": "IN",
            "stage": "prod",
            "connectedAt": 1772366400000i64,
            "requestTimeEpoch": 1772366400000i64,
            "identity": {"sourceIp": "192.0.2.1"},
            "requestId": "req",
            "domainName": "ws.execute-api.us-east-1.amazonaws.com",
            "connectionId": id,
            "apiId": "ws"
        },
        "body": body,
        "isBase64Encoded": false
    })
}

/// An app on the WebSocket API: its connection's id, the events handled (each id once)
/// and the cursor of the last.
struct SocketApp {
    id: String,
    read: usize,
    seen: Vec<Value>,
    cursor: Option<String>,
}

impl SocketApp {
    /// Opens connection `id` with `token` (as the `access_token` query parameter when
    /// `in_query`) and subscribes from `cursor`: the opening's status, and the events the
    /// subscription sent (checked to end with `subscribed`).
    async fn connect(
        api: &mut Function,
        connections: &Connections,
        id: &str,
        token: &str,
        in_query: bool,
        cursor: Option<String>,
    ) -> (SocketApp, Vec<Value>) {
        let (headers, query) = match in_query {
            true => (json!({}), Some(json!({"access_token": token}))),
            false => (json!({"Authorization": format!("Bearer {token}")}), None),
        };
        let opened = api
            .invoke(socket_event(
                "CONNECT", "$connect", id, headers, query, None,
            ))
            .await;
        assert_eq!(opened["statusCode"], 200, "{opened}");
        let mut app = SocketApp {
            id: id.to_string(),
            read: 0,
            seen: Vec::new(),
            cursor,
        };
        let subscribe = json!({"action": "subscribe", "cursor": app.cursor}).to_string();
        let message = socket_event(
            "MESSAGE",
            "subscribe",
            id,
            json!({}),
            None,
            Some(&subscribe),
        );
        assert_eq!(api.invoke(message).await["statusCode"], 200);
        let came = app.take(connections);
        let (last, events) = came.split_last().expect("an answer to the subscription");
        assert_eq!(last["type"], "subscribed", "{came:?}");
        (app, events.to_vec())
    }

    /// The messages posted to the connection since the last look, each event handled.
    fn take(&mut self, connections: &Connections) -> Vec<Value> {
        let all = connections.to(&self.id);
        let new = all[self.read..].to_vec();
        self.read = all.len();
        for event in new.iter().filter(|m| m.get("id").is_some()) {
            self.cursor = event["cursor"].as_str().map(String::from);
            if !self.seen.iter().any(|seen| seen["id"] == event["id"]) {
                self.seen.push(event.clone());
            }
        }
        new
    }
}

/// The types of `events`.
fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_followed_over_the_websocket_api() {
    let Some(Stack {
        moto,
        queue_url,
        table,
        store,
        mut stream,
    }) = Stack::start("missive-sockets").await
    else {
        return;
    };
    let connections = Connections::default();
    let endpoint = connections.start().await;
    let socket_env = [("MISSIVE_SOCKET_ENDPOINT", endpoint.as_str())];
    let mut api = Function::start_with("api", &moto, &table, SENDER, &socket_env).await;
    let mut notifier = Function::start_with("notifier", &moto, &table, SENDER, &socket_env).await;
    let ann_token = sign_up(&mut api, &moto, "ann").await;
    let bob_token = sign_up(&mut api, &moto, "bob").await;

    // An opening without a valid token is refused.
    let forged = json!({"Authorization": "Bearer forged"});
    let refused = api
        .invoke(socket_event(
            "CONNECT", "$connect", "x=", forged, None, None,
        ))
        .await;
    assert_eq!(refused["statusCode"], 401, "{refused}");

    let (mut ann, backlog) =
        SocketApp::connect(&mut api, &connections, "ann-1=", &ann_token, false, None).await;
    assert!(backlog.is_empty(), "{backlog:?}");
    let (mut bob, _) =
        SocketApp::connect(&mut api, &connections, "bob-1=", &bob_token, true, None).await;
    let posts_before = connections.count();
    let invocations_before = notifier.invocations;

    // Scholar's mate; after each change the notifier posts to the players' connections.
    let id = chess_game(&mut api, &ann_token, &bob_token).await;
    assert!(!stream.deliver(&mut notifier, &moto, &queue_url).await);
    assert_eq!(
        kinds(&ann.take(&connections)),
        ["game-started", "your-turn"]
    );
    assert_eq!(kinds(&bob.take(&connections)), ["game-started"]);
    let moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
    for (ply, san) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &ann_token } else { &bob_token };
        let body = json!({"move": san, "expected_ply": ply});
        let path = format!("/v1/games/{id}/moves");
        let (status, answer) = api.call("POST", &path, Some(mover), Some(body)).await;
        assert_eq!(status, 201, "{san}: {answer}");
        if ply == 2 {
            // Ann's app goes away after her third move, and comes back two moves later.
            let closed = socket_event("DISCONNECT", "$disconnect", "ann-1=", json!({}), None, None);
            assert_eq!(api.invoke(closed).await["statusCode"], 200);
        }
        assert!(!stream.deliver(&mut notifier, &moto, &queue_url).await);
        if ply == 4 {
            let (back, missed) = SocketApp::connect(
                &mut api,
                &connections,
                "ann-2=",
                &ann_token,
                false,
                ann.cursor.clone(),
            )
            .await;
            assert_eq!(kinds(&missed), ["moved", "your-turn"], "{missed:?}");
            let seen = std::mem::take(&mut ann.seen);
            ann = SocketApp { seen, ..back };
            ann.seen.extend(missed);
        }
        if ply == 3 {
            // Told to nobody: ann's connection is closed.
            assert!(connections.to("ann-1=").iter().all(|m| m["ply"] != 3));
            continue;
        }
        let waiter = if ply % 2 == 0 { &mut bob } else { &mut ann };
        let came = waiter.take(&connections);
        let told = came
            .iter()
            .find(|e| e["type"] == "moved")
            .expect("a move told");
        assert_eq!(told["short"], *san, "{came:?}");
    }
    ann.take(&connections);
    assert_eq!(
        kinds(&ann.seen),
        [
            "game-started",
            "your-turn",
            "moved",
            "your-turn",
            "moved",
            "your-turn",
            "moved",
            "your-turn",
            "game-over"
        ]
    );
    eprintln!(
        "cost: {} notifier invocations and {} @connections posts for the {} events of both players' game",
        notifier.invocations - invocations_before,
        connections.count() - posts_before,
        ann.seen.len() + bob.seen.len(),
    );

    // A connection API Gateway says is gone is forgotten at the next change.
    connections.gone.lock().unwrap().push("bob-1=".into());
    let second = chess_game(&mut api, &ann_token, &bob_token).await;
    assert!(!stream.deliver(&mut notifier, &moto, &queue_url).await);
    assert!(store.sockets_of("bob").await.unwrap().is_empty());
    assert_eq!(store.sockets_of("ann").await.unwrap().len(), 1);
    let started = ann.take(&connections);
    assert!(
        started.iter().all(|e| e["game"] == second.as_str()),
        "{started:?}"
    );
}
