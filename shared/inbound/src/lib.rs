//! Replies by mail: a player answers a turn mail with their move, and the answer plays it.
//!
//! Turn mails carry a `Reply-To` of `reply+{token}@domain` (minted in
//! `missive_notify::links::reply_address`); the token ([`missive_auth::ReplyToken`]) names
//! the game, the seat and the ply, sealed for the player in that seat. A reply is handled
//! by [`Replies::handle`]:
//!
//! - [`recipient`] finds the token among the mail's recipients; [`reading`] takes the
//!   first line of the reply's own text (quotes, attributions, forwarded originals and
//!   signatures left out, top- or bottom-posted); [`command`] reads what it asks for.
//! - A move is submitted at the token's ply with an idempotency key of its own, so a reply
//!   delivered twice plays once and a reply to a position the game has left is stale.
//! - Whatever is refused is answered by mail to the player's registered address, with
//!   the legal moves and a fresh link and reply address while it is their move; a mail
//!   whose token does not hold gets no answer at all (no backscatter), only a log line.
//!
//! Entry points: [`folder`] (the inbox folder `missive serve` watches) and the inbound
//! Lambda function (SES stores the mail in S3 and invokes it).

pub mod command;
mod error;
pub mod folder;
pub mod reading;
pub mod recipient;
mod replies;

pub use error::InboundError;
pub use replies::{Outcome, Replies};
