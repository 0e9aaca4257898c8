//! Players: sign up, look one up, take a vacation, see the vacation balance, cancel or end
//! a leave.
//!
//! A sign-up tells nobody whether its address is registered: it answers 202 and mails the
//! address either a confirmation link (a single-use `sign-up` token naming the handle and
//! the address; exchanging it at `POST /v1/auth/token` registers the player) or, when the
//! address has an account already, a mail saying so with a sign-in link. Only a taken
//! handle (public anyway) is refused at once. Each sign-up counts against the mails of its
//! address and of its client, like a sign-in.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use missive_domain::Player;
use missive_game::{SignUpCheck, VacationBalance};
use missive_mail::Mail;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::limits::ClientAddress;
use crate::session::{self, Caller};
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/v1/players", post(sign_up))
        .route(
            "/v1/players/me/vacation",
            get(vacation_balance).put(take_vacation),
        )
        .route("/v1/players/me/vacation/{start}", delete(end_vacation))
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

#[utoipa::path(put, path = "/v1/players/me/vacation", tag = "players", security(("bearer" = [])), request_body = Vacation, responses((status = 200, description = "Every period taken, and the balance of the year", body = VacationBalance), (status = 400, description = "Malformed request", body = crate::error::ErrorBody), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 422, description = "Refused: overlap, past, over the allowance", body = crate::error::ErrorBody)))]
pub(crate) async fn take_vacation(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<Vacation>,
) -> Result<Json<VacationBalance>, ApiError> {
    app.service
        .take_vacation(&me, request.start, request.days)
        .await?;
    Ok(Json(app.service.vacation_balance(&me).await?))
}

#[utoipa::path(get, path = "/v1/players/me/vacation", tag = "players", security(("bearer" = [])), responses((status = 200, description = "Every period taken, and the days used and left this year", body = VacationBalance), (status = 401, description = "No valid access token", body = crate::error::ErrorBody)))]
pub(crate) async fn vacation_balance(
    State(app): State<App>,
    Caller(me): Caller,
) -> Result<Json<VacationBalance>, ApiError> {
    Ok(Json(app.service.vacation_balance(&me).await?))
}

#[utoipa::path(delete, path = "/v1/players/me/vacation/{start}", tag = "players", security(("bearer" = [])), params(("start" = i64, Path, description = "The leave's start, in milliseconds since the epoch, as the balance lists it")), responses((status = 200, description = "The leave cancelled (before its start) or ended now (under way); the balance after it", body = VacationBalance), (status = 400, description = "Not a time", body = crate::error::ErrorBody), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 422, description = "Refused: no leave starts then, or it is over", body = crate::error::ErrorBody)))]
pub(crate) async fn end_vacation(
    State(app): State<App>,
    Caller(me): Caller,
    Path(start): Path<String>,
) -> Result<Json<VacationBalance>, ApiError> {
    let start = start
        .parse::<i64>()
        .ok()
        .and_then(DateTime::<Utc>::from_timestamp_millis)
        .ok_or_else(|| ApiError::bad_request("the leave is named by its start in milliseconds"))?;
    app.service.end_vacation(&me, start).await?;
    Ok(Json(app.service.vacation_balance(&me).await?))
}
