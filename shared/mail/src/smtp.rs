//! Sending over SMTP (lettre, TLS by rustls), for a local server with a mail relay.

use async_trait::async_trait;
use lettre::address::Envelope;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use crate::mime::mailbox;
use crate::{Mail, MailError, Mailer, render};

/// A mailer that hands each mail to one SMTP server.
pub struct Smtp {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: String,
    sender: Address,
}

impl Smtp {
    /// A mailer for the server at `url` with `from` as the sender: `smtp://user:pass@host:587`
    /// (plain, or STARTTLS when the URL ends in `?tls=required`), `smtps://...` (TLS from
    /// the start). The URL is lettre's connection URL.
    pub fn new(url: &str, from: &str) -> Result<Smtp, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| MailError::Invalid(format!("SMTP URL: {e}")))?
            .build();
        Ok(Smtp {
            transport,
            from: from.to_string(),
            sender: mailbox(from)?.email,
        })
    }
}

#[async_trait]
impl Mailer for Smtp {
    async fn send(&self, mail: &Mail) -> Result<(), MailError> {
        let message = render(&self.from, mail, chrono::Utc::now())?;
        let envelope = Envelope::new(Some(self.sender.clone()), vec![mailbox(&mail.to)?.email])
            .map_err(|e| MailError::Invalid(e.to_string()))?;
        self.transport
            .send_raw(&envelope, &message)
            .await
            .map_err(|e| MailError::Transport(e.to_string()))?;
        Ok(())
    }
}
