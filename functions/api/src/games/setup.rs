//! Setting a game up: create it, take a seat, decline an invitation, abort it before its
//! first move.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use missive_domain::{GameId, Seat};
use missive_game::{NewGame, SeatRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::{IdPath, OptionalJson};
use crate::wire::TimeControl;
use crate::{ApiError, App, JsonBody};

/// A game to create.
#[derive(Deserialize, ToSchema)]
pub(crate) struct CreateGame {
    #[schema(value_type = missive_game::api_schema::VariantId)]
    variant: String,
    /// The variant's options as `key=value` pairs joined by `,` (GET /v1/variants lists
    /// them); the defaults if empty.
    #[serde(default)]
    options: String,
    /// The position to start from, in the variant's position text; the standard start if
    /// absent.
    start_position: Option<String>,
    /// Who sits in each seat, in the variant's seat order.
    #[schema(min_items = 2, max_items = 3)]
    seats: Vec<SeatRequest>,
    time_control: TimeControl,
    #[serde(default)]
    rated: bool,
    /// Visible to its players (seated or invited) only; anyone else is told it does not
    /// exist.
    #[serde(default)]
    private: bool,
}

/// The game created.
#[derive(Serialize, ToSchema)]
pub(crate) struct Created {
    #[schema(value_type = missive_game::api_schema::GameId)]
    id: GameId,
}

/// Create a game
///
/// Seats the caller where the request says, invites players by handle or by address (each is mailed accept and decline links) and leaves the other seats open. The game starts when every seat is taken.
#[utoipa::path(post, path = "/v1/games", tag = "games", operation_id = "create_game", security(("bearer" = [])), request_body = CreateGame, responses(
    (status = 201, description = "Created; each invitee mailed accept and decline links", body = Created),
    (status = 400, description = "Malformed request, or a setup the variant refuses (`invalid-setup`)", body = ErrorBody),
    (status = 404, description = "An invited handle no player has (`player-not-found`): nothing created", body = ErrorBody),
    (status = 422, description = "Refused: the seats (one for the creator), the time control (`refused`)", body = ErrorBody),
    (status = 429, description = "Too many invitation mails to an invitee's address or from the caller (`limit-reached`, with `limit`): nothing created", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
pub(crate) async fn create(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let id = create_game(
        &app,
        NewGame {
            creator: me,
            variant: request.variant,
            options: request.options,
            start_position: request.start_position,
            seats: request.seats,
            time_control: request.time_control.into(),
            rated: request.rated,
            private: request.private,
        },
    )
    .await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// What creating a game does, by API or page: creates `new` and mails its invitations
/// (a mail that cannot be sent is logged: the game stands).
pub(crate) async fn create_game(app: &App, new: NewGame) -> Result<GameId, ApiError> {
    let addresses: Vec<(Seat, String)> = new
        .seats
        .iter()
        .enumerate()
        .filter_map(|(index, seat)| match seat {
            SeatRequest::InviteEmail { email } => Some((Seat(index as u8), email.clone())),
            _ => None,
        })
        .collect();
    let id = app.service.create_game(new).await?;
    if let Err(error) = app.notifier().send_invitations(&id, &addresses).await {
        tracing::warn!(game = %id, %error, "invitations not mailed");
    }
    Ok(id)
}

/// A seat to take (any free one if absent).
#[derive(Default, Deserialize, ToSchema)]
pub(crate) struct Join {
    /// The seat's index in the variant's seat order.
    #[schema(maximum = 2)]
    seat: Option<u8>,
}

/// The seat taken.
#[derive(Serialize, ToSchema)]
pub(crate) struct Seated {
    /// The seat's index in the variant's seat order.
    #[schema(maximum = 2)]
    seat: u8,
}

/// Take a seat
///
/// Takes the seat asked for (or any free one): an open seat, or the one the caller was invited to.
#[utoipa::path(post, path = "/v1/games/{id}/join", tag = "games", operation_id = "join_game", security(("bearer" = [])), params(IdPath<GameId>), request_body(content = Join, description = "Optional: the seat wanted"), responses(
    (status = 200, description = "Seated", body = Seated),
    (status = 409, description = "The game is not forming (`not-active`), or the seat is taken (`taken`)", body = ErrorBody),
    (status = 422, description = "No free seat, or one kept for someone else (`refused`)", body = ErrorBody),
))]
pub(crate) async fn join(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    OptionalJson(request): OptionalJson<Join>,
) -> Result<Json<Seated>, ApiError> {
    let seat = app.service.join(&id, &me, request.seat.map(Seat)).await?;
    Ok(Json(Seated { seat: seat.0 }))
}

/// Decline an invitation
///
/// The game is cancelled and its creator told by mail.
#[utoipa::path(post, path = "/v1/games/{id}/decline", tag = "games", operation_id = "decline_invitation", security(("bearer" = [])), params(IdPath<GameId>), responses(
    (status = 204, description = "Declined: the game is cancelled and its creator told by mail"),
    (status = 409, description = "The game is not forming (`not-active`)", body = ErrorBody),
    (status = 422, description = "The caller is not invited (`refused`)", body = ErrorBody),
))]
pub(crate) async fn decline(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
) -> Result<StatusCode, ApiError> {
    app.service.decline(&id, &me).await?;
    crate::invitations::tell_declined(&app, &id, &me).await;
    Ok(StatusCode::NO_CONTENT)
}

/// Abort a game before its first move
#[utoipa::path(post, path = "/v1/games/{id}/abort", tag = "games", operation_id = "abort_game", security(("bearer" = [])), params(IdPath<GameId>), responses(
    (status = 204, description = "Aborted"),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "Moves were played (`refused`)", body = ErrorBody),
))]
pub(crate) async fn abort(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
) -> Result<StatusCode, ApiError> {
    app.service.abort(&id, &me).await?;
    Ok(StatusCode::NO_CONTENT)
}
