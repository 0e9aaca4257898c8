//! A Lambda function's failure to start, told the way Lambda expects it: one JSON log
//! line, then the error posted to the Runtime API's `/runtime/init/error` (so the
//! invocation fails with it as `errorMessage`, rather than as a bare exit), then exit.

use std::fmt::Display;

use serde_json::json;

/// The error type Lambda shows for a function that could not start.
pub const INIT_ERROR_TYPE: &str = "Runtime.InitError";

/// The value of `result`, or, if it is an error: the error logged as one JSON line
/// (`event: init_failed`; JSON logs are installed first if no logger is), posted to the Runtime API named by `AWS_LAMBDA_RUNTIME_API` (if
/// set) as `{"errorType", "errorMessage"}`, and the process ended with status 1.
pub async fn or_exit<T, E: Display>(result: Result<T, E>) -> T {
    match result {
        Ok(value) => value,
        Err(error) => {
            crate::logging::init(crate::LogFormat::Json);
            let message = error.to_string();
            tracing::error!(event = "init_failed", error = %message, "the function cannot start");
            if let Ok(api) = std::env::var("AWS_LAMBDA_RUNTIME_API")
                && let Err(failure) = post(&api, &message).await
            {
                tracing::error!(error = %failure, "the init error was not reported");
            }
            std::process::exit(1)
        }
    }
}

/// Posts `message` as the init error to the Runtime API at `api` (`host:port`).
async fn post(api: &str, message: &str) -> Result<(), reqwest::Error> {
    let body = json!({"errorType": INIT_ERROR_TYPE, "errorMessage": message});
    reqwest::Client::new()
        .post(format!("http://{api}/2018-06-01/runtime/init/error"))
        .header("Lambda-Runtime-Function-Error-Type", INIT_ERROR_TYPE)
        .json(&body)
        .send()
        .await?
        .error_for_status()?;
    Ok(())
}
