//! Missive's operational metrics, written as CloudWatch embedded metric format (EMF): one
//! JSON line per measurement on stdout, which CloudWatch Logs turns into a metric of the
//! `Missive` namespace with the function's name as its `Function` dimension.
//!
//! Any crate records a measurement with [`record`]; nothing is written until a process
//! calls [`install`] (the Lambda functions do at start), so `missive serve`, the commands
//! and the tests write no metric lines.

use std::io::Write;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

/// The CloudWatch namespace of every metric.
pub const NAMESPACE: &str = "Missive";

/// What is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Moves played (appended to a game's log), each counted once.
    Moves,
    /// Mails handed to the mail service without error.
    MailsSent,
    /// Mails the mail service refused or could not be reached for.
    MailsFailed,
    /// Items a sweep found due (time-outs, turn mails, reminders, digests), failed or not.
    SweepDue,
    /// Items a sweep attended to without failure.
    SweepAttended,
    /// Games an archive import stored.
    ImportGames,
    /// Webhook deliveries that failed (an error, a time-out or a status not 2xx).
    WebhookFailures,
    /// How long a stream record waited before the notifier read it.
    StreamLag,
}

impl Metric {
    /// The metric's name in CloudWatch.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Moves => "Moves",
            Metric::MailsSent => "MailsSent",
            Metric::MailsFailed => "MailsFailed",
            Metric::SweepDue => "SweepDue",
            Metric::SweepAttended => "SweepAttended",
            Metric::ImportGames => "ImportGames",
            Metric::WebhookFailures => "WebhookFailures",
            Metric::StreamLag => "StreamLag",
        }
    }

    /// The metric's CloudWatch unit.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::StreamLag => "Milliseconds",
            _ => "Count",
        }
    }
}

/// The function name metrics are written for, once [`install`]ed.
static FUNCTION: OnceLock<String> = OnceLock::new();

/// From now on, [`record`] writes each measurement on stdout, for `function` (the
/// `Function` dimension). Later calls change nothing.
pub fn install(function: &str) {
    let _ = FUNCTION.set(function.to_string());
}

/// Records `value` of `metric`: one EMF line on stdout if [`install`] was called, else
/// nothing. Zero counts are not written. A line that cannot be written is dropped.
pub fn record(metric: Metric, value: f64) {
    let Some(function) = FUNCTION.get() else {
        return;
    };
    if value == 0.0 && metric.unit() == "Count" {
        return;
    }
    let line = emf_line(function, metric, value, now_millis());
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Records `count` of `metric`, as [`record`] does.
pub fn count(metric: Metric, count: usize) {
    record(metric, count as f64);
}

/// The EMF line of `value` of `metric` for `function` at `timestamp` (milliseconds since
/// the Unix epoch).
pub fn emf_line(function: &str, metric: Metric, value: f64, timestamp: u64) -> String {
    json!({
        "_aws": {
            "Timestamp": timestamp,
            "CloudWatchMetrics": [{
                "Namespace": NAMESPACE,
                "Dimensions": [["Function"]],
                "Metrics": [{"Name": metric.name(), "Unit": metric.unit()}],
            }],
        },
        "Function": function,
        metric.name(): value,
    })
    .to_string()
}

fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The line has what the EMF specification requires: `_aws` with a timestamp and one
    /// directive naming the namespace, the dimension set and the metric with its unit, and
    /// the dimension and the metric as members of the root object.
    #[test]
    fn a_line_is_an_emf_document() {
        let line: Value =
            serde_json::from_str(&emf_line("api", Metric::Moves, 2.0, 1_800_000_000_000)).unwrap();
        assert_eq!(line["_aws"]["Timestamp"], 1_800_000_000_000u64);
        let directive = &line["_aws"]["CloudWatchMetrics"][0];
        assert_eq!(directive["Namespace"], "Missive");
        assert_eq!(directive["Dimensions"], json!([["Function"]]));
        assert_eq!(
            directive["Metrics"],
            json!([{"Name": "Moves", "Unit": "Count"}])
        );
        assert_eq!(line["Function"], "api");
        assert_eq!(line["Moves"], 2.0);
    }

    #[test]
    fn lag_is_in_milliseconds() {
        let line: Value =
            serde_json::from_str(&emf_line("notifier", Metric::StreamLag, 1500.0, 1)).unwrap();
        assert_eq!(
            line["_aws"]["CloudWatchMetrics"][0]["Metrics"][0]["Unit"],
            "Milliseconds"
        );
        assert_eq!(line["StreamLag"], 1500.0);
    }
}
