//! Open challenges: publish one, list the open ones (by variant and time control, newest
//! first), read one, accept it (seat by seat; the last seat taken starts the game), withdraw
//! it.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use missive_domain::{ChallengeFilter, ChallengeId, Cursor, Seat};
use missive_game::{ChallengeAccepted, ChallengeView, CreatorRating, NewChallenge};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::{IdPath, OptionalJson};
use crate::paging::{PAGE, Page, PageSize};
use crate::wire::TimeControl;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(publish, list))
        .routes(routes!(view, withdraw))
        .routes(routes!(accept))
}

/// A challenge to publish.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Publish {
    #[schema(value_type = missive_game::api_schema::VariantId)]
    variant: String,
    /// The variant's options as `key=value` pairs joined by `,`; the defaults if empty.
    #[serde(default)]
    options: String,
    time_control: TimeControl,
    /// Whether the result counts for ratings.
    #[serde(default)]
    rated: bool,
    /// The creator's seat (0 for the first); a random one if absent.
    #[schema(maximum = 2)]
    seat: Option<u8>,
    /// The least rating an accepting player needs in the variant (an unrated player counts
    /// as 1500).
    min_rating: Option<u32>,
    /// The highest rating an accepting player may have in the variant.
    max_rating: Option<u32>,
}

/// Publish an open challenge
///
/// Listed for anyone to accept until every seat is taken, it is withdrawn, or 14 days pass. A player has at most `MISSIVE_OPEN_CHALLENGES` (10 by default) open at once.
#[utoipa::path(post, path = "/v1/challenges", tag = "challenges", operation_id = "publish_challenge", security(("bearer" = [])), request_body = Publish, responses(
    (status = 201, description = "Published; open for 14 days", body = ChallengeView),
    (status = 400, description = "Malformed request, or a setup the variant refuses (`invalid-setup`)", body = ErrorBody),
    (status = 409, description = "The caller has as many challenges open as one may (`too-many-challenges`, naming the limit `open-challenges`; 10 by default): withdraw one, or wait until one is accepted or expires", body = ErrorBody),
    (status = 422, description = "Refused: time control, seat, a `min_rating` above the `max_rating` (`refused`)", body = ErrorBody),
))]
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
            time_control: request.time_control.into(),
            rated: request.rated,
            seat: request.seat.map(Seat),
            min_rating: request.min_rating,
            max_rating: request.max_rating,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// Which open challenges to list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// Only this variant.
    #[param(value_type = Option<missive_game::api_schema::VariantId>)]
    variant: Option<String>,
    /// Only this time control: `days-per-move:3`, or `iccf:10/50` (ten moves in fifty
    /// days).
    #[param(pattern = "^(days-per-move:[0-9]+|iccf:[0-9]+/[0-9]+)$")]
    time_control: Option<String>,
    /// Only challenges whose creator is rated at least this in the challenge's variant (an
    /// unrated creator counts as 1500).
    min_rating: Option<u32>,
    /// Only challenges whose creator is rated at most this in the challenge's variant.
    max_rating: Option<u32>,
    /// Challenges per page, 1 to 200 (50 if absent).
    #[serde(default)]
    #[param(value_type = Option<usize>, minimum = 1, maximum = 200)]
    limit: PageSize,
    /// The `next_cursor` of the page before.
    cursor: Option<String>,
}

