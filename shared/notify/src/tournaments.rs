//! The mails of a tournament: to each invited player, to every player when its games start
//! (with a link to each of theirs) and when its last game ends (with the final standings).

use missive_board::escape;
use missive_domain::{Player, Tournament};
use missive_mail::Mail;

use crate::compose::finish;

/// The mail inviting `to` to `tournament`, open for players.
pub fn tournament_invitation_mail(
    to: &Player,
    tournament: &Tournament,
    public_url: &str,
    unsubscribe_link: &str,
) -> Mail {
    let page = format!("{public_url}/tournaments/{}", tournament.id);
    let join = format!("{public_url}/v1/tournaments/{}/join", tournament.id);
    let subject = format!(
        "{} invites you to {}",
        tournament.organiser, tournament.name
    );
    let what = format!(
        "a {} round robin of {} for {} players",
        if tournament.double {
            "double"
        } else {
            "single"
        },
        tournament.variant,
        tournament.size
    );
    let text = format!(
        "Hello {name},\n\n{organiser} invites you to {event}, {what}.\n\nThe tournament: \
         {page}\nJoin it from your app, or with POST {join}\n\n-- \nMail about your games \
         (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
        organiser = tournament.organiser,
        event = tournament.name,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>{organiser} invites you to          {event}, {what}.</p>\n<p><a href=\"{page}\">The tournament</a>: join it from your          app.</p>\n<p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your          games</a>: each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&to.handle),
        organiser = escape(&tournament.organiser),
        event = escape(&tournament.name),
        what = escape(&what),
        page = escape(&page),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}

/// The mail telling `to` that `tournament` started: their games, each with its link.
pub fn tournament_started_mail(
    to: &Player,
    tournament: &Tournament,
    public_url: &str,
    unsubscribe_link: &str,
) -> Mail {
    let games: Vec<(String, String)> = tournament
        .games
        .iter()
        .filter(|g| g.players.iter().any(|p| p == &to.handle))
        .map(|g| {
            let others: Vec<&str> = g
                .players
                .iter()
                .filter(|p| **p != to.handle)
                .map(String::as_str)
                .collect();
            (
                format!("{public_url}/games/{}", g.game),
                format!("round {} against {}", g.round, others.join(" and ")),
            )
        })
        .collect();
    let page = format!("{public_url}/tournaments/{}", tournament.id);
    let subject = format!(
        "{} has started: your {} games",
        tournament.name,
        games.len()
    );
    let list: String = games
        .iter()
        .map(|(link, what)| format!("- {what}: {link}\n"))
        .collect();
    let text = format!(
        "Hello {name},\n\n{event} has started: every game at once, {variant}.\n\n{list}\n\
         The standings: {page}\n\n-- \nMail about your games (each move, a daily digest, or \
         none):\n{unsubscribe_link}\n",
        name = to.handle,
        event = tournament.name,
        variant = tournament.variant,
    );
    let items: String = games
        .iter()
        .map(|(link, what)| {
            format!(
                "<li><a href=\"{}\">{}</a></li>\n",
                escape(link),
                escape(what)
            )
        })
        .collect();
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>{event} has started: every \
         game at once, {variant}.</p>\n<ul>\n{items}</ul>\n<p><a href=\"{page}\">The \
         standings</a></p>\n<p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about \
         your games</a>: each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&to.handle),
        event = escape(&tournament.name),
        variant = escape(&tournament.variant),
        page = escape(&page),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}

/// The mail telling `to` that `tournament` is over, with its `crosstable` (as text).
pub fn tournament_finished_mail(
    to: &Player,
    tournament: &Tournament,
    crosstable: &str,
    public_url: &str,
    unsubscribe_link: &str,
) -> Mail {
    let page = format!("{public_url}/tournaments/{}", tournament.id);
    let archive = format!("{public_url}/v1/tournaments/{}/archive", tournament.id);
    let subject = format!("{} is over: the final standings", tournament.name);
    let text = format!(
        "Hello {name},\n\nEvery game of {event} is over. The final standings:\n\n{crosstable}\n\n\
         The tournament: {page}\nIts games (PGN, with the date of every move): {archive}\n\n\
         -- \nMail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
        event = tournament.name,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>Every game of {event} is over. \
         The final standings:</p>\n<pre>{crosstable}</pre>\n<p><a href=\"{page}\">The \
         tournament</a> · <a href=\"{archive}\">its games (PGN)</a></p>\n<p \
         style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: each \
         move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&to.handle),
        event = escape(&tournament.name),
        crosstable = escape(crosstable),
        page = escape(&page),
        archive = escape(&archive),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}
