//! The start of a tournament: when its first game is attended while the tournament runs,
//! every player is told it started, with a link to each of their games. Once per
//! tournament and player ([`missive_domain::Notice::Tournament`], edge `start`).

use async_trait::async_trait;
use missive_board::escape;
use missive_domain::{Head, Player, Tournament, TournamentEdge, TournamentState};
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage, tournament};
use crate::NotifyError;
use crate::compose::finish;
use crate::post::Post;
use crate::scheduler::Round;

/// The mail of a tournament's start.
pub(super) struct TournamentStart;

#[async_trait]
impl MailKind for TournamentStart {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Active]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let sent = send(post, at.head).await;
        round.count(|r| &mut r.tournaments, &at.head.id.0, sent)
    }
}

/// Tells the players of the tournament of the game at `head` that it started, if that is
/// its first game and it runs (only the tournament is read: this runs at every turn of
/// every one of its games). Whether a mail was sent.
async fn send(post: &Post, head: &Head) -> Result<bool, NotifyError> {
    let Some(tournament) = tournament::of_game(post, head).await? else {
        return Ok(false);
    };
    let running = matches!(
        tournament.state,
        TournamentState::Running | TournamentState::Paused
    );
    let first = tournament.games.first().is_some_and(|g| g.game == head.id);
    if !running || !first {
        return Ok(false);
    }
    let players = &tournament.players;
    tournament::tell(
        post,
        &tournament,
        players,
        TournamentEdge::Start,
        |to, unsubscribe| tournament_started_mail(to, &tournament, &post.public_url, unsubscribe),
    )
    .await
}

/// The mail telling `to` that `tournament` started: their games, each with its link.
fn tournament_started_mail(
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
