//! Ending a game by agreement, claim or resignation.

use axum::Json;
use axum::extract::State;
use missive_domain::GameId;
use missive_rules::Claim;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::wire::Ended;
use crate::{ApiError, App, JsonBody};

/// A draw action.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Draw {
    action: DrawAction,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum DrawAction {
    Offer,
    /// Takes back the caller's own standing offer.
    Withdraw,
    Accept,
    Decline,
}

/// Offer, withdraw, accept or decline a draw
#[utoipa::path(post, path = "/v1/games/{id}/draw", tag = "games", operation_id = "answer_draw", security(("bearer" = [])), params(IdPath<GameId>), request_body = Draw, responses(
    (status = 200, description = "The ending, if the draw is agreed", body = Ended),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "No offer to answer or withdraw (`refused`)", body = ErrorBody),
))]
pub(crate) async fn draw(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    JsonBody(request): JsonBody<Draw>,
) -> Result<Json<Ended>, ApiError> {
    let ending = match request.action {
        DrawAction::Offer => app.service.offer_draw(&id, &me).await?,
        DrawAction::Accept => app.service.accept_draw(&id, &me).await?,
        DrawAction::Withdraw => {
            app.service.withdraw_draw(&id, &me).await?;
            None
        }
        DrawAction::Decline => {
            app.service.decline_draw(&id, &me).await?;
            None
        }
    };
    Ok(Ended::with(ending))
}

/// A claim: a draw rule or a win on time.
#[derive(Deserialize, ToSchema)]
pub(crate) struct ClaimRequest {
    claim: ClaimKind,
}

/// What is claimed.
#[derive(Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ClaimKind {
    /// The opponent to move ran out of time.
    Timeout,
    /// The position occurred three times.
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or pawn move.
    FiftyMoves,
}

/// Claim a draw or a win on time
#[utoipa::path(post, path = "/v1/games/{id}/claim", tag = "games", operation_id = "claim", security(("bearer" = [])), params(IdPath<GameId>), request_body = ClaimRequest, responses(
    (status = 200, description = "The ending", body = Ended),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "The claim does not hold (`claim-refused`)", body = ErrorBody),
))]
pub(crate) async fn claim(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    JsonBody(request): JsonBody<ClaimRequest>,
) -> Result<Json<Ended>, ApiError> {
    let ending = match request.claim {
        ClaimKind::Timeout => app.service.claim_timeout(&id, &me).await?,
        ClaimKind::ThreefoldRepetition => {
            app.service
                .claim_draw(&id, &me, Claim::ThreefoldRepetition)
                .await?
        }
        ClaimKind::FiftyMoves => app.service.claim_draw(&id, &me, Claim::FiftyMoves).await?,
    };
    Ok(Ended::with(Some(ending)))
}

/// Resign
#[utoipa::path(post, path = "/v1/games/{id}/resign", tag = "games", operation_id = "resign", security(("bearer" = [])), params(IdPath<GameId>), responses(
    (status = 200, description = "The ending", body = Ended),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
))]
pub(crate) async fn resign(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
) -> Result<Json<Ended>, ApiError> {
    let ending = app.service.resign(&id, &me).await?;
    Ok(Ended::with(Some(ending)))
}
