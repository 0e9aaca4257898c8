//! Archives: a player's finished games as one streamed archive text, the import of archive
//! or PGN text as finished games, and the public key the server signs its archives with.
//!
//! `GET /v1/players/{handle}/archive` writes the games one after another as each is loaded,
//! most recent first (as the store lists them, a page at a time); it never holds more than
//! one page of ids and one game's text. `POST /v1/archive` takes up to [`ARCHIVE_LIMIT`]
//! bytes of text (or the limit configured), replays every game through the rules, checks its
//! digest and signature and stores each finished one whole, a batch of games to one write of
//! the store; the answer says, game by game, what became of it. An import is held to the
//! service's limits ([`missive_game::Quotas`]): imports at once per player from the moment
//! the request's head has come (a second import is refused while the first one's text is
//! still arriving), bytes a day once the text is in, games per request and a day once they are read, and a working
//! time after which the reader stops and games not stored yet are not imported.
//! `GET /v1/archive/key` gives the public key that checks the server's signatures.

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use missive_domain::{Cursor, GameId};
use missive_game::{ArchiveImport, GameService, ImportOutcome};
use serde::Serialize;
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caller::Caller;
use crate::error::ErrorBody;
use crate::wire::Binary;
use crate::{ApiError, App};

/// Largest archive accepted by `POST /v1/archive` by default, in bytes.
pub const ARCHIVE_LIMIT: usize = 8 * 1024 * 1024;

/// Finished games read from the store at a time while a player's archive streams.
const ARCHIVE_PAGE: usize = 100;

/// The media type of archive text.
pub const ARCHIVE_TYPE: &str = "application/x-chess-pgn; charset=utf-8";

/// The archive routes, imports limited to `import_limit` bytes.
pub(crate) fn routes(import_limit: usize) -> OpenApiRouter<App> {
    let import = OpenApiRouter::new()
        .routes(routes!(import))
        .layer(DefaultBodyLimit::max(import_limit));
    OpenApiRouter::new()
        .routes(routes!(player_archive))
        .routes(routes!(archive_key))
        .merge(import)
}

/// An answer of archive text.
pub(crate) fn archive_response(body: impl Into<Body>) -> Response {
    (
        [(CONTENT_TYPE, HeaderValue::from_static(ARCHIVE_TYPE))],
        body.into(),
    )
        .into_response()
}

/// Export a player's games
///
/// Every finished game of the player the caller may see (private ones only to their players), oldest first, streamed as one archive text (docs/archive.md).
#[utoipa::path(get, path = "/v1/players/{handle}/archive", tag = "archive", operation_id = "get_player_archive", security((), ("bearer" = [])), params(("handle" = String, Path, description = "The handle (case does not matter)", pattern = "^[A-Za-z][A-Za-z0-9_-]{1,23}$")), responses(
    (status = 200, description = "The archive text", content_type = "application/x-chess-pgn", body = String),
    (status = 401, description = "An invalid access token was sent", body = ErrorBody),
    (status = 404, description = "No such player (`player-not-found`)", body = ErrorBody),
))]
pub(crate) async fn player_archive(
    State(app): State<App>,
    headers: HeaderMap,
    Path(handle): Path<String>,
) -> Result<Response, ApiError> {
    let viewer = Caller::optional(&headers, &app)?;
    app.service.player(&handle).await?;
    let games = futures_util::stream::try_unfold(
        ArchiveWalk {
            service: app.service,
            handle,
            viewer,
            ids: Vec::new(),
            cursor: None,
            started: false,
        },
        |mut walk| async move {
            let Some(id) = walk.next_id().await? else {
                return Ok::<_, std::io::Error>(None);
            };
            let text = game_text(&walk.service, &id, walk.viewer.as_deref()).await?;
            Ok(Some((text, walk)))
        },
    );
    Ok(archive_response(Body::from_stream(games)))
}

/// Where a player's archive stream is: the page of finished games being written, and the
/// store's cursor to the next one.
struct ArchiveWalk {
    service: GameService,
    handle: String,
    viewer: Option<String>,
    /// The ids of the current page not yet written, next last.
    ids: Vec<GameId>,
    cursor: Option<Cursor>,
    started: bool,
}

impl ArchiveWalk {
    /// The next game to write, reading the next page of the player's finished games when
    /// the current one is done; a failure cuts the stream off.
    async fn next_id(&mut self) -> Result<Option<GameId>, std::io::Error> {
        while self.ids.is_empty() {
            if self.started && self.cursor.is_none() {
                return Ok(None);
            }
            self.started = true;
            let page = self
                .service
                .finished_by(
                    &self.handle,
                    self.cursor.as_ref(),
                    ARCHIVE_PAGE,
                    self.viewer.as_deref(),
                )
                .await
                .map_err(|e| {
                    tracing::error!(player = %self.handle, error = %e, "archive stream cut off");
                    std::io::Error::other(e.to_string())
                })?;
            self.ids = page.items.into_iter().rev().map(|s| s.id).collect();
            self.cursor = page.next;
        }
        Ok(self.ids.pop())
    }
}

