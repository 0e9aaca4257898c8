//! The sweeper Lambda function, run by an EventBridge schedule: one
//! [`missive_notify::Scheduler::sweep`] per invocation (time-outs, reminders, daily
//! digests, turn mails never sent), configured from the environment like the API; then it
//! waits (at most [`HOOKS_WAIT`]) for the webhook deliveries the sweep handed over, since
//! the function is frozen once it answered. The
//! sweep's counts are returned and logged; an invocation whose sweep had failures fails,
//! so they show in the function's error metrics (the next sweep retries them).

use std::time::Duration;

use lambda_runtime::{LambdaEvent, service_fn};
use missive_metrics::Metric;
use missive_notify::SweepReport;
use serde_json::{Value, json};

/// The longest an invocation waits for its webhook deliveries (the function's timeout is
/// 300 s).
const HOOKS_WAIT: Duration = Duration::from_secs(120);

/// Logs `report` as one line of fields and counts what was due and what was attended to
/// in the metrics.
fn log_and_count(report: &SweepReport) {
    let attended = report.timeouts
        + report.turns
        + report.starts
        + report.reminders
        + report.endings
        + report.digests
        + report.notes
        + report.leaves
        + report.tournaments
        + report.tournaments_started;
    tracing::info!(
        due = report.due,
        attended,
        timeouts = report.timeouts,
        turns = report.turns,
        reminders = report.reminders,
        digests = report.digests,
        endings = report.endings,
        tournaments = report.tournaments,
        rating_periods = report.rating_periods,
        hooks = report.hooks,
        failures = report.failures.len(),
        "sweep done"
    );
    missive_metrics::count(Metric::SweepDue, report.due);
    missive_metrics::count(Metric::SweepAttended, attended);
}

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    let notifier = missive_settings::Settings::lambda_notifier("sweeper").await;
    let notifier = missive_settings::init_error::or_exit(notifier).await;
    let notifier = &notifier;
    lambda_runtime::run(service_fn(move |_: LambdaEvent<Value>| async move {
        let report = notifier.sweep().await?;
        if !notifier.hooks_settled(HOOKS_WAIT).await {
            tracing::warn!("webhook deliveries still under way; the next sweep goes on");
        }
        log_and_count(&report);
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
