//! The notifier Lambda function: the game table's stream in, turn mails out (see
//! [`missive_notifier::handle`]), configured from the environment like the API.

use aws_lambda_events::dynamodb::Event;
use lambda_runtime::{LambdaEvent, service_fn};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    let notifier = missive_settings::Settings::lambda_notifier("notifier").await;
    let notifier = missive_settings::init_error::or_exit(notifier).await;
    let notifier = &notifier;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Event>| async move {
        Ok::<_, lambda_runtime::Error>(missive_notifier::handle(notifier, event.payload).await)
    }))
    .await
}
