//! The invitation pages behind the links of an invitation mail:
//! `/invitations/{token}/accept` and `/invitations/{token}/decline`. GET shows the game and
//! asks (mail scanners open links); POST acts. An invitation to an address not registered
//! yet is accepted with a handle the newcomer chooses: they are signed up with the address
//! the mail went to, and seated.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_auth::MoveLink;
use missive_domain::Status;
use missive_game::{GameView, Invitee, ServiceError};
use missive_notify::links::move_link;
use serde::Deserialize;

use super::html::{escape, respond};
use super::problem::Problem;
use crate::invitations::{Invitation, tell_declined};
use crate::{ApiError, App};

/// What the accept form sends: the handle an address's owner chooses.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct AcceptForm {
    #[serde(default)]
    handle: String,
}

/// `GET /invitations/{token}/accept`: the game and the form that accepts.
pub(crate) async fn ask_accept(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let (invitation, view) = open(&app, &token).await?;
    Ok(accept_page(StatusCode::OK, &invitation, &view, ""))
}

/// `POST /invitations/{token}/accept`: seats the invitee (signing up an address's owner
/// first), then says how the game goes on.
pub(crate) async fn accept(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<AcceptForm>, FormRejection>,
) -> Result<Response, Problem> {
    let (invitation, view) = open(&app, &token).await?;
    let form = form.map(|Form(form)| form).unwrap_or_default();
    let taker = match taker(&app, &invitation, form.handle.trim()).await {
        Ok(taker) => taker,
        Err(error) => {
            let error = ApiError::from(error);
            let notice = format!(
                "<div class=\"notice problem\" data-code=\"{}\"><p>{}</p></div>",
                escape(error.code),
                escape(&error.message)
            );
            return Ok(accept_page(error.status, &invitation, &view, &notice));
        }
    };
    app.service
        .accept_invitation(
            &invitation.game,
            invitation.seat,
            &invitation.invitee,
            &taker,
        )
        .await
        .map_err(ApiError::from)?;
    joined(&app, &invitation, &taker).await
}

/// `GET /invitations/{token}/decline`: the game and the form that declines.
pub(crate) async fn ask_decline(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let (_, view) = open(&app, &token).await?;
    let form = "<form method=\"post\"><p>Declining cancels the game; its creator is told.</p>\
                <div class=\"actions\"><button class=\"danger\" id=\"decline\">Decline the \
                invitation</button></div></form>";
    let heading = "Decline this invitation?";
    Ok(respond(
        StatusCode::OK,
        heading,
        &invitation_body(heading, &view, "", form),
    ))
}

/// `POST /invitations/{token}/decline`: declines; the game is cancelled and its creator
/// told by mail.
pub(crate) async fn decline(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let (invitation, view) = open(&app, &token).await?;
    app.service
        .decline_invitation(&invitation.game, invitation.seat, &invitation.invitee)
        .await
        .map_err(ApiError::from)?;
    tell_declined(&app, &invitation.game, &invitation.subject).await;
    let heading = "Invitation declined";
    let notice = "<div class=\"notice\" data-code=\"done\"><p>The game is cancelled; the \
                  player who invited you has been told.</p></div>";
    Ok(respond(
        StatusCode::OK,
        heading,
        &invitation_body(heading, &view, notice, ""),
    ))
}

/// The invitation behind `token` and its game, while the seat is still kept for it.
async fn open(app: &App, token: &str) -> Result<(Invitation, GameView), Problem> {
    let invitation = Invitation::read(app, token)?;
    let view = app
        .service
        .invitation_view(&invitation.game, invitation.seat, &invitation.invitee)
        .await
        .map_err(ApiError::from)?;
    Ok((invitation, view))
}

/// The player who takes the seat: the invited player; for an address, the player who has
/// it by now, else a new player signed up with it under `handle`.
async fn taker(app: &App, invitation: &Invitation, handle: &str) -> Result<String, ServiceError> {
    if let Invitee::Player(player) = &invitation.invitee {
        return Ok(player.clone());
    }
    let address = &invitation.subject;
    if let Some(player) = app.service.player_by_email(address).await? {
        return Ok(player.handle);
    }
    Ok(app.service.sign_up(handle, address).await?.handle)
}

