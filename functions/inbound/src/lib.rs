//! The inbound function's handler: SES receives a reply to a turn mail at the reply
//! domain, its receipt rule stores the message in S3 (under the prefix, named by SES's
//! message id) and then invokes this function with the receipt; the handler reads the
//! message back and plays it ([`Replies::handle`], with the envelope's recipients).
//!
//! A message SES found a virus in is dropped unread. A failure of the store, S3 or the
//! mail back fails the invocation, which Lambda tries again (SES invokes asynchronously);
//! a move is never played twice, since a reply's move is keyed by its token and text.

use async_trait::async_trait;
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
/// them.
pub struct S3Messages {
    client: aws_sdk_s3::Client,
    bucket: String,
    prefix: String,
}

impl S3Messages {
    /// The messages of `bucket` under `prefix`, through the standard AWS configuration.
    pub async fn connect(bucket: &str, prefix: &str) -> S3Messages {
        let config = missive_aws::config().await;
        S3Messages {
            client: aws_sdk_s3::Client::new(&config),
            bucket: bucket.to_string(),
            prefix: prefix.to_string(),
        }
    }
}

#[async_trait]
impl Messages for S3Messages {
    async fn message(&self, message_id: &str) -> Result<Vec<u8>, String> {
        let key = format!("{}{message_id}", self.prefix);
        let object = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(&key)
            .send()
            .await
            .map_err(|e| {
                format!(
                    "s3://{}/{key}: {}",
                    self.bucket,
                    aws_sdk_s3::error::DisplayErrorContext(e)
                )
            })?;
        let body = object
            .body
            .collect()
            .await
            .map_err(|e| format!("s3://{}/{key}: {e}", self.bucket))?;
        Ok(body.into_bytes().to_vec())
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
