//! The HTML pages people reach from mail: the move page behind a move link
//! (`/play/{token}`, which is also where conditional lines are set while another seat is to
//! move), the invitation pages behind an invitation's links (`/invitations/{token}/accept`
//! and `/decline`), the sign-in page behind a sign-in link (`/sign-in?token=...`), the pages
//! that ask for one and sign up (`/sign-in/ask`, `/sign-up`), a signed-in player's home,
//! vacation, new game, lobby and tournament pages (`/me/{token}`, `/me/{token}/vacation`,
//! `/me/{token}/games/new`, `/me/{token}/challenges`, `/me/{token}/tournaments/{id}`), a
//! tournament's page (`/tournaments/{id}`) and a read-only game page (`/games/{id}`), with the
//! game's archive to download (see [`record`]). Server-rendered, usable on a phone and
//! without JavaScript; a `GET` never changes anything. Errors are pages too, made from the
//! API's [`crate::ApiError`] (whose statuses and codes come from `crate::error`) by `problem`.
//!
//! Pages keep no session: every page that acts is reached by a link whose path carries a
//! token for what it may do (see [`link`] and `me`), and acts through the game service like
//! any client. Forms posted from another site are refused ([`guard`]).

mod ask;
mod event;
mod guard;
mod html;
mod invitation;
mod leave;
mod lines;
pub mod link;
mod lobby;
mod me;
mod new_game;
mod play;
mod problem;
mod record;
mod sign_in;
mod tap;
mod terms;
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

/// Every page route, behind the guard against cross-site forms (which needs `app`'s public
/// URL).
pub(crate) fn routes(app: &App) -> Router<App> {
    Router::new()
        .route("/play/{token}", get(play::show).post(play::act))
        .route("/play/{token}/archive", get(record::players))
        .route(
            "/invitations/{token}/accept",
            get(invitation::ask_accept).post(invitation::accept),
        )
        .route(
            "/invitations/{token}/decline",
            get(invitation::ask_decline).post(invitation::decline),
        )
        .route("/sign-in", get(sign_in::show).post(sign_in::act))
        .route("/sign-in/ask", get(ask::show_ask).post(ask::ask))
        .route("/sign-up", get(ask::show_sign_up).post(ask::sign_up))
        .route("/me/{token}", get(me::games).post(me::answer))
        .route("/me/{token}/vacation", get(leave::show).post(leave::act))
        .route(
            "/me/{token}/games/new",
            get(new_game::show).post(new_game::create),
        )
        .route("/me/{token}/challenges", get(lobby::show).post(lobby::act))
        .route(
            "/me/{token}/tournaments/{id}",
            get(event::mine).post(event::act),
        )
        .route("/games/{id}", get(game))
        .route("/games/{id}/archive", get(record::public))
        .route("/tournaments/{id}", get(event::show))
        .route_layer(axum::middleware::from_fn_with_state(
            app.clone(),
            guard::same_site,
        ))
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
