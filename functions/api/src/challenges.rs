//! Open challenges: publish one, list the open ones (by variant and time control, newest
//! first), read one, accept it (seat by seat; the last seat taken starts the game), withdraw
//! it.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use missive_domain::{ChallengeFilter, ChallengeId, Cursor, Seat, TimeControl};
use missive_game::{ChallengeAccepted, ChallengeView, NewChallenge};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::games::{MAX_PAGE, OptionalJson, PAGE, Page};
use crate::session::Caller;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/v1/challenges", post(publish).get(list))
        .route("/v1/challenges/{id}", get(view).delete(withdraw))
        .route("/v1/challenges/{id}/accept", post(accept))
}

/// A challenge to publish.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Publish {
    variant: String,
    #[serde(default)]
    options: String,
    time_control: TimeControl,
    #[serde(default)]
    rated: bool,
    /// The creator's seat (0 for the first); a random one if absent.
    seat: Option<u8>,
    /// The least rating an accepting player needs, once ratings exist (kept, not checked
    /// yet).
    min_rating: Option<u32>,
}

#[utoipa::path(post, path = "/v1/challenges", tag = "challenges", security(("bearer" = [])), request_body = Publish, responses((status = 201, description = "Published; open for 14 days", body = missive_game::ChallengeView), (status = 400, description = "Malformed request or setup", body = crate::error::ErrorBody), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 422, description = "Refused: time control, seat", body = crate::error::ErrorBody)))]
pub(crate) async fn publish(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<Publish>,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    let view = app
        .service
        .publish_challenge(NewChallenge {
            creator: me,
            variant: request.variant,
            options: request.options,
            time_control: request.time_control,
            rated: request.rated,
            seat: request.seat.map(Seat),
            min_rating: request.min_rating,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// Which open challenges to list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    /// Only this variant.
    variant: Option<String>,
    /// Only this time control: `days-per-move:3`, or `iccf:10/50` (ten moves in fifty
    /// days).
    time_control: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
}

#[utoipa::path(get, path = "/v1/challenges", tag = "challenges", params(ListQuery), responses((status = 200, description = "A page of open challenges, newest first", body = Page<missive_game::ChallengeView>), (status = 400, description = "Bad filter or cursor", body = crate::error::ErrorBody)))]
pub(crate) async fn list(
    State(app): State<App>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Page<ChallengeView>>, ApiError> {
    let time_control = query
        .time_control
        .as_deref()
        .map(|text| {
            TimeControl::parse_key(text).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "time_control `{text}`: expected days-per-move:D or iccf:N/D"
                ))
            })
        })
        .transpose()?;
    let filter = ChallengeFilter {
        variant: query.variant,
        time_control,
    };
    let limit = query.limit.unwrap_or(PAGE).clamp(1, MAX_PAGE);
    let cursor = query.cursor.map(Cursor);
    let page = app
        .service
        .open_challenges(&filter, cursor.as_ref(), limit)
        .await?;
    Ok(Json(page.into()))
}

#[utoipa::path(get, path = "/v1/challenges/{id}", tag = "challenges", params(("id" = String, Path, description = "The challenge id")), responses((status = 200, description = "The challenge: open, accepted (with its game), withdrawn or expired", body = missive_game::ChallengeView), (status = 404, description = "No such challenge", body = crate::error::ErrorBody)))]
pub(crate) async fn view(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<ChallengeView>, ApiError> {
    Ok(Json(app.service.challenge(&ChallengeId(id)).await?))
}

/// The seat wanted (the first open one if absent).
#[derive(Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Accept {
    seat: Option<u8>,
}

#[utoipa::path(post, path = "/v1/challenges/{id}/accept", tag = "challenges", security(("bearer" = [])), params(("id" = String, Path, description = "The challenge id")), request_body(content = Accept, description = "Optional: the seat wanted"), responses((status = 200, description = "Seated; with the game once every seat is taken", body = missive_game::ChallengeAccepted), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 404, description = "No such challenge", body = crate::error::ErrorBody), (status = 409, description = "Withdrawn (challenge-withdrawn), every seat taken (challenge-taken), the seat wanted taken (taken)", body = crate::error::ErrorBody), (status = 410, description = "Expired (challenge-expired)", body = crate::error::ErrorBody), (status = 422, description = "Your own challenge, or a seat already yours", body = crate::error::ErrorBody)))]
pub(crate) async fn accept(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<Accept>,
) -> Result<Json<ChallengeAccepted>, ApiError> {
    let accepted = app
        .service
        .accept_challenge(&ChallengeId(id), &me, request.seat.map(Seat))
        .await?;
    Ok(Json(accepted))
}

#[utoipa::path(delete, path = "/v1/challenges/{id}", tag = "challenges", security(("bearer" = [])), params(("id" = String, Path, description = "The challenge id")), responses((status = 204, description = "Withdrawn"), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 403, description = "Not your challenge (not-creator)", body = crate::error::ErrorBody), (status = 404, description = "No such challenge", body = crate::error::ErrorBody), (status = 409, description = "Accepted already, or withdrawn", body = crate::error::ErrorBody)))]
pub(crate) async fn withdraw(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.service
        .withdraw_challenge(&ChallengeId(id), &me)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
