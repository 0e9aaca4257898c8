//! What the move page and the conditional lines page share: the form they send, the link's
//! game as it stands now, and the game's messages.

use serde::Deserialize;

use super::html::escape;
use super::link::MoveLink;
use super::problem::Problem;
use super::view::{self, Shown};
use crate::{ApiError, App};

/// What the forms of the move and lines pages send.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PlayForm {
    /// `move`, `draw-offer`, `draw-accept`, `resign`, `message`, `lines` or `delete-line`.
    #[serde(default)]
    pub action: String,
    /// The move, in short or long notation.
    #[serde(default, rename = "move")]
    pub text: String,
    /// `yes` to offer a draw with the move.
    #[serde(default)]
    pub offer_draw: String,
    /// `yes` once a move or a resignation is confirmed.
    #[serde(default)]
    pub confirm: String,
    /// A message to the other players (on its own, or with a confirmed move).
    #[serde(default)]
    pub message: String,
    /// Conditional lines to add, one a line, moves in turn order.
    #[serde(default)]
    pub lines: String,
    /// The number (from 1) of the conditional line to delete.
    #[serde(default)]
    pub line: String,
}

/// The link's game as it stands now, seen from the link's seat, its archive linked with the
/// players' messages (through a link for the same seat and ply).
pub(super) async fn reload(app: &App, link: &MoveLink) -> Result<Shown, Problem> {
    let mut shown = view::load(app, &link.game, Some(&link.handle), Some(link.seat)).await?;
    let token = super::link::fresh(app, link, link.ply, shown.view.deadline)?;
    shown.archive = format!("../play/{token}/archive");
    Ok(shown)
}

/// The game's messages as the link's player reads them, oldest first, and the form that
/// writes one, posting to `action` (a path relative to the page's; empty: the page's own):
/// every text escaped, line breaks kept.
pub(super) async fn conversation(
    app: &App,
    link: &MoveLink,
    action: &str,
) -> Result<String, Problem> {
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
        "<h2>Messages</h2>{list}<form method=\"post\" action=\"{}\" class=\"message\">\
         <input type=\"hidden\" name=\"action\" value=\"message\">\
         <label for=\"message\">Write to the other players</label>\
         <textarea id=\"message\" name=\"message\" rows=\"3\" maxlength=\"{}\" required \
         style=\"width:100%;font-size:1rem\"></textarea><div class=\"actions\">\
         <button id=\"send-message\">Send</button></div></form>",
        escape(action),
        missive_game::MAX_MESSAGE
    ))
}
