//! The move page behind a move link: `GET /play/{token}` shows the game, the game's
//! messages and the forms, and never changes anything (mail scanners open links);
//! `POST /play/{token}` acts through the game service as the link's player, for the link's
//! seat, at the link's ply: a move, a draw offer or acceptance, a resignation, a message.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_game::{MoveRequest, ServiceError};
use serde::Deserialize;

use super::html::{escape, respond};
use super::link::{self, MoveLink};
use super::problem::Problem;
use super::view::{self, Shown};
use crate::{ApiError, App};

/// What the move form sends.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PlayForm {
    /// `move`, `draw-offer`, `draw-accept`, `resign` or `message`.
    #[serde(default)]
    action: String,
    /// The move, in short or long notation.
    #[serde(default, rename = "move")]
    text: String,
    /// `yes` to offer a draw with the move.
    #[serde(default)]
    offer_draw: String,
    /// `yes` once a resignation is confirmed.
    #[serde(default)]
    confirm: String,
    /// A message to the other players.
    #[serde(default)]
    message: String,
}

/// `GET /play/{token}`: the move page, or the page saying why the link cannot be used.
pub(crate) async fn show(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let (link, shown) = open(&app, &token).await?;
    let talk = conversation(&app, &link).await?;
    Ok(move_page(StatusCode::OK, &link, &shown, "", "", &talk))
}

/// `POST /play/{token}`: plays the move, offers or accepts a draw, or resigns (after a
/// confirmation page), then shows what happened.
pub(crate) async fn act(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<PlayForm>, FormRejection>,
) -> Result<Response, Problem> {
    let (link, shown) = open(&app, &token).await?;
    let Ok(Form(form)) = form else {
        return Err(Problem::with(
            ApiError::bad_request("the form was not sent as a form"),
            shown,
        ));
    };
    match form.action.as_str() {
        "move" => play(&app, &link, shown, &form).await,
        "draw-offer" => {
            let ending = app.service.offer_draw(&link.game, &link.handle).await;
            drawn(
                &app,
                &link,
                ending,
                "You offered a draw; the other side has been told.",
            )
            .await
        }
        "draw-accept" => {
            let ending = app.service.accept_draw(&link.game, &link.handle).await;
            drawn(&app, &link, ending, "You accepted the draw.").await
        }
        "resign" if form.confirm == "yes" => {
            app.service
                .resign(&link.game, &link.handle)
                .await
                .map_err(|e| Problem::from(ApiError::from(e)))?;
            let shown = reload(&app, &link).await?;
            Ok(done(
                &shown,
                "You resigned",
                "The other side has been told.",
            ))
        }
        "resign" => Ok(confirm_resignation(&shown)),
        "message" => {
            let written = app
                .service
                .post_message(&link.game, &link.handle, &form.message)
                .await;
            if let Err(error) = written {
                return Err(Problem::with(ApiError::from(error), shown));
            }
            let talk = conversation(&app, &link).await?;
            let notice = "<div class=\"notice\" data-code=\"message-sent\"><p>Your message is \
                          sent; the other side gets it by mail.</p></div>";
            Ok(move_page(StatusCode::OK, &link, &shown, notice, "", &talk))
        }
        _ => Err(Problem::with(
            ApiError::bad_request("choose a move, a draw or resignation"),
            shown,
        )),
    }
}

/// The link behind `token` and its game, if the link can still act: its player still holds
/// its seat, the game is on, and the game is still at the link's ply.
async fn open(app: &App, token: &str) -> Result<(MoveLink, Shown), Problem> {
    let link = link::read(app, token)?;
    let shown = reload(app, &link).await?;
    if shown.player(link.seat) != Some(link.handle.as_str()) {
        let error = ServiceError::NotSeated {
            player: link.handle.clone(),
        };
        return Err(Problem::from(ApiError::from(error)));
    }
    if shown.view.status != missive_domain::Status::Active {
        let error = ServiceError::NotActive(shown.view.status);
        return Err(Problem::with(ApiError::from(error), shown));
    }
    if shown.view.ply != link.ply {
        let error = ServiceError::Conflict {
            current_ply: shown.view.ply,
        };
        return Err(Problem::with(ApiError::from(error), shown));
    }
    Ok((link, shown))
}

