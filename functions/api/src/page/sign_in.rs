//! The sign-in page behind the mailed sign-in and sign-up confirmation links
//! (`/sign-in?token=...`).
//!
//! `GET` only reads the token and shows a button: mail programs and scanners that open links
//! ahead of the reader cannot spend it. `POST` (the button) exchanges it, once only, as
//! `POST /v1/auth/token` does, and sends the player on to their games page
//! (`/me/{token}`, see [`super::me`]) with `303 See Other`, so reloading that page spends
//! nothing.

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
}

/// `GET /sign-in?token=...`: whom the link signs in, and the button that does it; changes
/// nothing.
pub(crate) async fn show(
    State(app): State<App>,
    query: Result<Query<SignIn>, QueryRejection>,
) -> Result<Response, Problem> {
    let token = query.map(|Query(q)| q.token).unwrap_or_default();
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
         name=\"token\" value=\"{token}\"><div class=\"actions\"><button class=\"primary\" \
         id=\"sign-in\">{button} as {handle}</button></div></form><p class=\"detail\">The link \
         works once, within {within} of being sent, and only this button uses it: a mail \
         program that opens links ahead of you cannot spend it.</p></section>",
        handle = escape(&claims.sub),
        token = escape(&token),
    );
    Ok(respond(StatusCode::OK, "Sign in", &body))
}

/// `POST /sign-in`: spends the form's sign-in or sign-up token (a sign-up registers the
/// player first) and sends the player to their games.
pub(crate) async fn act(
    State(app): State<App>,
    form: Result<Form<SignIn>, FormRejection>,
) -> Result<Response, Problem> {
    let token = form.map(|Form(f)| f.token).unwrap_or_default();
    let signed_in = async {
        let handle = redeem(&app, &token).await?;
        redirect(&format!("me/{}", me::session(&app, &handle)?))
    };
    signed_in
        .await
        .map_err(|error| Problem::via(error, Via::SignIn))
}
