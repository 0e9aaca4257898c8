//! Missive's outgoing mail: a [`Mail`] value, the [`Mailer`] trait every way of sending
//! implements, and three of them: [`Outbox`], which writes each mail as one `.eml` file into
//! a folder (the local server's `./outbox/`), [`Smtp`] (a relay, locally) and [`Ses`]
//! (Amazon SES, in Lambda). All send the same RFC 5322 text ([`render`]).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use thiserror::Error;

mod ses;
mod smtp;

pub use ses::Ses;
pub use smtp::Smtp;

/// One mail to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    /// The recipient's address.
    pub to: String,
    /// The subject line.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// An HTML body, sent beside the text one.
    pub html: Option<String>,
    /// Extra headers (`List-Unsubscribe`, ...), name and value.
    pub headers: Vec<(String, String)>,
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

/// A mailer that writes each mail as an RFC 5322 `.eml` file into a folder.
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
        let text = render(&self.from, mail, &chrono::Utc::now().to_rfc2822())?;
        let transport = |e: std::io::Error| MailError::Transport(e.to_string());
        tokio::fs::create_dir_all(&self.folder)
            .await
            .map_err(transport)?;
        let file = self.folder.join(format!("{}.eml", ulid::Ulid::new()));
        tokio::fs::write(file, text).await.map_err(transport)
    }
}

/// The mail as RFC 5322 text from `from`, dated `date`: plain text, or
/// `multipart/alternative` with the HTML body.
pub fn render(from: &str, mail: &Mail, date: &str) -> Result<String, MailError> {
    if mail.to.trim().is_empty() {
        return Err(MailError::Invalid("no recipient".into()));
    }
    let mut headers = vec![
        ("From".to_string(), from.to_string()),
        ("To".to_string(), mail.to.clone()),
        ("Subject".to_string(), mail.subject.clone()),
        ("Date".to_string(), date.to_string()),
        ("MIME-Version".to_string(), "1.0".to_string()),
    ];
    headers.extend(mail.headers.iter().cloned());
    let mut out = String::new();
    for (name, value) in &headers {
        if [name, value].iter().any(|s| s.contains(['\r', '\n'])) {
            return Err(MailError::Invalid(format!(
                "header {name} has a line break"
            )));
        }
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    let plain = "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit";
    match &mail.html {
        None => out.push_str(&format!("{plain}\r\n\r\n{}\r\n", crlf(&mail.text))),
        Some(html) => {
            let boundary = format!("missive-{}", ulid::Ulid::new());
            out.push_str(&format!(
                "Content-Type: multipart/alternative; boundary=\"{boundary}\"\r\n\r\n\
                 --{boundary}\r\n{plain}\r\n\r\n{}\r\n\
                 --{boundary}\r\nContent-Type: text/html; charset=utf-8\r\n\
                 Content-Transfer-Encoding: 8bit\r\n\r\n{}\r\n--{boundary}--\r\n",
                crlf(&mail.text),
                crlf(html)
            ));
        }
    }
    Ok(out)
}

fn crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail() -> Mail {
        Mail {
            to: "ann@example.org".into(),
            subject: "Sign in".into(),
            text: "Open this link:\nhttps://example.org/x".into(),
            html: None,
            headers: vec![("X-Missive".into(), "sign-in".into())],
        }
    }

    #[test]
    fn plain_mail_renders_headers_then_body() {
        let text = render(
            "missive@example.org",
            &mail(),
            "Sun, 1 Nov 2026 00:00:00 +0000",
        )
        .unwrap();
        assert!(text.starts_with("From: missive@example.org\r\nTo: ann@example.org\r\n"));
        assert!(text.contains("X-Missive: sign-in\r\n"));
        assert!(text.ends_with("\r\n\r\nOpen this link:\r\nhttps://example.org/x\r\n"));
    }

    #[test]
    fn html_mail_is_multipart() {
        let mail = Mail {
            html: Some("<p>hi</p>".into()),
            ..mail()
        };
        let text = render("m@example.org", &mail, "now").unwrap();
        assert!(text.contains("multipart/alternative"));
        assert!(text.contains("<p>hi</p>"));
    }

    #[test]
    fn header_injection_is_refused() {
        let mail = Mail {
            subject: "hi\r\nBcc: eve@example.org".into(),
            ..mail()
        };
        assert!(matches!(
            render("m@x.org", &mail, "now"),
            Err(MailError::Invalid(_))
        ));
    }

    #[tokio::test]
    async fn the_outbox_writes_one_file_per_mail() {
        let folder = std::env::temp_dir().join(format!("missive-outbox-{}", ulid::Ulid::new()));
        let outbox = Outbox::new(&folder, "m@example.org");
        outbox.send(&mail()).await.unwrap();
        outbox.send(&mail()).await.unwrap();
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 2);
        std::fs::remove_dir_all(folder).unwrap();
    }
}
