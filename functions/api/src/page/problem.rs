//! The pages' errors: the API's [`ApiError`] (statuses and codes from `crate::error`, the
//! one mapping) written as an HTML page a person can act on, with the game as it now
//! stands when there is one to show.

use axum::response::{IntoResponse, Response};

use super::html::{escape, respond};
use super::view::Shown;
use crate::ApiError;

/// A refusal to show as a page: the error, and the game as it stands now if known.
pub struct Problem {
    /// What went wrong; its status is the page's.
    pub error: ApiError,
    /// The game as it stands, shown below the explanation.
    pub shown: Option<Shown>,
}

impl From<ApiError> for Problem {
    fn from(error: ApiError) -> Problem {
        Problem { error, shown: None }
    }
}

impl Problem {
    /// The refusal with the game as it stands.
    pub fn with(error: ApiError, shown: Shown) -> Problem {
        Problem {
            error,
            shown: Some(shown),
        }
    }
}

/// A heading and what to do, for each code a move link can meet.
fn explanation(error: &ApiError) -> (&'static str, &'static str) {
    match error.code {
        "token-expired" => (
            "This move link has expired",
            "Move links work for a limited time. A fresh link comes with the next mail about \
             this game; you can also sign in to Missive and play from there at any time.",
        ),
        "invalid-token" => (
            "This link is not valid",
            "The link may have been cut short or altered. Open it again from the mail, \
             copying the whole address.",
        ),
        "wrong-token-purpose" => (
            "This is not a move link",
            "This link was made for something else. Use the link in your move mail.",
        ),
        "not-seated" => (
            "This link is not for your seat",
            "The seat this link was made for is no longer yours in this game.",
        ),
        "stale-ply" | "not-your-turn" => (
            "This move has already been made",
            "The game went on since this link was sent: the move was made (perhaps through \
             this very link) or the game moved past it. Nothing was changed now.",
        ),
        "not-active" | "time-expired" => (
            "This game is over",
            "The game has ended, so the link has nothing more to do.",
        ),
        "game-not-found" => (
            "No such game",
            "The game this link was made for does not exist.",
        ),
        "refused" => ("That was refused", "Nothing was changed."),
        "contended" => (
            "The game is busy",
            "Others changed the game at the same moment. Go back and try again.",
        ),
        "internal" => (
            "Something went wrong",
            "Missive could not do this just now. Nothing was lost; please try again later.",
        ),
        _ => ("That did not work", "Nothing was changed."),
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let (heading, advice) = explanation(&self.error);
        let notice = format!(
            "<div class=\"notice problem\" data-code=\"{}\"><p>{}</p><p class=\"detail\">{}</p>\
             </div>",
            escape(self.error.code),
            escape(advice),
            escape(&sentence(&self.error.message))
        );
        let body = match &self.shown {
            Some(shown) => {
                let current = format!(
                    "<p><a class=\"button\" href=\"../games/{}\">See the current game</a></p>",
                    escape(&shown.view.id.0)
                );
                shown.body(heading, &notice, &current)
            }
            None => format!("<h1>{}</h1>{notice}", escape(heading)),
        };
        respond(self.error.status, heading, &body)
    }
}

/// `text` with a capital first letter and a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}
