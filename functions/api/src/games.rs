//! Games: create, list, read (with ETag), join, decline, move, draw, claim, resign, abort,
//! conditional moves.

use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::header::{ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use missive_domain::{ConditionalLine, Cursor, Ending, GameId, MoveRecord, Seat, TimeControl};
use missive_game::{GameSummary, Membership, MoveRequest, NewGame, SeatRequest};
use missive_rules::Claim;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::archives::archive_response;
use crate::session::Caller;
use crate::{ApiError, App, JsonBody};

/// Default and largest page of a list.
pub(crate) const PAGE: usize = 50;
pub(crate) const MAX_PAGE: usize = 200;
/// Longest idempotency key.
const MAX_KEY: usize = 128;

pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/v1/games", post(create).get(list))
        .route("/v1/games/{id}", get(view))
        .route("/v1/games/{id}/board.svg", get(board))
        .route("/v1/games/{id}/board.png", get(board_png))
        .route("/v1/games/{id}/archive", get(archive))
        .route("/v1/games/{id}/join", post(join))
        .route("/v1/games/{id}/decline", post(decline))
        .route("/v1/games/{id}/moves", post(play).get(moves))
        .route("/v1/games/{id}/draw", post(draw))
        .route("/v1/games/{id}/claim", post(claim))
        .route("/v1/games/{id}/resign", post(resign))
        .route("/v1/games/{id}/abort", post(abort))
        .route("/v1/games/{id}/conditional-moves", put(conditional))
}

/// A game to create.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateGame {
    variant: String,
    #[serde(default)]
    options: String,
    start_position: Option<String>,
    seats: Vec<SeatRequest>,
    time_control: TimeControl,
    #[serde(default)]
    rated: bool,
    /// Visible to its players (seated or invited) only; anyone else is told it does not
    /// exist.
    #[serde(default)]
    private: bool,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Created {
    id: GameId,
}

#[utoipa::path(post, path = "/v1/games", tag = "games", security(("bearer" = [])), request_body = CreateGame, responses((status = 201, description = "Created; each invitee mailed accept and decline links", body = Created), (status = 400, description = "Malformed request or setup", body = crate::error::ErrorBody), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 422, description = "Refused: seats, time control", body = crate::error::ErrorBody)))]
pub(crate) async fn create(
    State(app): State<App>,
    Caller(me): Caller,
    JsonBody(request): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let addresses: Vec<(Seat, String)> = request
        .seats
        .iter()
        .enumerate()
        .filter_map(|(index, seat)| match seat {
            SeatRequest::InviteEmail { email } => Some((Seat(index as u8), email.clone())),
            _ => None,
        })
        .collect();
    let id = app
        .service
        .create_game(NewGame {
            creator: me,
            variant: request.variant,
            options: request.options,
            start_position: request.start_position,
            seats: request.seats,
            time_control: request.time_control,
            rated: request.rated,
            private: request.private,
        })
        .await?;
    if let Err(error) = app.notifier().send_invitations(&id, &addresses).await {
        tracing::warn!(game = %id, %error, "invitations not mailed");
    }
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// Which games to list: `waiting=me` (the caller's turn); the caller's games
/// `player=me&status=invited` (invitations not answered), `forming` (where they sit, not
/// started), `active` (by the deadline of whoever is to move) or `finished`; or
/// `player=H&status=finished`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    waiting: Option<String>,
    player: Option<String>,
    status: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Page<T> {
    items: Vec<T>,
    next_cursor: Option<String>,
}

impl<T> From<missive_domain::Page<T>> for Page<T> {
    fn from(page: missive_domain::Page<T>) -> Page<T> {
        Page {
            items: page.items,
            next_cursor: page.next.map(|cursor| cursor.0),
        }
    }
}

#[utoipa::path(get, path = "/v1/games", tag = "games", params(ListQuery), responses((status = 200, description = "A page of games", body = Page<missive_game::GameSummary>), (status = 400, description = "Bad query or cursor", body = crate::error::ErrorBody), (status = 401, description = "waiting=me and player=me need an access token", body = crate::error::ErrorBody)))]
pub(crate) async fn list(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<ListQuery>,
) -> Result<Json<Page<GameSummary>>, ApiError> {
    let limit = query.limit.unwrap_or(PAGE).clamp(1, MAX_PAGE);
    let cursor = query.cursor.map(Cursor);
    let cursor = cursor.as_ref();
    let me = || Caller::from_headers(&headers, &app).map(|Caller(me)| me);
    let games = match (
        &query.waiting,
        query.player.as_deref(),
        query.status.as_deref(),
    ) {
        (Some(who), None, None) if who == "me" => {
            app.service.waiting_for(&me()?, cursor, limit).await?
        }
        (None, Some("me"), Some("invited")) => {
            app.service.invitations_of(&me()?, cursor, limit).await?
        }
        (None, Some("me"), Some(status @ ("active" | "forming"))) => {
            let membership = match status {
                "active" => Membership::Active,
                _ => Membership::Forming,
            };
            let me = me()?;
            app.service.games_of(&me, membership, cursor, limit).await?
        }
        (None, Some(player), Some("finished")) => {
            let viewer = Caller::optional(&headers, &app)?;
            let player = match player {
                "me" => me()?,
                player => player.to_string(),
            };
            app.service
                .finished_by(&player, cursor, limit, viewer.as_deref())
                .await?
        }
        _ => {
            return Err(ApiError::bad_request(
                "list with ?waiting=me, ?player=me&status=invited|forming|active|finished or \
                 ?player=HANDLE&status=finished",
            ));
        }
    };
    Ok(Json(games.into()))
}

/// The page of `items` from `offset`, with a cursor if more follow.
pub(crate) fn page<T>(items: Vec<T>, offset: usize, limit: usize) -> Page<T> {
    let more = items.len() > offset + limit;
    let items: Vec<T> = items.into_iter().skip(offset).take(limit).collect();
    Page {
        next_cursor: more.then(|| URL_SAFE_NO_PAD.encode((offset + limit).to_string())),
        items,
    }
}

/// The offset an offset cursor of [`page`] holds; 400 for anything else.
pub(crate) fn read_cursor(cursor: &str) -> Result<usize, ApiError> {
    URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| ApiError::bad_request("invalid cursor"))
}

