//! The board of a game drawn as SVG or PNG.

use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use missive_domain::GameId;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::wire::Binary;
use crate::{ApiError, App};

/// How to draw the board.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct BoardQuery {
    /// The seat to view the board from, by name (`white`, `black`, `wu`, ...); the first
    /// seat if absent.
    seat: Option<String>,
    /// Draw pieces as letters instead of figurines or characters.
    #[serde(default)]
    letters: bool,
}

/// How to draw the board as PNG.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct BoardPngQuery {
    /// The seat to view the board from, by name (`white`, `black`, `wu`, ...); the first
    /// seat if absent.
    seat: Option<String>,
    /// Draw pieces as letters instead of figurines or characters.
    #[serde(default)]
    letters: bool,
    /// Image pixels per pixel of the SVG's own size, from 0.5 to 2 (the default, sharp on
    /// phones); a large board is drawn smaller so the image stays within 2.5 million pixels.
    #[param(minimum = 0.5, maximum = 2.0)]
    scale: Option<f32>,
}

/// The most pixels of a board PNG.
const PNG_PIXELS: u32 = 2_500_000;
/// The scales a board PNG may be asked for, and the default.
const PNG_SCALES: std::ops::RangeInclusive<f32> = 0.5..=2.0;
const PNG_SCALE: f32 = 2.0;

/// The position of game `id` as the caller may see it, and how to draw it from the seat
/// named `seat` (the first if `None`), with letters or glyphs.
async fn board_picture(
    app: &App,
    headers: &HeaderMap,
    id: GameId,
    seat: Option<&str>,
    letters: bool,
) -> Result<(missive_rules::Diagram, missive_board::Options), ApiError> {
    let viewer = Caller::optional(headers, app)?;
    let game = app.service.replayed(&id, viewer.as_deref()).await?;
    let diagram = game.diagram();
    let seat = match seat {
        None => None,
        Some(name) => Some(diagram.seat_named(name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown seat `{name}`: the seats are {}",
                game.seat_names().join(", ")
            ))
        })?),
    };
    let options = missive_board::Options {
        seat,
        glyphs: if letters {
            missive_board::Glyphs::Letters
        } else {
            missive_board::Glyphs::Symbols
        },
        title: None,
    };
    Ok((diagram, options))
}

/// An answer of `content_type` holding `body`.
fn picture_response(content_type: &'static str, body: impl IntoResponse) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            HeaderValue::from_static(content_type),
        )],
        body,
    )
        .into_response()
}

/// Draw the board as SVG
#[utoipa::path(get, path = "/v1/games/{id}/board.svg", tag = "games", operation_id = "get_board_svg", security((), ("bearer" = [])), params(IdPath<GameId>, BoardQuery), responses(
    (status = 200, description = "The current position as SVG", content_type = "image/svg+xml", body = String),
    (status = 400, description = "Unknown seat", body = ErrorBody),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn board(
    State(app): State<App>,
    headers: HeaderMap,
    IdPath(id): IdPath<GameId>,
    Query(query): Query<BoardQuery>,
) -> Result<Response, ApiError> {
    let (diagram, options) =
        board_picture(&app, &headers, id, query.seat.as_deref(), query.letters).await?;
    Ok(picture_response(
        "image/svg+xml",
        missive_board::render(&diagram, &options),
    ))
}

/// Draw the board as PNG
#[utoipa::path(get, path = "/v1/games/{id}/board.png", tag = "games", operation_id = "get_board_png", security((), ("bearer" = [])), params(IdPath<GameId>, BoardPngQuery), responses(
    (status = 200, description = "The current position as PNG, drawn as board.svg draws it", content_type = "image/png", body = Binary),
    (status = 400, description = "Unknown seat, or a scale out of range", body = ErrorBody),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
    (status = 503, description = "Too many pictures being drawn (`busy`): try again after `Retry-After`", body = ErrorBody),
))]
pub(crate) async fn board_png(
    State(app): State<App>,
    headers: HeaderMap,
    IdPath(id): IdPath<GameId>,
    Query(query): Query<BoardPngQuery>,
) -> Result<Response, ApiError> {
    let scale = query.scale.unwrap_or(PNG_SCALE);
    if !PNG_SCALES.contains(&scale) {
        return Err(ApiError::bad_request(format!(
            "scale {scale}: expected {} to {}",
            PNG_SCALES.start(),
            PNG_SCALES.end()
        )));
    }
    let (diagram, options) =
        board_picture(&app, &headers, id, query.seat.as_deref(), query.letters).await?;
    let size = missive_board::PngSize {
        scale,
        max_pixels: PNG_PIXELS,
    };
    let png = missive_board::render_png_async(&diagram, &options, size).await?;
    Ok(picture_response("image/png", png.data))
}
