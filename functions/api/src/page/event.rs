//! A tournament's pages: `GET /tournaments/{id}`, the tournament as anyone sees it without
//! an account (its standings, its crosstable and links to its games; while it is open, a
//! link that asks for a sign-in link leading back to it), and a signed-in player's page of
//! it, `/me/{token}/tournaments/{id}`, the same with a button that joins it or leaves it
//! (`POST`, as `POST /v1/tournaments/{id}/join` and `/withdraw`). A refusal shows the page
//! again with the reason and the API's status.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_domain::{TournamentId, TournamentState};
use missive_game::TournamentStandings;
use serde::Deserialize;

use super::html::{escape, respond};
use super::me::{failed, signed_in};
use super::problem::{Problem, Via, outcome};
use crate::{ApiError, App};

/// What the join and leave buttons send: `join` or `leave`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct EventForm {
    #[serde(default)]
    action: String,
}

/// The tournament's page.
pub(super) async fn show(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    let read = app
        .service
        .tournament_standings(&TournamentId(id))
        .await
        .map_err(ApiError::from)?;
    let title = read.tournament.name.clone();
    let join = match read.tournament.state {
        TournamentState::Open => format!(
            "<section class=\"panel\"><p>It is open for players. To join it (or leave it), \
             sign in: a link is mailed to you that leads back here.</p><p><a class=\"button\" \
             id=\"sign-in-to-join\" href=\"../sign-in/ask?then=tournaments/{}\">Sign in to \
             join</a></p></section>",
            escape(&read.tournament.id.0)
        ),
        _ => String::new(),
    };
    Ok(respond(
        StatusCode::OK,
        &title,
        &format!("{}{join}", body(&read)),
    ))
}

/// `GET /me/{token}/tournaments/{id}`: the tournament, with the button that joins or leaves
/// it.
pub(super) async fn mine(
    State(app): State<App>,
    Path((token, id)): Path<(String, String)>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    own_page(&app, &token, &me, &TournamentId(id), StatusCode::OK, "").await
}

/// `POST /me/{token}/tournaments/{id}`: joins (`action=join`) or leaves (`action=leave`:
/// before the start a place is freed, once it runs the player withdraws) the tournament.
pub(super) async fn act(
    State(app): State<App>,
    Path((token, id)): Path<(String, String)>,
    form: Result<Form<EventForm>, FormRejection>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let id = TournamentId(id);
    let action = form.map(|Form(f)| f.action).unwrap_or_default();
    let service = &app.service;
    let done = match action.as_str() {
        "join" => service
            .join_tournament(&id, &me)
            .await
            .map(|_| "You joined the tournament: a mail brings you each game's moves.")
            .map_err(ApiError::from),
        "leave" => service
            .withdraw_from_tournament(&id, &me)
            .await
            .map(|_| "You left the tournament.")
            .map_err(ApiError::from),
        _ => Err(ApiError::bad_request("choose to join or leave")),
    };
    let (status, notice) = outcome(done.map(String::from), Via::Session)?;
    own_page(&app, &token, &me, &id, status, &notice).await
}

/// Tournament `id` as `me` sees it: `notice` (markup), the tournament, and the button that
/// joins it (while it is open and `me` is not in it) or leaves it (while `me` plays in it).
async fn own_page(
    app: &App,
    token: &str,
    me: &str,
    id: &TournamentId,
    status: StatusCode,
    notice: &str,
) -> Result<Response, Problem> {
    let read = app.service.tournament_standings(id).await.map_err(failed)?;
    let t = &read.tournament;
    let withdrawn = t.withdrawn.iter().any(|w| w.player == me);
    let button = |action: &str, class: &str, label: &str| {
        format!(
            "<form method=\"post\"><input type=\"hidden\" name=\"action\" value=\"{action}\">\
             <div class=\"actions\"><button class=\"{class}\" id=\"{action}\">{label}</button>\
             </div></form>"
        )
    };
    let form = match (t.state, t.has_player(me) && !withdrawn) {
        (TournamentState::Open, false) => button("join", "primary", "Join the tournament"),
        (TournamentState::Open | TournamentState::Running | TournamentState::Paused, true) => {
            button("leave", "danger", "Leave the tournament")
        }
        _ => String::new(),
    };
    let body = format!(
        "{notice}{}<section class=\"panel\">{form}<p><a class=\"button\" \
         href=\"../../{}\">Your games</a></p></section>",
        body(&read),
        escape(token)
    );
    Ok(respond(status, &t.name, &body))
}

/// The page's body: what it is, the standings table, the crosstable, the games.
fn body(read: &TournamentStandings) -> String {
    let t = &read.tournament;
    let mut html = format!(
        "<h1>{}</h1>\n<p>{} round robin of {}, {} players, {}{}.</p>\n",
        escape(&t.name),
        if t.double { "Double" } else { "Single" },
        escape(&t.variant),
        t.players.len(),
        t.state.as_str(),
        if t.rated { ", rated" } else { "" },
    );
    if let Some(standings) = &read.standings {
        html.push_str(
            "<div class=\"scroll\"><table>\n<tr><th>Rank</th><th>Player</th><th>Points</th><th>SB</th>\
             <th>Wins</th><th>Played</th><th>Left</th></tr>\n",
        );
        for row in &standings.rows {
            let withdrawn = if row.withdrawn { " (withdrawn)" } else { "" };
            html.push_str(&format!(
                "<tr><td>{}</td><td>{}{withdrawn}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>\n",
                row.rank,
                escape(&t.players[row.player]),
                row.points,
                row.sonneborn_berger,
                row.wins,
                row.played,
                row.left
            ));
        }
        html.push_str("</table></div>\n");
        html.push_str(&format!(
            "<div class=\"scroll\"><pre>{}</pre></div>\n",
            escape(&standings.render_text(&t.players))
        ));
    }
    if !t.games.is_empty() {
        html.push_str("<ul>\n");
        for game in &t.games {
            html.push_str(&format!(
                "<li>Round {}: <a href=\"/games/{}\">{}</a></li>\n",
                game.round,
                escape(&game.game.0),
                escape(&game.players.join(" – "))
            ));
        }
        html.push_str("</ul>\n");
    }
    html
}
