//! Acting on a reply: the token of the address it was sent to says which player, game,
//! seat and ply it answers (the `From` header says nothing that counts); the first line of
//! its own text says what to do, done through the game service as the move page does it.
//! What is refused is answered by mail to the player's registered address
//! ([`Scheduler::refuse_reply`]); what cannot be trusted (no token, a forged one, a game
//! or seat that does not hold it) is only logged, so forged mail brings no mail back.

use std::sync::Arc;

use mail_parser::MessageParser;
use missive_auth::{Authority, MoveLink};
use missive_domain::{GameId, Head, Status};
use missive_game::{GameService, MoveRequest, ServiceError};
use missive_notify::Scheduler;

use crate::command::Command;
use crate::error::InboundError;
use crate::{reading, recipient};

/// What became of a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The move was played (or had been, by this same reply delivered before).
    Played {
        /// The game.
        game: GameId,
        /// The move as stored, in short notation.
        short: String,
    },
    /// The player resigned.
    Resigned {
        /// The game.
        game: GameId,
    },
    /// The player accepted the draw offered.
    DrawAccepted {
        /// The game.
        game: GameId,
    },
    /// Nothing was played; the player was told why, if `mailed`.
    Refused {
        /// The game.
        game: GameId,
        /// Why, as the mail says it.
        why: String,
        /// Whether the mail went out.
        mailed: bool,
    },
    /// Nothing was played and nobody was told: the mail is not a reply that can be
    /// trusted, or its game is over.
    Dropped {
        /// Why, for the log.
        why: String,
    },
}

/// Why a reply played nothing: told to the player, only logged, or a failure to retry.
enum Unplayed {
    /// Told to the player, in these words.
    Refused(String),
    /// Only logged.
    Dropped(String),
    /// The store or the service failed.
    Failed(ServiceError),
}

/// Plays replies to turn mails.
#[derive(Clone)]
pub struct Replies {
    service: GameService,
    authority: Arc<Authority>,
    notifier: Scheduler,
}

impl Replies {
    /// Replies played through `service`, their tokens checked with `authority` (the one
    /// that mints the mails' reply addresses), refusals mailed by `notifier`.
    pub fn new(service: GameService, authority: Arc<Authority>, notifier: Scheduler) -> Replies {
        Replies {
            service,
            authority,
            notifier,
        }
    }

    /// Acts on the mail `raw` (an RFC 5322 message), delivered to `envelope` (its
    /// envelope's recipients, when the receiving side names them). A move is played once
    /// however often the same reply is delivered. An error is a failure of the store or of
    /// the mail back, worth another try.
    pub async fn handle(&self, raw: &[u8], envelope: &[String]) -> Result<Outcome, InboundError> {
        let Some(message) = MessageParser::default().parse(raw) else {
            return Ok(dropped("not a mail"));
        };
        let Some(token) = recipient::reply_token(&message, envelope) else {
            return Ok(dropped("sent to no reply address"));
        };
        let Some((head, _)) = self.service.notice_state(&token.game).await? else {
            return Ok(dropped("the reply token names no game"));
        };
        let Some(link) = head
            .doc
            .player_in(token.seat)
            .and_then(|handle| token.open(&self.authority, handle).ok())
        else {
            return Ok(dropped("the reply token's seal does not hold"));
        };
        if head.doc.status != Status::Active {
            return Ok(dropped("the game is over"));
        }
        let line = reading::first_own_line(&message);
        let done = match line.as_deref().map(Command::read) {
            Some(Some(command)) => self.act(&link, &head, command).await,
            Some(None) => Err(Unplayed::Refused(format!(
                "its first line, \u{201c}{}\u{201d}, is no move. Write the move alone on the \
                 first line, perhaps followed by `draw`, or `resign`.",
                line.unwrap_or_default()
            ))),
            None => Err(Unplayed::Refused(
                "it has no text of its own (the move goes on its first line).".into(),
            )),
        };
        match done {
            Ok(outcome) => Ok(outcome),
            Err(Unplayed::Dropped(why)) => Ok(dropped(&why)),
            Err(Unplayed::Failed(error)) => Err(error.into()),
            Err(Unplayed::Refused(why)) => {
                let mailed = self
                    .notifier
                    .refuse_reply(&link.game, link.seat, &why)
                    .await?;
                Ok(Outcome::Refused {
                    game: link.game,
                    why,
                    mailed,
                })
            }
        }
    }

    /// Does what `command` asks for `link`'s player in the game at `head`.
    async fn act(
        &self,
        link: &MoveLink,
        head: &Head,
        command: Command,
    ) -> Result<Outcome, Unplayed> {
        let game = link.game.clone();
        match command {
            Command::Move { text, offer_draw } => {
                let request = move_request(link, text, offer_draw);
                let accepted = self.service.submit_move(&game, &request).await;
                let accepted = accepted.map_err(unplayed)?;
                Ok(Outcome::Played {
                    game,
                    short: accepted.record.short,
                })
            }
            Command::Resign => {
                still_at(head, link)?;
                let resigned = self.service.resign(&game, &link.handle).await;
                resigned.map_err(unplayed)?;
                Ok(Outcome::Resigned { game })
            }
            Command::AcceptDraw => {
                still_at(head, link)?;
                let offered = head.doc.draw_offers.iter().any(|seat| *seat != link.seat);
                if !offered {
                    return Err(Unplayed::Refused(
                        "nobody offers you a draw. To offer one, reply with your move and \
                         `draw` after it."
                            .into(),
                    ));
                }
                let accepted = self.service.accept_draw(&game, &link.handle).await;
                accepted.map_err(unplayed)?;
                Ok(Outcome::DrawAccepted { game })
            }
        }
    }
}

/// The move request a reply makes: at the token's ply, keyed by the ply, the offer and
/// the text, so the same reply delivered again gets the first answer and plays nothing.
fn move_request(link: &MoveLink, text: String, offer_draw: bool) -> MoveRequest {
    MoveRequest {
        player: link.handle.clone(),
        expected_ply: link.ply,
        key: format!("reply-{}-{offer_draw}-{text}", link.ply),
        text,
        offer_draw,
        message: None,
    }
}

/// Refused as stale unless the game at `head` is still at the ply `link` answers.
fn still_at(head: &Head, link: &MoveLink) -> Result<(), Unplayed> {
    match head.ply == link.ply {
        true => Ok(()),
        false => Err(Unplayed::Refused(STALE.into())),
    }
}

/// Why a reply to an earlier position is refused.
const STALE: &str = "it answers an earlier position: the game has moved on since that mail.";

/// How a refusal of the service is told; failures of the store or the service are the
/// caller's to retry.
fn unplayed(error: ServiceError) -> Unplayed {
    match error {
        ServiceError::Conflict { .. } | ServiceError::KeyReused => Unplayed::Refused(STALE.into()),
        ServiceError::Move(_) | ServiceError::Refused(_) => Unplayed::Refused(format!("{error}.")),
        ServiceError::NotYourTurn => Unplayed::Refused("it is not your move.".into()),
        ServiceError::TimeExpired(_) | ServiceError::NotActive(_) => {
            Unplayed::Dropped("the game is over".into())
        }
        other => Unplayed::Failed(other),
    }
}

/// A reply dropped because `why`, logged.
fn dropped(why: &str) -> Outcome {
    tracing::info!(why, "reply by mail dropped");
    Outcome::Dropped { why: why.into() }
}
