//! The move page behind a move link: `GET /play/{token}` shows the game, the game's
//! messages and the forms, and never changes anything (mail scanners open links);
//! `POST /play/{token}` acts through the game service as the link's player, for the link's
//! seat, at the link's ply: a move, a draw offer or acceptance, a resignation, a message.
//!
//! A move takes two steps: the form names the move, the answer shows the board after it with
//! the move marked and asks for a confirmation, and only the confirmation plays it (with a
//! draw offer if chosen). A resignation is confirmed the same way. While another seat is to
//! move, the link's page is the seat's conditional lines instead (see [`super::lines`]).

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_game::{MoveAccepted, MoveRequest, ServiceError};
use missive_rules::{MoveError, PlayedMove};

use super::html::{escape, respond};
use super::lines;
use super::link::{self, MoveLink};
use super::problem::Problem;
use super::tap;
use super::turn::{PlayForm, conversation, reload};
use super::view::{self, Shown};
use crate::{ApiError, App};

impl PlayForm {
    /// Whether it confirms a move (the second step of playing one).
    fn is_confirmed_move(&self) -> bool {
        self.action == "move" && self.confirm == "yes"
    }
}

/// `GET /play/{token}`: the move page (or, while another seat is to move, the conditional
/// lines page), or the page saying why the link cannot be used.
pub(crate) async fn show(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let (link, shown) = open(&app, &token).await?;
    let talk = conversation(&app, &link, "").await?;
    Ok(turn_page(&link, &shown, "", &talk))
}

/// `POST /play/{token}`: shows a move to confirm, plays a confirmed one (with the message
/// written on the confirmation, if any), offers a draw, resigns (after a confirmation page),
/// or changes conditional lines, while the link's seat may; accepts another seat's standing
/// draw offer or writes a message whoever is to move; then shows what happened.
pub(crate) async fn act(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<PlayForm>, FormRejection>,
) -> Result<Response, Problem> {
    let (link, shown) = match open(&app, &token).await {
        Ok(opened) => opened,
        Err(problem) => return resubmitted(&app, &token, form.ok(), problem).await,
    };
    let Ok(Form(form)) = form else {
        return Err(Problem::with(
            ApiError::bad_request("the form was not sent as a form"),
            shown,
        ));
    };
    if matches!(form.action.as_str(), "lines" | "delete-line") {
        return lines::act(&app, &link, shown, &form).await;
    }
    if form.action == "message" {
        return write(&app, &link, shown, &form).await;
    }
    if form.action == "draw-accept" {
        let ending = app.service.accept_draw(&link.game, &link.handle).await;
        return drawn(&app, &link, ending, "You accepted the draw.").await;
    }
    if shown.view.to_move != Some(link.seat) {
        return Err(Problem::with(ServiceError::NotYourTurn.into(), shown));
    }
    match form.action.as_str() {
        "move" if form.is_confirmed_move() => play(&app, &link, shown, &form).await,
        "move" => Ok(confirm_move(&link, &shown, &form)),
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
                "",
            ))
        }
        "resign" => Ok(confirm_resignation(&shown)),
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

/// The answer to a form sent through a link that can no longer act (`problem` says why):
/// a confirmed move the link's player already played at the link's ply (the form sent
/// twice) gets the first answer again, anything else `problem`.
async fn resubmitted(
    app: &App,
    token: &str,
    form: Option<Form<PlayForm>>,
    problem: Problem,
) -> Result<Response, Problem> {
    let Some(Form(form)) = form.filter(|Form(form)| form.is_confirmed_move()) else {
        return Err(problem);
    };
    let Ok(link) = link::read(app, token) else {
        return Err(problem);
    };
    match app
        .service
        .submit_move(&link.game, &move_request(&link, &form))
        .await
    {
        Ok(accepted) => played(app, &link, &accepted).await,
        Err(_) => Err(problem),
    }
}

/// The first step of a move: the board after the form's move, the move marked, and a form
/// that confirms it (with the draw offer chosen); the move page again with the legal moves
/// when the rules refuse it.
fn confirm_move(link: &MoveLink, shown: &Shown, form: &PlayForm) -> Response {
    let entered = form.text.trim();
    let mut after = shown.game.clone();
    let played = match after.play(entered) {
        Ok(played) => played,
        Err(error) => return refused_move(link, shown, &error, entered, ""),
    };
    let ends = after
        .outcome()
        .map(|outcome| {
            format!(
                "<p><strong>This move ends the game: {}.</strong></p>",
                escape(&outcome.rule.as_str().replace('-', " "))
            )
        })
        .unwrap_or_default();
    let heading = format!("Play {}?", played.short);
    let notice = format!(
        "<div class=\"notice\" data-code=\"confirm\"><p>The board shows the position after \
         {}. Nothing is played until you confirm.</p>{ends}</div>",
        escape(&played.short)
    );
    let board = view::board(after.as_ref(), Some(link.seat));
    let form = confirmation_form(&played, form.offer_draw == "yes");
    respond(
        StatusCode::OK,
        &heading,
        &shown.body_with(&heading, &notice, &board, &form),
    )
}

