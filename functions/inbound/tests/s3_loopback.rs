//! `S3Messages` against an HTTP server on loopback that answers as S3 would: each request
//! is signed with AWS Signature V4 (the session token signed with it), answers of 5xx are
//! tried again up to three attempts in all, a refusal is not, and an error names the
//! object's `s3://` address, the HTTP status and S3's error code.

use std::sync::{Arc, Mutex};

use aws_credential_types::Credentials;
use aws_credential_types::provider::SharedCredentialsProvider;
use aws_types::SdkConfig;
use aws_types::region::Region;
use missive_inbound_function::{Messages, S3Messages};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// SHA-256 of the empty body, which a GET's `x-amz-content-sha256` carries.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// An HTTP server on a free loopback port answering each request with the next of its
/// answers (the last one again once they run out), each on its own connection: the
/// requests' heads, in order, and its address.
async fn server(answers: Vec<(&'static str, &'static str)>) -> (Arc<Mutex<Vec<String>>>, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let heads = Arc::new(Mutex::new(Vec::new()));
    let seen = heads.clone();
    tokio::spawn(async move {
        for served in 0.. {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut head = Vec::new();
            let mut buffer = [0; 4096];
            while !head.ends_with(b"\r\n\r\n") {
                let read = stream.read(&mut buffer).await.unwrap();
                assert!(read > 0, "the request ends before its head does");
                head.extend_from_slice(&buffer[..read]);
            }
            seen.lock().unwrap().push(String::from_utf8(head).unwrap());
            let (status, body) = answers[served.min(answers.len() - 1)];
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(answer.as_bytes()).await.unwrap();
        }
    });
    (heads, endpoint)
}

/// Messages of bucket `inbox` under `inbound/` at `endpoint`, with a session's credentials.
fn messages(endpoint: &str) -> S3Messages {
    let credentials = Credentials::new(
        "ASIAMISSIVE",
        "secret",
        Some("session".into()),
        None,
        "test",
    );
    let config = SdkConfig::builder()
        .region(Region::new("eu-west-1"))
        .credentials_provider(SharedCredentialsProvider::new(credentials))
        .endpoint_url(endpoint)
        .build();
    S3Messages::new(&config, "inbox", "inbound/")
}

/// The value of header `name` in the request head `head`.
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(found, _)| found.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.trim())
}

/// An S3 error answer's XML body.
const SLOW_DOWN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>\
    <Message>Please reduce your request rate.</Message></Error>";

#[tokio::test]
async fn a_signed_get_tried_again_after_server_errors() {
    let mail = "From: ann@example.org\r\n\r\ne4 \u{2014} d\u{e9}j\u{e0} vu\r\n";
    let (heads, endpoint) = server(vec![
        ("500 Internal Server Error", ""),
        ("503 Service Unavailable", SLOW_DOWN),
        ("200 OK", mail),
    ])
    .await;
    let read = messages(&endpoint).message("ab c/é").await.unwrap();
    assert_eq!(read, mail.as_bytes());

    let heads = heads.lock().unwrap();
    assert_eq!(heads.len(), 3, "{heads:?}");
    for head in heads.iter() {
        assert!(
            head.starts_with("GET /inbox/inbound/ab%20c/%C3%A9 HTTP/1.1\r\n"),
            "{head}"
        );
        assert_eq!(header(head, "x-amz-content-sha256"), Some(EMPTY_SHA256));
        assert_eq!(header(head, "x-amz-security-token"), Some("session"));
        let date = header(head, "x-amz-date").expect("x-amz-date");
        assert_eq!(date.len(), 16, "{date}");
        let authorization = header(head, "authorization").expect("authorization");
        let (scope, signature) = authorization
            .split_once(", Signature=")
            .expect("a signature");
        assert_eq!(
            scope,
            format!(
                "AWS4-HMAC-SHA256 Credential=ASIAMISSIVE/{}/eu-west-1/s3/aws4_request, \
                 SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token",
                &date[..8]
            )
        );
        assert_eq!(signature.len(), 64, "{signature}");
        assert!(
            signature.bytes().all(|b| b.is_ascii_hexdigit()),
            "{signature}"
        );
    }
}

#[tokio::test]
async fn server_errors_fail_after_three_attempts() {
    let (heads, endpoint) = server(vec![("503 Service Unavailable", SLOW_DOWN)]).await;
    let error = messages(&endpoint).message("id").await.unwrap_err();
    assert_eq!(
        error,
        "s3://inbox/inbound/id: HTTP 503 Service Unavailable, SlowDown: Please reduce your \
         request rate. (attempt 3)"
    );
    assert_eq!(heads.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn a_refusal_is_not_tried_again() {
    let denied = "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>";
    let (heads, endpoint) = server(vec![("403 Forbidden", denied)]).await;
    let error = messages(&endpoint).message("id").await.unwrap_err();
    assert_eq!(
        error,
        "s3://inbox/inbound/id: HTTP 403 Forbidden, AccessDenied: Access Denied"
    );
    assert_eq!(heads.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn an_answer_without_s3s_error_names_its_status() {
    let (_, endpoint) = server(vec![("404 Not Found", "not here")]).await;
    let error = messages(&endpoint).message("id").await.unwrap_err();
    assert_eq!(error, "s3://inbox/inbound/id: HTTP 404 Not Found");
}

#[tokio::test]
async fn no_server_fails_after_three_attempts() {
    let endpoint = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let error = messages(&endpoint).message("id").await.unwrap_err();
    assert!(error.starts_with("s3://inbox/inbound/id: "), "{error}");
    assert!(error.ends_with("(attempt 3)"), "{error}");
}
