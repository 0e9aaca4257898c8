//! The pages of someone not signed in: `/sign-in/ask` mails a sign-in link, `/sign-up`
//! signs up. Each goes through the same call as its API route (`POST /v1/auth/login`,
//! `POST /v1/players`), so the same mail limits hold (429 `limit-reached` beyond them) and
//! the answer tells nobody whether an address is registered.

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use super::html::{escape, respond};
use super::problem::{Problem, Via, outcome};
use super::sign_in::Then;
use crate::App;
use crate::limits::ClientAddress;
use crate::players::mail_sign_up;
use crate::session::mail_sign_in;

/// What the ask and sign-up forms send (and the ask page's query: where to go after).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct AskForm {
    /// The address.
    #[serde(default)]
    email: String,
    /// The handle wanted (sign-up).
    #[serde(default)]
    handle: String,
    /// Where the link leads once used (see [`Then`]).
    #[serde(default)]
    then: String,
}

/// `GET /sign-in/ask`: the form that asks for a sign-in link.
pub(crate) async fn show_ask(query: Result<Query<AskForm>, QueryRejection>) -> Response {
    let asked = query.map(|Query(q)| q).unwrap_or_default();
    ask_page(StatusCode::OK, &asked, "")
}

/// `POST /sign-in/ask`: mails a sign-in link if the address is registered; the same page
/// whether or not it is, unless a mail limit is reached.
pub(crate) async fn ask(
    State(app): State<App>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    form: Result<Form<AskForm>, FormRejection>,
) -> Result<Response, Problem> {
    let asked = form.map(|Form(f)| f).unwrap_or_default();
    let then = Then::read(&asked.then).query();
    let sent = mail_sign_in(&app, &headers, &client, asked.email.trim(), &then)
        .await
        .map(|()| {
            "If the address is registered, a sign-in link is on its way to it. Open it within \
             15 minutes."
                .to_string()
        });
    let (status, notice) = outcome(sent, Via::SignIn)?;
    Ok(ask_page(accepted(status), &asked, &notice))
}

/// `GET /sign-up`: the sign-up form.
pub(crate) async fn show_sign_up() -> Response {
    sign_up_page(StatusCode::OK, &AskForm::default(), "")
}

/// `POST /sign-up`: checks the handle and the address and mails the confirmation link (or
/// a sign-in link, to an address with an account already), as `POST /v1/players` does.
pub(crate) async fn sign_up(
    State(app): State<App>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    form: Result<Form<AskForm>, FormRejection>,
) -> Result<Response, Problem> {
    let asked = form.map(|Form(f)| f).unwrap_or_default();
    let (handle, email) = (asked.handle.trim(), asked.email.trim());
    let sent = mail_sign_up(&app, &headers, &client, handle, email)
        .await
        .map(|()| {
            "A mail is on its way to the address: open its link within 24 hours to confirm \
             your sign-up."
                .to_string()
        });
    let (status, notice) = outcome(sent, Via::SignIn)?;
    Ok(sign_up_page(accepted(status), &asked, &notice))
}

/// 202, as the API answers a mail on its way, for a page's 200; any other status as it is.
fn accepted(status: StatusCode) -> StatusCode {
    match status {
        StatusCode::OK => StatusCode::ACCEPTED,
        status => status,
    }
}

/// The ask page: `notice` (markup) and the form, the address typed kept.
fn ask_page(status: StatusCode, asked: &AskForm, notice: &str) -> Response {
    let body = format!(
        "<h1>Ask for a sign-in link</h1>{notice}<section class=\"panel\"><form method=\"post\">\
         {then}<label for=\"email\">Your address</label><input type=\"email\" id=\"email\" \
         name=\"email\" value=\"{email}\" required autocomplete=\"email\"><div \
         class=\"actions\"><button class=\"primary\" id=\"ask\">Mail me a link</button></div>\
         </form><p class=\"detail\">If the address is registered, a link that signs you in is \
         mailed to it. It works once, within 15 minutes.</p><p><a class=\"button\" \
         id=\"to-sign-up\" href=\"../sign-up\">Sign up instead</a></p></section>",
        then = Then::read(&asked.then).field(),
        email = escape(&asked.email),
    );
    respond(status, "Ask for a sign-in link", &body)
}

/// The sign-up page: `notice` (markup) and the form, what was typed kept.
fn sign_up_page(status: StatusCode, asked: &AskForm, notice: &str) -> Response {
    let body = format!(
        "<h1>Sign up to Missive</h1>{notice}<section class=\"panel\"><form method=\"post\">\
         <label for=\"handle\">Your name</label><input type=\"text\" id=\"handle\" \
         name=\"handle\" value=\"{handle}\" required autocomplete=\"username\" \
         autocapitalize=\"off\" spellcheck=\"false\"><p class=\"detail\">2 to 24 letters, \
         digits, <code>_</code> or <code>-</code>, starting with a letter; others see it.</p>\
         <label for=\"email\">Your address</label><input type=\"email\" id=\"email\" \
         name=\"email\" value=\"{email}\" required autocomplete=\"email\"><div \
         class=\"actions\"><button class=\"primary\" id=\"sign-up\">Sign up</button></div>\
         </form><p class=\"detail\">A mail with a link confirming the sign-up is sent to the \
         address; nothing is registered until it is used. You play by mail from then on.</p>\
         <p><a class=\"button\" href=\"sign-in/ask\">Signed up already? Ask for a sign-in \
         link</a></p></section>",
        handle = escape(&asked.handle),
        email = escape(&asked.email),
    );
    respond(status, "Sign up", &body)
}
