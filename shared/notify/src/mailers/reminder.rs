//! The reminder: when 80% of the running time for a move is gone (time on leave does not
//! run), the turn mail again ([`super::turn`]) to a player who wants mail per move or a
//! daily digest, without the notes. Once per game and ply ([`missive_domain::Notice::Reminder`]).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{MailPreference, Period};
use missive_game::timing::Turn;

use super::turn::{self, TurnNotice};
use super::{Attendance, MailKind, Stage};
use crate::post::Post;
use crate::scheduler::Round;

/// The reminder.
pub(super) struct Reminder;

#[async_trait]
impl MailKind for Reminder {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Turn]
    }

    /// Due once the reminder's time came, unless the game's wake-up came after it (the
    /// reminder then went out before it was moved on) or the player wants no mail.
    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let Some(turn) = &at.turn else {
            return false;
        };
        let reminder = turn.times.reminder;
        if turn.preference == MailPreference::None || at.wake.at > reminder || at.now < reminder {
            return false;
        }
        let sent = turn::send(post, at, TurnNotice::Reminder).await;
        round.count(|r| &mut r.reminders, &at.head.id.0, sent)
    }

    /// The reminder's time, while it is to come and the player wants mail.
    fn next(&self, _post: &Post, at: &Attendance<'_>) -> Option<DateTime<Utc>> {
        let turn = at.turn.as_ref()?;
        let reminder = turn.times.reminder;
        (turn.preference != MailPreference::None && reminder > at.now).then_some(reminder)
    }
}

/// When `turn` has used 80% of its running time, the clock standing still during
/// `vacations`.
pub fn reminder_time(turn: &Turn, vacations: &[Period]) -> DateTime<Utc> {
    turn.part(4, 5).deadline(vacations)
}
