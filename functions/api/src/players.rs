//! Players: sign up, look one up, take a vacation.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use missive_domain::{Period, Player};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::session::Caller;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/v1/players", post(sign_up))
        .route("/v1/players/me/vacation", put(take_vacation))
        .route("/v1/players/{handle}", get(player))
}

/// A sign-up.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignUp {
    handle: String,
    email: String,
}

/// A player as others see them (no e-mail address).
#[derive(Serialize, ToSchema)]
pub(crate) struct PublicPlayer {
    handle: String,
    created_at: DateTime<Utc>,
}

impl From<Player> for PublicPlayer {
    fn from(player: Player) -> PublicPlayer {
        PublicPlayer {
            handle: player.handle,
            created_at: player.created_at,
        }
    }
}

/// A vacation to take.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Vacation {
    start: DateTime<Utc>,
    days: u32,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Vacations {
    periods: Vec<Period>,
}

#[utoipa::path(post, path = "/v1/players", tag = "players", request_body = SignUp, responses((status = 201, description = "Signed up", body = PublicPlayer), (status = 400, description = "Malformed request", body = crate::error::ErrorBody), (status = 409, description = "Handle or address taken", body = crate::error::ErrorBody), (status = 422, description = "Invalid handle or address", body = crate::error::ErrorBody)))]
pub(crate) async fn sign_up(
    State(app): State<App>,
    JsonBody(request): JsonBody<SignUp>,
) -> Result<(StatusCode, Json<PublicPlayer>), ApiError> {
    let player = app.service.sign_up(&request.handle, &request.email).await?;
    Ok((StatusCode::CREATED, Json(player.into())))
}

#[utoipa::path(get, path = "/v1/players/{handle}", tag = "players", params(("handle" = String, Path, description = "The handle")), responses((status = 200, description = "The player", body = PublicPlayer), (status = 404, description = "No such player", body = crate::error::ErrorBody)))]
pub(crate) async fn player(
    State(app): State<App>,
    Path(handle): Path<String>,
) -> Result<Json<PublicPlayer>, ApiError> {
    Ok(Json(app.service.player(&handle).await?.into()))
}

#[utoipa::path(put, path = "/v1/players/me/vacation", tag = "players", security(("bearer" = [])), request_body = Vacation, responses((status = 200, description = "Every period taken", body = Vacations), (status = 400, description = "Malformed request", body = crate::error::ErrorBody), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 422, description = "Refused: overlap, past, over the allowance", body = crate::error::ErrorBody)))]
pub(crate) async fn take_vacation(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<Vacation>,
) -> Result<Json<Vacations>, ApiError> {
    let periods = app
        .service
        .take_vacation(&me, request.start, request.days)
        .await?;
    Ok(Json(Vacations { periods }))
}
