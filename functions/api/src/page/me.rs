//! A signed-in player's pages: `/me/{token}` lists their current games, each with a fresh
//! move link (to play when it is their move, to set conditional lines while it is another
//! seat's), the games called off lately, and their vacation balance, linking to `/me/{token}/vacation` (see
//! [`super::leave`]).
//!
//! Pages keep no session of their own: no cookie, nothing stored. The token in the path, a
//! [`Purpose::Session`] JWT minted by the sign-in page and good for a day, is the only
//! credential, so a form another site posts cannot act for anyone (it would have to know the
//! token: no CSRF token is needed), and like every page these send `Referrer-Policy:
//! no-referrer` and `Cache-Control: no-store`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_auth::{Grant, Purpose};
use missive_domain::Seat;
use missive_game::{GameSummary, Membership, VacationBalance};

use super::html::{escape, respond};
use super::link::{self, MoveLink};
use super::problem::{Problem, Via};
use super::view::{time_left, utc};
use crate::{ApiError, App};

/// How long a signed-in player's pages work, in seconds.
pub const SESSION_LIFETIME: i64 = 24 * 3600;
/// Games listed of each kind.
const LISTED: usize = 100;
/// Games called off listed, the latest.
const CALLED_OFF: usize = 10;

/// A token for `handle`'s pages, good for [`SESSION_LIFETIME`].
pub(super) fn session(app: &App, handle: &str) -> Result<String, ApiError> {
    let grant = Grant {
        purpose: Purpose::Session,
        subject: handle.to_string(),
        lifetime: SESSION_LIFETIME,
    };
    Ok(app.authority.mint(&grant, app.now_seconds())?)
}

/// The player whose pages `token` opens, or the page saying why not.
pub(super) fn signed_in(app: &App, token: &str) -> Result<String, Problem> {
    app.authority
        .verify(token, Purpose::Session, app.now_seconds())
        .map(|claims| claims.sub)
        .map_err(|e| Problem::via(e.into(), Via::Session))
}

/// A service failure on a signed-in player's page.
pub(super) fn failed(error: missive_game::ServiceError) -> Problem {
    Problem::via(error.into(), Via::Session)
}

/// `GET /me/{token}`: the player's current games with a link each, the latest games called
/// off, and their vacations.
pub(crate) async fn games(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let service = &app.service;
    let active = service
        .games_of(&me, Membership::Active, None, LISTED)
        .await
        .map_err(failed)?;
    let forming = service
        .games_of(&me, Membership::Forming, None, LISTED)
        .await
        .map_err(failed)?;
    let called_off = service
        .cancelled_for(&me, None, CALLED_OFF)
        .await
        .map_err(failed)?;
    let balance = service.vacation_balance(&me).await.map_err(failed)?;
    let mut rows = String::new();
    for game in &active.items {
        rows.push_str(&active_row(&app, &me, game)?);
    }
    let more = match active.next.is_some() || forming.next.is_some() {
        true => format!("<p class=\"detail\">Only the first {LISTED} of each are listed.</p>"),
        false => String::new(),
    };
    let latest = match called_off.next.is_some() {
        true => format!("<p class=\"detail\">The latest {CALLED_OFF} are listed.</p>"),
        false => String::new(),
    };
    let body = format!(
        "<h1>Signed in as {name}</h1><section class=\"panel\"><h2>Games being played</h2>{}\
         <h2>Games about to start</h2>{}{more}<h2>Games called off</h2>{}{latest}</section>\
         <section class=\"panel\">{}</section>",
        listed(&rows, "No game is being played."),
        listed(
            &forming.items.iter().map(forming_row).collect::<String>(),
            "None."
        ),
        listed(
            &called_off
                .items
                .iter()
                .map(called_off_row)
                .collect::<String>(),
            "None."
        ),
        vacation_summary(&token, &balance),
        name = escape(&me),
    );
    Ok(respond(StatusCode::OK, "Your games", &body))
}

/// `rows` as a list, or `empty` when there are none.
fn listed(rows: &str, empty: &str) -> String {
    match rows.is_empty() {
        true => format!("<p>{empty}</p>"),
        false => format!("<ul class=\"games\">{rows}</ul>"),
    }
}

