//! Small text forms shared by the reader and the writer: tag values, times, seat tag names,
//! result tokens.

use std::borrow::Cow;

use chrono::{DateTime, NaiveDate, Utc};

/// `text` with every control character (newlines, tabs) replaced by a space: what a tag value
/// and the canonical content can hold.
pub fn clean(text: &str) -> Cow<'_, str> {
    if text.chars().any(char::is_control) {
        Cow::Owned(
            text.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// A tag value escaped for the archive: cleaned, with `\` and `"` preceded by `\`.
pub fn escape_tag_value(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in clean(text).chars() {
        if c == '\\' || c == '"' {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// The ICCF time form of `[%ccsnt ...]`: `2026.11.29,10:12:05`.
pub fn ccsnt_text(time: DateTime<Utc>) -> String {
    time_fields(time, '.', ',', None)
}

/// Formats `time` as `YYYY<d>MM<d>DD<t>hh:mm:ss` and then `end` if any, every field
/// zero-padded: the ICCF form (`.`, `,`) and the RFC 3339 form (`-`, `T`, `Z`) share it.
pub(crate) fn time_fields(
    time: DateTime<Utc>,
    date_separator: char,
    time_separator: char,
    end: Option<char>,
) -> String {
    use chrono::{Datelike, Timelike};
    let mut text = String::with_capacity(20);
    push_padded(&mut text, time.year().max(0) as u32, 4);
    for (separator, value) in [
        (date_separator, time.month()),
        (date_separator, time.day()),
        (time_separator, time.hour()),
        (':', time.minute()),
        (':', time.second()),
    ] {
        text.push(separator);
        push_padded(&mut text, value, 2);
    }
    text.extend(end);
    text
}

/// Appends the last `width` decimal digits of `value`, zero-padded.
fn push_padded(text: &mut String, value: u32, width: u32) {
    for place in (0..width).rev() {
        text.push(char::from(b'0' + (value / 10u32.pow(place) % 10) as u8));
    }
}

/// Reads `2026.11.29,10:12:05` (or without seconds, `2026.11.29,10:12`) as UTC: fixed
/// width, every field zero-padded.
pub fn parse_ccsnt(text: &str) -> Option<DateTime<Utc>> {
    let bytes = text.as_bytes();
    let separators: &[(usize, u8)] = &[(4, b'.'), (7, b'.'), (10, b','), (13, b':'), (16, b':')];
    if !(bytes.len() == 16 || bytes.len() == 19)
        || separators
            .iter()
            .any(|(at, byte)| *at < bytes.len() && bytes[*at] != *byte)
    {
        return None;
    }
    let field = |from: usize, to: usize| -> Option<u32> {
        bytes.get(from..to)?.iter().try_fold(0u32, |value, byte| {
            byte.is_ascii_digit()
                .then(|| value * 10 + u32::from(byte - b'0'))
        })
    };
    let second = if bytes.len() == 19 { field(17, 19)? } else { 0 };
    NaiveDate::from_ymd_opt(field(0, 4)? as i32, field(5, 7)?, field(8, 10)?)?
        .and_hms_opt(field(11, 13)?, field(14, 16)?, second)
        .map(|naive| naive.and_utc())
}

/// The tag naming a seat's player: the seat name with its first letter in upper case
/// (`white` gives `White`, `shu` gives `Shu`).
pub fn seat_tag(seat: &str) -> String {
    let mut chars = seat.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// True when `text` is a game termination marker: `*`, or per-seat scores (`1`, `0`,
/// `1/2`, `1/3`) joined by dashes that add up to one (`1-0`, `1/2-1/2`, `0-1-0`,
/// `1/3-1/3-1/3`). Castling written with zeros (`0-0`, `0-0-0`) is not one.
pub fn is_result_token(text: &str) -> bool {
    match text.as_bytes() {
        b"*" => return true,
        // Every score starts with `0` or `1`: most symbols are rejected here.
        [b'0' | b'1', ..] => {}
        _ => return false,
    }
    let mut sixths = 0;
    let mut parts = 0;
    for part in text.split('-') {
        parts += 1;
        sixths += match part {
            "1" => 6,
            "0" => 0,
            "1/2" => 3,
            "1/3" => 2,
            _ => return false,
        };
    }
    parts >= 2 && sixths == 6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_tokens() {
        let table = [
            ("*", true),
            ("1-0", true),
            ("0-1", true),
            ("1/2-1/2", true),
            ("1-0-0", true),
            ("0-1/2-1/2", true),
            ("1/3-1/3-1/3", true),
            ("0-0", false),
            ("0-0-0", false),
            ("1-1", false),
            ("1/2-1/2-1/2", false),
            ("1", false),
            ("e4", false),
        ];
        for (text, expected) in table {
            assert_eq!(is_result_token(text), expected, "{text}");
        }
    }

    #[test]
    fn ccsnt_times() {
        let table = [
            ("2026.11.29,10:12:05", Some("2026-11-29T10:12:05+00:00")),
            ("2026.11.29,10:12", Some("2026-11-29T10:12:00+00:00")),
            ("2026.02.30,10:12:05", None),
            ("2026.11.29,24:00:00", None),
            ("2026.11.29 10:12:05", None),
            ("2026.1.29,10:12:05", None),
            ("2026.11.29,10:12:5", None),
            ("", None),
        ];
        for (text, expected) in table {
            let parsed = parse_ccsnt(text).map(|t| t.to_rfc3339());
            assert_eq!(parsed.as_deref(), expected, "{text}");
            if let Some(time) = parse_ccsnt(text).filter(|_| text.len() == 19) {
                assert_eq!(ccsnt_text(time), text);
            }
        }
    }

    #[test]
    fn tag_values_and_seat_tags() {
        assert_eq!(escape_tag_value("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c d");
        assert_eq!(seat_tag("white"), "White");
        assert_eq!(seat_tag("wei"), "Wei");
        assert_eq!(seat_tag(""), "");
    }
}
