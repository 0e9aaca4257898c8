//! Health checks for load balancers and orchestrators: `GET /v1/health` (liveness: the
//! process answers; no store is touched) and `GET /v1/ready` (readiness: the store
//! answered one cheap read within [`READY_TIMEOUT`], else 503 `not-ready`; the store's
//! error goes to the log, not to the client).

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ErrorBody;
use crate::{ApiError, App};

/// How long readiness waits for the store.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(ready))
}

/// What a health check answers.
#[derive(Serialize, ToSchema)]
pub(crate) struct Health {
    /// `ok`.
    #[schema(schema_with = ok)]
    status: &'static str,
}

/// The one status a health answer has.
fn ok() -> utoipa::openapi::schema::Schema {
    missive_game::api_schema::words(["ok"], "The process (or its store) answers")
}

/// Liveness
///
/// The process answers; the store is not touched.
#[utoipa::path(get, path = "/v1/health", tag = "meta", operation_id = "health", security(()), responses(
    (status = 200, description = "The process answers", body = Health),
))]
pub(crate) async fn health() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// Readiness
///
/// The store answered one cheap read within 2 seconds.
#[utoipa::path(get, path = "/v1/ready", tag = "meta", operation_id = "ready", security(()), responses(
    (status = 200, description = "The store answered a read", body = Health),
    (status = 503, description = "The store did not answer in time or failed (`not-ready`)", body = ErrorBody),
))]
pub(crate) async fn ready(State(app): State<App>) -> Result<Json<Health>, ApiError> {
    let reason = match tokio::time::timeout(READY_TIMEOUT, app.service.probe_store()).await {
        Ok(Ok(_)) => return Ok(Json(Health { status: "ok" })),
        Ok(Err(error)) => {
            tracing::warn!(%error, "not ready: the store failed");
            "the store failed".to_string()
        }
        Err(_) => {
            tracing::warn!("not ready: the store did not answer in time");
            format!(
                "the store did not answer within {} s",
                READY_TIMEOUT.as_secs()
            )
        }
    };
    Err(ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "not-ready",
        reason,
    ))
}