/// An active game: its players and state, with a fresh move link for `me`'s seat: to play
/// when it is their move, to set conditional lines otherwise.
fn active_row(app: &App, me: &str, game: &GameSummary) -> Result<String, Problem> {
    let seat = game
        .players
        .iter()
        .position(|p| p.as_deref() == Some(me))
        .map(|index| Seat(index as u8));
    let Some(seat) = seat else {
        return Ok(String::new());
    };
    let link = MoveLink {
        handle: me.to_string(),
        game: game.id.clone(),
        seat,
        ply: game.ply,
    };
    let token = link::fresh(app, &link, game.ply, game.deadline)
        .map_err(|e| Problem::via(e, Via::Session))?;
    let now = app.clock.now();
    let left = game
        .deadline
        .map(|deadline| format!(", {} left", time_left(deadline - now)))
        .unwrap_or_default();
    let (state, action) = match game.to_move == Some(seat) {
        true => (format!("<strong>your move</strong>{left}"), "Play"),
        false => {
            let mover = game
                .to_move
                .and_then(|s| game.players.get(s.index()).cloned().flatten())
                .unwrap_or_default();
            (
                format!("{} to move{left}", escape(&mover)),
                "Conditional moves",
            )
        }
    };
    Ok(format!(
        "<li data-game=\"{id}\"><span>{} against {} · move {} · {state}</span>\
         <span class=\"actions\"><a class=\"button\" href=\"../play/{token}\">{action}</a>\
         <a class=\"button\" href=\"../games/{id}\">See the game</a></span></li>",
        escape(&game.variant),
        escape(&opponents(game, me)),
        escape(
            &game
                .next_move
                .clone()
                .unwrap_or_else(|| (game.ply + 1).to_string())
        ),
        id = escape(&game.id.0),
        token = escape(&token),
    ))
}

/// A game still forming: its players so far, and a link to it.
fn forming_row(game: &GameSummary) -> String {
    let seated: Vec<&str> = game
        .players
        .iter()
        .map(|p| p.as_deref().unwrap_or("(open)"))
        .collect();
    format!(
        "<li data-game=\"{id}\"><span>{} · {}</span><span class=\"actions\"><a class=\"button\" \
         href=\"../games/{id}\">See the game</a></span></li>",
        escape(&game.variant),
        escape(&seated.join(" v ")),
        id = escape(&game.id.0),
    )
}

/// A game called off: its players, why and when, and a link to it.
fn called_off_row(game: &GameSummary) -> String {
    let seated: Vec<&str> = game.players.iter().flatten().map(String::as_str).collect();
    let why = game
        .ending
        .as_ref()
        .map(|ending| format!("{} {}", ending.rule, utc(ending.at)))
        .unwrap_or_default();
    format!(
        "<li data-game=\"{id}\"><span>{} · {} · {}</span><span class=\"actions\"><a \
         class=\"button\" href=\"../games/{id}\">See the game</a></span></li>",
        escape(&game.variant),
        escape(&seated.join(" v ")),
        escape(&why),
        id = escape(&game.id.0),
    )
}

/// The other players of `game`, joined with "and".
fn opponents(game: &GameSummary, me: &str) -> String {
    let others: Vec<&str> = game
        .players
        .iter()
        .flatten()
        .map(String::as_str)
        .filter(|p| *p != me)
        .collect();
    others.join(" and ")
}

/// The vacation days left this year, the leave under way, and the link to the vacation page.
fn vacation_summary(token: &str, balance: &VacationBalance) -> String {
    let current = match balance.current {
        Some(leave) => format!(
            "<p class=\"on-leave\">You are on leave until {}: your clocks stand still.</p>",
            utc(leave.end)
        ),
        None => String::new(),
    };
    format!(
        "<h2>Vacation</h2><p>{} of {} days left in {}.</p>{current}<p><a class=\"button\" \
         id=\"vacation\" href=\"{}/vacation\">Vacation</a></p>",
        balance.left,
        balance.allowance,
        balance.year,
        escape(token),
    )
}
