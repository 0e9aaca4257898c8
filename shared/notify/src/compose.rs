//! The parts every mail is made of: the board as a picture (or, failing that, the piece
//! list), the game's score, the words for times and time controls, the other players'
//! names, a game's title and thread, and the finished [`Mail`] with its plain-text and HTML
//! parts, the footer line saying replies are not read, and its unsubscribe headers. Each
//! mail's own text is composed in its mailer (`crate::mailers`).
//!
//! Threads: every mail about a game belongs to the thread `game-{id}` (its `References`
//! name `<game-{id}@{mail domain}>`) and has the game's title as its subject, the same from
//! the game's start to its end (`ann vs bob, chess`); what the mail says comes first in its
//! body, which is what mail clients show beside the subject. Gmail joins a conversation
//! only when the subject stays the same (a `Re:` aside), Thunderbird by `References`, Apple
//! Mail by both.
//!
//! The board: many mail clients show neither inline SVG nor an SVG `<img>`, so the turn
//! mail, the reminder and the game-over mail carry the position as a PNG, drawn from the
//! recipient's seat, which the HTML part shows by `cid:` reference; the plain-text part
//! lists every piece on its spot by side (a text picture that works for every variant's
//! geometry, from 8x8 to the three-kingdom hexagon).

use chrono::{DateTime, Duration, Utc};
use missive_board::{Options, Png, PngSize, escape, render_png};
use missive_domain::{GameId, Head, MoveRecord, Player, Seat, TimeControl};
use missive_mail::{Inline, Mail};
use missive_rules::{Diagram, DiagramPiece, score};

/// The board pictures mails carry: twice the SVG's own size for high-density screens,
/// within a pixel budget that keeps the largest board (Three Kingdoms) near 60 kB.
pub const BOARD_SIZE: PngSize = PngSize {
    scale: 2.0,
    max_pixels: 560_000,
};
/// The pixels of a board picture for each CSS pixel of the mail that shows it.
const BOARD_DENSITY: u32 = 2;

/// The board as a mail shows it: the HTML that shows it and the picture it refers to.
pub(crate) struct Board {
    /// A paragraph with the picture, or with the piece list if it could not be drawn.
    pub html: String,
    /// The picture, if drawn.
    pub inline: Vec<Inline>,
}

impl Board {
    /// The `diagram` drawn from `seat`'s view for the mail about game `id`, described
    /// for screen readers by `pieces`. A picture that cannot be drawn, or not now (too many
    /// being drawn: `missive_board::pictures`), is logged and replaced by the piece list,
    /// so the mail goes out all the same.
    pub fn drawn(diagram: &Diagram, seat: Seat, id: &str, pieces: &str) -> Board {
        let options = Options {
            seat: Some(seat),
            ..Options::default()
        };
        match render_png(diagram, &options, BOARD_SIZE) {
            Ok(png) => Board::picture(png, id, pieces),
            Err(error) => {
                tracing::warn!(game = %id, %error, "board picture not drawn");
                Board {
                    html: format!("<pre>{}</pre>\n", escape(pieces)),
                    inline: Vec::new(),
                }
            }
        }
    }

    /// The picture `png` of game `id`, shown at half its pixel width (sharp on screens of
    /// two pixels to the CSS pixel) and at most the mail's width.
    fn picture(png: Png, id: &str, pieces: &str) -> Board {
        let content_id = format!("board-{id}@missive");
        let html = format!(
            "<p><img src=\"cid:{cid}\" alt=\"{alt}\" width=\"{width}\" \
             style=\"max-width:100%;height:auto\"></p>\n",
            cid = escape(&content_id),
            alt = escape(pieces),
            width = png.width / BOARD_DENSITY,
        );
        Board {
            html,
            inline: vec![Inline {
                content_id,
                name: "board.png".into(),
                content_type: "image/png".into(),
                data: png.data,
            }],
        }
    }
}

