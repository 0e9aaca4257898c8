//! Vacations in the games' logs: a vacation taken, and one ended early or called off, is
//! recorded in each of the player's current games (forming or active, where the player
//! sits), so each game's record says when its clock stopped and ran again for whom.

use missive_domain::{Cursor, GameEvent, GameId, Period, Status};
use missive_store::Membership;

use crate::service::Access;
use crate::{GameService, ServiceError};

/// Current games read at a time.
const PAGE: usize = 100;

impl GameService {
    /// Records `period`, a vacation `player` took, in each of their current games.
    pub(crate) async fn record_vacation(
        &self,
        player: &str,
        period: Period,
    ) -> Result<(), ServiceError> {
        let taken = GameEvent::VacationTaken {
            from: period.start,
            to: period.end,
        };
        self.record_in_current_games(player, &taken).await
    }

    /// Records that `player` ended a vacation now, before it was over (or called off one
    /// not started), in each of their current games.
    pub(crate) async fn record_vacation_end(&self, player: &str) -> Result<(), ServiceError> {
        self.record_in_current_games(player, &GameEvent::VacationEnded)
            .await
    }

    /// Records `event` for `player`'s seat in each of their current games.
    async fn record_in_current_games(
        &self,
        player: &str,
        event: &GameEvent,
    ) -> Result<(), ServiceError> {
        for membership in [Membership::Forming, Membership::Active] {
            for game in self.current_game_ids(player, membership).await? {
                self.record_for_seat(&game, player, event).await?;
            }
        }
        Ok(())
    }

    /// Every current game of `player` of one kind, page by page.
    async fn current_game_ids(
        &self,
        player: &str,
        membership: Membership,
    ) -> Result<Vec<GameId>, ServiceError> {
        let mut ids = Vec::new();
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self
                .store
                .games_of(player, membership, cursor.as_ref(), PAGE)
                .await?;
            ids.extend(page.items);
            match page.next {
                Some(next) => cursor = Some(next),
                None => return Ok(ids),
            }
        }
    }

    /// Records `event` in `game` for `player`'s seat if they still sit in it and it is still
    /// under way (it may have ended since it was listed).
    async fn record_for_seat(
        &self,
        game: &GameId,
        player: &str,
        event: &GameEvent,
    ) -> Result<(), ServiceError> {
        let recorded = self
            .change(game, Access::Service, |draft| {
                let current = matches!(draft.doc().status, Status::Forming | Status::Active);
                if let (true, Some(seat)) = (current, draft.doc().seat_of(player)) {
                    draft.record(event.clone(), Some(seat));
                }
                Ok(())
            })
            .await;
        match recorded {
            Err(ServiceError::GameNotFound(_)) => Ok(()),
            other => other,
        }
    }
}
