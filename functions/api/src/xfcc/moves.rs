//! `MakeAMove`: a move, a draw offered, accepted or claimed, a resignation or a message,
//! each through the game service's use case, answered with the protocol's result code.
//!
//! In the order the protocol's flags are read: `resign` resigns; `acceptDraw` accepts the
//! opponent's standing offer (`NoDrawWasOffered` without one); `claimDraw` claims a draw the
//! rules allow now (threefold repetition or fifty moves; `myMove` is not played, and a
//! claim the rules refuse is recorded and answered `InvalidMove`); otherwise `myMove`
//! (SAN, or long notation) is played, with a draw offer if `offerDraw`; without a move,
//! `offerDraw` offers a draw. A claim or a move must come in the player's turn with
//! `movecount` the number of the move being made (the position's full-move number:
//! white's first move and black's reply are both 1), else `NotYourTurn` or
//! `InvalidMoveNumber`. `myMessage`, when given, goes to the opponent once what came with
//! it succeeded (alone, it is just sent). A move sent again (the same `movecount` and
//! `myMove`, say after a lost answer) is answered `Success` again and played once: its
//! idempotency key is made of the two.

use missive_domain::{GameId, Head, Player, Status};
use missive_game::{MoveRequest, ServiceError, normalised};
use missive_rules::{AnyGame, Claim, Seat};

use super::answer::Outcome;
use super::games;
use crate::App;
use crate::error::move_outcome;
use missive_xfcc::{Call, Fault};

/// What a `MakeAMove` call asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The game's Xfcc number.
    pub game: i32,
    /// Resign.
    pub resign: bool,
    /// Accept the opponent's draw offer.
    pub accept_draw: bool,
    /// The number of the move being made, when one is.
    pub movecount: Option<i32>,
    /// The move, empty for none.
    pub my_move: String,
    /// Offer a draw (with the move, or alone).
    pub offer_draw: bool,
    /// Claim a draw.
    pub claim_draw: bool,
    /// A message to the opponent, empty for none.
    pub message: String,
}

impl Request {
    /// The request `call` carries: `gameId` must be an `xs:int`, `movecount` too when
    /// given, each flag an `xs:boolean`.
    pub fn of(call: &Call) -> Result<Request, Fault> {
        let movecount = match call.text("movecount").trim() {
            "" => None,
            _ => Some(call.int("movecount")?),
        };
        Ok(Request {
            game: call.int("gameId")?,
            resign: call.flag("resign")?,
            accept_draw: call.flag("acceptDraw")?,
            movecount,
            my_move: call.text("myMove").trim().to_string(),
            offer_draw: call.flag("offerDraw")?,
            claim_draw: call.flag("claimDraw")?,
            message: call.text("myMessage").to_string(),
        })
    }
}

/// Carries out `request` for `player`: its outcome, or a fault when the service refused
/// something the protocol has no code for (a message too long or too frequent).
pub async fn make_a_move(app: &App, player: &Player, request: &Request) -> Result<Outcome, Fault> {
    match decide(app, &player.handle, request).await {
        Ok(outcome) => Ok(outcome),
        Err(error) => move_outcome(error),
    }
}

async fn decide(app: &App, player: &str, request: &Request) -> Result<Outcome, ServiceError> {
    let Some(game) = games::find(app, player, request.game).await? else {
        return Ok(Outcome::InvalidGameID);
    };
    let message = match request.message.trim() {
        "" => None,
        text => Some(normalised(text)?),
    };
    let (head, rules) = app.service.game_state(&game, Some(player)).await?;
    let outcome = act(
        app,
        player,
        &game,
        &head,
        rules.as_ref(),
        request,
        message.is_some(),
    )
    .await?;
    if let (Outcome::Success, Some(text)) = (outcome, message) {
        app.service.post_message(&game, player, &text).await?;
    }
    Ok(outcome)
}

/// Does what the flags and the move ask (the message aside).
async fn act(
    app: &App,
    player: &str,
    game: &GameId,
    head: &Head,
    rules: &dyn AnyGame,
    request: &Request,
    messaged: bool,
) -> Result<Outcome, ServiceError> {
    let service = &app.service;
    if head.doc.status != Status::Active {
        return Ok(Outcome::NotYourTurn);
    }
    let mine = games::seat_of(head, player)?;
    if request.resign {
        service.resign(game, player).await?;
        return Ok(Outcome::Success);
    }
    if request.accept_draw {
        if !head.doc.draw_offers.iter().any(|seat| *seat != mine) {
            return Ok(Outcome::NoDrawWasOffered);
        }
        service.accept_draw(game, player).await?;
        return Ok(Outcome::Success);
    }
    if request.my_move.is_empty() && !request.claim_draw {
        return match (request.offer_draw, messaged) {
            (true, _) => service
                .offer_draw(game, player)
                .await
                .map(|_| Outcome::Success),
            (false, true) => Ok(Outcome::Success),
            (false, false) => Ok(Outcome::InvalidMove),
        };
    }
    let Some(ply) = ply_of(head, mine, request.movecount) else {
        return Ok(Outcome::InvalidMoveNumber);
    };
    if ply >= head.ply && head.to_move != Some(mine) {
        return Ok(Outcome::NotYourTurn);
    }
    if ply > head.ply || (request.claim_draw && ply != head.ply) {
        return Ok(Outcome::InvalidMoveNumber);
    }
    if request.claim_draw {
        let claim = rules
            .claimable()
            .first()
            .copied()
            .unwrap_or(Claim::ThreefoldRepetition);
        service.claim_draw(game, player, claim).await?;
        return Ok(Outcome::Success);
    }
    let request = MoveRequest {
        player: player.to_string(),
        expected_ply: ply,
        key: format!("xfcc:{ply}:{}", request.my_move),
        text: request.my_move.clone(),
        offer_draw: request.offer_draw,
        message: None,
    };
    service.submit_move(game, &request).await?;
    Ok(Outcome::Success)
}

/// The ply of `seat`'s move number `movecount` (as the full-move numbers of the game's
/// positions count), reckoned from the current position and ply of `head`; `None` before
/// the start.
fn ply_of(head: &Head, seat: Seat, movecount: Option<i32>) -> Option<u32> {
    let (round, side) = games::move_number(&head.position);
    let rounds = i64::from(movecount?) - i64::from(round);
    let ply = i64::from(head.ply) + 2 * rounds + i64::from(seat.0) - i64::from(side.0);
    u32::try_from(ply).ok()
}
