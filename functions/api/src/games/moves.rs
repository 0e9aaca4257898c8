//! Moves: play one, list the move log, set conditional moves.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use missive_domain::{ConditionalLine, GameId};
use missive_game::{MoveRequest, MoveView};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::paging::{MAX_PAGE, Page, PageSize, page, read_cursor};
use crate::{ApiError, App, JsonBody};

/// Longest idempotency key.
const MAX_KEY: usize = 128;

/// A move to submit.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Move {
    /// The move in long or short notation (the game's `legal_moves`, `legal_moves_short`).
    #[serde(rename = "move")]
    #[schema(min_length = 1)]
    text: String,
    /// The game's `ply` as the client saw it.
    expected_ply: u32,
    /// Offer a draw with the move.
    #[serde(default)]
    offer_draw: bool,
    /// A message to the other players, written with the move (as `POST
    /// /v1/games/{id}/messages` writes one: 1 to 2,000 characters, the same daily allowance).
    #[schema(min_length = 1, max_length = 2000)]
    message: Option<String>,
}

/// A move accepted.
#[derive(Serialize, ToSchema)]
pub(crate) struct Played {
    /// The move.
    #[serde(rename = "move")]
    record: MoveView,
    /// The conditional replies it triggered, played at once.
    replies: Vec<MoveView>,
}

/// Play a move
///
/// The move is stored only if the game is still at `expected_ply` (else 409 `stale-ply` with `current_ply`). Conditional replies it triggers are played at once and returned. A `message` goes with the move, written in the same change right after it; a retry with the same key writes it once.
#[utoipa::path(post, path = "/v1/games/{id}/moves", tag = "games", operation_id = "play_move", security(("bearer" = [])), params(IdPath<GameId>, ("Idempotency-Key" = Option<String>, Header, description = "1 to 128 visible characters: a retry with the same key gets the first answer", min_length = 1, max_length = 128)), request_body = Move, responses(
    (status = 201, description = "Accepted, with the conditional replies it triggered", body = Played),
    (status = 400, description = "Malformed request or Idempotency-Key", body = ErrorBody),
    (status = 403, description = "Not seated (`not-seated`), or not an access token", body = ErrorBody),
    (status = 409, description = "Stale ply (`stale-ply`, with `current_ply`), not your turn, not active, time ran out", body = ErrorBody),
    (status = 422, description = "Illegal move (`illegal-move`), a key used for another move (`idempotency-key-reused`), or a message empty (`refused`) or too long (`too-long`)", body = ErrorBody),
    (status = 429, description = "Too many messages in this game today (`rate-limited`, with `Retry-After`); nothing is played", body = ErrorBody),
))]
pub(crate) async fn play(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Move>,
) -> Result<(StatusCode, Json<Played>), ApiError> {
    let key = match headers.get("idempotency-key") {
        Some(value) => value
            .to_str()
            .ok()
            .filter(|k| !k.is_empty() && k.len() <= MAX_KEY)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "the Idempotency-Key has 1 to {MAX_KEY} visible characters"
                ))
            })?
            .to_string(),
        None => ulid::Ulid::new().to_string(),
    };
    let accepted = app
        .service
        .submit_move(
            &id,
            &MoveRequest {
                player: me,
                expected_ply: request.expected_ply,
                key,
                text: request.text,
                offer_draw: request.offer_draw,
                message: request.message,
            },
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(Played {
            record: MoveView::from(&accepted.record),
            replies: accepted.replies.iter().map(MoveView::from).collect(),
        }),
    ))
}

/// Which moves to list: a page from the cursor (from the first move if absent).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct MovesQuery {
    /// The `next_cursor` of the page before.
    cursor: Option<String>,
    /// Moves per page, 1 to 200 (200 if absent).
    #[serde(default)]
    #[param(value_type = Option<usize>, minimum = 1, maximum = 200)]
    limit: PageSize,
}

/// List the moves
///
/// A page of the move log, oldest first, each move with the time it was accepted.
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", operation_id = "list_moves", security((), ("bearer" = [])), params(IdPath<GameId>, MovesQuery), responses(
    (status = 200, description = "A page of the move log", body = Page<MoveView>),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn moves(
    State(app): State<App>,
    headers: HeaderMap,
    IdPath(id): IdPath<GameId>,
    Query(query): Query<MovesQuery>,
) -> Result<Json<Page<MoveView>>, ApiError> {
    let limit = query.limit.or(MAX_PAGE);
    let offset = read_cursor(query.cursor.as_deref())?;
    let viewer = Caller::optional(&headers, &app)?;
    let log = app.service.move_log(&id, viewer.as_deref()).await?;
    Ok(Json(
        page(log, offset, limit).map(|record| MoveView::from(&record)),
    ))
}

/// The caller's conditional lines, replacing any they had.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Conditional {
    /// Each line: moves in turn order from the game's current ply, the caller's own and
    /// the replies expected.
    lines: Vec<Vec<String>>,
}

/// The caller's conditional lines as stored.
#[derive(Serialize, ToSchema)]
pub(crate) struct Lines {
    #[schema(value_type = Vec<missive_game::api_schema::ConditionalLine>)]
    lines: Vec<ConditionalLine>,
}

/// Set conditional moves
///
/// Replaces the caller's conditional lines: moves played for the caller at once when the game follows a line.
#[utoipa::path(put, path = "/v1/games/{id}/conditional-moves", tag = "games", operation_id = "set_conditional_moves", security(("bearer" = [])), params(IdPath<GameId>), request_body = Conditional, responses(
    (status = 200, description = "The lines as stored", body = Lines),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "Illegal or ambiguous lines (`illegal-move`, `refused`)", body = ErrorBody),
))]
pub(crate) async fn conditional(
    State(app): State<App>,
    Caller(me): Caller,
    IdPath(id): IdPath<GameId>,
    JsonBody(request): JsonBody<Conditional>,
) -> Result<Json<Lines>, ApiError> {
    let lines = app
        .service
        .set_conditional_lines(&id, &me, &request.lines)
        .await?;
    Ok(Json(Lines { lines }))
}