/// One game of a streamed archive. A game that cannot be read or written ends the stream
/// with an error (the client sees a cut-off answer, never a silently shorter archive).
async fn game_text(
    service: &GameService,
    id: &GameId,
    viewer: Option<&str>,
) -> Result<Bytes, std::io::Error> {
    let text = service.archive_text(id, viewer).await.map_err(|e| {
        tracing::error!(game = %id, error = %e, "archive stream cut off");
        std::io::Error::other(e.to_string())
    })?;
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
    /// What the reader warns of (text that is not UTF-8, read as Windows-1252), with game,
    /// line and column; absent when nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// Import games
///
/// Archive or PGN text, UTF-8 (text that is not UTF-8 is read as Windows-1252, with a warning), at most 8 MiB; any content type is read as that text. Each game is imported or refused on its own.
#[utoipa::path(post, path = "/v1/archive", tag = "archive", operation_id = "import_archive", security(("bearer" = [])), request_body(description = "Archive or PGN text, at most 8 MiB", content(
        (String = "application/x-chess-pgn"),
        (String = "text/plain"),
        (Binary = "application/octet-stream"),
    )), responses(
    (status = 200, description = "At least one game imported; each game's id or error", body = ImportAnswer),
    (status = 413, description = "Larger than 8 MiB, or more games than one request may carry (`too-large`, with `limit`)", body = ErrorBody),
    (status = 422, description = "No game imported (`nothing-imported`, with `games`)", body = ErrorBody),
    (status = 429, description = "An import of the player's is running, or the day's bytes or games are used up (`limit-reached`, with `limit`), or too many requests (`rate-limited`)", body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
pub(crate) async fn import(
    State(app): State<App>,
    Caller(me): Caller,
    request: Request,
) -> Result<Json<ImportAnswer>, ApiError> {
    let permit = app.service.begin_import(&me).await?;
    let text = match archive_text(request).await {
        Ok(text) => text,
        Err(error) => {
            app.service.abandon_import(permit).await;
            return Err(error);
        }
    };
    let import = app.service.import_archive(permit, text).await?;
    answer(import)
}

/// The archive text of an import's request, read once the import holds its slot, within
/// the route's body limit: 413 beyond it, 400 if the client broke off.
async fn archive_text(request: Request) -> Result<Bytes, ApiError> {
    Bytes::from_request(request, &())
        .await
        .map_err(|rejection| {
            let status = rejection.status();
            ApiError::new(status, ApiError::code_for(status), rejection.body_text())
        })
}

/// The answer to an import: what became of each game, or 422 when none was imported.
fn answer(import: ArchiveImport) -> Result<Json<ImportAnswer>, ApiError> {
    let imported = import.imported();
    let answer = ImportAnswer {
        imported,
        rejected: import.games.len() - imported,
        games: import.games,
        warnings: import.warnings,
    };
    if imported == 0 {
        let message = std::iter::once("no game of the archive could be imported")
            .chain(answer.warnings.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("; ");
        return Err(ApiError {
            extra: Some(("games", serde_json::json!(answer.games))),
            ..ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "nothing-imported",
                message,
            )
        });
    }
    Ok(Json(answer))
}

/// The public key that checks the server's archive signatures, and every key it trusts.
#[derive(Serialize, ToSchema)]
pub(crate) struct ArchiveKey {
    /// The key that signs: `ed25519:` and the base64 of the 32-byte Ed25519 public key.
    key: String,
    /// The signing key's id, as its signatures name it (`ed25519:<id>:<base64>`).
    id: String,
    /// Every key the server trusts, oldest first, the signing one last: the keys rotated
    /// out but not yet removed still check the archives they signed.
    keys: Vec<ArchiveKeyEntry>,
}

/// One of the server's archive keys.
#[derive(Serialize, ToSchema)]
pub(crate) struct ArchiveKeyEntry {
    /// `ed25519:` and the base64 of the public key.
    key: String,
    /// The key's id, as its signatures name it.
    id: String,
}

impl ArchiveKeyEntry {
    /// The entry of `key`.
    fn of(key: &missive_archive::PublicKey) -> ArchiveKeyEntry {
        ArchiveKeyEntry {
            key: key.to_text(),
            id: key.id(),
        }
    }
}

/// Read the archive signing key
///
/// The public key of the server's archive signatures (the `Signature` tag, docs/archive.md),
/// with the older keys still trusted after a rotation.
#[utoipa::path(get, path = "/v1/archive/key", tag = "archive", operation_id = "get_archive_key", security(()), responses(
    (status = 200, description = "The public key", body = ArchiveKey),
    (status = 404, description = "The server signs no archives (`no-archive-key`)", body = ErrorBody),
))]
pub(crate) async fn archive_key(State(app): State<App>) -> Result<Json<ArchiveKey>, ApiError> {
    let key = app.service.archive_public_key().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-archive-key",
            "this server signs no archives",
        )
    })?;
    let keys = app.service.archive_public_keys();
    Ok(Json(ArchiveKey {
        key: key.to_text(),
        id: key.id(),
        keys: keys.iter().map(ArchiveKeyEntry::of).collect(),
    }))
}
