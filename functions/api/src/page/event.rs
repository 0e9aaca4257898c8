//! `GET /tournaments/{id}`: a tournament as anyone sees it, without an account: its
//! standings, its crosstable and links to its games.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_domain::TournamentId;
use missive_game::TournamentStandings;

use super::html::{escape, respond};
use super::problem::Problem;
use crate::{ApiError, App};

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
    Ok(respond(StatusCode::OK, &title, &body(&read)))
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
