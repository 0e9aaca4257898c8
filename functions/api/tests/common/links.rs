//! Move links as the mail would carry them, and a browser's way with the pages behind them:
//! GET a page, POST its form, read the legal moves it offers.

use missive_domain::{GameId, Seat};
use missive_notify::links::{MoveLinkFor, move_link};
use reqwest::StatusCode;

use super::{Player, Server};

/// The path of a fresh move link for `handle` in `game`, `seat`, `ply`, minted as the mail
/// mints it (for a turn whose deadline is now).
pub fn link(server: &Server, handle: &str, game: &str, seat: u8, ply: u32) -> String {
    let game = GameId(game.into());
    let now = server.app.clock.now();
    let target = MoveLinkFor {
        handle,
        game: &game,
        seat: Seat(seat),
        ply,
        deadline: now,
    };
    let url = move_link(&server.app.authority, &server.app.public_url, &target, now).unwrap();
    let path = url.strip_prefix(&server.app.public_url).unwrap();
    assert!(path.starts_with("/play/"), "{url}");
    path.to_string()
}

/// The link for the seat to move in `game` now, and that seat.
pub async fn link_to_move(players: &[Player<'_>], game: &str) -> (String, usize) {
    let state = players[0].game(game).await;
    let seat = state["to_move"].as_u64().expect("a seat to move") as usize;
    let ply = state["ply"].as_u64().unwrap() as u32;
    let path = link(
        players[0].server,
        &players[seat].handle,
        game,
        seat as u8,
        ply,
    );
    (path, seat)
}

/// Checks a page answer: never a 500, always HTML with a request id. Returns the status and
/// the page.
async fn page(response: reqwest::Response) -> (StatusCode, String) {
    let status = response.status();
    assert!(response.headers().contains_key("x-request-id"));
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    let text = response.text().await.unwrap();
    assert!(!status.is_server_error(), "{status}: {text}");
    assert!(kind.starts_with("text/html"), "{status} {kind}: {text}");
    assert!(text.starts_with("<!DOCTYPE html>"), "{text}");
    (status, text)
}

/// GETs the page at `path`.
pub async fn get(server: &Server, path: &str) -> (StatusCode, String) {
    page(
        server
            .http
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// POSTs `fields` to `path` as a form does.
pub async fn submit(server: &Server, path: &str, fields: &[(&str, &str)]) -> (StatusCode, String) {
    page(
        server
            .http
            .post(format!("{}{path}", server.base))
            .form(fields)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// The moves a page's datalist offers.
pub fn offered_moves(html: &str) -> Vec<String> {
    let start = html
        .find("<datalist id=\"legal-moves\">")
        .expect("a datalist of legal moves");
    let end = start + html[start..].find("</datalist>").unwrap();
    html[start..end]
        .split("<option value=\"")
        .skip(1)
        .map(|option| option.split('"').next().unwrap().replace("&amp;", "&"))
        .collect()
}
