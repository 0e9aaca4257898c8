//! The game-over mail: when a game finished (a mate, a draw, a resignation, a time-out),
//! each of its registered players who wants mail is told how it ended and their own
//! result, with the final position from their seat and links to the game's page and its
//! archive; a game imported finished sends nothing. Once per game and player
//! ([`Notice::Ended`]).

use async_trait::async_trait;
use missive_board::escape;
use missive_domain::{Head, Notice, Player, Seat, SeatResult};
use missive_mail::Mail;
use missive_rules::AnyGame;

use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::{Board, finish, opponents, piece_list};
use crate::post::Post;
use crate::scheduler::Round;

/// The game-over mail.
pub(super) struct Ending;

#[async_trait]
impl MailKind for Ending {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Finished]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let sent = send(post, at.head, at.game).await;
        round.count(|r| &mut r.endings, &at.head.id.0, sent)
    }
}

/// Tells every registered player of the finished game of `head` (at the rules game
/// `game`) how it ended, once each, unless they want no mail; nothing for a game that was
/// imported finished. Whether a mail was sent.
async fn send(post: &Post, head: &Head, game: &dyn AnyGame) -> Result<bool, NotifyError> {
    let doc = &head.doc;
    if doc.imported {
        return Ok(false);
    }
    let players = doc.players();
    post.mail_each_once(&players, |player, unsubscribe| {
        let notice = Notice::Ended {
            game: head.id.clone(),
            player: player.handle.clone(),
        };
        let mail = ending_mail(player, head, game, &post.public_url, unsubscribe);
        (notice, mail)
    })
    .await
}

/// The mail telling `to` how the finished game of `head` (at the rules game `game`) ended:
/// the rule, who ended it, their own result, the final position from their seat, and links
/// to the game's page and its archive.
fn ending_mail(
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