#[utoipa::path(get, path = "/v1/games/{id}", tag = "games", params(("id" = String, Path, description = "The game id")), responses((status = 200, description = "The game; ETag set", body = missive_game::GameView), (status = 304, description = "Unchanged since If-None-Match"), (status = 404, description = "No such game", body = crate::error::ErrorBody)))]
pub(crate) async fn view(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let viewer = Caller::optional(&headers, &app)?;
    let view = app
        .service
        .game_view(&GameId(id), viewer.as_deref())
        .await?;
    let body = serde_json::to_vec(&view).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let tag = format!(
        "\"{}\"",
        URL_SAFE_NO_PAD.encode(&Sha256::digest(&body)[..16])
    );
    let etag = HeaderValue::from_str(&tag).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let matches = headers
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    if matches {
        return Ok((StatusCode::NOT_MODIFIED, [(ETAG, etag)]).into_response());
    }
    Ok((
        [
            (ETAG, etag),
            (
                axum::http::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
        ],
        body,
    )
        .into_response())
}

/// How to draw the board.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
pub(crate) struct BoardPngQuery {
    /// The seat to view the board from, by name (`white`, `black`, `wu`, ...); the first
    /// seat if absent.
    seat: Option<String>,
    /// Draw pieces as letters instead of figurines or characters.
    #[serde(default)]
    letters: bool,
    /// Image pixels per pixel of the SVG's own size, from 0.5 to 2 (the default, sharp on
    /// phones); a large board is drawn smaller so the image stays within 2.5 million pixels.
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
    id: String,
    seat: Option<&str>,
    letters: bool,
) -> Result<(missive_rules::Diagram, missive_board::Options), ApiError> {
    let viewer = Caller::optional(headers, app)?;
    let game = app.service.replayed(&GameId(id), viewer.as_deref()).await?;
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

#[utoipa::path(get, path = "/v1/games/{id}/board.svg", tag = "games", params(("id" = String, Path, description = "The game id"), BoardQuery), responses((status = 200, description = "The current position as SVG", content_type = "image/svg+xml", body = String), (status = 400, description = "Unknown seat", body = crate::error::ErrorBody), (status = 404, description = "No such game", body = crate::error::ErrorBody)))]
pub(crate) async fn board(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<BoardQuery>,
) -> Result<Response, ApiError> {
    let (diagram, options) =
        board_picture(&app, &headers, id, query.seat.as_deref(), query.letters).await?;
    Ok(picture_response(
        "image/svg+xml",
        missive_board::render(&diagram, &options),
    ))
}

#[utoipa::path(get, path = "/v1/games/{id}/board.png", tag = "games", params(("id" = String, Path, description = "The game id"), BoardPngQuery), responses((status = 200, description = "The current position as PNG, drawn as board.svg draws it", content_type = "image/png", body = String), (status = 400, description = "Unknown seat, or a scale out of range", body = crate::error::ErrorBody), (status = 404, description = "No such game", body = crate::error::ErrorBody)))]
pub(crate) async fn board_png(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
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
    // Rasterising takes a tenth of a second or more: off the request threads.
    let png =
        tokio::task::spawn_blocking(move || missive_board::render_png(&diagram, &options, size))
            .await
            .map_err(|e| e.to_string())
            .and_then(|drawn| drawn.map_err(|e| e.to_string()))
            .map_err(|error| ApiError::internal("the board picture could not be drawn", error))?;
    Ok(picture_response("image/png", png.data))
}

#[utoipa::path(get, path = "/v1/games/{id}/archive", tag = "games", params(("id" = String, Path, description = "The game id")), responses((status = 200, description = "The game in the archive format (docs/archive.md): every move and event, signed with the server's archive key when it has one", content_type = "application/x-chess-pgn", body = String), (status = 404, description = "No such game", body = crate::error::ErrorBody)))]
pub(crate) async fn archive(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let viewer = Caller::optional(&headers, &app)?;
    let text = app
        .service
        .archive_text(&GameId(id), viewer.as_deref())
        .await?;
    Ok(archive_response(text))
}

/// A seat to take (any free one if absent).
#[derive(Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Join {
    seat: Option<u8>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Seated {
    seat: u8,
}

#[utoipa::path(post, path = "/v1/games/{id}/join", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), request_body(content = Join, description = "Optional: the seat wanted"), responses((status = 200, description = "Seated", body = Seated), (status = 404, description = "No such game", body = crate::error::ErrorBody), (status = 409, description = "Not forming", body = crate::error::ErrorBody), (status = 422, description = "No free seat", body = crate::error::ErrorBody)))]
pub(crate) async fn join(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<Join>,
) -> Result<Json<Seated>, ApiError> {
    let seat = app
        .service
        .join(&GameId(id), &me, request.seat.map(Seat))
        .await?;
    Ok(Json(Seated { seat: seat.0 }))
}

#[utoipa::path(post, path = "/v1/games/{id}/decline", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), responses((status = 204, description = "Declined: the game is cancelled and its creator told by mail"), (status = 404, description = "No such game", body = crate::error::ErrorBody), (status = 409, description = "Not forming", body = crate::error::ErrorBody), (status = 422, description = "No invitation", body = crate::error::ErrorBody)))]
pub(crate) async fn decline(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id = GameId(id);
    app.service.decline(&id, &me).await?;
    crate::invitations::tell_declined(&app, &id, &me).await;
    Ok(StatusCode::NO_CONTENT)
}

/// A move to submit.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Move {
    #[serde(rename = "move")]
    text: String,
    expected_ply: u32,
    #[serde(default)]
    offer_draw: bool,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Played {
    #[serde(rename = "move")]
    record: MoveRecord,
    replies: Vec<MoveRecord>,
}

#[utoipa::path(post, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id"), ("Idempotency-Key" = Option<String>, Header, description = "A retry with the same key gets the first answer")), request_body = Move, responses((status = 201, description = "Accepted, with conditional replies", body = Played), (status = 403, description = "Not seated", body = crate::error::ErrorBody), (status = 404, description = "No such game", body = crate::error::ErrorBody), (status = 409, description = "Stale ply (current_ply given), not your turn, not active, time ran out", body = crate::error::ErrorBody), (status = 422, description = "Illegal move", body = crate::error::ErrorBody), (status = 429, description = "Too busy, retry", body = crate::error::ErrorBody)))]
pub(crate) async fn play(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
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
            &GameId(id),
            &MoveRequest {
                player: me,
                expected_ply: request.expected_ply,
                key,
                text: request.text,
                offer_draw: request.offer_draw,
            },
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(Played {
            record: accepted.record,
            replies: accepted.replies,
        }),
    ))
}