/// A time in UTC, to the minute.
pub fn utc(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// What the footer of every mail says: replies are not read, unless the mail asks for one.
pub const REPLIES_NOT_READ: &str = "This mail was sent automatically: replies to it are not \
     read, unless it asks you to reply with your move.";

/// The most moves a mail's score shows: the last twenty of each side in chess; a longer
/// game's score starts with "…" and links to the game's page.
pub const SCORE_MOVES: usize = 40;

/// The mail to the player `to` with both parts (`html` being the HTML body's content), the
/// footer line saying replies are not read, the pictures the HTML shows and the RFC 8058
/// one-click unsubscribe headers for their `unsubscribe` link.
pub(crate) fn finish(
    to: &Player,
    subject: String,
    text: String,
    html: String,
    inline: Vec<Inline>,
    unsubscribe: &str,
) -> Mail {
    to_address(&to.email, subject, text, html, inline, Some(unsubscribe))
}

/// The mail [`finish`] makes, to the address `to`: with the unsubscribe headers only given
/// an `unsubscribe` link (an address no player has yet has none).
pub(crate) fn to_address(
    to: &str,
    subject: String,
    text: String,
    html: String,
    inline: Vec<Inline>,
    unsubscribe: Option<&str>,
) -> Mail {
    let headers = unsubscribe.map_or_else(Vec::new, |link| {
        vec![
            ("List-Unsubscribe".into(), format!("<{link}>")),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ]
    });
    Mail {
        to: to.to_string(),
        subject,
        text: format!("{text}{REPLIES_NOT_READ}\n"),
        html: Some(format!(
            "<!doctype html><html><body>\n{html}<p style=\"font-size:small\">{}</p>\n\
             </body></html>\n",
            escape(REPLIES_NOT_READ)
        )),
        inline,
        attachments: Vec::new(),
        headers,
        thread: None,
    }
}

/// The mail about the game of `head` to its player `to`, as [`finish`] makes it: the
/// game's title as its subject, in the game's thread.
pub(crate) fn game_mail(
    to: &Player,
    head: &Head,
    text: String,
    html: String,
    inline: Vec<Inline>,
    unsubscribe: &str,
) -> Mail {
    let mail = finish(to, game_title(head), text, html, inline, unsubscribe);
    about_game(mail, &head.id)
}

/// `mail` as one of the thread of the game `id`, `game-{id}`.
pub(crate) fn about_game(mail: Mail, id: &GameId) -> Mail {
    Mail {
        thread: Some(format!("game-{id}")),
        ..mail
    }
}

/// A game's title, every mail's subject about it: its seats' players in seat order, then
/// its variant (`ann vs bob, chess`; `?` for a seat nobody took yet).
pub fn game_title(head: &Head) -> String {
    let names: Vec<&str> = head.doc.seats.iter().map(|seat| seat.name()).collect();
    format!("{}, {}", names.join(" vs "), head.doc.variant)
}

/// The score of the moves of `head`'s game up to its ply, from its log's `moves`, as a
/// mail's text and HTML show it: the last [`SCORE_MOVES`] at most, with a link to the
/// game's page (under `public_url`) when some were left out; nothing before the first move.
pub(crate) fn score_section(
    head: &Head,
    moves: &[MoveRecord],
    public_url: &str,
) -> (String, String) {
    let moves: Vec<(Seat, &str)> = moves
        .iter()
        .take(head.ply as usize)
        .map(|mv| (mv.seat, mv.short.as_str()))
        .collect();
    let Some((first, _)) = moves.first() else {
        return (String::new(), String::new());
    };
    let score = score(head.doc.seats.len(), *first, &moves, Some(SCORE_MOVES));
    let page = format!("{public_url}/games/{}", head.id);
    let (whole_text, whole_html) = match score.left_out {
        0 => (String::new(), String::new()),
        _ => (
            format!("The whole game: {page}\n"),
            format!(" <a href=\"{}\">The whole game</a>", escape(&page)),
        ),
    };
    (
        format!("The moves:\n{score}\n{whole_text}\n"),
        format!(
            "<p>The moves: {}{whole_html}</p>\n",
            escape(&score.to_string())
        ),
    )
}

/// The other players of the game, joined with "and".
pub(crate) fn opponents(head: &Head, me: &str) -> String {
    let others: Vec<&str> = head
        .doc
        .players()
        .into_iter()
        .filter(|player| *player != me)
        .collect();
    others.join(" and ")
}

/// The time control in words: "3 days per move", "10 moves in 50 days".
pub fn time_control_words(time_control: TimeControl) -> String {
    match time_control {
        TimeControl::DaysPerMove { days: 1 } => "1 day per move".into(),
        TimeControl::DaysPerMove { days } => format!("{days} days per move"),
        TimeControl::Iccf { moves, days } => format!("{moves} moves in {days} days"),
    }
}

/// The position as text: each side's pieces on their spots (`White: Ke1 Qd1 ...`); a
/// piece on a spot named by its region (`shu:a1`, Three Kingdoms) in words (`chariot shu a1`).
pub fn piece_list(diagram: &Diagram) -> String {
    diagram
        .seats
        .iter()
        .enumerate()
        .map(|(index, seat)| {
            let pieces: Vec<String> = diagram
                .pieces
                .iter()
                .filter(|piece| piece.seat.index() == index)
                .map(piece_on_spot)
                .collect();
            format!("{}: {}", capitalised(seat.name), pieces.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A piece on its spot: `Ke1`, or `chariot shu a1` on a spot in a region.
fn piece_on_spot(piece: &DiagramPiece) -> String {
    match piece.spot.split_once(':') {
        Some((region, spot)) => format!("{} {region} {spot}", piece.name),
        None => format!("{}{}", piece.letter.to_ascii_uppercase(), piece.spot),
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A duration as people say it, in its two largest units with a zero second one left out:
/// "2 days 5 hours", "3 days", "3 hours 10 minutes", "less than a minute", and "no time"
/// once it is up.
pub fn time_left(left: Duration) -> String {
    if left <= Duration::zero() {
        return "no time".into();
    }
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let (days, hours, minutes) = (
        left.num_days(),
        left.num_hours() % 24,
        left.num_minutes() % 60,
    );
    let (large, small) = match (days, hours) {
        (0, 0) if minutes == 0 => return "less than a minute".into(),
        (0, 0) => return plural(minutes, "minute"),
        (0, _) => (plural(hours, "hour"), (minutes, "minute")),
        _ => (plural(days, "day"), (hours, "hour")),
    };
    match small {
        (0, _) => large,
        (n, unit) => format!("{large} {}", plural(n, unit)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_reads_like_speech() {
        let cases = [
            (Duration::days(2) + Duration::hours(5), "2 days 5 hours"),
            (Duration::days(1), "1 day"),
            (Duration::hours(2), "2 hours"),
            (
                Duration::hours(3) + Duration::minutes(1),
                "3 hours 1 minute",
            ),
            (Duration::minutes(7), "7 minutes"),
            (Duration::seconds(20), "less than a minute"),
            (Duration::seconds(-5), "no time"),
        ];
        for (left, text) in cases {
            assert_eq!(time_left(left), text);
        }
    }

    #[test]
    fn piece_lists_name_every_side() {
        let game = missive_rules::variant("chess")
            .unwrap()
            .new_game("", None)
            .unwrap();
        let text = piece_list(&game.diagram());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].starts_with("White: ") && lines[0].contains("Ke1"),
            "{text}"
        );
        assert!(
            lines[1].starts_with("Black: ") && lines[1].contains("Ke8"),
            "{text}"
        );
    }

    #[test]
    fn three_kingdoms_pieces_are_named_in_words() {
        let game = missive_rules::variant("sanguo")
            .unwrap()
            .new_game("", None)
            .unwrap();
        let text = piece_list(&game.diagram());
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.contains("chariot shu a1"), "{text}");
        let spots = text.lines().filter_map(|line| line.split_once(": "));
        assert!(
            spots.clone().all(|(_, pieces)| !pieces.contains(':')),
            "{text}"
        );
    }
}