/// List open challenges
///
/// Newest first, filtered by variant, time control and the creator's rating, paged with an opaque cursor.
#[utoipa::path(get, path = "/v1/challenges", tag = "challenges", operation_id = "list_challenges", security(()), params(ListQuery), responses(
    (status = 200, description = "A page of open challenges, newest first", body = Page<ChallengeView>),
    (status = 400, description = "Bad filter or cursor (`bad-request`, `invalid-cursor`)", body = ErrorBody),
))]
pub(crate) async fn list(
    State(app): State<App>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Page<ChallengeView>>, ApiError> {
    let (filter, creator_rating) = lobby_filter(
        query.variant,
        query.time_control.as_deref(),
        query.min_rating,
        query.max_rating,
    )?;
    let limit = query.limit.or(PAGE);
    let cursor = query.cursor.map(Cursor);
    let page = app
        .service
        .open_challenges(&filter, creator_rating, cursor.as_ref(), limit)
        .await?;
    Ok(Json(page.into()))
}

/// The lobby's filter, by API or page: the challenges of `variant` and `time_control`
/// (`days-per-move:D` or `iccf:N/D`, else 400) whose creator is rated `min` to `max`.
pub(crate) fn lobby_filter(
    variant: Option<String>,
    time_control: Option<&str>,
    min: Option<u32>,
    max: Option<u32>,
) -> Result<(ChallengeFilter, CreatorRating), ApiError> {
    let time_control = time_control
        .map(|text| {
            missive_domain::TimeControl::parse_key(text).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "time_control `{text}`: expected days-per-move:D or iccf:N/D"
                ))
            })
        })
        .transpose()?;
    let filter = ChallengeFilter {
        variant,
        time_control,
    };
    Ok((filter, CreatorRating { min, max }))
}

/// Read a challenge
#[utoipa::path(get, path = "/v1/challenges/{id}", tag = "challenges", operation_id = "get_challenge", security(()), params(IdPath<ChallengeId>), responses(
    (status = 200, description = "The challenge: open, accepted (with its game), withdrawn or expired", body = ChallengeView),
    (status = 404, description = "No such challenge (`challenge-not-found`)", body = ErrorBody),
))]
pub(crate) async fn view(
    State(app): State<App>,
    IdPath(id): IdPath<ChallengeId>,
) -> Result<Json<ChallengeView>, ApiError> {
    Ok(Json(app.service.challenge(&id).await?))
}

/// The seat wanted (the first open one if absent).
#[derive(Default, Deserialize, ToSchema)]
pub(crate) struct Accept {
    /// The seat's index in the variant's seat order.
    #[schema(maximum = 2)]
    seat: Option<u8>,
}

/// Accept a challenge
///
/// Takes a seat (the one asked for, else the first open one); the game is created when every seat is taken.
#[utoipa::path(post, path = "/v1/challenges/{id}/accept", tag = "challenges", operation_id = "accept_challenge", security(("bearer" = [])), params(IdPath<ChallengeId>), request_body(content = Accept, description = "Optional: the seat wanted"), responses(
    (status = 200, description = "Seated; with the game once every seat is taken", body = ChallengeAccepted),
    (status = 404, description = "No such challenge (`challenge-not-found`)", body = ErrorBody),
    (status = 409, description = "Withdrawn (`challenge-withdrawn`), every seat taken (`challenge-taken`), the seat wanted taken (`taken`)", body = ErrorBody),
    (status = 403, description = "Your rating in the variant is outside the challenge's `min_rating`/`max_rating` (`rating-out-of-range`)", body = ErrorBody),
    (status = 410, description = "Expired (`challenge-expired`)", body = ErrorBody),
    (status = 422, description = "Your own challenge, or a seat already yours (`refused`)", body = ErrorBody),
))]
pub(crate) async fn accept(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<ChallengeId>,
    OptionalJson(request): OptionalJson<Accept>,
) -> Result<Json<ChallengeAccepted>, ApiError> {
    let accepted = app
        .service
        .accept_challenge(&id, &me, request.seat.map(Seat))
        .await?;
    Ok(Json(accepted))
}

/// Withdraw a challenge
#[utoipa::path(delete, path = "/v1/challenges/{id}", tag = "challenges", operation_id = "withdraw_challenge", security(("bearer" = [])), params(IdPath<ChallengeId>), responses(
    (status = 204, description = "Withdrawn"),
    (status = 403, description = "Not your challenge (`not-creator`)", body = ErrorBody),
    (status = 404, description = "No such challenge (`challenge-not-found`)", body = ErrorBody),
    (status = 409, description = "Accepted already, or withdrawn (`challenge-taken`, `challenge-withdrawn`)", body = ErrorBody),
))]
pub(crate) async fn withdraw(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<ChallengeId>,
) -> Result<StatusCode, ApiError> {
    app.service.withdraw_challenge(&id, &me).await?;
    Ok(StatusCode::NO_CONTENT)
}
