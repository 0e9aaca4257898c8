//! A signed-in player's new game, `/me/{token}/games/new`: a form with the game's terms
//! (see [`super::terms`]), the seat the player takes, and the players invited to the other
//! seats (by handle or by address; left empty, a seat is open to anyone). The `POST` creates
//! the game as `POST /v1/games` does, invitations mailed; a refusal shows the form again,
//! what was typed kept, with the reason and the API's status.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_game::{NewGame, SeatRequest};
use missive_rules::registry;
use serde::Deserialize;

use super::html::{escape, redirect, respond};
use super::me::signed_in;
use super::problem::{Problem, Via, outcome};
use super::terms::TermsForm;
use crate::games::setup::create_game;
use crate::{ApiError, App};

/// What the new-game form sends.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct NewGameForm {
    #[serde(flatten)]
    terms: TermsForm,
    /// The creator's seat, from 0.
    #[serde(default)]
    seat: String,
    /// Whom to invite to the first other seat: a handle or an address (open if empty).
    #[serde(default)]
    opponent: String,
    /// Whom to invite to the second other seat (three-player variants).
    #[serde(default)]
    second_opponent: String,
}

/// `GET /me/{token}/games/new`: the form.
pub(crate) async fn show(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    signed_in(&app, &token)?;
    Ok(page(StatusCode::OK, &token, &NewGameForm::default(), ""))
}

/// `POST /me/{token}/games/new`: creates the game and goes on to the home (`303`), or
/// shows the form again with why not.
pub(crate) async fn create(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<NewGameForm>, FormRejection>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let form = form.map(|Form(f)| f).unwrap_or_default();
    let created = match new_game(&me, &form) {
        Ok(new) => create_game(&app, new).await,
        Err(error) => Err(error),
    };
    match created {
        Ok(_) => redirect(&format!("../../{token}")).map_err(|e| Problem::via(e, Via::Session)),
        Err(error) => {
            let (status, notice) = outcome(Err(error), Via::Session)?;
            Ok(page(status, &token, &form, &notice))
        }
    }
}

/// The game `form` asks `me` to create.
fn new_game(me: &str, form: &NewGameForm) -> Result<NewGame, ApiError> {
    let seats = registry::variant(&form.terms.variant)
        .map(|v| v.seat_names().len())
        .unwrap_or(2);
    let mine: usize = form
        .seat
        .trim()
        .parse()
        .map_err(|_| ApiError::bad_request("choose your seat"))?;
    let mut invited = [&form.opponent, &form.second_opponent]
        .into_iter()
        .map(|who| invitee(who.trim()));
    let seats = (0..seats)
        .map(|seat| match seat == mine {
            true => SeatRequest::Creator,
            false => invited.next().unwrap_or(SeatRequest::Open),
        })
        .collect();
    Ok(NewGame {
        creator: me.to_string(),
        variant: form.terms.variant.clone(),
        options: String::new(),
        start_position: None,
        seats,
        time_control: form.terms.time_control()?,
        rated: form.terms.rated(),
        private: false,
    })
}

/// The seat request for `who`: an address (it holds an `@`), a handle, or open if empty.
fn invitee(who: &str) -> SeatRequest {
    match who {
        "" => SeatRequest::Open,
        address if address.contains('@') => SeatRequest::InviteEmail {
            email: address.to_string(),
        },
        handle => SeatRequest::Invite {
            player: handle.to_string(),
        },
    }
}

/// The new-game page of the player of `token`: `notice` (markup) and the form showing
/// `form`'s values.
fn page(status: StatusCode, token: &str, form: &NewGameForm, notice: &str) -> Response {
    let seat_option = |index: usize, label: &str| {
        let chosen = match form.seat == index.to_string() {
            true => " selected",
            false => "",
        };
        format!("<option value=\"{index}\"{chosen}>{label}</option>")
    };
    let body = format!(
        "<h1>New game</h1>{notice}<section class=\"panel\"><form method=\"post\">{terms}\
         <label for=\"seat\">Your seat</label><select id=\"seat\" name=\"seat\">{}{}{}</select>\
         <label for=\"opponent\">Invite (a name or an address; empty: open to anyone)</label>\
         <input type=\"text\" id=\"opponent\" name=\"opponent\" value=\"{opponent}\" \
         autocapitalize=\"off\" spellcheck=\"false\"><label for=\"second-opponent\">And invite \
         (three-player variants)</label><input type=\"text\" id=\"second-opponent\" \
         name=\"second_opponent\" value=\"{second}\" autocapitalize=\"off\" \
         spellcheck=\"false\"><div class=\"actions\"><button class=\"primary\" \
         id=\"create\">Create the game</button></div></form><p class=\"detail\">Each player \
         invited is mailed links that accept or decline; the game begins once every seat is \
         taken.</p><p><a class=\"button\" href=\"../../{token}\">Your games</a></p></section>",
        seat_option(0, "First (moves first)"),
        seat_option(1, "Second"),
        seat_option(2, "Third (three-player variants)"),
        terms = form.terms.fields(),
        opponent = escape(&form.opponent),
        second = escape(&form.second_opponent),
        token = escape(token),
    );
    respond(status, "New game", &body)
}
