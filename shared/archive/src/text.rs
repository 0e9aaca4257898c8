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
    let mut text = String::with_capacity(20);
    push_time_fields(&mut text, time, date_separator, time_separator, end);
    text
}

/// Appends `time` to `text` as [`time_fields`] writes it.
pub(crate) fn push_time_fields(
    text: &mut String,
    time: DateTime<Utc>,
    date_separator: char,
    time_separator: char,
    end: Option<char>,
) {
    use chrono::{Datelike, Timelike};
    push_padded(text, time.year().max(0) as u32, 4);
    for (separator, value) in [
        (date_separator, time.month()),
        (date_separator, time.day()),
        (time_separator, time.hour()),
        (':', time.minute()),
        (':', time.second()),
    ] {
        text.push(separator);
        push_padded(text, value, 2);
    }
    text.extend(end);
}

/// Appends the last `width` decimal digits of `value`, zero-padded.
fn push_padded(text: &mut String, value: u32, width: u32) {
    for place in (0..width).rev() {
        text.push(char::from(b'0' + (value / 10u32.pow(place) % 10) as u8));
    }
}

/// Reads `2026.11.29,10:12:05` (or without seconds, `2026.11.29,10:12`) as UTC: fixed
/// width, every field zero-padded.
#[inline]
pub fn parse_ccsnt(text: &(impl AsRef<[u8]> + ?Sized)) -> Option<DateTime<Utc>> {
    let bytes = text.as_ref();
    let second = match bytes.len() {
        16 => 0,
        19 if bytes[16] == b':' => two_digits(bytes[17], bytes[18])?,
        _ => return None,
    };
    let date = digit_pairs(bytes[..8].try_into().ok()?, DATE_GROUP)?;
    let rest = digit_pairs(bytes[8..16].try_into().ok()?, REST_GROUP)?;
    let year = u32::from(date[0]) * 100 + u32::from(date[2]);
    calendar_date(year, u32::from(date[5]), u32::from(rest[0]))?
        .and_hms_opt(u32::from(rest[3]), u32::from(rest[6]), second)
        .map(|naive| naive.and_utc())
}

/// Eight bytes of a time as they must be: where digits stand, and the separators elsewhere.
struct Group {
    /// 0xFF in each byte where a digit stands.
    digits: u64,
    /// The separators, zero where a digit stands.
    separators: u64,
}

impl Group {
    /// The group written as `pattern`, a `0` where each digit stands.
    const fn new(pattern: &[u8; 8]) -> Group {
        let mut digits = [0; 8];
        let mut at = 0;
        while at < 8 {
            if pattern[at] == b'0' {
                digits[at] = 0xFF;
            }
            at += 1;
        }
        let digits = u64::from_le_bytes(digits);
        Group {
            digits,
            separators: u64::from_le_bytes(*pattern) & !digits,
        }
    }
}

/// A time's first eight bytes: `2026.11.`.
const DATE_GROUP: Group = Group::new(b"0000.00.");
/// A time's next eight bytes: `29,10:12`.
const REST_GROUP: Group = Group::new(b"00,00:00");

/// `0x30` (`0`) in every byte.
const ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);
/// The high half of every byte.
const HIGH: u64 = u64::from_le_bytes([0xF0; 8]);
/// `6` in every byte.
const SIXES: u64 = u64::from_le_bytes([6; 8]);

/// The two-digit numbers of `bytes` when they are as `group` says (a digit where it has
/// one, its separators elsewhere; the eight bytes checked at once): in each byte, the number
/// its digit and the next byte write (a separator counting as zero).
#[inline]
fn digit_pairs(bytes: [u8; 8], group: Group) -> Option<[u8; 8]> {
    let word = u64::from_le_bytes(bytes);
    let zeros = ZEROS & group.digits;
    // A byte `0x30..=0x3F` stays below `0x40` with 6 added only when it is a digit (and
    // carries into no other byte); a byte that would carry fails one of the other checks.
    let digits = word & group.digits & HIGH == zeros
        && word.wrapping_add(SIXES) & group.digits & HIGH == zeros
        && word & !group.digits == group.separators;
    if !digits {
        return None;
    }
    // Each byte at most 9: ten times one and the next stay within the byte.
    let values = (word & group.digits) - zeros;
    Some((values * 10 + (values >> 8)).to_le_bytes())
}

