//! Move links as the mail would carry them, and a browser's way with the pages behind them:
//! GET a page, POST its form, read the legal moves it offers, play a move in its two steps.

use missive_auth::MoveLink;
use missive_domain::{GameId, Seat};
use missive_notify::links::move_link;
use reqwest::StatusCode;

use super::{Player, Server};

/// The path of a fresh move link for `handle` in `game`, `seat`, `ply`, minted as the mail
/// mints it (for a turn whose deadline is now).
pub fn link(server: &Server, handle: &str, game: &str, seat: u8, ply: u32) -> String {
    let now = server.app.clock.now();
    let target = MoveLink {
        handle: handle.into(),
        game: GameId(game.into()),
        seat: Seat(seat),
        ply,
    };
    let app = &server.app;
    let url = move_link(&app.authority, &app.public_url, &target, now, now).unwrap();
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

/// Plays `text` through the move page at `path` as a person does, with `extra` fields
/// (a draw offer): names the move, checks that the answer asks for a confirmation with the
/// move marked on the board, then confirms the move it shows. Returns the confirmation's
/// answer.
pub async fn play_through(
    server: &Server,
    path: &str,
    text: &str,
    extra: &[(&str, &str)],
) -> (StatusCode, String) {
    let mut fields = vec![("action", "move"), ("move", text)];
    fields.extend_from_slice(extra);
    let (status, asked) = submit(server, path, &fields).await;
    assert_eq!(status, StatusCode::OK, "{text}: {asked}");
    assert!(asked.contains("data-code=\"confirm\""), "{text}: {asked}");
    assert!(
        asked.contains("class=\"last-move\""),
        "{text}: the move is marked"
    );
    let long = hidden(&asked, "move");
    let mut fields = vec![
        ("action", "move"),
        ("move", long.as_str()),
        ("confirm", "yes"),
    ];
    fields.extend_from_slice(extra);
    submit(server, path, &fields).await
}

/// The value of the hidden field `name` in `html`.
pub fn hidden(html: &str, name: &str) -> String {
    let marker = format!("type=\"hidden\" name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..start + html[start..].find('"').unwrap()].replace("&amp;", "&")
}

/// The target of the first form in `html` that posts elsewhere (`action="..."`), as a path
/// beside `path` (`/play/{token}`).
pub fn form_target(html: &str, path: &str) -> String {
    let start = html.find("action=\"").expect("a form posting elsewhere") + "action=\"".len();
    let target = &html[start..start + html[start..].find('"').unwrap()];
    assert!(!target.is_empty(), "{html}");
    let folder = &path[..path.rfind('/').unwrap() + 1];
    format!("{folder}{target}")
}

/// Signs `email`'s player in on the sign-in page with a fresh sign-in link: the path of
/// their games page (`/me/{token}`) the page sends them on to.
pub async fn signed_in_pages(server: &Server, email: &str) -> String {
    server.clock.advance(chrono::Duration::seconds(1));
    let token = server.sign_in_token(email).await;
    press_sign_in(server, &token).await
}

/// Presses the sign-in page's button for `token` (a sign-in or sign-up link's): the path of
/// the games page (`/me/{token}`) it sends the player on to with `303 See Other`.
pub async fn press_sign_in(server: &Server, token: &str) -> String {
    let answer = server
        .http_without_redirects()
        .post(format!("{}/sign-in", server.base))
        .form(&[("token", token)])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let location = answer.headers()["location"].to_str().unwrap();
    assert!(location.starts_with("me/"), "{location}");
    format!("/{location}")
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
