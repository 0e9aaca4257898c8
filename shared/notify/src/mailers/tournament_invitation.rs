//! Invitations to a tournament open for players, mailed when the request that creates the
//! tournament (or adds to its invited players) asks. Once per tournament and player
//! ([`missive_domain::Notice::Tournament`], edge `invited`).

use missive_board::escape;
use missive_domain::{Player, Tournament, TournamentEdge};
use missive_mail::Mail;

use super::tournament;
use crate::NotifyError;
use crate::compose::finish;
use crate::scheduler::Scheduler;

impl Scheduler {
    /// Mails each player invited to `tournament` their invitation, once each: whether a
    /// mail was sent.
    pub async fn tournament_invitations(
        &self,
        tournament: &Tournament,
    ) -> Result<bool, NotifyError> {
        let post = &self.post;
        let invited = &tournament.invited;
        tournament::tell(
            post,
            tournament,
            invited,
            TournamentEdge::Invited,
            |to, unsubscribe| {
                tournament_invitation_mail(to, tournament, &post.public_url, unsubscribe)
            },
        )
        .await
    }
}

/// The mail inviting `to` to `tournament`, open for players.
fn tournament_invitation_mail(
    to: &Player,
    tournament: &Tournament,
    public_url: &str,
    unsubscribe_link: &str,
) -> Mail {
    let page = format!("{public_url}/tournaments/{}", tournament.id);
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
         {page}\nJoin it from that page (it mails you a sign-in link), or from your app.\n\n\
         -- \nMail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
        organiser = tournament.organiser,
        event = tournament.name,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{organiser} invites you to {event}, {what}.</p>\n<p><a href=\"{page}\">The tournament</a>: join it from its page, or from your app.</p>\n<p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        organiser = escape(&tournament.organiser),
        event = escape(&tournament.name),
        what = escape(&what),
        page = escape(&page),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}
