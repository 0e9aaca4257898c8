//! `S3Messages` against moto's server standing in for S3, found through
//! `AWS_ENDPOINT_URL_S3` as on AWS through the standard configuration: moto checks each
//! request's signature with the access key of an IAM user allowed `s3:GetObject` on the
//! prefix alone (the inbound function's right). A stored mail is read back byte for byte,
//! a missing one is named with S3's `NoSuchKey`, and a wrong secret is refused.
//!
//! Needs moto's server (`pip install "moto[server]"`, in infra/python-requirements.txt) in
//! `MISSIVE_PYTHON`'s Python; without it the test says so and passes, except under CI.

use aws_credential_types::Credentials;
use aws_credential_types::provider::SharedCredentialsProvider;
use missive_aws::testing::Moto;
use missive_inbound_function::{Messages, S3Messages};
use serde_json::json;

const BUCKET: &str = "missive-inbound";
const PREFIX: &str = "inbound/";

/// The text of the first element `name` of `xml`.
fn element<'a>(xml: &'a str, name: &str) -> &'a str {
    let start = xml.find(&format!("<{name}>")).expect(name) + name.len() + 2;
    let end = start + xml[start..].find(&format!("</{name}>")).expect(name);
    &xml[start..end]
}

/// An S3 request to moto with a stand-in signature (moto does not check it yet).
fn s3_put(moto: &Moto, path: &str, body: &'static [u8]) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .put(format!("{}/{path}", moto.endpoint))
        .header(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=missivetest/20260101/us-east-1/s3/aws4_request",
        )
        .body(body)
}

/// An IAM user allowed `s3:GetObject` under the bucket's prefix only: its access key id and
/// secret.
async fn reader(moto: &Moto) -> (String, String) {
    moto.query("iam", &[("Action", "CreateUser"), ("UserName", "inbound")])
        .await;
    let policy = json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Effect": "Allow",
            "Action": "s3:GetObject",
            "Resource": format!("arn:aws:s3:::{BUCKET}/{PREFIX}*"),
        }],
    })
    .to_string();
    let allow = [
        ("Action", "PutUserPolicy"),
        ("UserName", "inbound"),
        ("PolicyName", "read-replies"),
        ("PolicyDocument", policy.as_str()),
    ];
    moto.query("iam", &allow).await;
    let key = moto
        .query(
            "iam",
            &[("Action", "CreateAccessKey"), ("UserName", "inbound")],
        )
        .await;
    let id = element(&key, "AccessKeyId").to_string();
    (id, element(&key, "SecretAccessKey").to_string())
}

/// The ids of the messages stored: SES's kind, and one with a space (moto's check of a
/// signature rejects the AWS SDKs' own for keys with `+`, `=` or beyond ASCII, whose
/// encoding tests/s3_loopback.rs checks).
const IDS: [&str; 2] = ["0ses1message2id", "a reply"];

/// A mail SES stored, with a subject and a body beyond ASCII.
const MAIL: &[u8] = "From: Zoë <zoe@example.org>\r\nTo: reply@example.org\r\n\
    Subject: =?utf-8?q?R=C3=A9ponse?=\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
    Nf3 \u{2014} déjà joué ♞\r\n"
    .as_bytes();

#[tokio::test]
async fn replies_are_read_from_s3_with_a_signed_get() {
    let Some(moto) = Moto::start().await else {
        return;
    };
    let (key_id, secret) = reader(&moto).await;
    let made = s3_put(&moto, BUCKET, b"").send().await.unwrap();
    assert!(made.status().is_success(), "{made:?}");
    for id in IDS {
        let path = format!("{BUCKET}/{PREFIX}{id}");
        let stored = s3_put(&moto, &path, MAIL).send().await.unwrap();
        assert!(stored.status().is_success(), "{stored:?}");
    }
    moto.check_signatures().await;
    // SAFETY: this binary's only test sets the variables before anything reads the
    // environment on another thread (the runtime is current-thread, and the configuration
    // is loaded after this).
    unsafe {
        std::env::set_var("AWS_ENDPOINT_URL_S3", &moto.endpoint);
        std::env::set_var("AWS_REGION", "us-east-1");
        std::env::set_var("AWS_ACCESS_KEY_ID", &key_id);
        std::env::set_var("AWS_SECRET_ACCESS_KEY", &secret);
        std::env::remove_var("AWS_SESSION_TOKEN");
        std::env::remove_var("AWS_PROFILE");
    }

    let messages = S3Messages::connect(BUCKET, PREFIX).await;
    for id in IDS {
        assert_eq!(messages.message(id).await.unwrap(), MAIL, "{id}");
    }
    let missing = messages.message("never-stored").await.unwrap_err();
    assert!(
        missing.starts_with(
            "s3://missive-inbound/inbound/never-stored: HTTP 404 Not Found, NoSuchKey"
        ),
        "{missing}"
    );

    let forged = Credentials::new(&key_id, "not the secret", None, None, "test");
    let config = missive_aws::config()
        .await
        .into_builder()
        .credentials_provider(SharedCredentialsProvider::new(forged))
        .build();
    let refused = S3Messages::new(&config, BUCKET, PREFIX)
        .message("0ses1message2id")
        .await
        .unwrap_err();
    assert!(
        refused.starts_with("s3://missive-inbound/inbound/0ses1message2id: HTTP 403 Forbidden, SignatureDoesNotMatch"),
        "{refused}"
    );
}
