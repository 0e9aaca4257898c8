//! Conditional lines from the page: while another seat is to move, a move link's page lists
//! the seat's lines (in short notation), deletes one at a time, and adds lines typed one a
//! line, each move after the one before in turn order, starting with the next move of the
//! seat to move. The service decides (`GameService::set_conditional_lines`): an illegal
//! or ambiguous line is refused with the reason, and nothing changes.

use axum::http::StatusCode;
use axum::response::Response;
use missive_game::ServiceError;

use super::html::{escape, respond};
use super::link::MoveLink;
use super::problem::Problem;
use super::turn::{PlayForm, conversation, reload};
use super::view::Shown;
use crate::{ApiError, App};

/// The lines page: the game, `notice` (markup), the seat's lines and the form to add some,
/// with `entered` in it, then `talk` (markup: the game's messages and the form that writes
/// one).
pub(super) fn page(
    status: StatusCode,
    shown: &Shown,
    notice: &str,
    entered: &str,
    talk: &str,
) -> Response {
    let waiting_for = shown
        .view
        .to_move
        .and_then(|seat| shown.player(seat))
        .unwrap_or("the other side");
    let heading = format!("Waiting for {waiting_for}");
    let panel = format!("{}{talk}", panel(shown, "", entered));
    respond(
        status,
        &shown.title(),
        &shown.body(&heading, notice, &panel),
    )
}

/// The seat's conditional lines, each with a button that deletes it, and the form that adds
/// lines (`entered` in it), both posting to the link `action` (a path relative to the
/// page's; empty: the page's own).
pub(super) fn panel(shown: &Shown, action: &str, entered: &str) -> String {
    let action = escape(action);
    let listed: String = shown
        .view
        .conditional
        .iter()
        .enumerate()
        .map(|(index, line)| {
            format!(
                "<li><span class=\"line\">{}</span><form method=\"post\" action=\"{action}\" \
                 class=\"inline\"><input type=\"hidden\" name=\"action\" value=\"delete-line\">\
                 <input type=\"hidden\" name=\"line\" value=\"{}\"><button class=\"danger\" \
                 id=\"delete-line-{}\">Delete</button></form></li>",
                escape(&shown.line(&line.moves)),
                index + 1,
                index + 1
            )
        })
        .collect();
    let current = match listed.is_empty() {
        true => "<p>You have no conditional lines in this game.</p>".to_string(),
        false => format!("<ul class=\"lines\">{listed}</ul>"),
    };
    let example = shown
        .view
        .legal_moves_short
        .first()
        .map_or("", String::as_str);
    format!(
        "<h2>Conditional moves</h2><p class=\"detail\">A line lists moves in turn order from \
         the next one ({example} …): when the game follows it, your moves in it are played \
         for you at once.</p>{current}<form method=\"post\" action=\"{action}\" \
         class=\"lines\"><input type=\"hidden\" name=\"action\" value=\"lines\">\
         <label for=\"lines\">Add lines, one a line, in short notation</label>\
         <textarea id=\"lines\" name=\"lines\" rows=\"3\" autocomplete=\"off\" \
         autocapitalize=\"off\" spellcheck=\"false\" placeholder=\"{example} …\">{}</textarea>\
         <div class=\"actions\"><button class=\"primary\" id=\"save-lines\">Save lines</button>\
         </div></form><details><summary>Their {} legal moves</summary><p class=\"legal\">{}\
         </p></details>",
        escape(entered),
        shown.view.legal_moves_short.len(),
        escape(&shown.view.legal_moves_short.join(" ")),
        example = escape(example),
    )
}

/// Adds the form's lines to the seat's, or deletes the one it names, through the service;
/// the lines page after it, or with the reason and what was typed when it is refused.
pub(super) async fn act(
    app: &App,
    link: &MoveLink,
    shown: Shown,
    form: &PlayForm,
) -> Result<Response, Problem> {
    let mut lines: Vec<Vec<String>> = shown
        .view
        .conditional
        .iter()
        .map(|line| line.moves.clone())
        .collect();
    let said = match form.action.as_str() {
        "delete-line" => {
            let index = form.line.parse::<usize>().ok();
            let Some(index) = index.filter(|n| (1..=lines.len()).contains(n)) else {
                return Err(Problem::with(ApiError::bad_request("no such line"), shown));
            };
            lines.remove(index - 1);
            "The line was deleted."
        }
        _ => {
            let added = read_lines(&form.lines);
            if added.is_empty() {
                let error = ApiError::bad_request("enter at least one line of moves");
                return Err(Problem::with(error, shown));
            }
            lines.extend(added);
            "Your lines are saved."
        }
    };
    match app
        .service
        .set_conditional_lines(&link.game, &link.handle, &lines)
        .await
    {
        Ok(_) => {
            let shown = reload(app, link).await?;
            let notice = format!("<div class=\"notice\" data-code=\"saved\"><p>{said}</p></div>");
            let talk = conversation(app, link, "").await?;
            Ok(page(StatusCode::OK, &shown, &notice, "", &talk))
        }
        Err(error @ (ServiceError::Move(_) | ServiceError::Refused(_))) => {
            let error = ApiError::from(error);
            let notice = format!(
                "<div class=\"notice problem\" data-code=\"{}\"><p>Those lines were not \
                 saved: {}.</p></div>",
                error.code,
                escape(&error.message)
            );
            let talk = conversation(app, link, "").await?;
            Ok(page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &shown,
                &notice,
                &form.lines,
                &talk,
            ))
        }
        Err(error) => {
            let shown = reload(app, link).await?;
            Err(Problem::with(ApiError::from(error), shown))
        }
    }
}

/// The lines of `text`: one a line (or separated by `;`), moves separated by spaces or
/// commas, move numbers (`12.`, `12...`) left out.
fn read_lines(text: &str) -> Vec<Vec<String>> {
    text.split(['\n', ';'])
        .map(|line| {
            line.split(|c: char| c.is_whitespace() || c == ',')
                .map(without_number)
                .filter(|token| !token.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|line| !line.is_empty())
        .collect()
}

/// `token` without a leading move number (`12.e4` → `e4`, `12...` → ``).
fn without_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    match (digits, rest.trim_start_matches('.')) {
        (1.., after) if after.len() < rest.len() => after,
        _ => token,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_without_move_numbers() {
        assert_eq!(
            read_lines("1... e5 2. Nf3\n\n d5, exd5; 3.Nc3 Nf6\n"),
            [vec!["e5", "Nf3"], vec!["d5", "exd5"], vec!["Nc3", "Nf6"]]
        );
        assert_eq!(read_lines("h3e3 b10c8"), [vec!["h3e3", "b10c8"]]);
        assert!(read_lines(" \n ; ").is_empty());
    }
}
