//! The inbound function's handler: SES receives a reply to a turn mail at the reply
//! domain, its receipt rule stores the message in S3 (under the prefix, named by SES's
//! message id) and then invokes this function with the receipt; the handler reads the
//! message back and plays it ([`Replies::handle`], with the envelope's recipients).
//!
//! A message SES found a virus in is dropped unread. A failure of the store, S3 or the
//! mail back fails the invocation, which Lambda tries again (SES invokes asynchronously);
//! a move is never played twice, since a reply's move is keyed by its token and text.

mod s3;

use async_trait::async_trait;
use aws_types::SdkConfig;
use missive_inbound::{Outcome, Replies};
use serde::Deserialize;

/// What SES hands the function: one record per message received.
#[derive(Debug, Deserialize)]
pub struct ReceiptEvent {
    /// The messages.
    #[serde(rename = "Records")]
    pub records: Vec<ReceiptRecord>,
}

/// One message received.
#[derive(Debug, Deserialize)]
pub struct ReceiptRecord {
    /// What SES says of it.
    pub ses: Received,
}

/// The message and its receipt.
#[derive(Debug, Deserialize)]
pub struct Received {
    /// The message.
    pub mail: ReceivedMail,
    /// Its receipt.
    pub receipt: Receipt,
}

/// The message as SES names it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceivedMail {
    /// SES's id of the message: the name of its object in the bucket.
    pub message_id: String,
}

/// What the receipt rule found.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    /// The envelope's recipients the rule matched.
    #[serde(default)]
    pub recipients: Vec<String>,
    /// Whether SES found a virus.
    #[serde(default)]
    pub virus_verdict: Option<Verdict>,
}

/// One of SES's verdicts.
#[derive(Debug, Deserialize)]
pub struct Verdict {
    /// `PASS`, `FAIL`, `GRAY` or `PROCESSING_FAILED`.
    pub status: String,
}

/// Where the messages SES stored are read from.
#[async_trait]
pub trait Messages: Send + Sync {
    /// The message SES stored under `message_id`, as received.
    async fn message(&self, message_id: &str) -> Result<Vec<u8>, String>;
}

/// The messages in an S3 bucket under a prefix, as the receipt rule's S3 action stores
/// them, each read with one signed `GetObject` (`s3:GetObject` on the prefix is the one
/// right needed).
pub struct S3Messages {
    bucket: s3::Bucket,
    prefix: String,
}

impl S3Messages {
    /// The messages of `bucket` under `prefix`, through the standard AWS configuration
    /// ([`missive_aws::config`]; `AWS_ENDPOINT_URL_S3` names another S3 endpoint).
    pub async fn connect(bucket: &str, prefix: &str) -> S3Messages {
        S3Messages::new(&missive_aws::config().await, bucket, prefix)
    }

    /// The messages of `bucket` under `prefix`, reached with `config`'s region, credentials
    /// and S3 endpoint, and missive-aws's timeouts and retries.
    pub fn new(config: &SdkConfig, bucket: &str, prefix: &str) -> S3Messages {
        S3Messages {
            bucket: s3::Bucket::new(config, bucket),
            prefix: prefix.to_string(),
        }
    }
}

#[async_trait]
impl Messages for S3Messages {
    /// The object `{prefix}{message_id}`; an error names its `s3://` address and what went
    /// wrong (the HTTP status and S3's error code when S3 answered).
    async fn message(&self, message_id: &str) -> Result<Vec<u8>, String> {
        let key = format!("{}{message_id}", self.prefix);
        self.bucket
            .get(&key)
            .await
            .map_err(|e| format!("s3://{}/{key}: {e}", self.bucket.name()))
    }
}

/// Plays every message of `event`, read from `messages`: what became of each, in order;
/// the first failure ends the invocation (Lambda tries it again).
pub async fn handle(
    replies: &Replies,
    messages: &dyn Messages,
    event: ReceiptEvent,
) -> Result<Vec<Outcome>, String> {
    let mut outcomes = Vec::new();
    for record in event.records {
        let id = &record.ses.mail.message_id;
        let receipt = &record.ses.receipt;
        if receipt
            .virus_verdict
            .as_ref()
            .is_some_and(|v| v.status == "FAIL")
        {
            tracing::warn!(message_id = %id, "reply by mail dropped: SES found a virus");
            continue;
        }
        let raw = messages.message(id).await?;
        let outcome = replies
            .handle(&raw, &receipt.recipients)
            .await
            .map_err(|e| format!("message {id}: {e}"))?;
        tracing::info!(message_id = %id, ?outcome, "reply by mail handled");
        outcomes.push(outcome);
    }
    Ok(outcomes)
}
