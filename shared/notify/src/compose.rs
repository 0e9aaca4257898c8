//! The mails themselves: pure functions from what the notifier found to a [`Mail`] with a
//! plain-text and an HTML part and the unsubscribe headers.
//!
//! The board: many mail clients show neither inline SVG nor an SVG `<img>`, so the turn
//! mail, the reminder and the game-over mail carry the position as a PNG, drawn from the
//! recipient's seat, which the HTML part shows by `cid:` reference; the plain-text part
//! lists every piece on its spot by side (a text picture that works for every variant's
//! geometry, from 8x8 to the three-kingdom hexagon).

use chrono::{DateTime, Duration, Utc};
use missive_board::{Options, Png, PngSize, escape, render_png};
use missive_domain::{GameId, Head, LeaveEdge, Period, Player, Seat, SeatResult};
use missive_mail::{Inline, Mail};
use missive_rules::{AnyGame, Diagram};

use crate::notes::{Note, notes_section};

/// The board pictures mails carry: twice the SVG's own size for high-density screens,
/// within a pixel budget that keeps the largest board (Three Kingdoms) near 60 kB.
pub const BOARD_SIZE: PngSize = PngSize {
    scale: 2.0,
    max_pixels: 560_000,
};
/// The pixels of a board picture for each CSS pixel of the mail that shows it.
const BOARD_DENSITY: u32 = 2;

/// Which mail about a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnNotice {
    /// It has just become the player's turn.
    Turn,
    /// 80% of the time for the move is gone.
    Reminder,
}

/// What a mail about one turn is made of.
pub struct TurnFacts<'a> {
    /// The recipient, the player to move.
    pub to: &'a Player,
    /// The game's head.
    pub head: &'a Head,
    /// The rules game it is at (its last moves known, at least the last one).
    pub game: &'a dyn AnyGame,
    /// Now.
    pub now: DateTime<Utc>,
    /// When the time for the move runs out, the player's vacations counted.
    pub deadline: DateTime<Utc>,
    /// The API's public URL, without a trailing slash.
    pub public_url: &'a str,
    /// The move link for this turn.
    pub move_link: String,
    /// The recipient's unsubscribe link.
    pub unsubscribe_link: String,
    /// What the other players wrote or offered that the mail carries (see [`crate::notes`]).
    pub notes: Vec<Note>,
}

/// One game waiting for the recipient of a digest.
pub struct DigestEntry {
    /// The game's head.
    pub head: Head,
    /// When the time for the move runs out, the player's vacations counted.
    pub deadline: DateTime<Utc>,
    /// The move link for the turn.
    pub move_link: String,
}

/// The mail telling `facts.to` it is their turn (or reminding them).
pub fn turn_mail(notice: TurnNotice, facts: &TurnFacts<'_>) -> Mail {
    let head = facts.head;
    let deadline = facts.deadline;
    let left = time_left(deadline - facts.now);
    let variant = head.doc.variant.as_str();
    let against = opponents(head, &facts.to.handle);
    let subject = match notice {
        TurnNotice::Turn => format!("Your move in {variant} against {against} ({})", head.id),
        TurnNotice::Reminder => {
            format!(
                "Reminder: {left} left for your move in {variant} ({})",
                head.id
            )
        }
    };
    let mut intro = last_move_text(head, facts.game);
    if notice == TurnNotice::Reminder {
        intro = format!("80% of your time for this move is gone. {intro}");
    }
    if let Some(offer) = draw_offer_text(head, &facts.to.handle) {
        intro = format!("{intro} {offer}");
    }
    let (notes_text, notes_html) = notes_section(&facts.notes);
    let seat = head.to_move.unwrap_or(Seat(0));
    let board_url = format!(
        "{}/v1/games/{}/board.svg?seat={}",
        facts.public_url,
        head.id,
        facts
            .game
            .seat_names()
            .get(seat.index())
            .copied()
            .unwrap_or("white")
    );
    let diagram = facts.game.diagram();
    let pieces = piece_list(&diagram);
    let board = Board::drawn(&diagram, seat, &head.id.0, &pieces);
    let until = utc(deadline);
    let text = format!(
        "Hello {name},\n\n{intro}\n\n{notes_text}{pieces}\n\nTime left: {left} (until {until}).\n\n\
         Make your move:\n{link}\n\nThe board: {board_url}\n\n-- \n\
         Mail about your turns (each move, a daily digest, or none):\n{unsubscribe}\n",
        name = facts.to.handle,
        link = facts.move_link,
        unsubscribe = facts.unsubscribe_link,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>{intro}</p>\n{notes_html}{board}\
         <p>Time left: <b>{left}</b> (until {until}).</p>\n\
         <p><a href=\"{link}\">Make your move</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your turns</a>: \
         each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&facts.to.handle),
        intro = escape(&intro),
        board = board.html,
        link = escape(&facts.move_link),
        unsubscribe = escape(&facts.unsubscribe_link),
    );
    finish(
        facts.to,
        subject,
        text,
        html,
        board.inline,
        &facts.unsubscribe_link,
    )
}