/// The link's game as it stands now, seen from the link's seat.
async fn reload(app: &App, link: &MoveLink) -> Result<Shown, Problem> {
    Ok(view::load(app, &link.game, Some(&link.handle), Some(link.seat)).await?)
}

/// Plays the form's move at the link's ply: the accepted page, or the move page again with
/// the legal moves when the rules refuse it.
async fn play(
    app: &App,
    link: &MoveLink,
    shown: Shown,
    form: &PlayForm,
) -> Result<Response, Problem> {
    let request = MoveRequest {
        player: link.handle.clone(),
        expected_ply: link.ply,
        key: ulid::Ulid::new().to_string(),
        text: form.text.trim().to_string(),
        offer_draw: form.offer_draw == "yes",
    };
    match app.service.submit_move(&link.game, &request).await {
        Ok(accepted) => {
            let shown = reload(app, link).await?;
            let told = format!(
                "Your move {} is in; the opponent has been told.",
                accepted.record.short
            );
            Ok(done(&shown, "Move played", &told))
        }
        Err(ServiceError::Move(error)) => {
            let notice = format!(
                "<div class=\"notice problem\" data-code=\"illegal-move\"><p>That move was not \
                 played: {}.</p><p>Choose one of the legal moves: <span class=\"legal\">{}\
                 </span></p></div>",
                escape(&error.to_string()),
                escape(&shown.view.legal_moves_short.join(" "))
            );
            let talk = conversation(app, link).await?;
            Ok(move_page(
                StatusCode::UNPROCESSABLE_ENTITY,
                link,
                &shown,
                &notice,
                &request.text,
                &talk,
            ))
        }
        Err(error) => {
            let shown = reload(app, link).await?;
            Err(Problem::with(ApiError::from(error), shown))
        }
    }
}

/// After a draw offer or acceptance: the result page if the game is drawn, else the move
/// page again (the link still plays the move) with `said`.
async fn drawn(
    app: &App,
    link: &MoveLink,
    ending: Result<Option<missive_domain::Ending>, ServiceError>,
    said: &str,
) -> Result<Response, Problem> {
    let ending = ending.map_err(|e| Problem::from(ApiError::from(e)))?;
    let shown = reload(app, link).await?;
    Ok(match ending {
        Some(_) => done(&shown, "The game is drawn", said),
        None => {
            let notice = format!("<div class=\"notice\"><p>{}</p></div>", escape(said));
            let talk = conversation(app, link).await?;
            move_page(StatusCode::OK, link, &shown, &notice, "", &talk)
        }
    })
}

/// The page after an act that used the link: `heading`, `said`, the game as it now stands.
fn done(shown: &Shown, heading: &str, said: &str) -> Response {
    let notice = format!(
        "<div class=\"notice\" data-code=\"done\"><p>{}</p></div>",
        escape(said)
    );
    let more = format!(
        "<p><a class=\"button\" href=\"../games/{}\">See the game</a></p>",
        escape(&shown.view.id.0)
    );
    respond(
        StatusCode::OK,
        heading,
        &shown.body(heading, &notice, &more),
    )
}

/// Asks again before resigning: a form that sends the confirmation, and a way back.
fn confirm_resignation(shown: &Shown) -> Response {
    let form = "<form method=\"post\" class=\"confirm\">\
                <input type=\"hidden\" name=\"action\" value=\"resign\">\
                <input type=\"hidden\" name=\"confirm\" value=\"yes\">\
                <p>Resigning ends the game now and cannot be undone.</p>\
                <div class=\"actions\"><button class=\"danger\" id=\"confirm-resign\">Yes, resign\
                </button><a class=\"button\" href=\"\">No, back to the game</a></div></form>";
    let heading = "Resign this game?";
    respond(StatusCode::OK, heading, &shown.body(heading, "", form))
}

