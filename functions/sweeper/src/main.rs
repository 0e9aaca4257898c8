//! The sweeper Lambda function, run by an EventBridge schedule: one
//! [`missive_notify::Notifier::sweep`] per invocation (time-outs, reminders, daily
//! digests, turn mails never sent), configured from the environment like the API. The
//! sweep's counts are returned and logged; an invocation whose sweep had failures fails,
//! so they show in the function's error metrics (the next sweep retries them).

use lambda_runtime::{LambdaEvent, service_fn};
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    let notifier = missive_settings::Settings::lambda_notifier("sweeper").await?;
    let notifier = &notifier;
    lambda_runtime::run(service_fn(move |_: LambdaEvent<Value>| async move {
        let report = notifier.sweep().await?;
        tracing::info!(?report, "sweep done");
        if !report.failures.is_empty() {
            return Err(
                format!("{} failures: {:?}", report.failures.len(), report.failures).into(),
            );
        }
        Ok::<_, lambda_runtime::Error>(json!({
            "timeouts": report.timeouts,
            "turns": report.turns,
            "reminders": report.reminders,
            "digests": report.digests,
        }))
    }))
    .await
}
