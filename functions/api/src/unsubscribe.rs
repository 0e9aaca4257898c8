//! Mail preferences by link, from the unsubscribe link in every notification.
//!
//! - `GET /unsubscribe/{token}` shows a small HTML page saying the current preference and a
//!   form with it chosen (so saving it unchanged changes nothing); it never changes
//!   anything itself, since mail scanners open links.
//! - `POST /unsubscribe/{token}` changes the preference: the form's `preference` field
//!   (`each-move`, `daily-digest`, `none`), or RFC 8058's one-click body
//!   `List-Unsubscribe=One-Click` (mail clients send it for the `List-Unsubscribe-Post`
//!   header), which means `none`.
//!
//! The token ([`Purpose::Unsubscribe`], see `missive_notify::links`) names the player; a
//! bad, expired or foreign token gets the API's error answer.

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Form, Router};
use missive_auth::Purpose;
use missive_board::escape;
use missive_domain::MailPreference;

use crate::{ApiError, App};

pub(crate) fn routes() -> Router<App> {
    Router::new().route("/unsubscribe/{token}", get(show).post(change))
}

/// The player the unsubscribe token names.
fn player_of(app: &App, token: &str) -> Result<String, ApiError> {
    Ok(app
        .authority
        .verify(token, Purpose::Unsubscribe, app.now_seconds())?
        .sub)
}

/// The form, with the player's current preference said and chosen; changes nothing.
async fn show(State(app): State<App>, Path(token): Path<String>) -> Result<Response, ApiError> {
    let player = player_of(&app, &token)?;
    let current = app.service.mail_preference(&player).await?;
    let choices: String = MailPreference::ALL
        .into_iter()
        .map(|choice| choice_html(choice, current))
        .collect();
    let body = format!(
        "<h1>Mail about your turns</h1>\n\
         <p>For <b>{player}</b>, now: {current}.</p>\n\
         <p>To change it, choose and save:</p>\n\
         <form method=\"post\">\n{choices}<p><button type=\"submit\">Save</button></p>\n</form>\n",
        player = escape(&player),
        current = describe(current),
    );
    Ok(page(&body))
}

/// The radio button for `choice`, checked and marked "(now)" if it is `current`.
fn choice_html(choice: MailPreference, current: MailPreference) -> String {
    let (checked, now) = if choice == current {
        (" checked", " (now)")
    } else {
        ("", "")
    };
    format!(
        "<p><label><input type=\"radio\" name=\"preference\" value=\"{}\"{checked}> {}{now}</label></p>\n",
        choice.as_str(),
        describe(choice)
    )
}

/// Sets the preference from the form or the one-click body.
async fn change(
    State(app): State<App>,
    Path(token): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let player = player_of(&app, &token)?;
    let preference = chosen(&fields).ok_or_else(|| {
        ApiError::bad_request(
            "expected preference=each-move|daily-digest|none or List-Unsubscribe=One-Click",
        )
    })?;
    app.service.set_mail_preference(&player, preference).await?;
    let body = format!(
        "<h1>Saved</h1>\n<p>For <b>{}</b>, from now on: {}.</p>\n",
        escape(&player),
        describe(preference)
    );
    Ok(page(&body))
}

/// The preference a form or one-click body asks for.
fn chosen(fields: &[(String, String)]) -> Option<MailPreference> {
    fields.iter().find_map(|(name, value)| match name.as_str() {
        "List-Unsubscribe" if value == "One-Click" => Some(MailPreference::None),
        "preference" => MailPreference::parse(value),
        _ => None,
    })
}

fn describe(preference: MailPreference) -> &'static str {
    match preference {
        MailPreference::EachMove => "a mail each time it is your turn",
        MailPreference::DailyDigest => "one mail a day listing the games waiting for you",
        MailPreference::None => "no mail about your turns",
    }
}

/// A small HTML page around `body`, readable on a phone.
fn page(body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Missive: mail about your turns</title></head>\n\
         <body style=\"font-family:sans-serif;max-width:32em;margin:1em auto;padding:0 1em\">\n\
         {body}</body></html>\n"
    );
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}
