//! Missive's notifications: who gets which mail when a game changes, and the periodic
//! sweep (time-outs, reminders at 80% of the time for a move, daily digests, turns whose
//! mail was never sent).
//!
//! - [`Notifier::game_changed`] is called for every changed game: by the notifier Lambda
//!   for the table's stream records, by `missive serve` for the service's change feed.
//!   When it is someone's turn and they want a mail per move, they get one: the opponent's
//!   last move in short notation, the board, the time left, and the move link.
//! - [`Notifier::sweep`] runs on a schedule (the sweeper Lambda; a task of `missive serve`).
//! - Every mail is claimed in the store before it is sent (a [`missive_domain::Notice`]
//!   marker written only if absent), so a repeated event or a second sweep sends nothing
//!   more; a failed send releases the claim. The sweep also sends any turn mail still
//!   unclaimed, so a crash between a commit and its mail delays that mail by one sweep
//!   instead of losing it.
//! - Messages, and draws offered without a move and their answers ([`notes`]), are mailed
//!   to the game's other players: with their next turn mail or at once.
//! - Links are minted in [`links`]; mails are composed in [`compose`], [`notes`] and
//!   [`invitations`], each with a plain-text and an HTML part and (for players) RFC 8058
//!   one-click unsubscribe headers.

pub mod compose;
pub mod dispatch;
mod error;
pub mod hooks;
pub mod invitations;
pub mod links;
pub mod notes;
mod notifier;
pub mod reach;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tournaments;

pub use dispatch::{HOOKS_AT_ONCE, HookDispatcher};
pub use error::NotifyError;
pub use hooks::HookSender;
pub use notifier::{Notifier, NotifyConfig, SweepReport, next_digest, reminder_time};
pub use reach::Reach;