/// Which moves to list: a page from the cursor (from the first move if absent).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct MovesQuery {
    cursor: Option<String>,
    limit: Option<usize>,
}

#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", params(("id" = String, Path, description = "The game id"), MovesQuery), responses((status = 200, description = "A page of the move log", body = Page<missive_domain::MoveRecord>), (status = 404, description = "No such game", body = crate::error::ErrorBody)))]
pub(crate) async fn moves(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<MovesQuery>,
) -> Result<Json<Page<MoveRecord>>, ApiError> {
    let limit = query.limit.unwrap_or(MAX_PAGE).clamp(1, MAX_PAGE);
    let offset = match &query.cursor {
        Some(cursor) => read_cursor(cursor)?,
        None => 0,
    };
    let viewer = Caller::optional(&headers, &app)?;
    let log = app.service.move_log(&GameId(id), viewer.as_deref()).await?;
    Ok(Json(page(log, offset, limit)))
}

/// A draw action.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Draw {
    action: DrawAction,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum DrawAction {
    Offer,
    /// Takes back the caller's own standing offer.
    Withdraw,
    Accept,
    Decline,
}

/// The game after an act that may end it.
#[derive(Serialize, ToSchema)]
pub(crate) struct Ended {
    ending: Option<Ending>,
}

#[utoipa::path(post, path = "/v1/games/{id}/draw", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), request_body = Draw, responses((status = 200, description = "The ending, if the draw is agreed", body = Ended), (status = 403, description = "Not seated", body = crate::error::ErrorBody), (status = 409, description = "Not active", body = crate::error::ErrorBody), (status = 422, description = "No offer to answer or withdraw", body = crate::error::ErrorBody)))]
pub(crate) async fn draw(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<Draw>,
) -> Result<Json<Ended>, ApiError> {
    let id = GameId(id);
    let ending = match request.action {
        DrawAction::Offer => app.service.offer_draw(&id, &me).await?,
        DrawAction::Accept => app.service.accept_draw(&id, &me).await?,
        DrawAction::Withdraw => {
            app.service.withdraw_draw(&id, &me).await?;
            None
        }
        DrawAction::Decline => {
            app.service.decline_draw(&id, &me).await?;
            None
        }
    };
    Ok(Json(Ended { ending }))
}

