//! The outbox as a player's inbox: the mails the server wrote, read with a MIME parser, and
//! the links in them as paths on the test server.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mail_parser::MimeHeaders;

use super::Server;

/// A move mail read from the outbox: whom it went to, the path of its link, and its file.
pub struct MoveMail {
    pub to: String,
    pub link: String,
    pub file: PathBuf,
}

/// Hands out each move mail of the outbox once.
pub struct Inbox<'s> {
    server: &'s Server,
    read: HashSet<PathBuf>,
}

impl<'s> Inbox<'s> {
    pub fn new(server: &'s Server) -> Inbox<'s> {
        Inbox {
            server,
            read: HashSet::new(),
        }
    }

    /// The next unread mail carrying a move link, waiting up to ten seconds for the
    /// notifier to write it; fails if two arrive for one turn.
    pub async fn next(&mut self) -> MoveMail {
        for _ in 0..200 {
            let mut fresh = self.unread_move_mails();
            if let Some(mail) = fresh.pop() {
                assert!(fresh.is_empty(), "two move mails for one turn");
                return mail;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no move mail in {}", self.server.outbox.display());
    }

    /// Unread mails with a move link, marked read.
    pub fn unread_move_mails(&mut self) -> Vec<MoveMail> {
        let mut mails = Vec::new();
        for path in mail_files(&self.server.outbox) {
            if self.read.contains(&path) {
                continue;
            }
            let mail = Read::file(&path);
            let Some(link) = link_in(&mail.text, &self.server.app.public_url, "/play/") else {
                continue;
            };
            let to = mail.to;
            self.read.insert(path.clone());
            mails.push(MoveMail {
                to,
                link,
                file: path,
            });
        }
        mails
    }
}

/// The mails in `outbox` (the `.eml` files the outbox renamed into it once written).
pub fn mail_files(outbox: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(outbox)
        .into_iter()
        .flatten()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
        .collect()
}

/// A mail of the outbox read with a MIME parser: its addressee, subject, text and HTML
/// parts, and the pictures the HTML shows by `cid:` reference.
pub struct Read {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Each inline part's `Content-ID` (without angle brackets) and bytes.
    pub pictures: Vec<(String, Vec<u8>)>,
}

impl Read {
    pub fn file(path: &Path) -> Read {
        Read::parse(&std::fs::read(path).unwrap())
    }

    pub fn parse(raw: &[u8]) -> Read {
        let message = mail_parser::MessageParser::default()
            .parse(raw)
            .expect("a MIME message");
        let to = message.to().and_then(|to| to.first()).expect("a To header");
        Read {
            to: to.address().unwrap_or_default().to_string(),
            subject: message.subject().unwrap_or_default().to_string(),
            text: message.body_text(0).unwrap_or_default().to_string(),
            html: message.body_html(0).unwrap_or_default().to_string(),
            pictures: message
                .attachments()
                .map(|part| {
                    let id = part.content_id().unwrap_or_default().to_string();
                    (id, part.contents().to_vec())
                })
                .collect(),
        }
    }
}

/// The path (from `marker` on, e.g. `/play/`) of the first link to `public_url` + `marker`
/// in a mail's text, if it has one.
pub fn link_in(mail: &str, public_url: &str, marker: &str) -> Option<String> {
    let start = mail.find(&format!("{public_url}{marker}"))? + public_url.len();
    let end = mail[start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || "/-_.?=".contains(c)))
        .map_or(mail.len(), |length| start + length);
    Some(mail[start..end].to_string())
}

/// The path of the sign-in link in the newest sign-in mail to `email`
/// (`/sign-in?token=...`); the mail's headers checked.
pub fn sign_in_link(server: &Server, email: &str) -> String {
    let raw = server.newest_mail(email);
    let message = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .expect("a MIME message");
    assert_eq!(message.subject(), Some("Your Missive sign-in link"));
    assert!(
        message
            .message_id()
            .is_some_and(|id| id.ends_with("@example.org"))
    );
    assert!(message.date().is_some(), "a Date header");
    let to = message.to().and_then(|to| to.first()).expect("a To header");
    assert_eq!(to.address(), Some(email));
    let text = message.body_text(0).expect("a text part");
    link_in(&text, &server.app.public_url, "/sign-in?token=").expect("a sign-in link")
}
