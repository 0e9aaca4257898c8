//! Ending a game: draw offers, claims, resignation and time running out.

use missive_domain::{Ending, Game, GameEvent, GameId};
use missive_rules::{Claim, EndRule, Seat};

use crate::service::Access;
use crate::{GameService, ServiceError};

impl GameService {
    /// Offers a draw (without a move). When every seat has offered or accepted, the game
    /// is drawn by agreement. Returns the ending if that happened.
    pub async fn offer_draw(
        &self,
        game: &GameId,
        player: &str,
    ) -> Result<Option<Ending>, ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            draft.require_active()?;
            let seat = draft.playing_seat_of(player)?;
            draft.record(GameEvent::DrawOffered, Some(seat));
            agree_to_draw(draft, seat)
        })
        .await
    }

    /// Accepts the draw other seats offered; with every seat agreed, the game is drawn.
    pub async fn accept_draw(
        &self,
        game: &GameId,
        player: &str,
    ) -> Result<Option<Ending>, ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            let seat = seat_offered_a_draw(draft, player)?;
            draft.record(GameEvent::DrawAccepted, Some(seat));
            agree_to_draw(draft, seat)
        })
        .await
    }

    /// Declines the draw other seats offered: every standing offer lapses.
    pub async fn decline_draw(&self, game: &GameId, player: &str) -> Result<(), ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            let seat = seat_offered_a_draw(draft, player)?;
            draft.clear_draw_offers();
            draft.record(GameEvent::DrawDeclined, Some(seat));
            Ok(())
        })
        .await
    }

    /// Withdraws the draw the player offered (alone: an offer made with a move counts too),
    /// before the others accept it.
    pub async fn withdraw_draw(&self, game: &GameId, player: &str) -> Result<(), ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            draft.require_active()?;
            let seat = draft.playing_seat_of(player)?;
            if !draft.doc().draw_offers.contains(&seat) {
                return Err(ServiceError::refused("you offer no draw"));
            }
            draft.withdraw_draw_offer(seat);
            draft.record(GameEvent::DrawWithdrawn, Some(seat));
            Ok(())
        })
        .await
    }

    /// Claims a draw the rules allow the player to move (threefold repetition, 50 moves).
    /// A claim the rules refuse is recorded too (the game goes on) before it is answered
    /// as refused.
    pub async fn claim_draw(
        &self,
        game: &GameId,
        player: &str,
        claim: Claim,
    ) -> Result<Ending, ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            let seat = draft.mover(player)?;
            let rule = claim.rule();
            Ok(match draft.rules().claim(claim) {
                Ok(outcome) => {
                    draft.record(GameEvent::DrawClaimed { rule }, Some(seat));
                    Ok(draft.finish(&outcome, Some(seat)))
                }
                Err(refused) => {
                    draft.record(GameEvent::ClaimRefused { rule }, Some(seat));
                    Err(ServiceError::from(refused))
                }
            })
        })
        .await?
    }

    /// Resigns: the rules say who wins (in three-seat games, how the others share it).
    pub async fn resign(&self, game: &GameId, player: &str) -> Result<Ending, ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            draft.require_active()?;
            let seat = draft.playing_seat_of(player)?;
            let outcome = draft.rules().resign(seat);
            draft.record(GameEvent::Resigned, Some(seat));
            Ok(draft.finish(&outcome, Some(seat)))
        })
        .await
    }

    /// Claims a win on time: the seat to move is past its deadline (vacations counted).
    /// The rules give the result: a loss for the late seat, or a draw when no opponent
    /// could ever win. A claim made before the time ran out is recorded as refused.
    pub async fn claim_timeout(&self, game: &GameId, player: &str) -> Result<Ending, ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            draft.require_active()?;
            let claimant = draft.seat_of(player)?;
            if draft.turn_seat() == Some(claimant) {
                return Err(ServiceError::refused("you cannot claim on your own time"));
            }
            Ok(expire(draft).ok_or_else(|| {
                let refused = GameEvent::ClaimRefused {
                    rule: EndRule::Timeout,
                };
                draft.record(refused, Some(claimant));
                ServiceError::refused("the time has not run out")
            }))
        })
        .await?
    }

    /// Ends the game if the seat to move is past its deadline: what a periodic sweep calls.
    /// Returns the ending if the game ended now.
    pub async fn enforce_deadline(&self, game: &GameId) -> Result<Option<Ending>, ServiceError> {
        self.change(game, Access::Service, |draft| Ok(expire(draft)))
            .await
    }
}

/// The seat of `player`, still playing an active game, to whom another seat offers a draw.
fn seat_offered_a_draw(draft: &Game, player: &str) -> Result<Seat, ServiceError> {
    draft.require_active()?;
    let seat = draft.playing_seat_of(player)?;
    if !draft.doc().draw_offers.iter().any(|s| *s != seat) {
        return Err(ServiceError::refused("no draw is offered to you"));
    }
    Ok(seat)
}

/// Adds `seat` to the draw agreement; ends the game when every seat still playing agrees
/// (in a three-seat game a nation already out has no say, and the rules give it a loss).
fn agree_to_draw(draft: &mut Game, seat: Seat) -> Result<Option<Ending>, ServiceError> {
    draft.offer_draw(seat);
    let seats = draft.doc().seats.len() as u8;
    let everyone_agrees = (0..seats)
        .map(Seat)
        .filter(|s| draft.rules().is_playing(*s))
        .all(|s| draft.doc().draw_offers.contains(&s));
    if !everyone_agrees {
        return Ok(None);
    }
    let outcome = draft.rules().draw(EndRule::Agreement);
    Ok(Some(draft.finish(&outcome, None)))
}

/// Ends the game on time if the seat to move is past its deadline.
pub(crate) fn expire(draft: &mut Game) -> Option<Ending> {
    let seat = draft.turn_seat()?;
    if !draft.time_is_up() {
        return None;
    }
    let outcome = draft.rules().timeout(seat);
    draft.record(GameEvent::TimedOut, Some(seat));
    Some(draft.finish(&outcome, Some(seat)))
}
