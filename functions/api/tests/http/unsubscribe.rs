//! The unsubscribe link over real HTTP: the page changes nothing, the form and the RFC 8058
//! one-click POST do, and only an unsubscribe token for a registered player is accepted.

use crate::common;

use common::{ISSUER, Server, text_of};
use missive_auth::Authority;
use missive_notify::links::unsubscribe_link;
use missive_store::testing::Kind;
use reqwest::StatusCode;

/// The path of `handle`'s unsubscribe link, as mailed.
fn link_path(server: &Server, handle: &str) -> String {
    let authority = Authority::new(&server.key, ISSUER, ISSUER).unwrap();
    let link = unsubscribe_link(
        &authority,
        "http://missive.test",
        handle,
        server.clock_now(),
    )
    .unwrap();
    link.strip_prefix("http://missive.test")
        .unwrap()
        .to_string()
}

/// POSTs a form body to `path`: its status and text.
async fn post(server: &Server, path: &str, body: &str) -> (StatusCode, String) {
    let response = server
        .http
        .post(format!("{}{path}", server.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    (response.status(), response.text().await.unwrap())
}

/// The values of the page's checked radio buttons.
fn checked(page: &str) -> Vec<&str> {
    page.split("<input ")
        .skip(1)
        .filter(|input| {
            input
                .split('>')
                .next()
                .is_some_and(|i| i.contains(" checked"))
        })
        .filter_map(|input| input.split("value=\"").nth(1)?.split('"').next())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_the_form_and_changes_nothing() {
    let server = Server::start(Kind::Sqlite).await;
    server.player("ann").await;
    let path = link_path(&server, "ann");
    for _ in 0..2 {
        let (status, text) = text_of(&server, &path).await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            text.contains("now: a mail each time it is your turn"),
            "{text}"
        );
        assert!(text.contains("<form method=\"post\">"));
        assert_eq!(checked(&text), ["each-move"], "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_chooses_the_current_preference_so_saving_keeps_it() {
    let server = Server::start(Kind::Sqlite).await;
    server.player("ann").await;
    let path = link_path(&server, "ann");
    for (value, words) in [
        (
            "daily-digest",
            "one mail a day listing the games waiting for you",
        ),
        ("none", "no mail about your turns"),
        ("each-move", "a mail each time it is your turn"),
    ] {
        let (status, _) = post(&server, &path, &format!("preference={value}")).await;
        assert_eq!(status, StatusCode::OK);
        let (_, text) = text_of(&server, &path).await;
        assert!(text.contains(&format!("now: {words}.")), "{text}");
        assert!(text.contains(&format!("{words} (now)</label>")), "{text}");
        assert_eq!(checked(&text), [value], "{text}");
        // Saving the form as it was shown keeps the preference.
        let (status, _) = post(&server, &path, &format!("preference={}", checked(&text)[0])).await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            text_of(&server, &path)
                .await
                .1
                .contains(&format!("now: {words}."))
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_form_and_one_click_change_the_preference() {
    let server = Server::start(Kind::Sqlite).await;
    server.player("ann").await;
    let path = link_path(&server, "ann");
    let (status, text) = post(&server, &path, "preference=daily-digest").await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(
        text_of(&server, &path)
            .await
            .1
            .contains("now: one mail a day")
    );
    let (status, _) = post(&server, &path, "List-Unsubscribe=One-Click").await;
    assert_eq!(status, StatusCode::OK);
    assert!(text_of(&server, &path).await.1.contains("now: no mail"));
    let (status, _) = post(&server, &path, "preference=often").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text_of(&server, &path).await.1.contains("now: no mail"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_unsubscribe_tokens_of_players_are_accepted() {
    let server = Server::start(Kind::Sqlite).await;
    let ann = server.player("ann").await;
    let (status, _) = text_of(&server, &format!("/unsubscribe/{}", ann.token)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = text_of(&server, "/unsubscribe/not-a-token").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let nobody = link_path(&server, "nobody");
    let (status, _) = post(&server, &nobody, "preference=none").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
