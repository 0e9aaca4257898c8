//! The word to a game's creator that it started when they do not move first (their open
//! challenge or invitation was accepted, and the other side has the first move): without
//! it a creator with Black would hear nothing until White moved. Once per game
//! ([`Notice::Started`]), to a creator who wants a mail per move; a tournament's games
//! have their start mail instead.

use async_trait::async_trait;
use missive_board::escape;
use missive_domain::{Head, MailPreference, Notice, Player};
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::{game_mail, opponents};
use crate::post::{Composed, Post};
use crate::scheduler::Round;

/// The mail of a game's start to its creator.
pub(super) struct Started;

#[async_trait]
impl MailKind for Started {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Active]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let Some(creator) = waiting_creator(at.head) else {
            return false;
        };
        let notice = Notice::Started {
            game: at.head.id.clone(),
        };
        let sent = post
            .send_once(&notice, compose(post, at.head, creator))
            .await;
        round.count(|r| &mut r.starts, &at.head.id.0, sent)
    }
}

/// The creator of the game at `head` if it has just started (no move yet, not a
/// tournament's) with them seated and another player to move.
fn waiting_creator(head: &Head) -> Option<&str> {
    let doc = &head.doc;
    let creator = doc.created_by.as_str();
    let to_move = &head.waiting.as_ref()?.player;
    let seated = doc.seat_of(creator).is_some();
    (head.ply == 0 && doc.tournament.is_none() && seated && to_move != creator).then_some(creator)
}

/// The mail telling `creator` that the game at `head` started; none unless they are
/// registered and want a mail per move.
async fn compose(post: &Post, head: &Head, creator: &str) -> Result<Composed, NotifyError> {
    if post.service.mail_preference(creator).await? != MailPreference::EachMove {
        return Ok(None);
    }
    let Some(player) = post.service.registered(creator).await? else {
        return Ok(None);
    };
    let unsubscribe = post.unsubscribe_link(creator, post.clock.now())?;
    Ok(Some((
        started_mail(&player, head, &post.public_url, &unsubscribe),
        Vec::new(),
    )))
}

/// The mail telling `to` that the game at `head` started and who moves first.
fn started_mail(to: &Player, head: &Head, public_url: &str, unsubscribe_link: &str) -> Mail {
    let against = opponents(head, &to.handle);
    let first = head
        .waiting
        .as_ref()
        .map_or(against.as_str(), |w| w.player.as_str());
    let variant = &head.doc.variant;
    let said = format!(
        "Your {variant} game against {against} has started: {first} moves first, and you \
         will be mailed when it is your turn."
    );
    let page = format!("{public_url}/games/{}", head.id);
    let text = format!(
        "Hello {name},\n\n{said}\n\nThe game: {page}\n\n-- \n\
         Mail about your turns (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{said}</p>\n\
         <p><a href=\"{page}\">The game</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your turns</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        said = escape(&said),
        page = escape(&page),
        unsubscribe = escape(unsubscribe_link),
    );
    game_mail(to, head, text, html, Vec::new(), unsubscribe_link)
}
