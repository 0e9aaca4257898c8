//! Messages between a game's players: write one, read them (the game's seated players
//! only), and choose when they are mailed.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use missive_domain::GameId;
use missive_game::MessageView;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::paging::{MAX_PAGE, Page, PageSize, page, read_cursor};
use crate::wire::MessageMail;
use crate::{ApiError, App, JsonBody};

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(list, write))
        .routes(routes!(set_delivery, delivery))
}

/// A message to write.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Write {
    /// Plain text, 1 to 2000 characters (line breaks kept as line feeds, control
    /// characters dropped).
    #[schema(min_length = 1, max_length = 2000)]
    text: String,
}

/// Write a message to the other players
///
/// Mailed to them with their next turn mail, or at once (their choice); never shown to anyone else.
#[utoipa::path(post, path = "/v1/games/{id}/messages", tag = "messages", operation_id = "write_message", security(("bearer" = [])), params(IdPath<GameId>), request_body = Write, responses(
    (status = 201, description = "Written; mailed to the other players", body = MessageView),
    (status = 403, description = "Not seated in this game (`not-seated`)", body = ErrorBody),
    (status = 404, description = "No such game, or a private one of others (`game-not-found`)", body = ErrorBody),
    (status = 409, description = "The game has not started, or was cancelled (`not-active`)", body = ErrorBody),
    (status = 422, description = "Empty, or longer than 2000 characters (`too-long`)", body = ErrorBody),
    (status = 429, description = "Too many messages in this game today (`rate-limited`)", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
pub(crate) async fn write(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    JsonBody(request): JsonBody<Write>,
) -> Result<(StatusCode, Json<MessageView>), ApiError> {
    let message = app.service.post_message(&id, &me, &request.text).await?;
    Ok((StatusCode::CREATED, Json(message)))
}

/// Which messages to list: a page from the cursor (from the first if absent).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// The `next_cursor` of the page before.
    cursor: Option<String>,
    /// Messages per page, 1 to 200 (200 if absent).
    #[serde(default)]
    #[param(value_type = Option<usize>, minimum = 1, maximum = 200)]
    limit: PageSize,
}

/// List a game's messages
///
/// Oldest first; for the game's players only.
#[utoipa::path(get, path = "/v1/games/{id}/messages", tag = "messages", operation_id = "list_messages", security(("bearer" = [])), params(IdPath<GameId>, ListQuery), responses(
    (status = 200, description = "A page of the game's messages, oldest first", body = Page<MessageView>),
    (status = 403, description = "Not seated in this game (`not-seated`)", body = ErrorBody),
    (status = 404, description = "No such game, or a private one of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn list(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Page<MessageView>>, ApiError> {
    let limit = query.limit.or(MAX_PAGE);
    let offset = read_cursor(query.cursor.as_deref())?;
    let messages = app.service.messages(&id, &me).await?;
    Ok(Json(page(messages, offset, limit)))
}

/// When the caller wants messages mailed.
#[derive(Deserialize, Serialize, ToSchema)]
pub(crate) struct Delivery {
    /// `with-turn` (the default: with their next turn mail, or at once when it is their
    /// turn) or `at-once`.
    delivery: MessageMail,
}

/// Read when the caller's messages are mailed
#[utoipa::path(get, path = "/v1/players/me/message-mail", tag = "messages", operation_id = "get_message_mail", security(("bearer" = [])), responses(
    (status = 200, description = "When the caller's messages are mailed", body = Delivery),
))]
pub(crate) async fn delivery(
    State(app): State<App>,
    Caller(me): Caller,
) -> Result<Json<Delivery>, ApiError> {
    let delivery = app.service.message_mail(&me).await?.into();
    Ok(Json(Delivery { delivery }))
}

/// Choose when the caller's messages are mailed
#[utoipa::path(put, path = "/v1/players/me/message-mail", tag = "messages", operation_id = "set_message_mail", security(("bearer" = [])), request_body = Delivery, responses(
    (status = 200, description = "Saved", body = Delivery),
))]
pub(crate) async fn set_delivery(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<Delivery>,
) -> Result<Json<Delivery>, ApiError> {
    app.service
        .set_message_mail(&me, request.delivery.into())
        .await?;
    Ok(Json(request))
}