/// The number two ASCII digits write, if they are digits.
#[inline]
fn two_digits(tens: u8, ones: u8) -> Option<u32> {
    let (tens, ones) = (tens.wrapping_sub(b'0'), ones.wrapping_sub(b'0'));
    (tens < 10 && ones < 10).then(|| u32::from(tens) * 10 + u32::from(ones))
}

/// The date of `year` (0 to 9999), `month` and `day`, if there is one: what
/// [`NaiveDate::from_ymd_opt`] gives, found through the day of the year, which costs less.
#[inline]
fn calendar_date(year: u32, month: u32, day: u32) -> Option<NaiveDate> {
    /// The days of the year before each month's first, in a common year.
    const BEFORE: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    const LENGTH: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let index = usize::try_from(month.checked_sub(1)?)
        .ok()
        .filter(|i| *i < 12)?;
    let leap_day = u32::from(leap && month > 2);
    let length = LENGTH[index] + u32::from(leap && month == 2);
    if day == 0 || day > length {
        return None;
    }
    let ordinal = BEFORE[index] + day + leap_day;
    match YEAR_STARTS.get(year.wrapping_sub(FIRST_LISTED_YEAR) as usize) {
        Some(start) => chrono::Datelike::with_ordinal(start, ordinal),
        None => NaiveDate::from_yo_opt(year as i32, ordinal),
    }
}

/// The first year of [`YEAR_STARTS`].
const FIRST_LISTED_YEAR: u32 = 1970;

/// The first day of each of the 128 years from [`FIRST_LISTED_YEAR`]: a date of those years
/// is made from it for less than from its year.
const YEAR_STARTS: [NaiveDate; 128] = {
    let mut starts = [NaiveDate::MIN; 128];
    let mut at = 0;
    while at < starts.len() {
        starts[at] = NaiveDate::from_yo_opt(FIRST_LISTED_YEAR as i32 + at as i32, 1)
            .expect("every listed year has a first day");
        at += 1;
    }
    starts
};

/// `text` as free text after a command in a comment, written so that it reads back exactly:
/// each `%`, `{`, `}` and control character (line feeds, tabs) as `%` and the two hex digits
/// of each of its UTF-8 bytes, and each space that does not stand between two other
/// characters (leading, trailing, doubled) as `%20`. What is left is words joined by single
/// spaces, where a line may break, holding neither a comment's end nor a command.
pub fn escape_free_text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut escaped = String::with_capacity(text.len());
    for (index, c) in chars.iter().copied().enumerate() {
        let between_words = index > 0
            && chars.get(index - 1).is_some_and(|before| *before != ' ')
            && chars.get(index + 1).is_some_and(|after| *after != ' ');
        let plain = match c {
            ' ' => between_words,
            '%' | '{' | '}' => false,
            c => !c.is_control(),
        };
        if plain {
            escaped.push(c);
        } else {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                escaped.push('%');
                escaped.push(char::from(HEX[usize::from(byte >> 4)]));
                escaped.push(char::from(HEX[usize::from(byte & 0x0f)]));
            }
        }
    }
    escaped
}

