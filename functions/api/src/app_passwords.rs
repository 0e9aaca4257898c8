//! Application passwords: the caller's second secrets for programs that cannot sign in by
//! mail (the Xfcc desktop clients of [`crate::xfcc`]).
//!
//! `POST /v1/players/me/app-passwords` creates one and answers it, the password included,
//! once (201); `GET` lists them without their secrets; `DELETE .../{id}` revokes one at
//! once. Only the password's argon2id hash is stored.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use missive_domain::AppPassword;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(revoke))
}

/// An application password to create.
#[derive(Deserialize, ToSchema)]
pub(crate) struct NewAppPassword {
    /// What it is for (the program, the machine): 1 to 64 characters on one line.
    #[schema(min_length = 1, max_length = 64)]
    label: String,
}

/// An application password as its owner sees it: never its secret.
#[derive(Serialize, ToSchema)]
pub(crate) struct AppPasswordView {
    /// The id: the password's first 8 characters, and what revoking it names.
    id: String,
    /// What it is for.
    label: String,
    /// When it was created.
    created_at: DateTime<Utc>,
    /// When it last signed a request in (to the minute), if ever.
    last_used: Option<DateTime<Utc>>,
}

impl From<AppPassword> for AppPasswordView {
    fn from(record: AppPassword) -> AppPasswordView {
        AppPasswordView {
            id: record.id,
            label: record.label,
            created_at: record.created_at,
            last_used: record.last_used,
        }
    }
}

/// An application password just created, with the password itself.
#[derive(Serialize, ToSchema)]
pub(crate) struct CreatedAppPassword {
    /// The record, as lists show it.
    #[serde(flatten)]
    record: AppPasswordView,
    /// The password (`<id>-<secret>`, 33 characters): shown this once, never again.
    password: String,
}

/// The caller's application passwords.
#[derive(Serialize, ToSchema)]
pub(crate) struct AppPasswordList {
    /// Oldest first.
    items: Vec<AppPasswordView>,
}

/// Create an application password
///
/// For a program that cannot sign in by mail (an Xfcc client): it signs in with the caller's handle and this password. The password is in this answer only.
#[utoipa::path(post, path = "/v1/players/me/app-passwords", tag = "players", operation_id = "create_app_password", security(("bearer" = [])), request_body = NewAppPassword, responses(
    (status = 201, description = "Created: the password, shown this once", body = CreatedAppPassword),
    (status = 422, description = "A label empty, on several lines (`refused`) or too long (`too-long`), or 10 passwords already (`refused`)", body = ErrorBody),
))]
pub(crate) async fn create(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<NewAppPassword>,
) -> Result<(StatusCode, Json<CreatedAppPassword>), ApiError> {
    let created = app.service.create_app_password(&me, &request.label).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedAppPassword {
            record: created.record.into(),
            password: created.password,
        }),
    ))
}

/// List the caller's application passwords
#[utoipa::path(get, path = "/v1/players/me/app-passwords", tag = "players", operation_id = "list_app_passwords", security(("bearer" = [])), responses(
    (status = 200, description = "Every application password of the caller, without secrets", body = AppPasswordList),
))]
pub(crate) async fn list(
    State(app): State<App>,
    Caller(me): Caller,
) -> Result<Json<AppPasswordList>, ApiError> {
    let items = app.service.app_passwords(&me).await?;
    Ok(Json(AppPasswordList {
        items: items.into_iter().map(AppPasswordView::from).collect(),
    }))
}

/// Revoke an application password
///
/// At once: the next request signed with it is refused.
#[utoipa::path(delete, path = "/v1/players/me/app-passwords/{id}", tag = "players", operation_id = "revoke_app_password", security(("bearer" = [])), params(("id" = String, Path, description = "The password's id, as listed")), responses(
    (status = 204, description = "Revoked"),
    (status = 404, description = "The caller has no application password with this id (`app-password-not-found`)", body = ErrorBody),
))]
pub(crate) async fn revoke(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.service.revoke_app_password(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
