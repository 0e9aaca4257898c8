//! The end of a tournament: when a game of it is attended once the tournament is finished,
//! every player is told, with the final standings. Once per tournament and player
//! ([`missive_domain::Notice::Tournament`], edge `end`); once every player's went out the
//! tournament records it ([`Tournament::told`]) and its games stop looking.

use async_trait::async_trait;
use missive_board::escape;
use missive_domain::{Head, Player, Tournament, TournamentEdge, TournamentState};
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage, tournament};
use crate::NotifyError;
use crate::compose::finish;
use crate::post::Post;
use crate::scheduler::Round;

/// The mail of a tournament's end.
pub(super) struct TournamentEnd;

#[async_trait]
impl MailKind for TournamentEnd {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Finished]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let sent = send(post, at.head).await;
        round.count(|r| &mut r.tournaments, &at.head.id.0, sent)
    }
}

/// Tells the players of the tournament of the finished game at `head` that it is over,
/// once it is, with its crosstable (only then are the heads of all its games read).
/// Whether a mail was sent.
async fn send(post: &Post, head: &Head) -> Result<bool, NotifyError> {
    let Some(tournament) = tournament::of_game(post, head).await? else {
        return Ok(false);
    };
    if tournament.state != TournamentState::Finished
        || tournament.told.contains(&TournamentEdge::End)
    {
        return Ok(false);
    }
    let crosstable = post
        .service
        .tournament_standings(&tournament.id)
        .await?
        .standings
        .map(|s| s.render_text(&tournament.players))
        .unwrap_or_default();
    let sent = tournament::tell(
        post,
        &tournament,
        &tournament.players,
        TournamentEdge::End,
        |to, unsubscribe| {
            tournament_finished_mail(to, &tournament, &crosstable, &post.public_url, unsubscribe)
        },
    )
    .await?;
    post.service
        .tournament_told(&tournament.id, TournamentEdge::End)
        .await?;
    Ok(sent)
}

/// The mail telling `to` that `tournament` is over, with its `crosstable` (as text).
fn tournament_finished_mail(
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
        "<p>Hello {name},</p>\n<p>Every game of {event} is over. \
         The final standings:</p>\n<pre>{crosstable}</pre>\n<p><a href=\"{page}\">The \
         tournament</a> · <a href=\"{archive}\">its games (PGN)</a></p>\n<p \
         style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: each \
         move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        event = escape(&tournament.name),
        crosstable = escape(crosstable),
        page = escape(&page),
        archive = escape(&archive),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}
