//! A [`Mail`] as an RFC 5322 message, built by lettre's message builder: the addresses
//! parsed, a `Message-ID` at the sender's domain, the `Date`, headers with non-ASCII text
//! written as RFC 2047 encoded words, and each part in the transfer encoding lettre finds
//! best for it (7bit, quoted-printable or base64).
//!
//! The body's shape follows what the mail has: a text part alone; `multipart/alternative`
//! of the text and the HTML; or, when the HTML shows inline parts, `multipart/alternative`
//! of the text and a `multipart/related` holding the HTML and those parts.

use chrono::{DateTime, Utc};
use lettre::Message;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MessageBuilder, MultiPart, SinglePart};

use crate::{Inline, Mail, MailError};

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
    let id = message_id(&sender);
    let mut builder = Message::builder()
        .from(sender)
        .to(mailbox(&mail.to)?)
        .subject(one_line("Subject", &mail.subject)?)
        .date(date.into())
        .message_id(Some(id));
    for (name, value) in &mail.headers {
        builder = builder.raw_header(header(name, value)?);
    }
    body(builder, mail).map_err(|e| MailError::Invalid(e.to_string()))
}

/// The builder finished with the mail's parts.
fn body(builder: MessageBuilder, mail: &Mail) -> Result<Message, MailError> {
    let text = SinglePart::plain(mail.text.clone());
    let message = match (&mail.html, mail.inline.is_empty()) {
        (None, true) => builder.singlepart(text),
        (None, false) => {
            return Err(MailError::Invalid("inline parts need an HTML body".into()));
        }
        (Some(html), true) => builder.multipart(
            MultiPart::alternative()
                .singlepart(text)
                .singlepart(SinglePart::html(html.clone())),
        ),
        (Some(html), false) => builder.multipart(
            MultiPart::alternative()
                .singlepart(text)
                .multipart(related(html, &mail.inline)?),
        ),
    };
    message.map_err(|e| MailError::Invalid(e.to_string()))
}

/// The HTML part with the parts it shows, under a `multipart/related` naming the HTML as
/// its root's type (RFC 2387).
fn related(html: &str, inline: &[Inline]) -> Result<MultiPart, MailError> {
    let kind = format!(
        "multipart/related; type=\"text/html\"; boundary=\"related-{}\"",
        ulid::Ulid::new()
    );
    let kind = ContentType::parse(&kind).map_err(|e| MailError::Invalid(e.to_string()))?;
    let mut related = MultiPart::builder()
        .header(kind)
        .singlepart(SinglePart::html(html.to_string()));
    for part in inline {
        let content_id = one_line("Content-ID", &part.content_id)?;
        let name = one_line("a part's name", &part.name)?;
        let kind = ContentType::parse(&part.content_type).map_err(|e| {
            MailError::Invalid(format!("content type `{}`: {e}", part.content_type))
        })?;
        related = related.singlepart(
            Attachment::new_inline_with_name(content_id.to_string(), name.to_string())
                .body(part.data.clone(), kind),
        );
    }
    Ok(related)
}

/// The mailbox in `text`: `Name <a@b>` or `a@b`.
pub(crate) fn mailbox(text: &str) -> Result<Mailbox, MailError> {
    one_line("an address", text)?
        .trim()
        .parse()
        .map_err(|e| MailError::Invalid(format!("address `{text}`: {e}")))
}

/// A new message id at the sender's domain: `<ULID@domain>`.
fn message_id(sender: &Mailbox) -> String {
    format!("<{}@{}>", ulid::Ulid::new(), sender.email.domain())
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
            headers: vec![("X-Missive".into(), "sign-in".into())],
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
