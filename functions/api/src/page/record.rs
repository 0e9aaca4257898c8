//! The game's archive behind the pages' "Download the game" link: `GET /games/{id}/archive`
//! (the archive anyone may read, as `GET /v1/games/{id}/archive` without a token) and
//! `GET /play/{token}/archive` (the link's player's copy, with the messages the players wrote
//! each other; the link may be stale, so it serves finished games too). Both answer the
//! archive text as a file to save, `missive-{id}.pgn`.

use axum::extract::{Path, State};
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, REFERRER_POLICY};
use axum::response::Response;
use missive_domain::GameId;

use super::link;
use super::problem::Problem;
use crate::archives::archive_response;
use crate::{ApiError, App};

/// `GET /games/{id}/archive`: the game's archive as anyone may read it.
pub(crate) async fn public(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    let game = GameId(id);
    let text = app
        .service
        .archive_text(&game, None)
        .await
        .map_err(ApiError::from)?;
    file(&game, text)
}

/// `GET /play/{token}/archive`: the game's archive for the link's player, messages
/// included, while the link has not expired and the player is seated in it.
pub(crate) async fn players(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let link = link::read(&app, &token)?;
    let text = app
        .service
        .players_archive_text(&link.game, &link.handle)
        .await
        .map_err(ApiError::from)?;
    file(&link.game, text)
}

/// `text` as the file `missive-{game}.pgn` to save (the API's archive type), kept out of
/// caches.
fn file(game: &GameId, text: String) -> Result<Response, Problem> {
    let disposition = format!("attachment; filename=\"missive-{}.pgn\"", game.0);
    let disposition = HeaderValue::from_str(&disposition)
        .map_err(|e| ApiError::internal("the archive's file name is no header value", e))?;
    let mut response = archive_response(text);
    let headers = response.headers_mut();
    headers.insert(CONTENT_DISPOSITION, disposition);
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    Ok(response)
}