/// Free text as [`escape_free_text`] wrote it, back as it was: its words (split at spaces and
/// line ends, as the movetext's lines broke them) joined by single spaces, each `%` and two
/// hex digits the byte they give. A `%` without two hex digits after it stays as it is; bytes
/// that are not UTF-8 read as U+FFFD.
pub fn unescape_free_text(written: &str) -> String {
    let joined = written
        .split_ascii_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let bytes = joined.as_bytes();
    let mut text = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| {
                Some((
                    hex_value(*bytes.get(index + 1)?)?,
                    hex_value(*bytes.get(index + 2)?)?,
                ))
            })
            .flatten();
        match escaped {
            Some((high, low)) => {
                text.push((high << 4) | low);
                index += 3;
            }
            None => {
                text.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// Upper-case hex digits, as [`escape_free_text`] writes them.
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The value of a hex digit of either case.
fn hex_value(digit: u8) -> Option<u8> {
    char::from(digit).to_digit(16).map(|value| value as u8)
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
#[inline]
pub fn is_result_token(text: &(impl AsRef<[u8]> + ?Sized)) -> bool {
    let text = text.as_ref();
    match text {
        b"*" => return true,
        // Every score starts with `0` or `1`: most symbols are rejected here.
        [b'0' | b'1', ..] => {}
        _ => return false,
    }
    let mut sixths = 0;
    let mut parts = 0;
    for part in text.split(|byte| *byte == b'-') {
        parts += 1;
        sixths += match part {
            b"1" => 6,
            b"0" => 0,
            b"1/2" => 3,
            b"1/3" => 2,
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

    /// `text` read as a time field by field, each checked on its own.
    fn ccsnt_by_fields(text: &[u8]) -> Option<DateTime<Utc>> {
        let pattern: &[u8] = match text.len() {
            19 => b"0000.00.00,00:00:00",
            16 => b"0000.00.00,00:00",
            _ => return None,
        };
        let fits = text.iter().zip(pattern).all(|(byte, want)| match want {
            b'0' => byte.is_ascii_digit(),
            _ => byte == want,
        });
        let number = |at: usize, width: usize| {
            std::str::from_utf8(&text[at..at + width])
                .ok()?
                .parse::<u32>()
                .ok()
        };
        let second = if text.len() == 19 { number(17, 2)? } else { 0 };
        fits.then_some(())?;
        NaiveDate::from_ymd_opt(number(0, 4)? as i32, number(5, 2)?, number(8, 2)?)?
            .and_hms_opt(number(11, 2)?, number(14, 2)?, second)
            .map(|naive| naive.and_utc())
    }

    proptest::proptest! {
        #[test]
        fn ccsnt_times_read_as_field_by_field(
            edits in proptest::collection::vec(
                (0usize..19, proptest::sample::select(&b"0123456789.,: /9\x2f\x3a\xff\xfa\x40\x3f"[..])),
                0..4,
            ),
            date in (0u32..10_000, 0u32..14, 0u32..33, 0u32..25, 0u32..61, 0u32..61),
            length in proptest::sample::select(&[16usize, 19, 18, 20][..]),
        ) {
            let (year, month, day, hour, minute, second) = date;
            let text = format!("{year:04}.{month:02}.{day:02},{hour:02}:{minute:02}:{second:02}0");
            let mut bytes = text.into_bytes();
            for (at, byte) in edits {
                bytes[at] = byte;
            }
            bytes.truncate(length);
            proptest::prop_assert_eq!(parse_ccsnt(&bytes), ccsnt_by_fields(&bytes), "{:?}", bytes);
        }
    }

    #[test]
    fn calendar_dates_are_chronos() {
        let years = (0..=800).chain(1580..=2800).chain(9980..=9999);
        for year in years {
            for month in 0..=13 {
                for day in 0..=32 {
                    assert_eq!(
                        calendar_date(year, month, day),
                        NaiveDate::from_ymd_opt(year as i32, month, day),
                        "{year}-{month}-{day}"
                    );
                }
            }
        }
    }

    #[test]
    fn free_text_reads_back_exactly_and_holds_no_comment_end_or_command() {
        let table = [
            (
                "Adjourned; white's win is clear",
                "Adjourned; white's win is clear",
            ),
            ("a}b{c [%ccsnt x] 100%", "a%7Db%7Bc [%25ccsnt x] 100%25"),
            (" two  spaces ", "%20two%20%20spaces%20"),
            ("line\nfeed\ttab", "line%0Afeed%09tab"),
            ("Čapek \u{85}", "Čapek %C2%85"),
            ("", ""),
        ];
        for (text, written) in table {
            assert_eq!(escape_free_text(text), written, "{text:?}");
            assert_eq!(unescape_free_text(written), text, "{written:?}");
            let broken = written.replace(' ', "\n  ");
            assert_eq!(
                unescape_free_text(&broken),
                text,
                "lines broken: {broken:?}"
            );
        }
        assert_eq!(unescape_free_text("100% %zz %4"), "100% %zz %4");
        assert_eq!(unescape_free_text("%ff"), "\u{fffd}");
        assert_eq!(unescape_free_text("%e2%82%ac"), "€");
    }

    #[test]
    fn tag_values_and_seat_tags() {
        assert_eq!(escape_tag_value("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c d");
        assert_eq!(seat_tag("white"), "White");
        assert_eq!(seat_tag("wei"), "Wei");
        assert_eq!(seat_tag(""), "");
    }
}
