//! What the mails of a tournament share: each goes to a list of its players once
//! ([`Notice::Tournament`], by tournament, player and edge: invited, started, ended).

use missive_domain::{Head, Notice, Player, Tournament, TournamentEdge};
use missive_mail::Mail;

use crate::NotifyError;
use crate::post::Post;

/// The tournament the game of `head` belongs to, if any.
pub(super) async fn of_game(post: &Post, head: &Head) -> Result<Option<Tournament>, NotifyError> {
    match &head.doc.tournament {
        Some(id) => Ok(Some(post.service.tournament(id).await?)),
        None => Ok(None),
    }
}

/// Mails each of `handles` who wants mail the mail of `tournament`'s `edge` that `compose`
/// makes for them (given their unsubscribe link), once each: whether a mail was sent.
pub(super) async fn tell(
    post: &Post,
    tournament: &Tournament,
    handles: &[String],
    edge: TournamentEdge,
    compose: impl Fn(&Player, &str) -> Mail,
) -> Result<bool, NotifyError> {
    let handles: Vec<&str> = handles.iter().map(String::as_str).collect();
    post.mail_each_once(&handles, |player, unsubscribe| {
        let notice = Notice::Tournament {
            tournament: tournament.id.clone(),
            player: player.handle.clone(),
            edge,
        };
        (notice, compose(player, unsubscribe))
    })
    .await
}
