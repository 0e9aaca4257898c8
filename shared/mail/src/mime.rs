//! A [`Mail`] as an RFC 5322 message, built by lettre's message builder: the addresses
//! parsed, a `Message-ID` of its own at the sender's domain, the thread's root in
//! `In-Reply-To` and `References` when the mail has one, `Auto-Submitted: auto-generated`,
//! the `Date`, headers with non-ASCII text written as RFC 2047 encoded words, and each part in
//! the transfer encoding lettre finds best for it (7bit, quoted-printable or base64).
//!
//! The body's shape follows what the mail has: a text part alone; `multipart/alternative`
//! of the text and the HTML; or, when the HTML shows inline parts, `multipart/alternative`
//! of the text and a `multipart/related` holding the HTML and those parts. A mail with
//! attachments is a `multipart/mixed` of that body and the files.

use chrono::{DateTime, Utc};
use lettre::Message;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment as Part, Mailbox, MessageBuilder, MultiPart, SinglePart};

use crate::{Attachment, Inline, Mail, MailError};

/// The RFC 3834 header every message carries: it was written by a program, not a person,
/// so automatic responders leave it unanswered.
pub const AUTO_SUBMITTED: (&str, &str) = ("Auto-Submitted", "auto-generated");

/// The mail from `from` (`Name <a@b>` or `a@b`), dated `date`, as the bytes of an RFC 5322
/// message.
pub fn render(from: &str, mail: &Mail, date: DateTime<Utc>) -> Result<Vec<u8>, MailError> {
    Ok(message(from, mail, date)?.formatted())
}

fn message(from: &str, mail: &Mail, date: DateTime<Utc>) -> Result<Message, MailError> {
    if mail.to.trim().is_empty() {
        return Err(MailError::Invalid("no recipient".into()));
    }
    let sender = mailbox(from)?;
    let domain = sender.email.domain().to_string();
    let mut builder = Message::builder()
        .from(sender)
        .to(mailbox(&mail.to)?)
        .subject(one_line("Subject", &mail.subject)?)
        .date(date.into())
        .message_id(Some(message_id(&domain)));
    if let Some(thread) = &mail.thread {
        let root = thread_root(thread, &domain)?;
        builder = builder.in_reply_to(root.clone()).references(root);
    }
    builder = builder.raw_header(header(AUTO_SUBMITTED.0, AUTO_SUBMITTED.1)?);
    for (name, value) in &mail.headers {
        builder = builder.raw_header(header(name, value)?);
    }
    body(builder, mail).map_err(|e| MailError::Invalid(e.to_string()))
}

/// The body of a mail before its attachments: one part or a multipart.
enum Body {
    Single(SinglePart),
    Multi(MultiPart),
}

/// The builder finished with the mail's parts, its attachments after its body.
fn body(builder: MessageBuilder, mail: &Mail) -> Result<Message, MailError> {
    let message = match (content(mail)?, mail.attachments.as_slice()) {
        (Body::Single(part), []) => builder.singlepart(part),
        (Body::Multi(parts), []) => builder.multipart(parts),
        (body, attachments) => builder.multipart(mixed(body, attachments)?),
    };
    message.map_err(|e| MailError::Invalid(e.to_string()))
}

/// The text, the HTML and the parts the HTML shows.
fn content(mail: &Mail) -> Result<Body, MailError> {
    let text = SinglePart::plain(mail.text.clone());
    Ok(match (&mail.html, mail.inline.is_empty()) {
        (None, true) => Body::Single(text),
        (None, false) => {
            return Err(MailError::Invalid("inline parts need an HTML body".into()));
        }
        (Some(html), true) => Body::Multi(
            MultiPart::alternative()
                .singlepart(text)
                .singlepart(SinglePart::html(html.clone())),
        ),
        (Some(html), false) => Body::Multi(
            MultiPart::alternative()
                .singlepart(text)
                .multipart(related(html, &mail.inline)?),
        ),
    })
}

/// `body` followed by the files of `attachments`, under a `multipart/mixed`.
fn mixed(body: Body, attachments: &[Attachment]) -> Result<MultiPart, MailError> {
    let mut mixed = match body {
        Body::Single(part) => MultiPart::mixed().singlepart(part),
        Body::Multi(parts) => MultiPart::mixed().multipart(parts),
    };
    for file in attachments {
        let name = one_line("an attachment's name", &file.name)?;
        mixed = mixed.singlepart(
            Part::new(name.to_string()).body(file.data.clone(), content_type(&file.content_type)?),
        );
    }
    Ok(mixed)
}

