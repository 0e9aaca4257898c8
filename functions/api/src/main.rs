//! The api Lambda function: the API's router under `lambda_http`, configured from the
//! environment (see [`missive_api::Settings`]), logging JSON lines (one access line per
//! request at `info`); a setting it cannot start with is reported as the init error.

use std::sync::Arc;

use clap::Parser;
use missive_api::Settings;
use missive_game::SystemClock;
use missive_settings::init_error::or_exit;
use missive_settings::{LogFormat, Opening, logging};

/// The function's configuration, from the environment only.
#[derive(Parser)]
struct Function {
    #[command(flatten)]
    settings: Settings,
}

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    let settings = or_exit(Function::try_parse_from(["api"]).map(|f| f.settings)).await;
    logging::init(settings.base.log_format.unwrap_or(LogFormat::Json));
    missive_metrics::install("api");
    let app = or_exit(
        settings
            .app(Arc::new(SystemClock), Opening::MayCreate)
            .await,
    )
    .await;
    lambda_http::run(app.router()).await
}
