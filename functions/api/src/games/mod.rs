//! Games: create, list, read (with ETag), join, decline, move, draw, claim, resign, abort,
//! conditional moves.

pub(crate) mod board;
pub(crate) mod ends;
pub(crate) mod moves;
pub(crate) mod reading;
pub(crate) mod setup;

use axum::Router;
use axum::routing::{get, post, put};

use self::board::{board, board_png};
use self::ends::{claim, draw, resign};
use self::moves::{conditional, moves, play};
use self::reading::{archive, list, view};
use self::setup::{abort, create, decline, join};
use crate::App;

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
