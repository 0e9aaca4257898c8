//! The caller's webhooks: register, list, read a hook's delivery log, remove.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use missive_domain::HookId;
use missive_game::{HookCreated, HookView};
use serde::Deserialize;
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::wire::DeliveryAttempt;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(list, register))
        .routes(routes!(remove))
        .routes(routes!(deliveries))
}

/// A webhook to register.
#[derive(Deserialize, ToSchema)]
pub(crate) struct NewHook {
    /// The `https://` address every event of the caller's feed is POSTed to.
    #[schema(max_length = 2048)]
    url: String,
}

/// Register a webhook
///
/// From now on every event of the caller's feed (as `GET /v1/events` gives it) is POSTed to the address as JSON, signed with the hook's secret (`Missive-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">`), in order, each until the address answers 2xx; failures are retried with backoff and the hook is disabled after 10 in a row. The secret is in this answer only.
#[utoipa::path(post, path = "/v1/players/me/hooks", tag = "hooks", operation_id = "register_hook", security(("bearer" = [])), request_body = NewHook, responses(
    (status = 201, description = "The hook, with its secret (shown this once)", body = HookCreated),
    (status = 422, description = "Refused: not an `https://` address, a loopback or private host, or 5 hooks already (`refused`)", body = ErrorBody),
))]
pub(crate) async fn register(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<NewHook>,
) -> Result<(StatusCode, Json<HookCreated>), ApiError> {
    let created = app.service.register_hook(&me, &request.url).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// List my webhooks
#[utoipa::path(get, path = "/v1/players/me/hooks", tag = "hooks", operation_id = "list_hooks", security(("bearer" = [])), responses(
    (status = 200, description = "The caller's hooks, oldest first (never their secrets)", body = Vec<HookView>),
))]
pub(crate) async fn list(
    State(app): State<App>,
    Caller(me): Caller,
) -> Result<Json<Vec<HookView>>, ApiError> {
    Ok(Json(app.service.hooks(&me).await?))
}

/// Remove a webhook
#[utoipa::path(delete, path = "/v1/players/me/hooks/{id}", tag = "hooks", operation_id = "remove_hook", security(("bearer" = [])), params(IdPath<HookId>), responses(
    (status = 204, description = "Removed: nothing more is sent to it"),
    (status = 404, description = "The caller has no such hook (`hook-not-found`)", body = ErrorBody),
))]
pub(crate) async fn remove(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<HookId>,
) -> Result<StatusCode, ApiError> {
    app.service.remove_hook(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Read a webhook's deliveries
///
/// The latest 50 attempts, newest first: the event, the attempt's number for it, the status answered or what went wrong, and how long it took.
#[utoipa::path(get, path = "/v1/players/me/hooks/{id}/deliveries", tag = "hooks", operation_id = "list_hook_deliveries", security(("bearer" = [])), params(IdPath<HookId>), responses(
    (status = 200, description = "The latest attempts, newest first", body = Vec<DeliveryAttempt>),
    (status = 404, description = "The caller has no such hook (`hook-not-found`)", body = ErrorBody),
))]
pub(crate) async fn deliveries(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<HookId>,
) -> Result<Json<Vec<DeliveryAttempt>>, ApiError> {
    let attempts = app.service.hook_deliveries(&me, &id).await?;
    Ok(Json(
        attempts.into_iter().map(DeliveryAttempt::from).collect(),
    ))
}
