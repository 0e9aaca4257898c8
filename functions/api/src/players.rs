//! Players: sign up, look one up, take a vacation.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use missive_store::{Period, Player};
use serde::{Deserialize, Serialize};

use crate::session::Caller;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/v1/players", post(sign_up))
        .route("/v1/players/me/vacation", put(take_vacation))
        .route("/v1/players/{handle}", get(player))
}

/// A sign-up.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    handle: String,
    email: String,
}

/// A player as others see them (no e-mail address).
#[derive(Serialize)]
struct PublicPlayer {
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
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vacation {
    start: DateTime<Utc>,
    days: u32,
}

#[derive(Serialize)]
struct Vacations {
    periods: Vec<Period>,
}

async fn sign_up(
    State(app): State<App>,
    JsonBody(request): JsonBody<SignUp>,
) -> Result<(StatusCode, Json<PublicPlayer>), ApiError> {
    let player = app.service.sign_up(&request.handle, &request.email).await?;
    Ok((StatusCode::CREATED, Json(player.into())))
}

async fn player(
    State(app): State<App>,
    Path(handle): Path<String>,
) -> Result<Json<PublicPlayer>, ApiError> {
    Ok(Json(app.service.player(&handle).await?.into()))
}

async fn take_vacation(
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
