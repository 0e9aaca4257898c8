//! A mail written by the outbox, read back with an independent MIME parser (mail-parser):
//! every header, the parts and their nesting, the picture the HTML refers to by `cid:`,
//! and non-ASCII text in the subject and the sender's name.

use chrono::Utc;
use mail_parser::{Message, MessageParser, MessagePart, MimeHeaders, PartType};
use missive_mail::{Inline, Mail, Mailer, Outbox};

const FROM: &str = "Missivé Échecs <missive@example.org>";
const SUBJECT: &str =
    "Your move — 12... ♞f6 in 將 game (ünïcödé, long enough to be folded over lines)";
const UNSUBSCRIBE: &str = "<http://missive.test/unsubscribe/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4iLCJwdXJwb3NlIjoidW5zdWJzY3JpYmUifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw>";

/// Every byte value, so that any transfer encoding must carry it faithfully.
fn picture() -> Vec<u8> {
    (0..=255u8).cycle().take(5000).collect()
}

fn mail() -> Mail {
    Mail {
        to: "bob@example.org".into(),
        subject: SUBJECT.into(),
        text: format!(
            "Hello bob,\n\nann played 12... Nf6 — à toi.\nhttp://missive.test/play/{}\n",
            "x".repeat(200)
        ),
        html: Some(
            "<p>Hello bob — à toi.</p><p><img src=\"cid:board\" alt=\"the board\"></p>".into(),
        ),
        inline: vec![Inline {
            content_id: "board".into(),
            name: "board.png".into(),
            content_type: "image/png".into(),
            data: picture(),
        }],
        attachments: Vec::new(),
        thread: Some("game-01HZX3".into()),
        headers: vec![
            ("List-Unsubscribe".into(), UNSUBSCRIBE.into()),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ],
    }
}

/// Sends `mail` through an outbox and returns the one file it wrote.
async fn sent(mail: &Mail) -> Vec<u8> {
    let folder = std::env::temp_dir().join(format!("missive-mime-{}", ulid::Ulid::new()));
    Outbox::new(&folder, FROM).send(mail).await.unwrap();
    let file = std::fs::read_dir(&folder)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bytes = std::fs::read(&file).unwrap();
    std::fs::remove_dir_all(folder).unwrap();
    bytes
}

fn part<'m>(message: &'m Message, id: u32) -> &'m MessagePart<'m> {
    message.part(id).expect("a part")
}

/// The media type of a part, `type/subtype`.
fn media_type(part: &MessagePart) -> String {
    let kind = part.content_type().expect("a content type");
    format!("{}/{}", kind.ctype(), kind.subtype().unwrap_or(""))
}

/// The ids of a multipart's parts.
fn children(part: &MessagePart) -> Vec<u32> {
    part.sub_parts().expect("a multipart").to_vec()
}

#[tokio::test]
async fn the_outbox_writes_a_standard_message() {
    let before = Utc::now().timestamp();
    let raw = sent(&mail()).await;
    assert!(raw.is_ascii(), "every byte is encoded as 7-bit text");
    assert!(
        raw.split(|b| *b == b'\n').all(|line| line.len() <= 998),
        "no line is longer than RFC 5322 allows"
    );
    let message = MessageParser::default().parse(&raw).expect("a message");

    let from = message.from().and_then(|a| a.first()).expect("From");
    assert_eq!(from.name(), Some("Missivé Échecs"));
    assert_eq!(from.address(), Some("missive@example.org"));
    let to = message.to().and_then(|a| a.first()).expect("To");
    assert_eq!(to.address(), Some("bob@example.org"));
    assert_eq!(message.subject(), Some(SUBJECT));
    let date = message.date().expect("Date").to_timestamp();
    assert!((before - 1..=Utc::now().timestamp() + 1).contains(&date));
    let id = message.message_id().expect("Message-ID");
    let (unique, domain) = id.split_once('@').expect("an id at a domain");
    assert_eq!(domain, "example.org");
    assert!(!unique.is_empty() && unique != "game-01HZX3");
    assert_eq!(
        message.in_reply_to().as_text(),
        Some("game-01HZX3@example.org")
    );
    assert_eq!(
        message.references().as_text(),
        Some("game-01HZX3@example.org")
    );
    assert_eq!(
        message.header_raw("Auto-Submitted").map(str::trim),
        Some("auto-generated")
    );
    assert_eq!(
        message.header_raw("List-Unsubscribe").map(str::trim),
        Some(UNSUBSCRIBE)
    );
    assert_eq!(
        message.header_raw("List-Unsubscribe-Post").map(str::trim),
        Some("List-Unsubscribe=One-Click")
    );
    assert_eq!(
        message.header_raw("MIME-Version").map(str::trim),
        Some("1.0")
    );

    let root = part(&message, 0);
    assert_eq!(media_type(root), "multipart/alternative");
    let [text, related] = children(root)[..] else {
        panic!("two alternatives")
    };
    let text = part(&message, text);
    assert_eq!(media_type(text), "text/plain");
    assert_eq!(
        text.text_contents().map(|t| t.replace("\r\n", "\n")),
        Some(mail().text)
    );
    let related = part(&message, related);
    assert_eq!(media_type(related), "multipart/related");
    let root_type = related.content_type().and_then(|t| t.attribute("type"));
    assert_eq!(root_type, Some("text/html"));
    let [html, image] = children(related)[..] else {
        panic!("the HTML and its picture")
    };
    let html = part(&message, html);
    assert_eq!(media_type(html), "text/html");
    let PartType::Html(body) = &html.body else {
        panic!("an HTML body")
    };
    assert_eq!(Some(body.as_ref()), mail().html.as_deref());

    let image = part(&message, image);
    assert_eq!(media_type(image), "image/png");
    let cid = image.content_id().expect("a Content-ID");
    assert!(body.contains(&format!("src=\"cid:{cid}\"")), "{body}");
    assert_eq!(image.attachment_name(), Some("board.png"));
    assert!(image.content_disposition().is_some_and(|d| d.is_inline()));
    assert_eq!(image.contents(), picture().as_slice());
}

#[tokio::test]
async fn a_plain_mail_is_one_text_part() {
    let plain = Mail {
        html: None,
        inline: Vec::new(),
        headers: vec![("X-Missive-Token".into(), "t0k3n".into())],
        ..mail()
    };
    let raw = sent(&plain).await;
    let message = MessageParser::default().parse(&raw).expect("a message");
    assert_eq!(media_type(part(&message, 0)), "text/plain");
    assert_eq!(message.subject(), Some(SUBJECT));
    assert_eq!(
        message.header_raw("X-Missive-Token").map(str::trim),
        Some("t0k3n")
    );
    let body = message
        .body_text(0)
        .expect("a text body")
        .replace("\r\n", "\n");
    assert_eq!(body.trim_end(), plain.text.trim_end());
}
