//! Games: create, list, read (with ETag), join, decline, move, draw, claim, resign, abort,
//! conditional moves.

pub(crate) mod board;
pub(crate) mod ends;
pub(crate) mod moves;
pub(crate) mod reading;
pub(crate) mod setup;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::App;

pub(crate) fn routes() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(setup::create, reading::list))
        .routes(routes!(reading::view))
        .routes(routes!(board::board))
        .routes(routes!(board::board_png))
        .routes(routes!(reading::archive))
        .routes(routes!(setup::join))
        .routes(routes!(setup::decline))
        .routes(routes!(moves::play, moves::moves))
        .routes(routes!(ends::draw))
        .routes(routes!(ends::claim))
        .routes(routes!(ends::resign))
        .routes(routes!(setup::abort))
        .routes(routes!(moves::conditional))
}