/// The page after joining: the game begun (a link to the first move if it is the new
/// player's), or waiting for other seats.
async fn joined(app: &App, invitation: &Invitation, taker: &str) -> Result<Response, Problem> {
    let (head, _) = app
        .service
        .game_state(&invitation.game, Some(taker))
        .await
        .map_err(ApiError::from)?;
    let view = app
        .service
        .game_view(&invitation.game, Some(taker))
        .await
        .map_err(ApiError::from)?;
    let said = match (&head.waiting, head.to_move) {
        (Some(waiting), Some(seat)) if waiting.player == taker => {
            let now = app.clock.now();
            let target = MoveLink {
                handle: taker.to_string(),
                game: head.id.clone(),
                seat,
                ply: head.ply,
            };
            let link = move_link(
                &app.authority,
                &app.public_url,
                &target,
                waiting.deadline,
                now,
            )
            .map_err(ApiError::from)?;
            format!(
                "<p>The game has begun, and you move first.</p><p><a class=\"button\" \
                 id=\"first-move\" href=\"{}\">Make your move</a></p>",
                escape(&link)
            )
        }
        _ if view.status == Status::Active => {
            "<p>The game has begun. A mail brings you a link whenever it is your move.</p>"
                .to_string()
        }
        _ => "<p>The game begins once every seat is taken; a mail brings you a link when it \
              is your move.</p>"
            .to_string(),
    };
    let heading = format!("Welcome to the game, {taker}");
    let notice = format!("<div class=\"notice\" data-code=\"done\">{said}</div>");
    Ok(respond(
        StatusCode::OK,
        &heading,
        &invitation_body(&heading, &view, &notice, ""),
    ))
}

/// The accept page: the game, `notice` (markup), and the form (with a handle field for an
/// address's owner).
fn accept_page(
    status: StatusCode,
    invitation: &Invitation,
    view: &GameView,
    notice: &str,
) -> Response {
    let handle = match invitation.invitee {
        Invitee::Player(_) => String::new(),
        Invitee::Address => format!(
            "<p>You have no Missive account yet: choose a name to play under (2 to 24 \
             letters, digits, <code>_</code> or <code>-</code>, starting with a letter). \
             You sign up with {} and play by mail.</p><label for=\"handle\">Your name</label>\
             <input type=\"text\" id=\"handle\" name=\"handle\" required autocomplete=\"off\" \
             autocapitalize=\"off\" spellcheck=\"false\">",
            escape(&invitation.subject)
        ),
    };
    let form = format!(
        "<form method=\"post\">{handle}<div class=\"actions\"><button class=\"primary\" \
         id=\"accept\">Accept the invitation</button></div></form>"
    );
    let heading = "You are invited to a game";
    respond(
        status,
        heading,
        &invitation_body(heading, view, notice, &form),
    )
}

/// A page about the invited game: `heading`, `notice` (markup), what the game is and who
/// sits where, then `form` (markup).
fn invitation_body(heading: &str, view: &GameView, notice: &str, form: &str) -> String {
    let seats: String = view
        .seats
        .iter()
        .zip(&view.seat_names)
        .map(|(seat, name)| {
            let who = match seat {
                missive_domain::SeatDoc::Taken { player } => player.as_str(),
                missive_domain::SeatDoc::Invited { .. } | missive_domain::SeatDoc::Reserved => {
                    "(invited)"
                }
                _ => "(open)",
            };
            format!("<li>{}: {}</li>", escape(name), escape(who))
        })
        .collect();
    format!(
        "<h1>{}</h1>{notice}<section class=\"panel\"><p>{} · {} · {}</p>\
         <ul class=\"players\">{seats}</ul>{form}</section>",
        escape(heading),
        escape(&view.variant),
        escape(&missive_notify::compose::time_control_words(
            view.time_control
        )),
        if view.rated { "rated" } else { "unrated" },
    )
}
