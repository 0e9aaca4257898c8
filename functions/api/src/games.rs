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
use missive_domain::{ConditionalLine, Cursor, Ending, GameId, Seat, TimeControl};
use missive_game::{
    EndingView, GameSummary, GameView, Membership, MoveRequest, MoveView, NewGame, SeatRequest,
};
use missive_rules::Claim;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::archives::archive_response;
use crate::description::Binary;
use crate::error::ErrorBody;
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
pub(crate) struct CreateGame {
    #[schema(value_type = missive_game::schema::VariantId)]
    variant: String,
    /// The variant's options as `key=value` pairs joined by `,` (GET /v1/variants lists
    /// them); the defaults if empty.
    #[serde(default)]
    options: String,
    /// The position to start from, in the variant's position text; the standard start if
    /// absent.
    start_position: Option<String>,
    /// Who sits in each seat, in the variant's seat order.
    #[schema(min_items = 2, max_items = 3)]
    seats: Vec<SeatRequest>,
    time_control: TimeControl,
    #[serde(default)]
    rated: bool,
    /// Visible to its players (seated or invited) only; anyone else is told it does not
    /// exist.
    #[serde(default)]
    private: bool,
}

/// The game created.
#[derive(Serialize, ToSchema)]
pub(crate) struct Created {
    id: GameId,
}

/// Create a game
///
/// Seats the caller where the request says, invites players by handle or by address (each is mailed accept and decline links) and leaves the other seats open. The game starts when every seat is taken.
#[utoipa::path(post, path = "/v1/games", tag = "games", operation_id = "create_game", security(("bearer" = [])), request_body = CreateGame, responses(
    (status = 201, description = "Created; each invitee mailed accept and decline links", body = Created),
    (status = 400, description = "Malformed request, or a setup the variant refuses (`invalid-setup`)", body = ErrorBody),
    (status = 422, description = "Refused: the seats (one for the creator, invitees that exist), the time control (`refused`)", body = ErrorBody),
    (status = 429, description = "Too many invitation mails to an invitee's address or from the caller (`limit-reached`, with `limit`): nothing created", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
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
pub(crate) struct ListQuery {
    /// `me`: the games where the caller is to move.
    #[param(inline)]
    waiting: Option<Me>,
    /// `me`, or a handle (with `status=finished` only).
    #[param(pattern = "^(me|[A-Za-z][A-Za-z0-9_-]{1,23})$")]
    player: Option<String>,
    /// With `player`: which of the player's games.
    #[param(inline)]
    status: Option<ListStatus>,
    /// Games per page, 1 to 200 (50 if absent).
    #[param(minimum = 1, maximum = 200)]
    limit: Option<usize>,
    /// The `next_cursor` of the page before.
    cursor: Option<String>,
}

/// The caller, in a list filter.
#[derive(Clone, Copy, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Me {
    Me,
}

