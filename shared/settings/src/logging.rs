//! Log set-up for every Missive process: one line per event on stderr, as JSON or text,
//! filtered by `RUST_LOG` (`info` when it is not set).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line, with the fields of the current span (the request's method,
    /// route and id); without timestamps when run in Lambda, which adds its own.
    Json,
    /// Human-readable lines; coloured only when stderr is a terminal.
    Text,
}

/// Installs the process's logger: `format` on stderr, the levels `RUST_LOG` names, else
/// `info` (which includes one access line per request). A line that cannot be written
/// (stderr closed) is dropped without a word, so logging never fails a request. Later
/// calls do nothing.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let in_lambda = std::env::var_os("AWS_LAMBDA_RUNTIME_API").is_some();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .log_internal_errors(false);
    let result = match (format, in_lambda) {
        (LogFormat::Json, true) => builder
            .json()
            .with_current_span(true)
            .without_time()
            .try_init(),
        (LogFormat::Json, false) => builder.json().with_current_span(true).try_init(),
        (LogFormat::Text, _) => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
    };
    if let Err(error) = result {
        tracing::debug!(%error, "a logger was installed already");
    }
}