/// The form that plays `played`: the move (long notation), the draw offer to go with it
/// (`offer_draw` ticked), a message to go with it, the confirm button and a way back.
fn confirmation_form(played: &PlayedMove, offer_draw: bool) -> String {
    let checked = if offer_draw { " checked" } else { "" };
    format!(
        "<form method=\"post\" class=\"confirm\">\
         <input type=\"hidden\" name=\"action\" value=\"move\">\
         <input type=\"hidden\" name=\"move\" value=\"{long}\">\
         <input type=\"hidden\" name=\"confirm\" value=\"yes\">\
         <label class=\"check\"><input type=\"checkbox\" name=\"offer_draw\" value=\"yes\"\
         {checked}> Offer a draw with this move</label>\
         <label for=\"message\">A message with your move (if you like)</label>\
         <textarea id=\"message\" name=\"message\" rows=\"2\" maxlength=\"{max}\" \
         style=\"width:100%;font-size:1rem\"></textarea>\
         <div class=\"actions\"><button class=\"primary\" id=\"confirm\">Confirm {short}\
         </button><a class=\"button\" href=\"\">Choose another move</a></div></form>",
        long = escape(&played.long),
        short = escape(&played.short),
        max = missive_game::MAX_MESSAGE,
    )
}

/// Plays the form's confirmed move at the link's ply: the page after it, or the move page
/// again with the legal moves when the rules refuse it.
async fn play(
    app: &App,
    link: &MoveLink,
    shown: Shown,
    form: &PlayForm,
) -> Result<Response, Problem> {
    let request = move_request(link, form);
    match app.service.submit_move(&link.game, &request).await {
        Ok(accepted) => played(app, link, &accepted).await,
        Err(ServiceError::Move(error)) => {
            let talk = conversation(app, link, "").await?;
            Ok(refused_move(link, &shown, &error, &request.text, &talk))
        }
        Err(error) => {
            let shown = reload(app, link).await?;
            Err(Problem::with(ApiError::from(error), shown))
        }
    }
}

/// The confirmed move of `form` through `link`, with the form's message if one was
/// written, keyed by what it asks for (the link's ply, the draw offer, the move as sent), so
/// the same form sent again gets the first answer back from the service (and writes the
/// message once) instead of a stale ply.
fn move_request(link: &MoveLink, form: &PlayForm) -> MoveRequest {
    let text = form.text.trim().to_string();
    let offer_draw = form.offer_draw == "yes";
    let message = Some(form.message.trim()).filter(|message| !message.is_empty());
    MoveRequest {
        player: link.handle.clone(),
        expected_ply: link.ply,
        key: format!("play-{}-{offer_draw}-{text}", link.ply),
        text,
        offer_draw,
        message: message.map(str::to_string),
    }
}

/// The page after an accepted move: what was played (and answered at once from the other
/// side's conditional lines), and what the player can do next with a fresh link for the ply
/// the game is now at: set conditional lines while the others move, or play on when the
/// turn came back.
async fn played(app: &App, link: &MoveLink, accepted: &MoveAccepted) -> Result<Response, Problem> {
    let shown = reload(app, link).await?;
    let mut told = format!(
        "Your move {} is in; the opponent has been told.",
        accepted.record.short
    );
    let replies: Vec<&str> = accepted.replies.iter().map(|r| r.short.as_str()).collect();
    if !replies.is_empty() {
        told.push_str(&format!(
            " Played at once from conditional lines: {}.",
            replies.join(" ")
        ));
    }
    if shown.view.status != missive_domain::Status::Active {
        return Ok(done(&shown, "Move played", &told, ""));
    }
    let fresh = link::fresh(app, link, shown.view.ply, shown.view.deadline)?;
    let next = match shown.view.to_move == Some(link.seat) {
        true => format!(
            "<p>It is your move again.</p><p><a class=\"button\" id=\"next-move\" \
             href=\"{}\">Play your next move</a></p>",
            escape(&fresh)
        ),
        false => lines::panel(&shown, &fresh, ""),
    };
    let next = next + &conversation(app, link, &fresh).await?;
    Ok(done(&shown, "Move played", &told, &next))
}