/// Which of a player's games to list.
#[derive(Clone, Copy, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ListStatus {
    /// Invitations not answered yet (the caller's only).
    Invited,
    /// Games the caller sits in that have not started (the caller's only).
    Forming,
    /// Games in play, by the deadline of whoever is to move (the caller's only).
    Active,
    /// Games over, newest first.
    Finished,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Page<T> {
    /// The page's items.
    items: Vec<T>,
    /// Where the next page starts; absent on the last page.
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

/// List games
///
/// The caller's games by status, the games waiting for the caller's move, or a player's finished games; paged with an opaque cursor.
#[utoipa::path(get, path = "/v1/games", tag = "games", operation_id = "list_games", security((), ("bearer" = [])), params(ListQuery), responses(
    (status = 200, description = "A page of games: by deadline for `waiting=me` and `status=active`, newest first otherwise", body = Page<GameSummary>),
    (status = 400, description = "A combination of filters that is not one of the lists, or a bad cursor (`bad-request`, `invalid-cursor`)", body = ErrorBody),
    (status = 401, description = "`waiting=me` and `player=me` need an access token; an invalid one was sent", body = ErrorBody),
))]
pub(crate) async fn list(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<ListQuery>,
) -> Result<Json<Page<GameSummary>>, ApiError> {
    let limit = query.limit.unwrap_or(PAGE).clamp(1, MAX_PAGE);
    let cursor = query.cursor.map(Cursor);
    let cursor = cursor.as_ref();
    let me = || Caller::from_headers(&headers, &app).map(|Caller(me)| me);
    let games = match (query.waiting, query.player.as_deref(), query.status) {
        (Some(Me::Me), None, None) => app.service.waiting_for(&me()?, cursor, limit).await?,
        (None, Some("me"), Some(ListStatus::Invited)) => {
            app.service.invitations_of(&me()?, cursor, limit).await?
        }
        (None, Some("me"), Some(status @ (ListStatus::Active | ListStatus::Forming))) => {
            let membership = match status {
                ListStatus::Active => Membership::Active,
                _ => Membership::Forming,
            };
            let me = me()?;
            app.service.games_of(&me, membership, cursor, limit).await?
        }
        (None, Some(player), Some(ListStatus::Finished)) => {
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

/// Read a game
///
/// The game as the caller sees it (legal moves, deadline, offers; the caller's own conditional lines). Send the `ETag` back as `If-None-Match` to be told 304 when nothing changed.
#[utoipa::path(get, path = "/v1/games/{id}", tag = "games", operation_id = "get_game", security((), ("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$"), ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 if the game is unchanged")), responses(
    (status = 200, description = "The game", body = GameView, headers(("ETag" = String, description = "The state's tag, for `If-None-Match`"))),
    (status = 304, description = "Unchanged since `If-None-Match`", headers(("ETag" = String, description = "The state's tag"))),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
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
    let body = serde_json::to_vec(&view)
        .map_err(|e| ApiError::internal("the game could not be written", e))?;
    let tag = format!(
        "\"{}\"",
        URL_SAFE_NO_PAD.encode(&Sha256::digest(&body)[..16])
    );
    let etag = HeaderValue::from_str(&tag)
        .map_err(|e| ApiError::internal("the tag could not be written", e))?;
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

/// Draw the board as SVG
#[utoipa::path(get, path = "/v1/games/{id}/board.svg", tag = "games", operation_id = "get_board_svg", security((), ("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$"), BoardQuery), responses(
    (status = 200, description = "The current position as SVG", content_type = "image/svg+xml", body = String),
    (status = 400, description = "Unknown seat", body = ErrorBody),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
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

/// Draw the board as PNG
#[utoipa::path(get, path = "/v1/games/{id}/board.png", tag = "games", operation_id = "get_board_png", security((), ("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$"), BoardPngQuery), responses(
    (status = 200, description = "The current position as PNG, drawn as board.svg draws it", content_type = "image/png", body = Binary),
    (status = 400, description = "Unknown seat, or a scale out of range", body = ErrorBody),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
    (status = 503, description = "Too many pictures being drawn (`busy`): try again after `Retry-After`", body = ErrorBody),
))]
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
    let png = missive_board::render_png_async(&diagram, &options, size).await?;
    Ok(picture_response("image/png", png.data))
}

/// Export a game
///
/// The game in the archive format (docs/archive.md): every move with its time and every event, signed with the server's archive key when it has one.
#[utoipa::path(get, path = "/v1/games/{id}/archive", tag = "games", operation_id = "get_game_archive", security((), ("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$"), ArchiveQuery), responses(
    (status = 200, description = "The game's archive text", content_type = "application/x-chess-pgn", body = String),
    (status = 401, description = "An invalid access token was sent, or none with `messages=true`", body = ErrorBody),
    (status = 403, description = "`messages=true` from someone not seated in the game (`not-seated`)", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn archive(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<ArchiveQuery>,
) -> Result<Response, ApiError> {
    let id = GameId(id);
    let text = if query.messages {
        let Caller(me) = Caller::from_headers(&headers, &app)?;
        app.service.players_archive_text(&id, &me).await?
    } else {
        let viewer = Caller::optional(&headers, &app)?;
        app.service.archive_text(&id, viewer.as_deref()).await?
    };
    Ok(archive_response(text))
}

/// What a game's archive holds.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ArchiveQuery {
    /// With the messages the game's players wrote each other, as comments outside the
    /// signed content (docs/archive.md): for the game's players only (an access token of
    /// one of them).
    #[serde(default)]
    messages: bool,
}

