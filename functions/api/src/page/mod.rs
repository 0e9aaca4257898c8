//! The HTML pages people reach from mail: the move page behind a move link
//! (`/play/{token}`), the invitation pages behind an invitation's links
//! (`/invitations/{token}/accept` and `/decline`) and a read-only game page (`/games/{id}`).
//! Server-rendered, usable on a phone and without JavaScript. Errors are pages too, made
//! from the API's [`ApiError`] (whose statuses and codes come from `crate::error`) by
//! [`problem`].

mod html;
mod invitation;
pub mod link;
mod play;
mod problem;
mod view;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use missive_domain::GameId;

pub use link::MoveLink;
use problem::Problem;

use crate::App;

pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/play/{token}", get(play::show).post(play::act))
        .route(
            "/invitations/{token}/accept",
            get(invitation::ask_accept).post(invitation::accept),
        )
        .route(
            "/invitations/{token}/decline",
            get(invitation::ask_decline).post(invitation::decline),
        )
        .route("/games/{id}", get(game))
}

/// `GET /games/{id}`: the game as anyone sees it, without a form.
async fn game(State(app): State<App>, Path(id): Path<String>) -> Result<Response, Problem> {
    let shown = view::load(&app, &GameId(id), None, None).await?;
    let heading = shown.title();
    Ok(html::respond(
        StatusCode::OK,
        &heading,
        &shown.body(&heading, "", ""),
    ))
}
