//! The api Lambda function: the API's router under `lambda_http`, configured from the
//! environment (see [`missive_api::Settings`]), logging JSON lines.

use std::sync::Arc;

use clap::Parser;
use missive_api::Settings;
use missive_game::SystemClock;

/// The function's configuration, from the environment only.
#[derive(Parser)]
struct Function {
    #[command(flatten)]
    settings: Settings,
}

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    missive_api::log_json_lines();
    let function = Function::parse_from(["api"]);
    let app = function
        .settings
        .app(Arc::new(SystemClock))
        .await
        .map_err(lambda_http::Error::from)?;
    lambda_http::run(app.router()).await
}
