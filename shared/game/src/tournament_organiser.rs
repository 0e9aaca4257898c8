//! What a tournament's organiser does to its games: adjudicate one, pause and resume the
//! tournament (no clock of its games runs meanwhile), extend one game's deadline.

use missive_domain::{Ending, GameEvent, Period, SeatResult};
use missive_domain::{GameId, Status, Tournament, TournamentId, TournamentState};
use missive_tournament::score::game_points;

use crate::service::Access;
use crate::timing::joined;
use crate::tournaments::{require_organiser, require_state};
use crate::{GameService, ServiceError};

/// The longest extension of a game's deadline, in days.
pub const MAX_EXTENSION_DAYS: u16 = 60;

/// How far ahead a pause still going is taken to end (it ends when resumed).
const FOREVER_DAYS: i64 = 100 * 365;

/// The longest reason of an adjudication.
pub const MAX_ADJUDICATION_REASON: usize = 200;

impl GameService {
    /// Ends tournament game `game` with `results` (one per seat, a game's result: one
    /// point in all) for `reason`, as `by`, the tournament's organiser, decides: recorded
    /// in the game's log (`adjudicated`), its ending rule `adjudication`. A game `by` may
    /// not see (private, not theirs) is `GameNotFound`, as a missing one.
    pub async fn adjudicate(
        &self,
        game: &GameId,
        by: &str,
        results: Vec<SeatResult>,
        reason: &str,
    ) -> Result<Ending, ServiceError> {
        let head = self.head_for(game, by).await?;
        let Some(id) = &head.doc.tournament else {
            return Err(ServiceError::refused(
                "only a tournament's games are adjudicated",
            ));
        };
        require_organiser(&self.tournament(id).await?, by)?;
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(ServiceError::refused("an adjudication needs a reason"));
        }
        if reason.chars().count() > MAX_ADJUDICATION_REASON {
            return Err(ServiceError::TooLong {
                what: "an adjudication's reason",
                limit: MAX_ADJUDICATION_REASON,
            });
        }
        if results.len() != head.doc.seats.len() {
            return Err(ServiceError::refused("one result per seat"));
        }
        game_points(&results).map_err(|e| ServiceError::refused(e.to_string()))?;
        let event = GameEvent::Adjudicated {
            by: by.to_string(),
            reason: reason.to_string(),
        };
        self.change(game, Access::Service, |draft| {
            draft.require_active()?;
            draft.record(event.clone(), None);
            Ok(draft.adjudicate(results.clone()))
        })
        .await
    }

    /// Pauses the running tournament `id` for `by`, its organiser: every clock of its games
    /// being played stops from now (moves are still taken) until it is resumed. Each game
    /// records `paused`.
    pub async fn pause_tournament(
        &self,
        id: &TournamentId,
        by: &str,
    ) -> Result<Tournament, ServiceError> {
        let now = self.now();
        let paused = self
            .organiser_change(id, by, |tournament| {
                require_state(tournament, &[TournamentState::Running])?;
                tournament.state = TournamentState::Paused;
                tournament.paused_at = Some(now);
                Ok(())
            })
            .await?;
        let stop = Period {
            start: now,
            end: now + chrono::Duration::days(FOREVER_DAYS),
        };
        self.each_active_game(&paused, GameEvent::Paused, |pauses| {
            *pauses = joined(pauses, &[stop]);
        })
        .await?;
        Ok(paused)
    }

    /// Resumes the paused tournament `id` for `by`, its organiser: the clocks run again
    /// from now, every turn's deadline later by the pause's length. Each game records
    /// `resumed`.
    pub async fn resume_tournament(
        &self,
        id: &TournamentId,
        by: &str,
    ) -> Result<Tournament, ServiceError> {
        let now = self.now();
        let resumed = self
            .organiser_change(id, by, |tournament| {
                require_state(tournament, &[TournamentState::Paused])?;
                tournament.state = TournamentState::Running;
                tournament.paused_at = None;
                Ok(())
            })
            .await?;
        self.each_active_game(&resumed, GameEvent::Resumed, |pauses| {
            for pause in pauses.iter_mut().filter(|p| p.end > now) {
                pause.end = now.max(pause.start);
            }
        })
        .await?;
        Ok(resumed)
    }

    /// Stops the clocks of tournament game `game` for `days` days from now, as `by`, its
    /// tournament's organiser, decides: the current turn's deadline moves that much later
    /// (a move made meanwhile starts the next turn inside the same stop). Recorded in the
    /// game's log (`deadline-extended`). A game `by` may not see is `GameNotFound`, as a missing
    /// one; a game not being played (forming, finished) is `NotActive`.
    pub async fn extend_deadline(
        &self,
        game: &GameId,
        by: &str,
        days: u16,
    ) -> Result<(), ServiceError> {
        if !(1..=MAX_EXTENSION_DAYS).contains(&days) {
            return Err(ServiceError::refused(format!(
                "an extension is 1 to {MAX_EXTENSION_DAYS} days"
            )));
        }
        let head = self.head_for(game, by).await?;
        let Some(id) = &head.doc.tournament else {
            return Err(ServiceError::refused(
                "only a tournament's games are extended",
            ));
        };
        require_organiser(&self.tournament(id).await?, by)?;
        let now = self.now();
        let stop = Period {
            start: now,
            end: now + chrono::Duration::days(days.into()),
        };
        let event = GameEvent::DeadlineExtended {
            by: by.to_string(),
            days,
        };
        self.stop_clocks(game, event, |pauses| *pauses = joined(pauses, &[stop]))
            .await
    }

    /// Records `event` in every game of `tournament` being played, its pauses changed by
    /// `change`; a game that ended meanwhile is left as it is.
    async fn each_active_game(
        &self,
        tournament: &Tournament,
        event: GameEvent,
        change: impl Fn(&mut Vec<Period>) + Copy,
    ) -> Result<(), ServiceError> {
        for head in self.tournament_heads(tournament).await? {
            if head.doc.status == Status::Active {
                match self.stop_clocks(&head.id, event.clone(), change).await {
                    Ok(()) | Err(ServiceError::NotActive(_)) => {}
                    Err(error) => return Err(error),
                }
            }
        }
        Ok(())
    }

    /// Records `event` in active game `game` with its pauses changed by `change`; a game not
    /// being played is `NotActive`, and nothing is recorded.
    async fn stop_clocks(
        &self,
        game: &GameId,
        event: GameEvent,
        change: impl Fn(&mut Vec<Period>),
    ) -> Result<(), ServiceError> {
        self.change(game, Access::Service, |draft| {
            draft.require_active()?;
            draft.change_pauses(&change);
            draft.record(event.clone(), None);
            Ok(())
        })
        .await
    }

    /// [`GameService::change_tournament`] by `by`, who must be its organiser.
    async fn organiser_change(
        &self,
        id: &TournamentId,
        by: &str,
        change: impl FnMut(&mut Tournament) -> Result<(), ServiceError>,
    ) -> Result<Tournament, ServiceError> {
        require_organiser(&self.tournament(id).await?, by)?;
        self.change_tournament(id, change).await
    }
}
