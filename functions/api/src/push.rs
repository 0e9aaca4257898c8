//! Web Push for phones and browsers: the server's VAPID public key, and the caller's push
//! subscriptions (register, list, remove). Each subscription is sent a short notice of
//! every event of the caller's feed ([`missive_notify::push`]).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use missive_domain::{HookId, PushKeys};
use missive_game::PushView;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(push_key))
        .routes(routes!(list, register))
        .routes(routes!(remove))
}

/// The server's VAPID public key.
#[derive(Serialize, ToSchema)]
pub(crate) struct PushKey {
    /// The P-256 public key, uncompressed, in base64url: the `applicationServerKey` to
    /// subscribe with (`pushManager.subscribe`).
    key: String,
}

/// A push subscription to register, as the browser's `PushSubscription.toJSON()` gives it.
#[derive(Deserialize, ToSchema)]
pub(crate) struct NewPush {
    /// The push service's `https://` endpoint.
    #[schema(max_length = 2048)]
    endpoint: String,
    /// The subscription's keys.
    keys: NewPushKeys,
}

/// A push subscription's keys, base64url.
#[derive(Deserialize, ToSchema)]
pub(crate) struct NewPushKeys {
    /// Its P-256 public key (65 bytes, uncompressed).
    #[schema(max_length = 128)]
    p256dh: String,
    /// Its authentication secret (16 bytes).
    #[schema(max_length = 64)]
    auth: String,
}

/// Get the Web Push key
///
/// The public key the server signs its Web Push messages with (VAPID, RFC 8292): give it to `pushManager.subscribe` as `applicationServerKey`.
#[utoipa::path(get, path = "/v1/push/key", tag = "push", operation_id = "get_push_key", security(()), responses(
    (status = 200, description = "The VAPID public key", body = PushKey),
    (status = 404, description = "The server sends no Web Push (`no-push-key`)", body = ErrorBody),
))]
pub(crate) async fn push_key(State(app): State<App>) -> Result<Json<PushKey>, ApiError> {
    let identity = app.push.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-push-key",
            "this server sends no Web Push",
        )
    })?;
    Ok(Json(PushKey {
        key: identity.key.public_key(),
    }))
}

/// Register a push subscription
///
/// From now on a notice of every event of the caller's feed is sent to the subscription, encrypted for it (RFC 8291, `aes128gcm`) and signed with the server's VAPID key: JSON with the event's `id`, `cursor`, `type`, `game` and a short `text`. Failures are retried with backoff; a push service answering 404 or 410 removes the subscription. The same endpoint registered again replaces the subscription.
#[utoipa::path(post, path = "/v1/players/me/push", tag = "push", operation_id = "register_push", security(("bearer" = [])), request_body = NewPush, responses(
    (status = 201, description = "The subscription", body = PushView),
    (status = 422, description = "Refused: not an `https://` endpoint, keys of the wrong size, or 10 subscriptions already (`refused`)", body = ErrorBody),
))]
pub(crate) async fn register(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<NewPush>,
) -> Result<(StatusCode, Json<PushView>), ApiError> {
    let keys = PushKeys {
        p256dh: request.keys.p256dh,
        auth: request.keys.auth,
    };
    let created = app
        .service
        .register_push(&me, &request.endpoint, keys)
        .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// List my push subscriptions
#[utoipa::path(get, path = "/v1/players/me/push", tag = "push", operation_id = "list_push", security(("bearer" = [])), responses(
    (status = 200, description = "The caller's push subscriptions, oldest first", body = Vec<PushView>),
))]
pub(crate) async fn list(
    State(app): State<App>,
    Caller(me): Caller,
) -> Result<Json<Vec<PushView>>, ApiError> {
    Ok(Json(app.service.push_subscriptions(&me).await?))
}

/// Remove a push subscription
#[utoipa::path(delete, path = "/v1/players/me/push/{id}", tag = "push", operation_id = "remove_push", security(("bearer" = [])), params(IdPath<HookId>), responses(
    (status = 204, description = "Removed: nothing more is sent to it"),
    (status = 404, description = "The caller has no such subscription (`hook-not-found`)", body = ErrorBody),
))]
pub(crate) async fn remove(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<HookId>,
) -> Result<StatusCode, ApiError> {
    app.service.remove_hook(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
