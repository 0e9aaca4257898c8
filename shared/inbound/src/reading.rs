//! A reply's own words: its text part (or, when it has only HTML, the HTML as text, quoted
//! blocks left out), without what it quotes or forwards and without the signature. Replies
//! are top-posted (the answer above the quoted mail) or bottom-posted (below it): either
//! way the answer is the first line of the reply's own text.

use mail_parser::{Message, MimeHeaders};

/// The lines that end a reply's own text: a signature's separator, and the headers mail
/// programs put above an original they quote or forward without `>` marks.
const ENDS: &[&str] = &[
    "-----original message-----",
    "---------- forwarded message ---------",
    "begin forwarded message:",
    "________________________________",
];

/// How lines introducing a quotation end ("On Mon, 2 Mar 2026, Missive wrote:"), in the
/// languages mail programs commonly write them in.
const ATTRIBUTION_ENDS: &[&str] = &["wrote:", "a écrit :", "a écrit:", "schrieb:", "escribió:"];

/// How many lines an attribution may be wrapped over.
const ATTRIBUTION_LINES: usize = 3;

/// The first line of the reply's own text, trimmed; none if it has none.
pub fn first_own_line(message: &Message<'_>) -> Option<String> {
    let text = body_text(message)?;
    own_lines(&text).into_iter().next().map(str::to_string)
}

/// The message's text part, or its HTML part as text (quoted blocks left out) when it has
/// no text part.
fn body_text(message: &Message<'_>) -> Option<String> {
    let has_plain = message
        .text_bodies()
        .any(|part| part.is_content_type("text", "plain"));
    if has_plain {
        return message.body_text(0).map(|text| text.into_owned());
    }
    message
        .body_html(0)
        .map(|html| mail_parser::decoders::html::html_to_text(&html_lines(&html)))
}

/// `html` without its `<blockquote>` elements (what it quotes), each block's end made a
/// line break so that the text keeps the lines the reader saw.
pub fn html_lines(html: &str) -> String {
    let unquoted = without_element(html, "blockquote");
    let mut out = String::with_capacity(unquoted.len());
    let lower = unquoted.to_ascii_lowercase();
    let mut at = 0;
    while let Some(found) = lower[at..].find('<') {
        let start = at + found;
        out.push_str(&unquoted[at..start]);
        let tag = &lower[start..];
        let is_block_end = [
            "</div", "</li", "</tr", "</h1", "</h2", "</h3", "<hr", "</table",
        ]
        .iter()
        .any(|block| tag.starts_with(block));
        if is_block_end {
            out.push_str("<br>");
        }
        out.push('<');
        at = start + 1;
    }
    out.push_str(&unquoted[at..]);
    out
}

/// `html` with every `name` element (nested ones too) and its content removed.
fn without_element(html: &str, name: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let (open, close) = (format!("<{name}"), format!("</{name}"));
    let mut out = String::with_capacity(html.len());
    let (mut depth, mut at) = (0usize, 0);
    while at < html.len() {
        let next_open = lower[at..].find(&open).map(|i| at + i);
        let next_close = lower[at..].find(&close).map(|i| at + i);
        let (tag_at, opens) = match (next_open, next_close) {
            (Some(o), Some(c)) if o < c => (o, true),
            (_, Some(c)) => (c, false),
            (Some(o), None) => (o, true),
            (None, None) => break,
        };
        if depth == 0 {
            out.push_str(&html[at..tag_at]);
        }
        depth = if opens {
            depth + 1
        } else {
            depth.saturating_sub(1)
        };
        at = lower[tag_at..]
            .find('>')
            .map_or(html.len(), |end| tag_at + end + 1);
    }
    if depth == 0 && at < html.len() {
        out.push_str(&html[at..]);
    }
    out
}

/// The non-empty lines of `text` that the reply wrote itself, trimmed: up to its signature
/// or a forwarded original, leaving out quoted lines (`>`) and the lines introducing them.
pub fn own_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut own = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let trimmed = line.trim();
        if ends_own_text(line, &lines[index + 1..]) {
            break;
        }
        if let Some(last) = attribution_end(&lines[index..]) {
            index += last + 1;
            continue;
        }
        if !trimmed.is_empty() && !trimmed.starts_with('>') {
            own.push(trimmed);
        }
        index += 1;
    }
    own
}

