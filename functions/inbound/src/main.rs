//! The inbound Lambda function: replies to turn mails that SES received and stored in S3
//! (`MISSIVE_INBOUND_BUCKET`, under `MISSIVE_INBOUND_PREFIX`) are played (see
//! [`missive_inbound_function::handle`]); configured from the environment like the API.

use lambda_runtime::{LambdaEvent, service_fn};
use missive_inbound::Replies;
use missive_inbound_function::{ReceiptEvent, S3Messages, handle};
use missive_settings::init_error::or_exit;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    let parts = or_exit(missive_settings::Settings::lambda_parts("inbound").await).await;
    let replies = Replies::new(parts.service, parts.authority, parts.notifier);
    let bucket = std::env::var("MISSIVE_INBOUND_BUCKET")
        .map_err(|_| "MISSIVE_INBOUND_BUCKET names the bucket SES stores replies in");
    let bucket = or_exit(bucket).await;
    let prefix = std::env::var("MISSIVE_INBOUND_PREFIX").unwrap_or_default();
    let messages = S3Messages::connect(&bucket, &prefix).await;
    let (replies, messages) = (&replies, &messages);
    lambda_runtime::run(service_fn(
        move |event: LambdaEvent<ReceiptEvent>| async move {
            handle(replies, messages, event.payload)
                .await
                .map(|outcomes| outcomes.len())
        },
    ))
    .await
}
