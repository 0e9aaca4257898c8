//! A signed-in player's home, `/me/{token}`: the games they are invited to (each with
//! buttons that accept or decline, posted to `/me/{token}`), their games being
//! played, each with a fresh move link (to play when it is their move, to set conditional
//! lines while it is another seat's), the games about to start, their latest finished
//! games with the results, the games called off lately, their vacation balance, and links
//! to their other pages: vacation (`/me/{token}/vacation`, see [`super::leave`]), a new
//! game (see [`super::new_game`]) and the open challenges (see [`super::lobby`]).
//!
//! Pages keep no session of their own: no cookie, nothing stored. The token in the path, a
//! [`Purpose::Session`] JWT minted by the sign-in page and good for a day, is the only
//! credential, so a form another site posts cannot act for anyone without knowing it; the
//! pages refuse cross-site posts besides (see [`super::guard`]), and like every page these
//! send `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_auth::{Grant, Purpose};
use missive_domain::{GameId, Seat, SeatResult};
use missive_game::{GameSummary, Membership, VacationBalance};
use serde::Deserialize;

use super::html::{escape, respond};
use super::link::{self, MoveLink};
use super::problem::{Problem, Via, outcome};
use super::view::{time_left, utc};
use crate::invitations::tell_declined;
use crate::{ApiError, App};

/// How long a signed-in player's pages work, in seconds.
pub const SESSION_LIFETIME: i64 = 24 * 3600;
/// Games listed of each kind.
const LISTED: usize = 100;
/// Games called off listed, the latest.
const CALLED_OFF: usize = 10;
/// Finished games listed, the latest.
const FINISHED: usize = 10;

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

/// `GET /me/{token}`: the player's home.
pub(crate) async fn games(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    home(&app, &token, &me, StatusCode::OK, "").await
}

/// What the invitation buttons send.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct AnswerForm {
    /// `accept` or `decline`.
    #[serde(default)]
    action: String,
    /// The game invited to.
    #[serde(default)]
    game: String,
}

/// `POST /me/{token}`: accepts (takes the seat kept for the player, as
/// `POST /v1/games/{id}/join`) or declines (as `POST /v1/games/{id}/decline`: the game is
/// cancelled and its creator mailed) an invitation; the home again, with what was done or
/// why not.
pub(crate) async fn answer(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<AnswerForm>, FormRejection>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let form = form.map(|Form(f)| f).unwrap_or_default();
    let id = GameId(form.game);
    let done = match form.action.as_str() {
        "accept" => app
            .service
            .join(&id, &me, None)
            .await
            .map(|_| "You are seated: the game begins once every seat is taken.".to_string())
            .map_err(ApiError::from),
        "decline" => match app.service.decline(&id, &me).await {
            Ok(()) => {
                tell_declined(&app, &id, &me).await;
                Ok("Declined: the game is cancelled and its creator told.".to_string())
            }
            Err(error) => Err(error.into()),
        },
        _ => Err(ApiError::bad_request("choose to accept or decline")),
    };
    let (status, notice) = outcome(done, Via::Session)?;
    home(&app, &token, &me, status, &notice).await
}

