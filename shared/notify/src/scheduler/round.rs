//! One round of attending games (a sweep, or one change): what it did, and what the games
//! it attended leave to the end of the round.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use missive_domain::{GameId, MailPreference};
use missive_game::GameService;

use crate::NotifyError;

/// What one sweep did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Games looked at (those due).
    pub due: usize,
    /// Games ended on time.
    pub timeouts: usize,
    /// Turn mails sent that no change event had sent.
    pub turns: usize,
    /// Creators told that their game started without them to move.
    pub starts: usize,
    /// Reminders sent.
    pub reminders: usize,
    /// Game-over mails sent that no change event had sent.
    pub endings: usize,
    /// Digests sent.
    pub digests: usize,
    /// Mails of notes (messages, draw offers and their answers) sent on their own.
    pub notes: usize,
    /// Mails telling players that an opponent's leave started or ended.
    pub leaves: usize,
    /// Mails telling a tournament's players that it started or ended.
    pub tournaments: usize,
    /// Tournaments started because their start date came.
    pub tournaments_started: usize,
    /// Rating periods closed (each rating the games that ended in it).
    pub rating_periods: u32,
    /// Webhooks handed over to be attended (out of line: see [`crate::dispatch`]).
    pub hooks: usize,
    /// What failed (each is retried by the next sweep).
    pub failures: Vec<String>,
}

/// A game's wake-up as the sweep or a change found it: what moving it on is conditional on.
#[derive(Clone, Debug)]
pub(crate) struct GameWake {
    /// The game.
    pub game: GameId,
    /// Its wake-up as found.
    pub at: DateTime<Utc>,
}

impl GameWake {
    /// Moves the game's wake-up from where it was found to `to` (none: the game needs
    /// nothing more); a change of the game that moved it meanwhile wins.
    pub async fn settle(
        &self,
        service: &GameService,
        to: Option<DateTime<Utc>>,
    ) -> Result<(), NotifyError> {
        service.move_wake(&self.game, self.at, to).await?;
        Ok(())
    }
}

/// What attending games asks of the round around them.
#[derive(Default)]
pub(crate) struct Round {
    /// What was done so far.
    pub report: SweepReport,
    /// Players whose digest is due, with the wake-ups of their games to move on once it is
    /// sent (where each goes next).
    pub digests: BTreeMap<String, Vec<(GameWake, DateTime<Utc>)>>,
    /// Mail preferences read so far.
    preferences: HashMap<String, MailPreference>,
}

impl Round {
    /// Adds a sent mail to `counter` or a failure (named by `what`); whether it failed.
    pub fn count(
        &mut self,
        counter: fn(&mut SweepReport) -> &mut usize,
        what: &str,
        result: Result<bool, NotifyError>,
    ) -> bool {
        match result {
            Ok(sent) => {
                *counter(&mut self.report) += usize::from(sent);
                false
            }
            Err(error) => {
                tracing::warn!(%what, %error, "notification failed");
                self.report.failures.push(format!("{what}: {error}"));
                true
            }
        }
    }

    /// The player's mail preference, read once per round.
    pub async fn preference(
        &mut self,
        service: &GameService,
        player: &str,
    ) -> Result<MailPreference, NotifyError> {
        if let Some(preference) = self.preferences.get(player) {
            return Ok(*preference);
        }
        let preference = service.mail_preference(player).await?;
        self.preferences.insert(player.to_string(), preference);
        Ok(preference)
    }
}