/// Whether `line` (followed by `rest`) ends the reply's own text: a signature separator,
/// a forwarding or quoting header, or an Outlook-style header block (`From:` then `Sent:`
/// or `Date:`).
fn ends_own_text(line: &str, rest: &[&str]) -> bool {
    let trimmed = line.trim().to_lowercase();
    if line.trim_end() == "--" || ENDS.contains(&trimmed.as_str()) {
        return true;
    }
    trimmed.starts_with("from:")
        && rest.iter().take(3).any(|next| {
            let next = next.trim().to_lowercase();
            next.starts_with("sent:") || next.starts_with("date:")
        })
}

/// When `lines` begin with a line introducing a quotation ("On ... wrote:", perhaps
/// wrapped), the index of its last line.
fn attribution_end(lines: &[&str]) -> Option<usize> {
    let first = lines.first()?.trim();
    let starts = ["on ", "le ", "am ", "el "]
        .iter()
        .any(|word| first.to_lowercase().starts_with(word));
    let ends = |line: &str| {
        let line = line.trim().to_lowercase();
        ATTRIBUTION_ENDS.iter().any(|end| line.ends_with(end))
    };
    if ends(first) {
        return Some(0);
    }
    if !starts {
        return None;
    }
    lines
        .iter()
        .take(ATTRIBUTION_LINES)
        .position(|line| ends(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> Option<&str> {
        own_lines(text).into_iter().next()
    }

    #[test]
    fn a_top_posted_answer_is_above_the_quotation() {
        let text = "Nf3\n\nOn Sun, 1 Mar 2026 at 12:00, Missive <missive@example.org> wrote:\n\
                    > Hello ann,\n> bob played 1... e5\n";
        assert_eq!(own_lines(text), vec!["Nf3"]);
    }

    #[test]
    fn a_bottom_posted_answer_is_below_it() {
        let text = "On Sun, 1 Mar 2026 at 12:00, Missive <missive@example.org>\nwrote:\n\n\
                    > Hello ann,\n>\n> Make your move:\n> http://m/play/x\n\nNf3\n";
        assert_eq!(first(text), Some("Nf3"));
    }

    #[test]
    fn interleaved_quotes_are_skipped() {
        let text = "> Hello ann,\n> bob played 1... e5\n\n  e4 draw  \n> more\n";
        assert_eq!(own_lines(text), vec!["e4 draw"]);
    }

    #[test]
    fn signatures_and_forwarded_originals_are_not_the_reply() {
        assert_eq!(own_lines("\n-- \nNf3\n"), Vec::<&str>::new());
        assert_eq!(own_lines("resign\n--\nann\n"), vec!["resign"]);
        let outlook = "Qh5\n\nFrom: Missive <missive@example.org>\nSent: Sunday\n\nHello ann";
        assert_eq!(own_lines(outlook), vec!["Qh5"]);
        let forwarded = "---------- Forwarded message ---------\nFrom: x\n\nNf3";
        assert_eq!(first(forwarded), None);
        let original = "-----Original Message-----\nNf3";
        assert_eq!(first(original), None);
    }

    #[test]
    fn html_keeps_its_lines_and_drops_its_quotations() {
        let html = "<div dir=\"ltr\">Nf3</div><div class=\"gmail_quote\">\
                    <div class=\"gmail_attr\">On Sun, Missive wrote:<br></div>\
                    <BlockQuote class=\"q\">Hello ann<blockquote>deeper</blockquote>\
                    bob played e5</blockquote></div>";
        let text = mail_parser::decoders::html::html_to_text(&html_lines(html));
        assert_eq!(own_lines(&text), vec!["Nf3"]);
        let below = "<blockquote>Make your move</blockquote><p>e4</p>";
        let text = mail_parser::decoders::html::html_to_text(&html_lines(below));
        assert_eq!(own_lines(&text), vec!["e4"]);
    }
}