/// The move page: the game, `notice` (markup), the form with `entered` in the move field,
/// the legal moves offered, and the draw and resign buttons, then `talk` (markup: the
/// game's messages and the form that writes one).
fn move_page(
    status: StatusCode,
    link: &MoveLink,
    shown: &Shown,
    notice: &str,
    entered: &str,
    talk: &str,
) -> Response {
    let whose = match shown.view.to_move == Some(link.seat) {
        true => "Your move",
        false => "Waiting for the other side",
    };
    let heading = format!("{whose}, {} ({})", link.handle, shown.seat_name(link.seat));
    let form = format!("{}{talk}", move_form(link, shown, entered));
    respond(status, &shown.title(), &shown.body(&heading, notice, &form))
}

/// The game's messages as the link's player reads them, oldest first, and the form that
/// writes one: every text escaped, line breaks kept.
async fn conversation(app: &App, link: &MoveLink) -> Result<String, Problem> {
    let messages = app
        .service
        .messages(&link.game, &link.handle)
        .await
        .map_err(ApiError::from)?;
    let list: String = messages
        .iter()
        .map(|message| {
            format!(
                "<li><b>{}</b> <span class=\"detail\">{}</span>\
                 <div class=\"text\" style=\"white-space:pre-wrap\">{}</div></li>",
                escape(&message.player),
                message.at.format("%Y-%m-%d %H:%M UTC"),
                escape(&message.text)
            )
        })
        .collect();
    let list = match list.is_empty() {
        true => "<p>No messages yet.</p>".to_string(),
        false => format!("<ol class=\"messages\">{list}</ol>"),
    };
    Ok(format!(
        "<h2>Messages</h2>{list}<form method=\"post\" class=\"message\">\
         <input type=\"hidden\" name=\"action\" value=\"message\">\
         <label for=\"message\">Write to the other players</label>\
         <textarea id=\"message\" name=\"message\" rows=\"3\" maxlength=\"{}\" required \
         style=\"width:100%;font-size:1rem\"></textarea><div class=\"actions\">\
         <button id=\"send-message\">Send</button></div></form>",
        missive_game::MAX_MESSAGE
    ))
}

fn move_form(link: &MoveLink, shown: &Shown, entered: &str) -> String {
    let legal = &shown.view.legal_moves_short;
    let options: String = legal
        .iter()
        .map(|m| format!("<option value=\"{}\">", escape(m)))
        .collect();
    let offers = &shown.view.draw_offers;
    let draw = if offers.iter().any(|s| *s != link.seat) {
        "<button name=\"action\" value=\"draw-accept\" formnovalidate>Accept the draw</button>"
    } else if offers.contains(&link.seat) {
        ""
    } else {
        "<button name=\"action\" value=\"draw-offer\" formnovalidate>Offer a draw</button>"
    };
    format!(
        "<form method=\"post\" class=\"move\"><label for=\"move\">Your move</label>\
         <input type=\"text\" id=\"move\" name=\"move\" list=\"legal-moves\" value=\"{}\" \
         placeholder=\"for example {}\" required autocomplete=\"off\" autocapitalize=\"off\" \
         spellcheck=\"false\"><datalist id=\"legal-moves\">{options}</datalist>\
         <label class=\"check\"><input type=\"checkbox\" name=\"offer_draw\" value=\"yes\">\
         Offer a draw with this move</label><div class=\"actions\">\
         <button class=\"primary\" id=\"play\" name=\"action\" value=\"move\">Play move</button>\
         {draw}<button class=\"danger\" name=\"action\" value=\"resign\" formnovalidate>\
         Resign…</button></div></form><details><summary>All {} legal moves</summary>\
         <p class=\"legal\">{}</p></details>",
        escape(entered),
        escape(legal.first().map_or("", String::as_str)),
        legal.len(),
        escape(&legal.join(" "))
    )
}
