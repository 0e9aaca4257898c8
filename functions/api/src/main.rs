//! The api Lambda function: the API's router under `lambda_http`, configured from the
//! environment (see [`missive_api::Settings`]), logging JSON lines (one access line per
//! request at `info`); a setting it cannot start with is reported as the init error. The
//! same function handles the events of the WebSocket API (connections opening, their
//! messages, their closing: [`missive_api::sockets::gateway`]).

use std::sync::Arc;

use clap::Parser;
use missive_api::Settings;
use missive_api::sockets::gateway;
use missive_game::SystemClock;
use missive_settings::init_error::or_exit;
use missive_settings::{LogFormat, Opening, logging};
use tower::ServiceExt;

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
    let sockets = settings.base.sockets(&app.service).await;
    let router = app.clone().router();
    let handler = tower::service_fn(move |request: lambda_http::Request| {
        let (app, sockets, router) = (app.clone(), sockets.clone(), router.clone());
        async move {
            match gateway::context_of(&request) {
                Some(context) => {
                    let context = context.clone();
                    Ok(gateway::handle(&app, sockets.as_ref(), &context, &request).await)
                }
                None => router.oneshot(request).await,
            }
        }
    });
    lambda_http::run(handler).await
}
