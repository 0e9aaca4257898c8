//! Archives: a player's finished games as one streamed archive text, and the import of
//! archive or PGN text as finished games.
//!
//! `GET /v1/players/{handle}/archive` writes the games one after another as each is loaded,
//! oldest first; it never holds more than one game's text. `POST /v1/archive` takes up to
//! [`ARCHIVE_LIMIT`] bytes of text (or the limit configured), replays every game through the rules and stores each
//! finished one whole; the answer says, game by game, what became of it.

use std::io::Cursor;

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use missive_archive::{ExportOptions, GameRecord, Reader, Registry};
use missive_game::{GameService, ImportOutcome};
use missive_store::GameId;
use serde::Serialize;
use utoipa::ToSchema;

use crate::session::Caller;
use crate::{ApiError, App};

/// Largest archive accepted by `POST /v1/archive` by default, in bytes.
pub const ARCHIVE_LIMIT: usize = 8 * 1024 * 1024;

/// Most games in a player's archive (the most recent ones).
pub const PLAYER_ARCHIVE_GAMES: usize = 10_000;

/// The media type of archive text.
pub const ARCHIVE_TYPE: &str = "application/x-chess-pgn; charset=utf-8";

/// The archive routes, imports limited to `import_limit` bytes.
pub(crate) fn routes(import_limit: usize) -> Router<App> {
    Router::new()
        .route("/v1/players/{handle}/archive", get(player_archive))
        .route(
            "/v1/archive",
            post(import).layer(DefaultBodyLimit::max(import_limit)),
        )
}

/// `record` as archive text; a stored game that does not export is an internal error.
pub(crate) fn archive_text(record: &GameRecord) -> Result<String, ApiError> {
    missive_archive::export(record, ExportOptions::default(), &Registry).map_err(|e| {
        tracing::error!(error = %e, "stored game does not export");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error",
        )
    })
}

/// An answer of archive text.
pub(crate) fn archive_response(body: impl Into<Body>) -> Response {
    (
        [(CONTENT_TYPE, HeaderValue::from_static(ARCHIVE_TYPE))],
        body.into(),
    )
        .into_response()
}

#[utoipa::path(get, path = "/v1/players/{handle}/archive", tag = "archive", params(("handle" = String, Path, description = "The player")), responses((status = 200, description = "Every finished game of the player the caller may see (private ones only to their players), oldest first, streamed as one archive text (docs/archive.md)", content_type = "application/x-chess-pgn", body = String), (status = 401, description = "An invalid access token was sent", body = crate::error::ErrorBody), (status = 404, description = "No such player", body = crate::error::ErrorBody)))]
pub(crate) async fn player_archive(
    State(app): State<App>,
    headers: HeaderMap,
    Path(handle): Path<String>,
) -> Result<Response, ApiError> {
    let viewer = Caller::optional(&headers, &app)?;
    app.service.player(&handle).await?;
    let mut ids: Vec<GameId> = app
        .service
        .finished_by(&handle, PLAYER_ARCHIVE_GAMES, viewer.as_deref())
        .await?
        .into_iter()
        .map(|summary| summary.id)
        .collect();
    ids.reverse();
    let games = futures_util::stream::unfold(
        (app.service, viewer, ids.into_iter()),
        |(service, viewer, mut ids)| async move {
            let id = ids.next()?;
            let text = game_text(&service, &id, viewer.as_deref()).await;
            Some((text, (service, viewer, ids)))
        },
    );
    Ok(archive_response(Body::from_stream(games)))
}

/// One game of a streamed archive. A game that cannot be read or written ends the stream
/// with an error (the client sees a cut-off answer, never a silently shorter archive).
async fn game_text(
    service: &GameService,
    id: &GameId,
    viewer: Option<&str>,
) -> Result<Bytes, std::io::Error> {
    let record = service.archive_record(id, viewer).await.map_err(|e| {
        tracing::error!(game = %id, error = %e, "archive stream cut off");
        std::io::Error::other(e.to_string())
    })?;
    let text = archive_text(&record).map_err(|e| std::io::Error::other(e.message))?;
    Ok(Bytes::from(text))
}

/// What became of an archive posted for import.
#[derive(Serialize, ToSchema)]
pub(crate) struct ImportAnswer {
    /// Games stored.
    imported: usize,
    /// Games refused.
    rejected: usize,
    /// Each game in archive order: its new id, or the error with game, line and column.
    games: Vec<ImportOutcome>,
}

#[utoipa::path(post, path = "/v1/archive", tag = "archive", security(("bearer" = [])), request_body(content = String, description = "Archive or PGN text, UTF-8, at most 8 MiB", content_type = "application/x-chess-pgn"), responses((status = 200, description = "At least one game imported; each game's id or error", body = ImportAnswer), (status = 400, description = "Not UTF-8 text", body = crate::error::ErrorBody), (status = 401, description = "No valid access token", body = crate::error::ErrorBody), (status = 413, description = "Larger than 8 MiB", body = crate::error::ErrorBody), (status = 422, description = "No game imported (`nothing-imported`, with `games`)", body = crate::error::ErrorBody)))]
pub(crate) async fn import(
    State(app): State<App>,
    Caller(me): Caller,
    body: Bytes,
) -> Result<Json<ImportAnswer>, ApiError> {
    let text = String::from_utf8(body.to_vec())
        .map_err(|e| ApiError::bad_request(format!("the archive is not UTF-8 text: {e}")))?;
    let read = tokio::task::spawn_blocking(move || {
        Reader::new(Cursor::new(text), &Registry).collect::<Vec<_>>()
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "archive reader failed");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error",
        )
    })?;
    let mut games = Vec::with_capacity(read.len());
    for game in read {
        games.push(app.service.import_game(Some(&me), game).await);
    }
    let imported = games.iter().filter(|g| g.id.is_some()).count();
    let answer = ImportAnswer {
        imported,
        rejected: games.len() - imported,
        games,
    };
    if imported == 0 {
        return Err(ApiError {
            extra: Some(("games", serde_json::json!(answer.games))),
            ..ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "nothing-imported",
                "no game of the archive could be imported",
            )
        });
    }
    Ok(Json(answer))
}