/// The HTML part with the parts it shows, under a `multipart/related` naming the HTML as
/// its root's type (RFC 2387).
fn related(html: &str, inline: &[Inline]) -> Result<MultiPart, MailError> {
    let kind = format!(
        "multipart/related; type=\"text/html\"; boundary=\"related-{}\"",
        ulid::Ulid::new()
    );
    let mut related = MultiPart::builder()
        .header(content_type(&kind)?)
        .singlepart(SinglePart::html(html.to_string()));
    for part in inline {
        let content_id = one_line("Content-ID", &part.content_id)?;
        let name = one_line("a part's name", &part.name)?;
        related = related.singlepart(
            Part::new_inline_with_name(content_id.to_string(), name.to_string())
                .body(part.data.clone(), content_type(&part.content_type)?),
        );
    }
    Ok(related)
}

/// The media type `text` (`image/png`, `text/plain; charset=utf-8`).
fn content_type(text: &str) -> Result<ContentType, MailError> {
    ContentType::parse(text).map_err(|e| MailError::Invalid(format!("content type `{text}`: {e}")))
}

/// The mailbox in `text`: `Name <a@b>` or `a@b`.
pub(crate) fn mailbox(text: &str) -> Result<Mailbox, MailError> {
    one_line("an address", text)?
        .trim()
        .parse()
        .map_err(|e| MailError::Invalid(format!("address `{text}`: {e}")))
}

/// A new message id at `domain`: `<ULID@domain>`.
fn message_id(domain: &str) -> String {
    format!("<{}@{domain}>", ulid::Ulid::new())
}

/// The id every mail of `thread` refers to: `<{thread}@{domain}>`, if `thread` is of
/// letters, digits, `-` and `.` only.
fn thread_root(thread: &str, domain: &str) -> Result<String, MailError> {
    let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    if thread.is_empty() || !thread.chars().all(fits) {
        return Err(MailError::Invalid(format!("thread `{thread}`")));
    }
    Ok(format!("<{thread}@{domain}>"))
}

/// The extra header `name: value`, its value encoded as needed.
fn header(name: &str, value: &str) -> Result<HeaderValue, MailError> {
    let name = HeaderName::new_from_ascii(one_line("a header name", name)?.to_string())
        .map_err(|e| MailError::Invalid(format!("header name `{name}`: {e}")))?;
    let value = one_line(&name, value)?;
    Ok(HeaderValue::new(name, value.to_string()))
}

