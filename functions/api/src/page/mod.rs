//! The HTML pages people reach from mail: the move page behind a move link
//! (`/play/{token}`, which is also where conditional lines are set while another seat is to
//! move), the invitation pages behind an invitation's links (`/invitations/{token}/accept`
//! and `/decline`), the sign-in page behind a sign-in link (`/sign-in?token=...`), a
//! signed-in player's games and vacation (`/me/{token}`, `/me/{token}/vacation`) and a
//! read-only game page (`/games/{id}`). Server-rendered, usable on a phone and without
//! JavaScript; a `GET` never changes anything. Errors are pages too, made from the API's
//! [`crate::ApiError`] (whose statuses and codes come from `crate::error`) by `problem`.
//!
//! Pages keep no session: every page that acts is reached by a link whose path carries a
//! token for what it may do (see [`link`] and `me`), and acts through the game service like
//! any client.

mod event;
mod html;
mod invitation;
mod leave;
mod lines;
pub mod link;
mod me;
mod play;
mod problem;
mod sign_in;
mod tap;
mod turn;
mod view;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use missive_domain::GameId;

pub use link::MoveLink;
pub use me::SESSION_LIFETIME;
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
        .route("/sign-in", get(sign_in::show).post(sign_in::act))
        .route("/me/{token}", get(me::games))
        .route("/me/{token}/vacation", get(leave::show).post(leave::act))
        .route("/games/{id}", get(game))
        .route("/tournaments/{id}", get(event::show))
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
