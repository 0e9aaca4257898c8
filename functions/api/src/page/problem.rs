//! The pages' errors: the API's [`ApiError`] (statuses and codes from `crate::error`, the
//! one mapping) written as an HTML page a person can act on, with the game as it now
//! stands when there is one to show.

use axum::http::StatusCode;
use axum::http::header::{HeaderValue, RETRY_AFTER};
use axum::response::{IntoResponse, Response};

use super::html::{self, escape, respond};
use super::view::Shown;
use crate::ApiError;

/// A refusal to show as a page: the error, the game as it stands now if known, and the kind
/// of link the page was reached by (which the advice speaks of).
pub struct Problem {
    /// What went wrong; its status is the page's (boxed: a refusal stays small to pass
    /// around).
    pub error: Box<ApiError>,
    /// The game as it stands, shown below the explanation.
    pub shown: Option<Box<Shown>>,
    /// The link the page was reached by.
    pub via: Via,
}

/// The kind of link a page is reached by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A move link (`/play/{token}`), mailed or handed on by a page.
    MoveLink,
    /// A sign-in link (`/sign-in?token=...`).
    SignIn,
    /// A signed-in player's pages (`/me/{token}`).
    Session,
}

impl From<ApiError> for Problem {
    fn from(error: ApiError) -> Problem {
        Problem {
            error: Box::new(error),
            shown: None,
            via: Via::MoveLink,
        }
    }
}

impl Problem {
    /// The refusal with the game as it stands.
    pub fn with(error: ApiError, shown: Shown) -> Problem {
        Problem {
            shown: Some(Box::new(shown)),
            ..Problem::from(error)
        }
    }

    /// The refusal of a page reached by a link of kind `via`.
    pub fn via(error: ApiError, via: Via) -> Problem {
        Problem {
            via,
            ..Problem::from(error)
        }
    }
}

/// A heading and what to do about a token that has expired, for each kind of link.
fn expired(via: Via) -> (&'static str, &'static str) {
    match via {
        Via::MoveLink => (
            "This move link has expired",
            "Move links work for a limited time. A fresh link comes with the next mail about \
             this game; you can also sign in to Missive and play from there at any time.",
        ),
        Via::SignIn => (
            "This sign-in link has expired",
            "Sign-in links work for 15 minutes. Ask for a new one and open it soon.",
        ),
        Via::Session => (
            "Your sign-in has expired",
            "Signing in lasts a day. Ask for a new sign-in link to see your games again.",
        ),
    }
}

/// A heading and what to do, for each code a page can meet.
fn explanation(error: &ApiError, via: Via) -> (&'static str, &'static str) {
    match error.code {
        "token-expired" => expired(via),
        "invalid-token" => (
            "This link is not valid",
            "The link may have been cut short or altered. Open it again from the mail, \
             copying the whole address.",
        ),
        "wrong-token-purpose" => (
            "This link is not meant for this",
            "This link was made for something else. Use the link in your mail.",
        ),
        "unauthorized" if via == Via::SignIn => (
            "This sign-in link was used already",
            "Each sign-in link works once. Ask for a new one.",
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
        "player-not-found" => (
            "No such player",
            "The player this link was made for is not registered here.",
        ),
        "bad-request" => (
            "That did not work",
            "The form was incomplete. Nothing was changed.",
        ),
        "refused" => ("That was refused", "Nothing was changed."),
        "contended" => (
            "The game is busy",
            "Others changed the game at the same moment. Go back and try again.",
        ),
        "cross-site" => (
            "This form came from another site",
            "Missive only takes forms sent from its own pages. Open the page from your mail \
             or from Missive and send the form from there.",
        ),
        "limit-reached" | "rate-limited" => (
            "Too many requests",
            "Missive takes only so many of these at a time. Wait a while, then try again.",
        ),
        "internal" => (
            "Something went wrong",
            "Missive could not do this just now. Nothing was lost; please try again later.",
        ),
        _ => ("That did not work", "Nothing was changed."),
    }
}

/// Whether what to do about `error` is to ask for a new sign-in link.
fn asks_for_sign_in(error: &ApiError, via: Via) -> bool {
    match error.code {
        "token-expired" => via != Via::MoveLink,
        "unauthorized" => via == Via::SignIn,
        _ => false,
    }
}

/// The button to the page that mails a new sign-in link, where the advice is to ask for one.
fn ask_button(error: &ApiError, via: Via) -> &'static str {
    match asks_for_sign_in(error, via) {
        true => {
            "<p><a class=\"button\" id=\"ask\" href=\"/sign-in/ask\">Ask for a new sign-in \
             link</a></p>"
        }
        false => "",
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let (heading, advice) = explanation(&self.error, self.via);
        let notice = format!(
            "<div class=\"notice problem\" data-code=\"{}\"><p>{}</p><p class=\"detail\">{}</p>\
             {}</div>",
            escape(self.error.code),
            escape(advice),
            escape(&sentence(&self.error.message)),
            ask_button(&self.error, self.via),
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
        let mut response = respond(self.error.status, heading, &body);
        if let Some(seconds) = self.error.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The page's answer to an act: `Ok` with what was done, in words, is 200 and a notice
/// saying so; a refusal (a 4xx) is its status and a notice with the reason (nothing
/// changed), shown on the page again; any other failure is the error page.
pub fn outcome(done: Result<String, ApiError>, via: Via) -> Result<(StatusCode, String), Problem> {
    match done {
        Ok(said) => Ok((StatusCode::OK, html::done(&said))),
        Err(error) if error.status.is_client_error() => Ok((error.status, html::refused(&error))),
        Err(error) => Err(Problem::via(error, via)),
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
