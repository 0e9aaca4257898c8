//! Sending through Amazon SES (API v2), for the Lambda functions: each mail goes as a raw
//! message, so its headers (`List-Unsubscribe`, ...) and both parts arrive as rendered.

use async_trait::async_trait;
use aws_sdk_sesv2::Client;
use aws_sdk_sesv2::error::DisplayErrorContext;
use aws_sdk_sesv2::primitives::Blob;
use aws_sdk_sesv2::types::{Destination, EmailContent, RawMessage};

use crate::{Mail, MailError, Mailer, render};

/// A mailer sending through SES with one sender identity.
pub struct Ses {
    client: Client,
    from: String,
}

impl Ses {
    /// A mailer over `client` sending as `from` (an identity verified in SES).
    pub fn new(client: Client, from: &str) -> Ses {
        Ses {
            client,
            from: from.to_string(),
        }
    }

    /// A mailer configured from the standard AWS settings (region, credentials).
    pub async fn connect(from: &str) -> Ses {
        let config = missive_aws::config().await;
        Ses::new(Client::new(&config), from)
    }
}

#[async_trait]
impl Mailer for Ses {
    async fn send(&self, mail: &Mail) -> Result<(), MailError> {
        let message = render(&self.from, mail, chrono::Utc::now())?;
        let raw = RawMessage::builder()
            .data(Blob::new(message))
            .build()
            .map_err(|e| MailError::Invalid(e.to_string()))?;
        self.client
            .send_email()
            .from_email_address(&self.from)
            .destination(Destination::builder().to_addresses(&mail.to).build())
            .content(EmailContent::builder().raw(raw).build())
            .send()
            .await
            .map_err(|e| MailError::Transport(DisplayErrorContext(e).to_string()))?;
        Ok(())
    }
}
