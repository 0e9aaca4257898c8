//! Which reply address a mail was sent to: the envelope's recipients when the receiving
//! side names them (SES does), else the message's `Delivered-To`, `X-Original-To`, `To`
//! and `Cc`. The address is `{local}+{token}@{domain}`; the first recipient whose part
//! after the last `+` reads as a [`ReplyToken`] is the one. Its seal is checked later,
//! against the player in its seat.

use mail_parser::Message;
use missive_auth::ReplyToken;

/// The headers that may name the reply address, lower-cased.
const RECIPIENT_HEADERS: &[&str] = &["delivered-to", "x-original-to", "to", "cc"];

/// The reply token among `envelope` (the recipients the mail was delivered to, if known)
/// and the message's recipient headers; none if no recipient carries one.
pub fn reply_token(message: &Message<'_>, envelope: &[String]) -> Option<ReplyToken> {
    let from_envelope = envelope.iter().map(String::as_str);
    let from_headers = message
        .headers()
        .iter()
        .filter(|header| {
            RECIPIENT_HEADERS
                .iter()
                .any(|name| header.name.as_str().eq_ignore_ascii_case(name))
        })
        .filter_map(|header| {
            let raw = message
                .raw_message
                .get(header.offset_start as usize..header.offset_end as usize)?;
            std::str::from_utf8(raw).ok()
        });
    from_envelope
        .chain(from_headers)
        .flat_map(addresses)
        .find_map(token_of)
}

/// The addresses written in a header's text (`Name <a@b>, c@d`).
fn addresses(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || "<>,;\"'()".contains(c))
        .filter(|word| word.contains('@'))
}

/// The reply token of `address`, if its local part carries one after a `+`.
fn token_of(address: &str) -> Option<ReplyToken> {
    let (local, _) = address.rsplit_once('@')?;
    let (_, token) = local.rsplit_once('+')?;
    ReplyToken::read(token).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MessageParser;

    const TOKEN: &str = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnop";

    fn token(raw: &str, envelope: &[String]) -> Option<ReplyToken> {
        let message = MessageParser::default().parse(raw.as_bytes()).unwrap();
        reply_token(&message, envelope)
    }

    #[test]
    fn the_token_is_found_in_any_recipient_header() {
        let expected = ReplyToken::read(TOKEN).ok();
        for header in ["To", "Cc", "Delivered-To", "X-Original-To"] {
            let raw = format!(
                "From: ann@example.org\r\nTo: other@example.org\r\n\
                 {header}: \"Missive\" <REPLY+{}@Example.Org>\r\nSubject: Re\r\n\r\nNf3\r\n",
                TOKEN.to_uppercase()
            );
            assert_eq!(token(&raw, &[]), expected, "{header}");
        }
    }

    #[test]
    fn the_envelope_counts_and_other_addresses_carry_none() {
        let raw = "From: ann@example.org\r\nTo: moves@example.org, a+b@example.org\r\n\r\nNf3\r\n";
        assert_eq!(token(raw, &[]), None);
        let envelope = vec![format!("reply+{TOKEN}@example.org")];
        assert_eq!(token(raw, &envelope), ReplyToken::read(TOKEN).ok());
    }
}