/// The move page again after the rules refused `entered`: why, the legal moves, the form
/// holding what was typed, and `talk` (markup: the game's messages, may be empty) (422).
fn refused_move(
    link: &MoveLink,
    shown: &Shown,
    error: &MoveError,
    entered: &str,
    talk: &str,
) -> Response {
    let notice = format!(
        "<div class=\"notice problem\" data-code=\"illegal-move\"><p>That move was not \
         played: {}.</p><p>Choose one of the legal moves: <span class=\"legal\">{}\
         </span></p></div>",
        escape(&error.to_string()),
        escape(&shown.view.legal_moves_short.join(" "))
    );
    move_page(
        StatusCode::UNPROCESSABLE_ENTITY,
        link,
        shown,
        &notice,
        entered,
        talk,
    )
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
        Some(_) => done(&shown, "The game is drawn", said, ""),
        None => {
            let notice = format!("<div class=\"notice\"><p>{}</p></div>", escape(said));
            let talk = conversation(app, link, "").await?;
            turn_page(link, &shown, &notice, &talk)
        }
    })
}

/// The page after an act that used the link: `heading`, `said`, the game as it now stands,
/// `next` (markup: what the player may do now, may be empty) and a link to the game.
fn done(shown: &Shown, heading: &str, said: &str, next: &str) -> Response {
    let notice = format!(
        "<div class=\"notice\" data-code=\"done\"><p>{}</p></div>",
        escape(said)
    );
    let more = format!(
        "{next}<p><a class=\"button\" href=\"../games/{}\">See the game</a></p>",
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
    let tap = tap::script(shown.game.as_ref());
    let form = format!("{}{tap}{talk}", move_form(link, shown, entered));
    respond(status, &shown.title(), &shown.body(&heading, notice, &form))
}

/// Writes the form's message to the other players, whoever is to move, and shows the page
/// of the turn again with it.
async fn write(
    app: &App,
    link: &MoveLink,
    shown: Shown,
    form: &PlayForm,
) -> Result<Response, Problem> {
    let written = app
        .service
        .post_message(&link.game, &link.handle, &form.message)
        .await;
    if let Err(error) = written {
        return Err(Problem::with(ApiError::from(error), shown));
    }
    let talk = conversation(app, link, "").await?;
    let notice = "<div class=\"notice\" data-code=\"message-sent\"><p>Your message is sent; \
                  the other side gets it by mail.</p></div>";
    Ok(turn_page(link, &shown, notice, &talk))
}

/// The move page while the link's seat is to move, else the conditional lines page; with
/// `notice` (markup) and `talk` (the game's messages and the form that writes one).
fn turn_page(link: &MoveLink, shown: &Shown, notice: &str, talk: &str) -> Response {
    match shown.view.to_move == Some(link.seat) {
        true => move_page(StatusCode::OK, link, shown, notice, "", talk),
        false => {
            let talk = format!("{}{talk}", standing_offer(link, shown));
            lines::page(StatusCode::OK, shown, notice, "", &talk)
        }
    }
}

/// Whether another seat offers a draw the link's seat has not agreed to yet.
fn offered_to(link: &MoveLink, shown: &Shown) -> bool {
    let offers = &shown.view.draw_offers;
    offers.iter().any(|seat| *seat != link.seat) && !offers.contains(&link.seat)
}

/// While another seat is to move: a form that accepts the draw another seat offers, if one
/// stands (empty otherwise).
fn standing_offer(link: &MoveLink, shown: &Shown) -> &'static str {
    match offered_to(link, shown) {
        true => {
            "<form method=\"post\" class=\"draw\"><input type=\"hidden\" name=\"action\" \
             value=\"draw-accept\"><p>A draw is offered to you.</p><div class=\"actions\">\
             <button class=\"primary\" id=\"accept-draw\">Accept the draw</button></div></form>"
        }
        false => "",
    }
}

/// The move form (`entered` in its field, the legal moves offered), the draw and resign
/// buttons, and the full list of legal moves.
fn move_form(link: &MoveLink, shown: &Shown, entered: &str) -> String {
    let legal = &shown.view.legal_moves_short;
    let options: String = legal
        .iter()
        .map(|m| format!("<option value=\"{}\">", escape(m)))
        .collect();
    let offers = &shown.view.draw_offers;
    let draw = if offered_to(link, shown) {
        "<button name=\"action\" value=\"draw-accept\" id=\"accept-draw\" formnovalidate>\
         Accept the draw</button>"
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
         <button class=\"primary\" id=\"play\" name=\"action\" value=\"move\">Review move…\
         </button>{draw}<button class=\"danger\" name=\"action\" value=\"resign\" \
         formnovalidate>Resign…</button></div></form><p class=\"detail\">The next page shows \
         the board after your move; nothing is played until you confirm it.</p>\
         <details><summary>All {} legal moves</summary><p class=\"legal\">{}</p></details>",
        escape(entered),
        escape(legal.first().map_or("", String::as_str)),
        legal.len(),
        escape(&legal.join(" "))
    )
}
