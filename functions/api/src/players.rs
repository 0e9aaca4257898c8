//! Players: sign up, look one up, take a vacation.
//!
//! A sign-up tells nobody whether its address is registered: it answers 202 and mails the
//! address either a confirmation link (a single-use `sign-up` token naming the handle and
//! the address; exchanging it at `POST /v1/auth/token` registers the player) or, when the
//! address has an account already, a mail saying so with a sign-in link. Only a taken
//! handle (public anyway) is refused at once. Each sign-up counts against the mails of its
//! address and of its client, like a sign-in.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use missive_domain::{Period, Player};
use missive_game::SignUpCheck;
use missive_mail::Mail;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::limits::ClientAddress;
use crate::session::{self, Caller};
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

#[utoipa::path(post, path = "/v1/players", tag = "players", request_body = SignUp, responses((status = 202, description = "A mail is on its way to the address: a confirmation link, or (if the address has an account) a sign-in link"), (status = 400, description = "Malformed request", body = crate::error::ErrorBody), (status = 409, description = "Handle taken (without regard to case)", body = crate::error::ErrorBody), (status = 422, description = "Invalid or reserved handle, or not one plain address", body = crate::error::ErrorBody), (status = 429, description = "Too many mails asked for this address or from this client (`limit-reached`, with `limit` and `Retry-After`)", body = crate::error::ErrorBody)))]
pub(crate) async fn sign_up(
    State(app): State<App>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<SignUp>,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let check = app
        .service
        .check_sign_up(&request.handle, &request.email)
        .await?;
    app.service.count_mail(&request.email, &client).await?;
    let mail = match check {
        SignUpCheck::New => confirmation_mail(&app, &headers, &request)?,
        SignUpCheck::Registered(player) => session::sign_in_mail(
            &app,
            &headers,
            &player,
            "You already play on Missive",
            "someone, we hope you, asked to sign up on Missive with this address, which is \
             already yours: nothing new was registered. To play, ",
        )?,
    };
    session::send(&app, &mail).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({ "status": "a mail is on its way to the address" })),
    ))
}

/// The mail with the link confirming `request`.
fn confirmation_mail(app: &App, headers: &HeaderMap, request: &SignUp) -> Result<Mail, ApiError> {
    let email = request.email.trim();
    let token = app.authority.mint_sign_up(
        &request.handle,
        email,
        session::SIGN_UP_LIFETIME,
        app.now_seconds(),
    )?;
    let text = format!(
        "Hello {},\n\nsomeone, we hope you, asked to play on Missive as {} with this address. \
         Open this link within 24 hours to confirm and sign in:\n{}\n\n\
         Or send this token to POST /v1/auth/token:\n{token}\n\n\
         If it was not you, ignore this mail: nothing is registered until the link is used.\n",
        request.handle,
        request.handle,
        session::token_link(app, headers, &token)
    );
    Ok(session::token_mail(
        email,
        "Confirm your Missive sign-up",
        text,
        token,
    ))
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
