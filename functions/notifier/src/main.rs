//! The notifier Lambda function: the game table's stream in, turn mails out (see
//! [`missive_notifier::handle`]), configured from the environment like the API.

use std::sync::Arc;

use aws_lambda_events::dynamodb::Event;
use clap::Parser;
use lambda_runtime::{LambdaEvent, service_fn};
use missive_api::Settings;
use missive_game::SystemClock;

/// The function's configuration, from the environment only.
#[derive(Parser)]
struct Function {
    #[command(flatten)]
    settings: Settings,
}

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    missive_api::log_json_lines();
    let settings = Function::parse_from(["notifier"]).settings;
    let app = settings.app(Arc::new(SystemClock)).await?;
    let notifier = settings.notifier(&app);
    let notifier = &notifier;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Event>| async move {
        Ok::<_, lambda_runtime::Error>(missive_notifier::handle(notifier, event.payload).await)
    }))
    .await
}