/// The home of `me` (signed in with `token`) with `status` and `notice` (markup).
async fn home(
    app: &App,
    token: &str,
    me: &str,
    status: StatusCode,
    notice: &str,
) -> Result<Response, Problem> {
    let service = &app.service;
    let invited = service
        .invitations_of(me, None, LISTED)
        .await
        .map_err(failed)?;
    let active = service
        .games_of(me, Membership::Active, None, LISTED)
        .await
        .map_err(failed)?;
    let forming = service
        .games_of(me, Membership::Forming, None, LISTED)
        .await
        .map_err(failed)?;
    let finished = service
        .finished_by(me, None, FINISHED, Some(me))
        .await
        .map_err(failed)?;
    let called_off = service
        .cancelled_for(me, None, CALLED_OFF)
        .await
        .map_err(failed)?;
    let balance = service.vacation_balance(me).await.map_err(failed)?;
    let mut rows = String::new();
    for game in &active.items {
        rows.push_str(&active_row(app, me, game)?);
    }
    let more = match active.next.is_some() || forming.next.is_some() || invited.next.is_some() {
        true => format!("<p class=\"detail\">Only the first {LISTED} of each are listed.</p>"),
        false => String::new(),
    };
    let latest = |page_next: bool, count: usize| match page_next {
        true => format!("<p class=\"detail\">The latest {count} are listed.</p>"),
        false => String::new(),
    };
    let body = format!(
        "<h1>Signed in as {name}</h1>{notice}<section class=\"panel\"><div class=\"actions\">\
         <a class=\"button\" id=\"new-game\" href=\"{token}/games/new\">New game</a><a \
         class=\"button\" id=\"challenges\" href=\"{token}/challenges\">Open challenges</a>\
         </div><h2>Invitations</h2>{}<h2>Games being played</h2>{}<h2>Games about to start</h2>\
         {}{more}<h2>Games finished</h2>{}{}<h2>Games called off</h2>{}{}</section>\
         <section class=\"panel\">{}</section>",
        listed(
            &invited
                .items
                .iter()
                .map(|game| invited_row(me, game))
                .collect::<String>(),
            "No invitation is waiting for you."
        ),
        listed(&rows, "No game is being played."),
        listed(
            &forming.items.iter().map(forming_row).collect::<String>(),
            "None."
        ),
        listed(
            &finished
                .items
                .iter()
                .map(|game| finished_row(me, game))
                .collect::<String>(),
            "None yet."
        ),
        latest(finished.next.is_some(), FINISHED),
        listed(
            &called_off
                .items
                .iter()
                .map(called_off_row)
                .collect::<String>(),
            "None."
        ),
        latest(called_off.next.is_some(), CALLED_OFF),
        vacation_summary(token, &balance),
        name = escape(me),
        token = escape(token),
    );
    Ok(respond(status, "Your games", &body))
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

/// A game `me` is invited to: its players so far, its terms, and the buttons that accept
/// or decline.
fn invited_row(me: &str, game: &GameSummary) -> String {
    let button = |action: &str, class: &str, label: &str| {
        format!(
            "<form method=\"post\" class=\"inline\"><input type=\"hidden\" name=\"action\" \
             value=\"{action}\"><input type=\"hidden\" name=\"game\" value=\"{id}\"><button \
             class=\"{class}\" id=\"{action}-{id}\">{label}</button></form>",
            id = escape(&game.id.0),
        )
    };
    format!(
        "<li data-game=\"{id}\"><span>{} with {}</span><span class=\"actions\">{}{}<a \
         class=\"button\" href=\"../games/{id}\">See the game</a></span></li>",
        escape(&game.variant),
        escape(&opponents(game, me)),
        button("accept", "primary", "Accept"),
        button("decline", "danger", "Decline"),
        id = escape(&game.id.0),
    )
}

/// A finished game: its variant, score, how `me` did, by what rule and against whom, when,
/// and a link to it.
fn finished_row(me: &str, game: &GameSummary) -> String {
    let Some(ending) = &game.ending else {
        return String::new();
    };
    let mine = game
        .players
        .iter()
        .position(|p| p.as_deref() == Some(me))
        .and_then(|seat| ending.results.get(seat));
    let did = match mine {
        Some(SeatResult::Win) => "won",
        Some(SeatResult::SharedWin) => "shared the win",
        Some(SeatResult::Draw) => "drew",
        Some(SeatResult::Loss) => "lost",
        None => "ended",
    };
    let words = format!(
        "{} {did} by {} against {}",
        score(&ending.results),
        ending.rule.as_str().replace('-', " "),
        opponents(game, me)
    );
    format!(
        "<li data-game=\"{id}\" class=\"finished\"><span>{} · <strong>{}</strong> · {}</span>\
         <span class=\"actions\"><a class=\"button\" href=\"../games/{id}\">See the game</a>\
         </span></li>",
        escape(&game.variant),
        escape(&words),
        escape(&utc(ending.at)),
        id = escape(&game.id.0),
    )
}

/// The score of `results` in seat order: `1` a win, `0` a loss, `½` a draw or a shared
/// win (`1-0`, `½-½`).
fn score(results: &[SeatResult]) -> String {
    let points = |result: &SeatResult| match result {
        SeatResult::Win => "1",
        SeatResult::Loss => "0",
        SeatResult::SharedWin | SeatResult::Draw => "½",
    };
    results.iter().map(points).collect::<Vec<_>>().join("-")
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