/// A claim: a draw rule (`threefold-repetition`, `fifty-moves`) or `timeout`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimRequest {
    claim: String,
}

#[utoipa::path(post, path = "/v1/games/{id}/claim", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), request_body = ClaimRequest, responses((status = 200, description = "The ending", body = Ended), (status = 403, description = "Not seated", body = crate::error::ErrorBody), (status = 409, description = "Not active", body = crate::error::ErrorBody), (status = 422, description = "The claim does not hold", body = crate::error::ErrorBody)))]
pub(crate) async fn claim(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<ClaimRequest>,
) -> Result<Json<Ended>, ApiError> {
    let id = GameId(id);
    let ending = if request.claim == "timeout" {
        app.service.claim_timeout(&id, &me).await?
    } else {
        let claim = [Claim::ThreefoldRepetition, Claim::FiftyMoves]
            .into_iter()
            .find(|c| c.rule().as_str() == request.claim)
            .ok_or_else(|| {
                ApiError::bad_request("claim timeout, threefold-repetition or fifty-moves")
            })?;
        app.service.claim_draw(&id, &me, claim).await?
    };
    Ok(Json(Ended {
        ending: Some(ending),
    }))
}

#[utoipa::path(post, path = "/v1/games/{id}/resign", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), responses((status = 200, description = "The ending", body = Ended), (status = 403, description = "Not seated", body = crate::error::ErrorBody), (status = 409, description = "Not active", body = crate::error::ErrorBody)))]
pub(crate) async fn resign(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> Result<Json<Ended>, ApiError> {
    let ending = app.service.resign(&GameId(id), &me).await?;
    Ok(Json(Ended {
        ending: Some(ending),
    }))
}

#[utoipa::path(post, path = "/v1/games/{id}/abort", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), responses((status = 204, description = "Aborted"), (status = 403, description = "Not seated", body = crate::error::ErrorBody), (status = 409, description = "Not active", body = crate::error::ErrorBody), (status = 422, description = "Moves were played", body = crate::error::ErrorBody)))]
pub(crate) async fn abort(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.service.abort(&GameId(id), &me).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The caller's conditional lines, replacing any they had.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Conditional {
    lines: Vec<Vec<String>>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Lines {
    lines: Vec<ConditionalLine>,
}

#[utoipa::path(put, path = "/v1/games/{id}/conditional-moves", tag = "games", security(("bearer" = [])), params(("id" = String, Path, description = "The game id")), request_body = Conditional, responses((status = 200, description = "The lines as stored", body = Lines), (status = 403, description = "Not seated", body = crate::error::ErrorBody), (status = 409, description = "Not active", body = crate::error::ErrorBody), (status = 422, description = "Illegal or ambiguous lines", body = crate::error::ErrorBody)))]
pub(crate) async fn conditional(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<Conditional>,
) -> Result<Json<Lines>, ApiError> {
    let lines = app
        .service
        .set_conditional_lines(&GameId(id), &me, &request.lines)
        .await?;
    Ok(Json(Lines { lines }))
}

/// A JSON body that may be left out (then `T::default()`).
pub(crate) struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state).await.map_err(|e| {
            let status = e.status();
            ApiError::new(status, ApiError::code_for(status), e.body_text())
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        serde_json::from_slice(&bytes)
            .map(OptionalJson)
            .map_err(|e| ApiError::bad_request(e.to_string()))
    }
}