/// A seat to take (any free one if absent).
#[derive(Default, Deserialize, ToSchema)]
pub(crate) struct Join {
    /// The seat's index in the variant's seat order.
    #[schema(maximum = 2)]
    seat: Option<u8>,
}

/// The seat taken.
#[derive(Serialize, ToSchema)]
pub(crate) struct Seated {
    /// The seat's index in the variant's seat order.
    #[schema(maximum = 2)]
    seat: u8,
}

/// Take a seat
///
/// Takes the seat asked for (or any free one): an open seat, or the one the caller was invited to.
#[utoipa::path(post, path = "/v1/games/{id}/join", tag = "games", operation_id = "join_game", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), request_body(content = Join, description = "Optional: the seat wanted"), responses(
    (status = 200, description = "Seated", body = Seated),
    (status = 409, description = "The game is not forming (`not-active`), or the seat is taken (`taken`)", body = ErrorBody),
    (status = 422, description = "No free seat, or one kept for someone else (`refused`)", body = ErrorBody),
))]
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

/// Decline an invitation
///
/// The game is cancelled and its creator told by mail.
#[utoipa::path(post, path = "/v1/games/{id}/decline", tag = "games", operation_id = "decline_invitation", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), responses(
    (status = 204, description = "Declined: the game is cancelled and its creator told by mail"),
    (status = 409, description = "The game is not forming (`not-active`)", body = ErrorBody),
    (status = 422, description = "The caller is not invited (`refused`)", body = ErrorBody),
))]
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
/// The move is stored only if the game is still at `expected_ply` (else 409 `stale-ply` with `current_ply`). Conditional replies it triggers are played at once and returned.
#[utoipa::path(post, path = "/v1/games/{id}/moves", tag = "games", operation_id = "play_move", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$"), ("Idempotency-Key" = Option<String>, Header, description = "1 to 128 visible characters: a retry with the same key gets the first answer", min_length = 1, max_length = 128)), request_body = Move, responses(
    (status = 201, description = "Accepted, with the conditional replies it triggered", body = Played),
    (status = 400, description = "Malformed request or Idempotency-Key", body = ErrorBody),
    (status = 403, description = "Not seated (`not-seated`), or not an access token", body = ErrorBody),
    (status = 409, description = "Stale ply (`stale-ply`, with `current_ply`), not your turn, not active, time ran out", body = ErrorBody),
    (status = 422, description = "Illegal move (`illegal-move`), or a key used for another move (`idempotency-key-reused`)", body = ErrorBody),
))]
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
    #[param(minimum = 1, maximum = 200)]
    limit: Option<usize>,
}

/// List the moves
///
/// A page of the move log, oldest first, each move with the time it was accepted.
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", operation_id = "list_moves", security((), ("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$"), MovesQuery), responses(
    (status = 200, description = "A page of the move log", body = Page<MoveView>),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn moves(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<MovesQuery>,
) -> Result<Json<Page<MoveView>>, ApiError> {
    let limit = query.limit.unwrap_or(MAX_PAGE).clamp(1, MAX_PAGE);
    let offset = match &query.cursor {
        Some(cursor) => read_cursor(cursor)?,
        None => 0,
    };
    let viewer = Caller::optional(&headers, &app)?;
    let log = app.service.move_log(&GameId(id), viewer.as_deref()).await?;
    let page = page(log, offset, limit);
    Ok(Json(Page {
        items: page.items.iter().map(MoveView::from).collect(),
        next_cursor: page.next_cursor,
    }))
}

