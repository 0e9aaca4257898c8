//! API Gateway's `@connections` API as the notifier's [`Gateway`]: a message to a WebSocket
//! connection is one `PostToConnection`, through the standard AWS configuration, at the
//! WebSocket API's stage endpoint.

use async_trait::async_trait;
use aws_sdk_apigatewaymanagement::Client;
use aws_sdk_apigatewaymanagement::error::{DisplayErrorContext, SdkError};
use aws_sdk_apigatewaymanagement::primitives::Blob;
use missive_domain::SocketId;
use missive_notify::{Gateway, Undelivered};

/// The `@connections` API of one WebSocket API stage.
pub struct Connections {
    client: Client,
}

impl Connections {
    /// The `@connections` API at `endpoint` (`https://{api}.execute-api.{region}.amazonaws.com/{stage}`).
    pub async fn connect(endpoint: &str) -> Connections {
        let shared = missive_aws::config().await;
        let config = aws_sdk_apigatewaymanagement::config::Builder::from(&shared)
            .endpoint_url(endpoint)
            .build();
        Connections {
            client: Client::from_conf(config),
        }
    }
}

#[async_trait]
impl Gateway for Connections {
    async fn send(&self, id: &SocketId, message: &str) -> Result<(), Undelivered> {
        let sent = self
            .client
            .post_to_connection()
            .connection_id(&id.0)
            .data(Blob::new(message.as_bytes()))
            .send()
            .await;
        match sent {
            Ok(_) => Ok(()),
            Err(SdkError::ServiceError(error)) if error.err().is_gone_exception() => {
                Err(Undelivered::Gone)
            }
            Err(error) => Err(Undelivered::Failed(DisplayErrorContext(error).to_string())),
        }
    }
}