/// The board as a mail shows it: the HTML that shows it and the picture it refers to.
struct Board {
    /// A paragraph with the picture, or with the piece list if it could not be drawn.
    html: String,
    /// The picture, if drawn.
    inline: Vec<Inline>,
}

impl Board {
    /// The `diagram` drawn from `seat`'s view for the mail about game `id`, described
    /// for screen readers by `pieces`. A picture that cannot be drawn, or not now (too many
    /// being drawn: `missive_board::pictures`), is logged and replaced by the piece list,
    /// so the mail goes out all the same.
    fn drawn(diagram: &Diagram, seat: Seat, id: &str, pieces: &str) -> Board {
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

/// The daily digest for `to`: every game waiting for them, with a link each.
pub fn digest_mail(
    to: &Player,
    entries: &[DigestEntry],
    now: DateTime<Utc>,
    unsubscribe_link: &str,
) -> Mail {
    let lines: Vec<(String, &str)> = entries
        .iter()
        .map(|entry| {
            let head = &entry.head;
            let left = time_left(entry.deadline - now);
            let line = format!(
                "{} against {} ({}), move {}: {left} left",
                head.doc.variant,
                opponents(head, &to.handle),
                head.id,
                head.next_move_number()
                    .map_or_else(|| (head.ply + 1).to_string(), |number| number.to_string())
            );
            (line, entry.move_link.as_str())
        })
        .collect();
    let subject = match entries.len() {
        1 => "1 game is waiting for your move".to_string(),
        n => format!("{n} games are waiting for your move"),
    };
    let text_list: String = lines
        .iter()
        .map(|(line, link)| format!("- {line}\n  {link}\n"))
        .collect();
    let html_list: String = lines
        .iter()
        .map(|(line, link)| {
            format!(
                "<li>{} <a href=\"{}\">Make your move</a></li>\n",
                escape(line),
                escape(link)
            )
        })
        .collect();
    let text = format!(
        "Hello {name},\n\nthese games are waiting for your move:\n\n{text_list}\n-- \n\
         Mail about your turns (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n\
         <p>These games are waiting for your move:</p>\n<ul>\n{html_list}</ul>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your turns</a>: \
         each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&to.handle),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}

/// The mail telling `to` how the finished game of `head` (at the rules game `game`) ended:
/// the rule, who ended it, their own result, the final position from their seat, and links
/// to the game's page and its archive.
pub fn ending_mail(
    to: &Player,
    head: &Head,
    game: &dyn AnyGame,
    public_url: &str,
    unsubscribe_link: &str,
) -> Mail {
    let outcome = outcome_text(head, &to.handle);
    let seat = head.doc.seat_of(&to.handle).unwrap_or(Seat(0));
    let diagram = game.diagram();
    let board = Board::drawn(&diagram, seat, &head.id.0, &piece_list(&diagram));
    let subject = format!(
        "Game over in {} against {} ({}): {outcome}",
        head.doc.variant,
        opponents(head, &to.handle),
        head.id
    );
    let how = ending_text(head);
    let page = format!("{public_url}/games/{}", head.id);
    let archive = format!("{public_url}/v1/games/{}/archive", head.id);
    let text = format!(
        "Hello {name},\n\n{how}\n{outcome}.\n\nThe game: {page}\n\
         Its record (PGN, with the date of every move): {archive}\n\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>{how}<br><b>{outcome}.</b></p>\n\
         {board}<p><a href=\"{page}\">The game</a> · <a href=\"{archive}\">its record (PGN)</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&to.handle),
        how = escape(&how),
        outcome = escape(&outcome),
        board = board.html,
        page = escape(&page),
        archive = escape(&archive),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, board.inline, unsubscribe_link)
}

/// What a mail about an opponent's leave is made of.
pub struct LeaveFacts<'a> {
    /// The recipient, an opponent of the player on leave.
    pub to: &'a Player,
    /// The player on leave.
    pub player: &'a str,
    /// The leave (its end as it stands: the planned one, or when it was ended early).
    pub period: Period,
    /// Whether the leave began or is over.
    pub edge: LeaveEdge,
    /// The games being played that the two share.
    pub games: Vec<SharedGame>,
    /// The API's public URL, without a trailing slash.
    pub public_url: &'a str,
    /// The recipient's unsubscribe link.
    pub unsubscribe_link: String,
}

/// A game the recipient of a leave mail plays with the player on leave.
pub struct SharedGame {
    /// The game.
    pub id: GameId,
    /// The variant id.
    pub variant: String,
    /// The number of the move due (`13.`, `13...`).
    pub next_move: String,
}

/// The mail telling `facts.to` that `facts.player`'s leave began (their clocks stand still
/// until its end) or is over (they run again), with a link to each game the two share.
pub fn leave_mail(facts: &LeaveFacts<'_>) -> Mail {
    let player = facts.player;
    let (from, until) = (utc(facts.period.start), utc(facts.period.end));
    let (subject, news) = match facts.edge {
        LeaveEdge::Start => (
            format!("{player} is on leave until {until}"),
            format!(
                "{player} is on leave from {from} until {until}. Meanwhile {player}'s clocks \
                 stand still, and answers may take longer."
            ),
        ),
        LeaveEdge::End => (
            format!("{player} is back from leave"),
            format!("{player}'s leave from {from} ended at {until}: {player}'s clocks run again."),
        ),
    };
    let games: Vec<(String, String)> = facts
        .games
        .iter()
        .map(|game| {
            let line = format!("{} {}, move {}", game.variant, game.id, game.next_move);
            (line, format!("{}/games/{}", facts.public_url, game.id))
        })
        .collect();
    let text_list: String = games
        .iter()
        .map(|(line, link)| format!("- {line}: {link}\n"))
        .collect();
    let html_list: String = games
        .iter()
        .map(|(line, link)| {
            format!(
                "<li><a href=\"{}\">{}</a></li>\n",
                escape(link),
                escape(line)
            )
        })
        .collect();
    let text = format!(
        "Hello {name},\n\n{news}\n\nYour games with {player}:\n{text_list}\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe}\n",
        name = facts.to.handle,
        unsubscribe = facts.unsubscribe_link,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>{news}</p>\n\
         <p>Your games with {player}:</p>\n<ul>\n{html_list}</ul>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&facts.to.handle),
        news = escape(&news),
        player = escape(player),
        unsubscribe = escape(&facts.unsubscribe_link),
    );
    finish(
        facts.to,
        subject,
        text,
        html,
        Vec::new(),
        &facts.unsubscribe_link,
    )
}

/// A time in UTC, to the minute.
fn utc(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// "Your chess game G has ended: resignation by bob."
fn ending_text(head: &Head) -> String {
    let Some(ending) = &head.doc.ending else {
        return format!("Your {} game {} has ended.", head.doc.variant, head.id);
    };
    let by = ending
        .by
        .and_then(|seat| head.doc.player_in(seat))
        .map(|player| format!(" by {player}"))
        .unwrap_or_default();
    format!(
        "Your {} game {} has ended: {}{by}.",
        head.doc.variant, head.id, ending.rule
    )
}

/// The recipient's own result: "You won", "You share the win", "A draw", "You lost".
fn outcome_text(head: &Head, me: &str) -> String {
    let result = head
        .doc
        .ending
        .as_ref()
        .and_then(|ending| ending.result_of(head.doc.seat_of(me)?));
    match result {
        Some(SeatResult::Win) => "You won",
        Some(SeatResult::SharedWin) => "You share the win",
        Some(SeatResult::Draw) => "A draw",
        Some(SeatResult::Loss) => "You lost",
        None => "No result",
    }
    .to_string()
}

/// The mail with both parts, the pictures the HTML shows and the RFC 8058 one-click
/// unsubscribe headers.
pub(crate) fn finish(
    to: &Player,
    subject: String,
    text: String,
    html: String,
    inline: Vec<Inline>,
    unsubscribe: &str,
) -> Mail {
    Mail {
        to: to.email.clone(),
        subject,
        text,
        html: Some(html),
        inline,
        headers: vec![
            ("List-Unsubscribe".into(), format!("<{unsubscribe}>")),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ],
    }
}

/// "bob played 12... Nf6 in game G." (moves numbered by rounds, as the archive numbers
/// them) or, before the first move, that the game began.
fn last_move_text(head: &Head, game: &dyn AnyGame) -> String {
    let Some(last) = game.played().pop().filter(|_| head.ply > 0) else {
        return format!(
            "Your {} game {} has begun, and you move first.",
            head.doc.variant, head.id
        );
    };
    let mover = head.doc.player_in(last.seat).unwrap_or("your opponent");
    format!(
        "{mover} played {} {} in your {} game {}.",
        head.last_move_number(last.seat),
        last.short,
        head.doc.variant,
        head.id
    )
}

/// "ann offers a draw: accept it on the move page." when seats other than `me`'s offer one.
fn draw_offer_text(head: &Head, me: &str) -> Option<String> {
    let mine = head.doc.seat_of(me);
    let offering: Vec<&str> = head
        .doc
        .draw_offers
        .iter()
        .filter(|seat| Some(**seat) != mine)
        .filter_map(|seat| head.doc.player_in(*seat))
        .collect();
    if offering.is_empty() {
        return None;
    }
    let verb = if offering.len() == 1 {
        "offers"
    } else {
        "offer"
    };
    Some(format!(
        "{} {verb} a draw: accept it on the move page, or play on.",
        offering.join(" and ")
    ))
}

/// The other players of the game, joined with "and".
fn opponents(head: &Head, me: &str) -> String {
    let others: Vec<&str> = head
        .doc
        .players()
        .into_iter()
        .filter(|player| *player != me)
        .collect();
    others.join(" and ")
}

/// The position as text: each side's pieces on their spots (`White: Ke1 Qd1 ...`).
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
                .map(|piece| format!("{}{}", piece.letter.to_ascii_uppercase(), piece.spot))
                .collect();
            format!("{}: {}", capitalised(seat.name), pieces.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A duration as people say it: "2 days 5 hours", "3 hours 10 minutes", "none".
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
    match (days, hours) {
        (0, 0) if minutes == 0 => "less than a minute".into(),
        (0, 0) => plural(minutes, "minute"),
        (0, _) => format!("{} {}", plural(hours, "hour"), plural(minutes, "minute")),
        _ => format!("{} {}", plural(days, "day"), plural(hours, "hour")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_reads_like_speech() {
        let cases = [
            (Duration::days(2) + Duration::hours(5), "2 days 5 hours"),
            (Duration::days(1), "1 day 0 hours"),
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
}