/// A draw action.
#[derive(Deserialize, ToSchema)]
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
    /// How the game ended; absent while it goes on.
    ending: Option<EndingView>,
}

impl Ended {
    /// The answer for an act that ended the game with `ending`, or not (`None`).
    pub(crate) fn with(ending: Option<Ending>) -> Json<Ended> {
        Json(Ended {
            ending: ending.as_ref().map(EndingView::from),
        })
    }
}

/// Offer, withdraw, accept or decline a draw
#[utoipa::path(post, path = "/v1/games/{id}/draw", tag = "games", operation_id = "answer_draw", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), request_body = Draw, responses(
    (status = 200, description = "The ending, if the draw is agreed", body = Ended),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "No offer to answer or withdraw (`refused`)", body = ErrorBody),
))]
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
    Ok(Ended::with(ending))
}

/// A claim: a draw rule or a win on time.
#[derive(Deserialize, ToSchema)]
pub(crate) struct ClaimRequest {
    claim: ClaimKind,
}

/// What is claimed.
#[derive(Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ClaimKind {
    /// The opponent to move ran out of time.
    Timeout,
    /// The position occurred three times.
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or pawn move.
    FiftyMoves,
}

/// Claim a draw or a win on time
#[utoipa::path(post, path = "/v1/games/{id}/claim", tag = "games", operation_id = "claim", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), request_body = ClaimRequest, responses(
    (status = 200, description = "The ending", body = Ended),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "The claim does not hold (`claim-refused`)", body = ErrorBody),
))]
pub(crate) async fn claim(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<ClaimRequest>,
) -> Result<Json<Ended>, ApiError> {
    let id = GameId(id);
    let ending = match request.claim {
        ClaimKind::Timeout => app.service.claim_timeout(&id, &me).await?,
        ClaimKind::ThreefoldRepetition => {
            app.service
                .claim_draw(&id, &me, Claim::ThreefoldRepetition)
                .await?
        }
        ClaimKind::FiftyMoves => app.service.claim_draw(&id, &me, Claim::FiftyMoves).await?,
    };
    Ok(Ended::with(Some(ending)))
}

/// Resign
#[utoipa::path(post, path = "/v1/games/{id}/resign", tag = "games", operation_id = "resign", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), responses(
    (status = 200, description = "The ending", body = Ended),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
))]
pub(crate) async fn resign(
    State(app): State<App>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> Result<Json<Ended>, ApiError> {
    let ending = app.service.resign(&GameId(id), &me).await?;
    Ok(Ended::with(Some(ending)))
}

/// Abort a game before its first move
#[utoipa::path(post, path = "/v1/games/{id}/abort", tag = "games", operation_id = "abort_game", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), responses(
    (status = 204, description = "Aborted"),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "Moves were played (`refused`)", body = ErrorBody),
))]
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
pub(crate) struct Conditional {
    /// Each line: moves in turn order from the game's current ply, the caller's own and
    /// the replies expected.
    lines: Vec<Vec<String>>,
}

/// The caller's conditional lines as stored.
#[derive(Serialize, ToSchema)]
pub(crate) struct Lines {
    lines: Vec<ConditionalLine>,
}

/// Set conditional moves
///
/// Replaces the caller's conditional lines: moves played for the caller at once when the game follows a line.
#[utoipa::path(put, path = "/v1/games/{id}/conditional-moves", tag = "games", operation_id = "set_conditional_moves", security(("bearer" = [])), params(("id" = String, Path, description = "The game id (a ULID)", pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")), request_body = Conditional, responses(
    (status = 200, description = "The lines as stored", body = Lines),
    (status = 409, description = "Not active (`not-active`)", body = ErrorBody),
    (status = 422, description = "Illegal or ambiguous lines (`illegal-move`, `refused`)", body = ErrorBody),
))]
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
