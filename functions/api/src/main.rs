//! The api Lambda function: the API's router under `lambda_http`, configured from the
//! environment (see [`missive_api::Settings`]), logging JSON lines (one access line per
//! request at `info`).

use std::sync::Arc;

use clap::Parser;
use missive_api::Settings;
use missive_game::SystemClock;
use missive_settings::{LogFormat, Opening, logging};

/// The function's configuration, from the environment only.
#[derive(Parser)]
struct Function {
    #[command(flatten)]
    settings: Settings,
}

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    let settings = Function::parse_from(["api"]).settings;
    logging::init(settings.base.log_format.unwrap_or(LogFormat::Json));
    let app = settings
        .app(Arc::new(SystemClock), Opening::MayCreate)
        .await
        .map_err(lambda_http::Error::from)?;
    lambda_http::run(app.router()).await
}
