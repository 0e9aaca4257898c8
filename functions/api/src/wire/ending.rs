//! What an act that may end a game answers.

use axum::Json;
use missive_domain::Ending;
use missive_game::EndingView;
use serde::Serialize;
use utoipa::ToSchema;

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
