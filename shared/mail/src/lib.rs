//! Missive's outgoing mail: a [`Mail`] value, the [`Mailer`] trait every way of sending
//! implements, and three of them: [`Outbox`], which writes each mail as one `.eml` file into
//! a folder (the local server's `./outbox/`), [`Smtp`] (a relay, locally) and [`Ses`]
//! (Amazon SES, in Lambda). All send the same RFC 5322 message ([`render`]), built by
//! lettre's message builder.
//!
//! Every message is marked `Auto-Submitted: auto-generated` (RFC 3834), so that vacation
//! responders do not answer it, and has its own `Message-ID`. Mails of one conversation (the
//! mails about one game) name a [`Mail::thread`]: each then refers to the thread's root id,
//! which is how mail clients show them together.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use thiserror::Error;

mod mime;
mod ses;
mod smtp;

pub use mime::{AUTO_SUBMITTED, render};
pub use ses::Ses;
pub use smtp::Smtp;

/// One mail to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    /// The recipient's address.
    pub to: String,
    /// The subject line (any Unicode; encoded as RFC 2047 words where needed).
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// An HTML body, sent beside the text one.
    pub html: Option<String>,
    /// Parts the HTML body shows by reference (`<img src="cid:board">`), sent with it as
    /// `multipart/related`; only with an HTML body.
    pub inline: Vec<Inline>,
    /// Files sent beside the body (a game's archive), as `multipart/mixed`.
    pub attachments: Vec<Attachment>,
    /// Extra headers (`List-Unsubscribe`, `Reply-To`, ...), name and value, written as
    /// given; one named like a header the message has anyway (`Auto-Submitted`) takes its
    /// place.
    pub headers: Vec<(String, String)>,
    /// The conversation the mail belongs to, if any (`game-{id}`): letters, digits, `-` and
    /// `.`. The mail's `In-Reply-To` and `References` name the thread's root,
    /// `<{thread}@{sender's domain}>`, which no mail has as its own `Message-ID`: every
    /// mail of the thread refers to it, whichever of them a recipient got first.
    pub thread: Option<String>,
}

/// A file sent with a mail, such as a game's archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// Its file name (`game-7kq2m9zt.pgn`).
    pub name: String,
    /// Its media type (`application/vnd.chess-pgn`, `text/plain; charset=utf-8`).
    pub content_type: String,
    /// Its bytes.
    pub data: Vec<u8>,
}

/// A part of a mail that its HTML body shows, such as a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inline {
    /// The part's `Content-ID` without its angle brackets: the HTML refers to it as
    /// `cid:{content_id}`.
    pub content_id: String,
    /// A file name for clients that offer to save the part (`board.png`).
    pub name: String,
    /// Its media type (`image/png`).
    pub content_type: String,
    /// Its bytes.
    pub data: Vec<u8>,
}

/// Why a mail was not sent.
#[derive(Debug, Error)]
pub enum MailError {
    /// The mail itself is unusable (a header with a line break, an empty recipient).
    #[error("invalid mail: {0}")]
    Invalid(String),
    /// The transport failed.
    #[error("sending failed: {0}")]
    Transport(String),
}

/// Sends mail.
#[async_trait]
pub trait Mailer: Send + Sync {
    /// Sends `mail` from this mailer's sender; returns once it is accepted for delivery.
    async fn send(&self, mail: &Mail) -> Result<(), MailError>;
}

/// A mailer that sends with another and counts each outcome in the metrics
/// ([`missive_metrics::Metric::MailsSent`] and `MailsFailed`).
pub struct Metered(pub std::sync::Arc<dyn Mailer>);

#[async_trait]
impl Mailer for Metered {
    async fn send(&self, mail: &Mail) -> Result<(), MailError> {
        let sent = self.0.send(mail).await;
        let metric = match sent {
            Ok(()) => missive_metrics::Metric::MailsSent,
            Err(_) => missive_metrics::Metric::MailsFailed,
        };
        missive_metrics::count(metric, 1);
        sent
    }
}

/// A mailer that writes each mail as an RFC 5322 `.eml` file into a folder. A file appears
/// whole: the mail is written under a hidden name (`.{id}.part`) and renamed once written, so
/// whoever watches the folder never reads half a mail.
#[derive(Clone, Debug)]
pub struct Outbox {
    folder: PathBuf,
    from: String,
}

impl Outbox {
    /// An outbox writing into `folder` (created when needed) with `from` as the sender.
    pub fn new(folder: impl AsRef<Path>, from: &str) -> Outbox {
        Outbox {
            folder: folder.as_ref().to_path_buf(),
            from: from.to_string(),
        }
    }

    /// The folder written to.
    pub fn folder(&self) -> &Path {
        &self.folder
    }
}

#[async_trait]
impl Mailer for Outbox {
    async fn send(&self, mail: &Mail) -> Result<(), MailError> {
        let message = render(&self.from, mail, chrono::Utc::now())?;
        let transport = |e: std::io::Error| MailError::Transport(e.to_string());
        tokio::fs::create_dir_all(&self.folder)
            .await
            .map_err(transport)?;
        let name = ulid::Ulid::new();
        let part = self.folder.join(format!(".{name}.part"));
        tokio::fs::write(&part, message).await.map_err(transport)?;
        let file = self.folder.join(format!("{name}.eml"));
        tokio::fs::rename(part, file).await.map_err(transport)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_outbox_writes_one_file_per_mail() {
        let folder = std::env::temp_dir().join(format!("missive-outbox-{}", ulid::Ulid::new()));
        let outbox = Outbox::new(&folder, "m@example.org");
        let mail = Mail {
            to: "ann@example.org".into(),
            subject: "Sign in".into(),
            text: "Open this link".into(),
            html: None,
            inline: Vec::new(),
            attachments: Vec::new(),
            headers: Vec::new(),
            thread: None,
        };
        outbox.send(&mail).await.unwrap();
        outbox.send(&mail).await.unwrap();
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 2);
        std::fs::remove_dir_all(folder).unwrap();
    }
}
