//! The mailers: one module per kind of mail, each with its due test, its composition (the
//! mail's text and HTML, from the parts in [`crate::compose`]) and its notice record (the
//! [`missive_domain::Notice`] that makes it go out once).
//!
//! The kinds the scheduler sends as it attends a game are registered in [`MAILERS`], in the
//! order they go out; a new kind is one module here and one line in that list. Each says
//! at which [`Stage`] of an attendance it is looked at, may name when the game next needs it
//! ([`MailKind::next`], which brings the game's wake-up forward), and may take the wake-up
//! over to move it on itself after the sweep (the digest, which gathers a player's games).
//!
//! The mails a request asks for (invitations to a game, the word to its creator that an
//! invitee declined, invitations to a tournament) are sent at once by the scheduler's
//! methods in their own modules, [`invitation`], [`declined`] and
//! [`tournament_invitation`].

mod declined;
mod digest;
mod ending;
mod invitation;
mod leave;
mod notes;
mod reminder;
mod reply;
mod started;
mod tournament;
mod tournament_end;
mod tournament_invitation;
mod tournament_start;
mod turn;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Head, MailPreference, Waiting};
use missive_game::Seated;
use missive_game::timing::Turn;
use missive_rules::AnyGame;

pub use digest::next_digest;
pub use reminder::reminder_time;

use crate::post::Post;
use crate::scheduler::{GameWake, Round};

/// Every kind of mail the scheduler sends about a game, in the order they go out.
pub(crate) const MAILERS: &[&dyn MailKind] = &[
    &tournament_start::TournamentStart,
    &started::Started,
    &turn::TurnMail,
    &reminder::Reminder,
    &ending::Ending,
    &tournament_end::TournamentEnd,
    &notes::Notes,
    &leave::Leave,
    &digest::Digest,
];

/// When in the attendance of a game a mailer is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// An active game, before its clock is looked at; a failure here leaves the turn
    /// unattended until the next try.
    Active,
    /// The turn of an active game whose time is not up.
    Turn,
    /// A finished game, once what its end changes beyond it (ratings, its tournament) is
    /// settled.
    Finished,
}

/// A game as the scheduler attends it.
pub(crate) struct Attendance<'a> {
    /// Its wake-up as found.
    pub wake: &'a GameWake,
    /// Its head.
    pub head: &'a Head,
    /// The rules game it is at (its last moves known, at least the last one).
    pub game: &'a dyn AnyGame,
    /// Now.
    pub now: DateTime<Utc>,
    /// The turn, at [`Stage::Turn`] (none before).
    pub turn: Option<TurnState<'a>>,
}

/// The turn of an active game as the scheduler found it.
pub(crate) struct TurnState<'a> {
    /// Who is to move since when, until the stored deadline.
    pub waiting: &'a Waiting,
    /// The seated players with their vacations.
    pub seated: Vec<Seated>,
    /// The turn's real times.
    pub times: TurnTimes,
    /// The mail preference of the player to move.
    pub preference: MailPreference,
}

/// A turn's times as its clock really runs, standing still during the vacations of the
/// player to move.
pub(crate) struct TurnTimes {
    /// When the time for the move runs out.
    pub deadline: DateTime<Utc>,
    /// When 80% of the running time is gone: the reminder.
    pub reminder: DateTime<Utc>,
}

impl TurnTimes {
    /// The times of the turn `waiting` describes, counting the vacations of its player
    /// among `seated`.
    pub fn of(waiting: &Waiting, seated: &[Seated]) -> TurnTimes {
        let vacations = seated
            .iter()
            .find(|s| s.player == waiting.player)
            .map_or(&[][..], |s| &s.periods[..]);
        let turn = Turn::waiting(waiting);
        TurnTimes {
            deadline: turn.deadline(vacations),
            reminder: reminder_time(&turn, vacations),
        }
    }
}

/// A kind of mail the scheduler sends about a game.
#[async_trait]
pub(crate) trait MailKind: Sync {
    /// The stages of an attendance at which it is looked at.
    fn stages(&self) -> &'static [Stage];

    /// Sends what of this kind is due for the game `at` attends, each mail once (claimed
    /// through `post`), counted in `round`'s report, failures recorded there: whether one
    /// failed (the game's wake-up then stays where it is, for the next try). Nothing for a
    /// kind looked at in no stage.
    async fn attend(&self, _post: &Post, _at: &Attendance<'_>, _round: &mut Round) -> bool {
        false
    }

    /// When, after now, the turn `at` attends next needs this kind (the game's wake-up
    /// goes to the earliest such moment, or the deadline); none: never before the deadline.
    fn next(&self, _post: &Post, _at: &Attendance<'_>) -> Option<DateTime<Utc>> {
        None
    }

    /// Whether this kind takes over moving the wake-up of the turn `at` attends to `next`
    /// once everything due went out (it does so in [`MailKind::after_sweep`]).
    fn takes_wake(
        &self,
        _post: &Post,
        _at: &Attendance<'_>,
        _next: DateTime<Utc>,
        _round: &mut Round,
    ) -> bool {
        false
    }

    /// Sends what this kind gathered over a sweep at `now`, and moves on the wake-ups it
    /// took over; failures are recorded in `round`'s report.
    async fn after_sweep(&self, _post: &Post, _now: DateTime<Utc>, _round: &mut Round) {}
}
