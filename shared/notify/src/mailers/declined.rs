//! The word to a game's creator that an invitee declined their invitation (so the game is
//! cancelled), mailed when the request that declines asks. Not claimed: the request sends
//! it once.

use missive_board::escape;
use missive_domain::{GameId, Head, MailPreference, Player};
use missive_mail::Mail;

use crate::NotifyError;
use crate::compose::{about_game, finish, game_title};
use crate::scheduler::Scheduler;

impl Scheduler {
    /// Tells the creator of the cancelled game `game` that `who` (a handle, or the address
    /// invited) declined their invitation. Whether a mail was sent.
    pub async fn tell_declined(&self, game: &GameId, who: &str) -> Result<bool, NotifyError> {
        let Some((head, _)) = self.post.service.notice_state(game).await? else {
            return Ok(false);
        };
        let creator = &head.doc.created_by;
        if self.post.service.mail_preference(creator).await? == MailPreference::None {
            return Ok(false);
        }
        let Some(inviter) = self.post.service.registered(creator).await? else {
            return Ok(false);
        };
        let unsubscribe = self.post.unsubscribe_link(creator, self.post.clock.now())?;
        let mail = declined_mail(&inviter, who, &head, &unsubscribe);
        self.post.transport.send(&mail).await?;
        Ok(true)
    }
}

/// The mail telling `inviter` that `who` (a handle, or the address invited) declined their
/// invitation to the game of `head`, which is therefore cancelled.
fn declined_mail(inviter: &Player, who: &str, head: &Head, unsubscribe_link: &str) -> Mail {
    let subject = format!("{who} declined your {} game", head.doc.variant);
    let said = format!(
        "{who} declined your invitation to a game of {} ({}), so the game is cancelled. \
         You may invite someone else, or publish an open challenge.",
        head.doc.variant,
        game_title(head)
    );
    let text = format!(
        "Hello {name},\n\n{said}\n\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = inviter.handle,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{said}</p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&inviter.handle),
        said = escape(&said),
        unsubscribe = escape(unsubscribe_link),
    );
    let mail = finish(inviter, subject, text, html, Vec::new(), unsubscribe_link);
    about_game(mail, &head.id)
}
