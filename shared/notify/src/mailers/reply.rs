//! The answer to a reply by mail that played nothing: why, and what the player can do now.
//! While it is their move it lists the legal moves and carries a fresh move link and,
//! with replies set up, a fresh reply address as its `Reply-To`. It goes to the player's
//! registered address, never to the reply's sender, and is sent for each such reply (no
//! notice record: a reply delivered twice is answered twice, and plays nothing either
//! time).

use missive_auth::MoveLink;
use missive_board::escape;
use missive_domain::{GameId, Head, Player, Seat, Status};
use missive_mail::Mail;
use missive_rules::{AnyGame, Notation};

use super::TurnTimes;
use super::turn::{REPLY_OFFER_HTML, REPLY_OFFER_TEXT};
use crate::compose::{game_mail, opponents};
use crate::post::Post;
use crate::{NotifyError, Scheduler};

impl Scheduler {
    /// Mails the player in `seat` of `game` that their reply was not played because
    /// `why` (a sentence), with what they can do now. Whether a mail was sent: none when
    /// there is no such game, or nobody registered sits there.
    pub async fn refuse_reply(
        &self,
        game: &GameId,
        seat: Seat,
        why: &str,
    ) -> Result<bool, NotifyError> {
        let post = &self.post;
        let Some((head, rules)) = post.service.notice_state(game).await? else {
            return Ok(false);
        };
        let Some(handle) = head.doc.player_in(seat) else {
            return Ok(false);
        };
        let Some(player) = post.service.registered(handle).await? else {
            return Ok(false);
        };
        let next = next_step(post, &head, rules.as_ref(), &player, seat).await?;
        let unsubscribe = post.unsubscribe_link(&player.handle, post.clock.now())?;
        let mail = refusal_mail(&player, &head, why, &next, &unsubscribe);
        post.transport.send(&mail).await?;
        Ok(true)
    }
}

/// What the player can do after a refused reply.
enum NextStep {
    /// It is their move: the legal moves, the move link, and the reply address if any.
    Move {
        legal: Vec<String>,
        link: String,
        reply_to: Option<String>,
    },
    /// It is another player's move.
    Wait { mover: String },
    /// The game is not being played.
    Over,
}

/// What `player`, in `seat`, can do in the game at `head` (the rules game `rules`).
async fn next_step(
    post: &Post,
    head: &Head,
    rules: &dyn AnyGame,
    player: &Player,
    seat: Seat,
) -> Result<NextStep, NotifyError> {
    let Some(waiting) = head
        .waiting
        .as_ref()
        .filter(|_| head.doc.status == Status::Active)
    else {
        return Ok(NextStep::Over);
    };
    if head.to_move != Some(seat) {
        return Ok(NextStep::Wait {
            mover: waiting.player.clone(),
        });
    }
    let seated = post.service.seated_vacations(&head.doc).await?;
    let deadline = TurnTimes::of(waiting, &seated).deadline;
    let link = MoveLink {
        handle: player.handle.clone(),
        game: head.id.clone(),
        seat,
        ply: head.ply,
    };
    Ok(NextStep::Move {
        legal: rules.legal_moves(Notation::Short),
        link: post.move_link(&link, deadline, post.clock.now())?,
        reply_to: post.reply_address(&link),
    })
}

/// The mail to `to` about their reply in the game at `head`, refused because `why`.
fn refusal_mail(to: &Player, head: &Head, why: &str, next: &NextStep, unsubscribe: &str) -> Mail {
    let intro = format!(
        "Your reply was not played: {why} (your {} game against {}).",
        head.doc.variant,
        opponents(head, &to.handle)
    );
    let (now_text, now_html) = match next {
        NextStep::Move {
            legal,
            link,
            reply_to,
        } => {
            let (offer_text, offer_html) = match reply_to {
                Some(_) => (REPLY_OFFER_TEXT, REPLY_OFFER_HTML),
                None => ("Make your move:", ""),
            };
            let legal = legal.join(" ");
            (
                format!("It is your move. The legal moves: {legal}\n\n{offer_text}\n{link}"),
                format!(
                    "<p>It is your move. The legal moves: {}</p>\n{offer_html}\
                     <p><a href=\"{}\">Make your move</a></p>\n",
                    escape(&legal),
                    escape(link)
                ),
            )
        }
        NextStep::Wait { mover } => {
            let words = format!("It is {mover}'s move; a mail comes when it is yours.");
            (words.clone(), format!("<p>{}</p>\n", escape(&words)))
        }
        NextStep::Over => {
            let words = format!("The game is {}.", head.doc.status.words());
            (words.clone(), format!("<p>{}</p>\n", escape(&words)))
        }
    };
    let text = format!(
        "Hello {name},\n\n{intro}\n\n{now_text}\n\n-- \n\
         Mail about your turns (each move, a daily digest, or none):\n{unsubscribe}\n",
        name = to.handle,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{intro}</p>\n{now_html}\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your turns</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        intro = escape(&intro),
        unsubscribe = escape(unsubscribe),
    );
    let mut mail = game_mail(to, head, text, html, Vec::new(), unsubscribe);
    if let NextStep::Move {
        reply_to: Some(address),
        ..
    } = next
    {
        mail.headers.push(("Reply-To".into(), address.clone()));
    }
    mail
}
