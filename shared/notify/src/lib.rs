//! Missive's notifications: who gets which mail when a game changes, and the periodic
//! sweep (time-outs, tournament starts, webhook retries, reminders at 80% of the time for
//! a move, daily digests, turns whose mail was never sent).
//!
//! - [`Scheduler::game_changed`] is called for every changed game: by the notifier Lambda
//!   for the table's stream records, by `missive serve` for the service's change feed.
//! - [`Scheduler::sweep`] runs on a schedule (the sweeper Lambda; a task of `missive
//!   serve`): it attends what the sweep's index has due.
//! - The mails themselves are the mailers' (`mailers`): one module per kind (the turn mail,
//!   the reminder, the game-over mail, notes, leaves, the digest, a tournament's start and
//!   end, invitations), each with its due test, its composition and its notice record,
//!   the kinds the scheduler sends registered in one list.
//! - Every mail is claimed in the store before it is sent (a [`missive_domain::Notice`]
//!   marker written only if absent), so a repeated event or a second sweep sends nothing
//!   more; a failed send releases the claim. The sweep also sends any turn mail still
//!   unclaimed, so a crash between a commit and its mail delays that mail by one sweep
//!   instead of losing it.
//! - Links are minted in [`links`]; the parts every mail is made of are in [`compose`].

pub mod compose;
pub mod dispatch;
mod error;
pub mod hooks;
pub mod links;
mod mailers;
mod post;
pub mod push;
pub mod reach;
mod scheduler;
pub mod sockets;
#[cfg(feature = "testing")]
pub mod testing;

pub use dispatch::{HOOKS_AT_ONCE, HookDispatcher};
pub use error::NotifyError;
pub use hooks::HookSender;
pub use mailers::{next_digest, reminder_time};
pub use push::PushIdentity;
pub use reach::Reach;
pub use scheduler::{NotifyConfig, Scheduler, SweepReport};
pub use sockets::{Gateway, SocketSender, Undelivered};
