//! The sign-in page behind the mailed sign-in and sign-up confirmation links
//! (`/sign-in?token=...`).
//!
//! `GET` only reads the token and shows a button: mail programs and scanners that open links
//! ahead of the reader cannot spend it. `POST` (the button) exchanges it, once only, as
//! `POST /v1/auth/token` does, and sends the player on to their games page
//! (`/me/{token}`, see [`super::me`]) with `303 See Other`, so reloading that page spends
//! nothing.
//!
//! A link asked for from a tournament's page carries where to go after signing in
//! (`&then=tournaments/{id}`, see [`Then`]): the button sends the player on to that
//! tournament's page of theirs instead of their home.

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_auth::Purpose;
use serde::Deserialize;

use super::html::{escape, redirect, respond};
use super::me;
use super::problem::{Problem, Via};
use crate::session::redeem;
use crate::{ApiError, App};

/// The sign-in link's query, and the form its button sends.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SignIn {
    /// The sign-in token.
    #[serde(default)]
    token: String,
    /// Where to go once signed in (see [`Then`]).
    #[serde(default)]
    then: String,
}

/// Where a signed-in player goes from the sign-in page: their home, or the page of theirs
/// for one tournament (to join or leave it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Then {
    /// `/me/{token}`.
    Home,
    /// `/me/{token}/tournaments/{id}`.
    Tournament(String),
}

impl Then {
    /// The destination `text` names (`tournaments/{id}`); home for anything else.
    pub fn read(text: &str) -> Then {
        let id = text.strip_prefix("tournaments/").unwrap_or("");
        let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        match !id.is_empty() && id.len() <= 64 && id.chars().all(plain) {
            true => Then::Tournament(id.to_string()),
            false => Then::Home,
        }
    }

    /// The destination as a `then` value (empty for home).
    pub fn text(&self) -> String {
        match self {
            Then::Home => String::new(),
            Then::Tournament(id) => format!("tournaments/{id}"),
        }
    }

    /// The query text a mailed link carries for it: `&then=...`, or nothing.
    pub fn query(&self) -> String {
        match self {
            Then::Home => String::new(),
            Then::Tournament(_) => format!("&then={}", self.text()),
        }
    }

    /// A hidden form field carrying it.
    pub fn field(&self) -> String {
        format!(
            "<input type=\"hidden\" name=\"then\" value=\"{}\">",
            escape(&self.text())
        )
    }

    /// The path, beside `/sign-in`, of the page for the player of `session`.
    fn path(&self, session: &str) -> String {
        match self {
            Then::Home => format!("me/{session}"),
            Then::Tournament(id) => format!("me/{session}/tournaments/{id}"),
        }
    }
}

/// `GET /sign-in?token=...`: whom the link signs in, and the button that does it; changes
/// nothing.
pub(crate) async fn show(
    State(app): State<App>,
    query: Result<Query<SignIn>, QueryRejection>,
) -> Result<Response, Problem> {
    let SignIn { token, then } = query.map(|Query(q)| q).unwrap_or_default();
    if token.is_empty() {
        let error = ApiError::bad_request("open the whole link from your sign-in mail");
        return Err(Problem::via(error, Via::SignIn));
    }
    let claims = app
        .authority
        .verify_any(
            &token,
            &[Purpose::SignIn, Purpose::SignUp],
            app.now_seconds(),
        )
        .map_err(|e| Problem::via(e.into(), Via::SignIn))?;
    let (what, button, within) = match claims.purpose {
        Purpose::SignUp => (
            "confirms your sign-up and signs you in",
            "Confirm and sign in",
            "24 hours",
        ),
        _ => ("signs you in", "Sign in", "15 minutes"),
    };
    let body = format!(
        "<h1>Sign in to Missive</h1><section class=\"panel\"><p>This link {what} as \
         <strong>{handle}</strong>.</p><form method=\"post\"><input type=\"hidden\" \
         name=\"token\" value=\"{token}\">{then}<div class=\"actions\"><button class=\"primary\" \
         id=\"sign-in\">{button} as {handle}</button></div></form><p class=\"detail\">The link \
         works once, within {within} of being sent, and only this button uses it: a mail \
         program that opens links ahead of you cannot spend it.</p><p><a class=\"button\" \
         href=\"sign-in/ask\">Ask for a new link</a></p></section>",
        handle = escape(&claims.sub),
        token = escape(&token),
        then = Then::read(&then).field(),
    );
    Ok(respond(StatusCode::OK, "Sign in", &body))
}

/// `POST /sign-in`: spends the form's sign-in or sign-up token (a sign-up registers the
/// player first) and sends the player to their home, or where the link said.
pub(crate) async fn act(
    State(app): State<App>,
    form: Result<Form<SignIn>, FormRejection>,
) -> Result<Response, Problem> {
    let SignIn { token, then } = form.map(|Form(f)| f).unwrap_or_default();
    let signed_in = async {
        let handle = redeem(&app, &token).await?;
        redirect(&Then::read(&then).path(&me::session(&app, &handle)?))
    };
    signed_in
        .await
        .map_err(|error| Problem::via(error, Via::SignIn))
}
