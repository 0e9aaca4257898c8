//! Reading games: list them, read one (with its ETag), export one as an archive.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::header::{ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use missive_domain::{Cursor, GameId};
use missive_game::{GameSummary, GameView, Membership};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::archives::archive_response;
use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::extract::IdPath;
use crate::paging::{PAGE, Page, PageSize};
use crate::{ApiError, App};

/// Which games to list: `waiting=me` (the caller's turn); the caller's games
/// `player=me&status=invited` (invitations not answered), `forming` (where they sit, not
/// started), `active` (by the deadline of whoever is to move), `finished` or `cancelled`
/// (called off); or `player=H&status=finished`.
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
    #[serde(default)]
    #[param(value_type = Option<usize>, minimum = 1, maximum = 200)]
    limit: PageSize,
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
    /// Games called off (invitations declined, games aborted) where the caller sat or was
    /// invited, newest first (the caller's only).
    Cancelled,
}

/// List games
///
/// The caller's games by status (called off ones among them), the games waiting for the caller's move, or a player's finished games; paged with an opaque cursor.
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
    let limit = query.limit.or(PAGE);
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
        (None, Some("me"), Some(ListStatus::Cancelled)) => {
            app.service.cancelled_for(&me()?, cursor, limit).await?
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
                "list with ?waiting=me, \
                 ?player=me&status=invited|forming|active|finished|cancelled or \
                 ?player=HANDLE&status=finished",
            ));
        }
    };
    Ok(Json(games.into()))
}

/// Read a game
///
/// The game as the caller sees it (legal moves, deadline, offers; the caller's own conditional lines). Send the `ETag` back as `If-None-Match` to be told 304 when nothing changed.
#[utoipa::path(get, path = "/v1/games/{id}", tag = "games", operation_id = "get_game", security((), ("bearer" = [])), params(IdPath<GameId>, ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 if the game is unchanged")), responses(
    (status = 200, description = "The game", body = GameView, headers(("ETag" = String, description = "The state's tag, for `If-None-Match`"))),
    (status = 304, description = "Unchanged since `If-None-Match`", headers(("ETag" = String, description = "The state's tag"))),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn view(
    State(app): State<App>,
    headers: HeaderMap,
    IdPath(id): IdPath<GameId>,
) -> Result<Response, ApiError> {
    let viewer = Caller::optional(&headers, &app)?;
    let view = app.service.game_view(&id, viewer.as_deref()).await?;
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

/// Export a game
///
/// The game in the archive format (docs/archive.md): every move with its time and every event, signed with the server's archive key when it has one.
#[utoipa::path(get, path = "/v1/games/{id}/archive", tag = "games", operation_id = "get_game_archive", security((), ("bearer" = [])), params(IdPath<GameId>, ArchiveQuery), responses(
    (status = 200, description = "The game's archive text", content_type = "application/x-chess-pgn", body = String),
    (status = 401, description = "An invalid access token was sent, or none with `messages=true`", body = ErrorBody),
    (status = 403, description = "`messages=true` from someone not seated in the game (`not-seated`)", body = ErrorBody),
    (status = 404, description = "No such game, or a private game of others (`game-not-found`)", body = ErrorBody),
))]
pub(crate) async fn archive(
    State(app): State<App>,
    headers: HeaderMap,
    IdPath(id): IdPath<GameId>,
    Query(query): Query<ArchiveQuery>,
) -> Result<Response, ApiError> {
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