/// `text` if it holds no line break (which would let it write headers of its own).
fn one_line<'t>(what: &str, text: &'t str) -> Result<&'t str, MailError> {
    if text.contains(['\r', '\n']) {
        return Err(MailError::Invalid(format!("{what} has a line break")));
    }
    Ok(text)
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
            inline: Vec::new(),
            attachments: Vec::new(),
            headers: vec![("X-Missive".into(), "sign-in".into())],
            thread: None,
        }
    }

    fn rendered(mail: &Mail) -> String {
        let bytes = render("Missive <missive@example.org>", mail, Utc::now()).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn plain_mail_has_the_headers_and_one_text_part() {
        let text = rendered(&mail());
        assert!(text.contains("To: ann@example.org\r\n"), "{text}");
        assert!(text.contains("X-Missive: sign-in\r\n"));
        assert!(text.contains("Content-Type: text/plain; charset=utf-8\r\n"));
        assert!(text.contains("Message-ID: <") && text.contains("@example.org>\r\n"));
        assert!(!text.contains("multipart"));
        assert!(text.ends_with("https://example.org/x\r\n"), "{text}");
    }

    #[test]
    fn html_mail_is_multipart_alternative() {
        let text = rendered(&Mail {
            html: Some("<p>hi</p>".into()),
            ..mail()
        });
        assert!(text.contains("multipart/alternative"));
        assert!(!text.contains("multipart/related"));
        assert!(text.contains("<p>hi</p>"));
    }

    #[test]
    fn every_message_has_its_own_id() {
        let id = |text: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix("Message-ID: "))
                .map(str::to_string)
        };
        assert_ne!(id(&rendered(&mail())), id(&rendered(&mail())));
    }

    /// `text` parsed back by an independent MIME reader.
    fn parsed(text: &str) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default()
            .parse(text.as_bytes())
            .expect("a MIME message")
    }

    #[test]
    fn mails_of_a_thread_refer_to_its_root_each_with_an_id_of_its_own() {
        let threaded = Mail {
            thread: Some("game-01HZX3".into()),
            headers: vec![("Reply-To".into(), "play+x@example.org".into())],
            ..mail()
        };
        let (one, two) = (rendered(&threaded), rendered(&threaded));
        let (first, second) = (parsed(&one), parsed(&two));
        let root = Some("game-01HZX3@example.org");
        for message in [&first, &second] {
            let refers = (message.in_reply_to(), message.references());
            assert_eq!((refers.0.as_text(), refers.1.as_text()), (root, root));
            let id = message.message_id().expect("a Message-ID");
            assert!(id.ends_with("@example.org") && id != "game-01HZX3@example.org");
        }
        assert_ne!(first.message_id(), second.message_id());
        assert_eq!(
            one.matches("\r\nAuto-Submitted: auto-generated\r\n")
                .count(),
            1
        );
        assert_eq!(one.matches("\r\nReply-To: ").count(), 1, "{one}");
        assert_eq!(
            first.header_raw("Reply-To"),
            Some(" play+x@example.org\r\n")
        );
    }

    #[test]
    fn every_mail_is_auto_submitted_once_and_unthreaded_without_a_thread() {
        let text = rendered(&mail());
        assert!(
            text.contains("\r\nAuto-Submitted: auto-generated\r\n"),
            "{text}"
        );
        assert!(!text.contains("In-Reply-To") && !text.contains("References"));
        let replaced = rendered(&Mail {
            headers: vec![("Auto-Submitted".into(), "auto-replied".into())],
            ..mail()
        });
        assert_eq!(replaced.matches("Auto-Submitted:").count(), 1, "{replaced}");
        assert!(replaced.contains("Auto-Submitted: auto-replied\r\n"));
    }

    #[test]
    fn attachments_follow_the_body_in_a_mixed_multipart() {
        let archive = "[Event \"Casual game\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let text = rendered(&Mail {
            html: Some("<p><img src=\"cid:board\"></p>".into()),
            inline: vec![Inline {
                content_id: "board".into(),
                name: "board.png".into(),
                content_type: "image/png".into(),
                data: vec![0, 1, 2, 255],
            }],
            attachments: vec![Attachment {
                name: "game-7kq2m9zt.pgn".into(),
                content_type: "application/vnd.chess-pgn".into(),
                data: archive.as_bytes().to_vec(),
            }],
            ..mail()
        });
        let message = parsed(&text);
        let kind = message.content_type().expect("a content type");
        assert_eq!((kind.ctype(), kind.subtype()), ("multipart", Some("mixed")));
        assert!(message.body_text(0).unwrap().contains("Open this link"));
        assert!(message.body_html(0).unwrap().contains("cid:board"));
        use mail_parser::MimeHeaders;
        let file = message
            .attachments()
            .find(|part| part.attachment_name() == Some("game-7kq2m9zt.pgn"))
            .expect("the archive attached");
        assert_eq!(file.contents(), archive.as_bytes());
        let kind = file.content_type().expect("its type");
        assert_eq!(kind.subtype(), Some("vnd.chess-pgn"));
        let alone = rendered(&Mail {
            attachments: vec![Attachment {
                name: "a.txt".into(),
                content_type: "text/plain; charset=utf-8".into(),
                data: b"x".to_vec(),
            }],
            ..mail()
        });
        assert!(alone.contains("multipart/mixed") && !alone.contains("multipart/alternative"));
    }

    #[test]
    fn header_injection_is_refused() {
        let broken = [
            Mail {
                subject: "hi\r\nBcc: eve@example.org".into(),
                ..mail()
            },
            Mail {
                headers: vec![("X-A".into(), "b\nBcc: eve@example.org".into())],
                ..mail()
            },
            Mail {
                to: "ann@example.org\r\nBcc: eve@example.org".into(),
                ..mail()
            },
        ];
        for mail in broken {
            assert!(matches!(
                render("m@x.org", &mail, Utc::now()),
                Err(MailError::Invalid(_))
            ));
        }
    }

    #[test]
    fn unusable_mails_are_refused() {
        let picture = Inline {
            content_id: "board".into(),
            name: "board.png".into(),
            content_type: "image/png".into(),
            data: vec![1, 2, 3],
        };
        let broken = [
            Mail {
                to: " ".into(),
                ..mail()
            },
            Mail {
                to: "not an address".into(),
                ..mail()
            },
            Mail {
                headers: vec![("Bad Name".into(), "x".into())],
                ..mail()
            },
            Mail {
                thread: Some("game 1@elsewhere".into()),
                ..mail()
            },
            Mail {
                attachments: vec![Attachment {
                    name: "a\r\nBcc: eve@example.org".into(),
                    content_type: "text/plain".into(),
                    data: Vec::new(),
                }],
                ..mail()
            },
            Mail {
                inline: vec![picture.clone()],
                ..mail()
            },
            Mail {
                html: Some("<img src=\"cid:board\">".into()),
                inline: vec![Inline {
                    content_type: "no type".into(),
                    ..picture
                }],
                ..mail()
            },
        ];
        for mail in broken {
            assert!(
                matches!(
                    render("m@x.org", &mail, Utc::now()),
                    Err(MailError::Invalid(_))
                ),
                "{mail:?}"
            );
        }
        assert!(render("nobody", &mail(), Utc::now()).is_err());
    }
}
