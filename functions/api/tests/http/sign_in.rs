//! Sign-in links (and sign-up confirmation links) are single-use, on both stores: exchanged
//! over the API, or on the sign-in page the mail links to, whose GET spends nothing and
//! whose button lands the player on their games, each with a move link.

use crate::common;

use chrono::Duration;
use common::inbox::sign_in_link;
use common::links::{get, press_sign_in, signed_in_pages, submit};
use common::{Server, start_game};
use missive_store::testing::Kind;
use reqwest::StatusCode;

async fn a_sign_in_token_is_exchanged_once_only(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    // Links minted in the same second carry the same claims: they are one token.
    server.clock.advance(chrono::Duration::seconds(1));
    let token = server.sign_in_token("ann@example.org").await;
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["handle"], "ann");
    let (status, body) = server.exchange(&token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"]["code"], "unauthorized");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("used already"),
        "{body}"
    );
    // A new link works once more; the access token minted before stays good.
    server.clock.advance(chrono::Duration::seconds(1));
    let fresh = server.sign_in_token("ann@example.org").await;
    assert_ne!(fresh, token);
    assert_eq!(server.exchange(&fresh).await.0, StatusCode::OK);
    assert_eq!(server.exchange(&fresh).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(ann.get("/v1/games?waiting=me").await.0, StatusCode::OK);
}

/// The mailed link opens a page that spends nothing; its button signs in once and lands
/// on the player's games, each with a fresh link that plays (their move) or sets
/// conditional lines (the other's).
async fn the_mailed_link_signs_in_on_a_page(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let to_play = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let waiting = start_game(&[bob.clone(), ann.clone()], "xiangqi").await;
    server.clock.advance(Duration::seconds(1));
    server.sign_in_token("ann@example.org").await;
    let path = sign_in_link(&server, "ann@example.org");
    for _ in 0..2 {
        let (status, page) = get(&server, &path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(page.contains("Sign in as ann") && page.contains("id=\"sign-in\""));
    }
    let token = path.split("token=").nth(1).unwrap();
    let location = press_sign_in(&server, token).await;
    let (status, games) = get(&server, &location).await;
    assert_eq!(status, StatusCode::OK, "{games}");
    assert!(games.contains("Signed in as ann") && games.contains("45 of 45 days left"));
    let row = |id: &str| {
        let start = games
            .find(&format!("data-game=\"{id}\""))
            .expect("the game listed");
        games[start..start + games[start..].find("</li>").unwrap()].to_string()
    };
    let (mine, theirs) = (row(&to_play), row(&waiting));
    assert!(
        mine.contains("your move") && mine.contains(">Play<") && mine.contains("move 1. ·"),
        "{mine}"
    );
    assert!(theirs.contains("bob to move") && theirs.contains("Conditional moves"));
    let play = |row: &str| {
        let start = row.find("href=\"../play/").unwrap() + "href=\"..".len();
        row[start..start + row[start..].find('"').unwrap()].to_string()
    };
    let (status, page) = get(&server, &play(&mine)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Your move, ann") && page.contains("id=\"play\""),
        "{page}"
    );
    let (status, page) = get(&server, &play(&theirs)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Waiting for bob"), "{page}");
    let (status, again) = submit(&server, "/sign-in", &[("token", token)]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(again.contains("was used already"), "{again}");
    server.clock.advance(Duration::hours(25));
    let (status, expired) = get(&server, &location).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(expired.contains("Your sign-in has expired"), "{expired}");
}

/// Links that cannot sign in get a page saying why, and nothing is spent.
async fn broken_sign_in_links_get_a_clear_page(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    server.clock.advance(Duration::seconds(1));
    server.sign_in_token("ann@example.org").await;
    let path = sign_in_link(&server, "ann@example.org");
    let cases = [
        (
            "/sign-in".to_string(),
            StatusCode::BAD_REQUEST,
            "the whole link",
        ),
        (
            "/sign-in?token=garbage".into(),
            StatusCode::UNAUTHORIZED,
            "not valid",
        ),
        (
            format!("/sign-in?token={}", ann.token),
            StatusCode::FORBIDDEN,
            "not meant for this",
        ),
        (
            format!("/me/{}", ann.token),
            StatusCode::FORBIDDEN,
            "not meant for this",
        ),
        ("/me/garbage".into(), StatusCode::UNAUTHORIZED, "not valid"),
    ];
    for (path, want, says) in &cases {
        let (status, page) = get(&server, path).await;
        assert_eq!(status, *want, "{path}: {page}");
        assert!(page.contains(says), "{path}: {page}");
    }
    server.clock.advance(Duration::minutes(16));
    let (status, page) = get(&server, &path).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(page.contains("sign-in link has expired"), "{page}");
    let token = path.split("token=").nth(1).unwrap();
    let (status, _) = submit(&server, "/sign-in", &[("token", token)]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let pages = signed_in_pages(&server, "ann@example.org").await;
    assert_eq!(get(&server, &pages).await.0, StatusCode::OK);
}

/// The link of a sign-up confirmation opens the same page: its button registers the player,
/// once only, and lands them on their games.
async fn the_sign_up_link_confirms_on_the_page(kind: Kind) {
    let server = Server::start(kind).await;
    let token = server.sign_up_token("cat", "cat@example.org").await;
    let path = format!("/sign-in?token={token}");
    let (status, page) = get(&server, &path).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Confirm and sign in as cat"), "{page}");
    let location = press_sign_in(&server, &token).await;
    let (status, games) = get(&server, &location).await;
    assert_eq!(status, StatusCode::OK, "{games}");
    assert!(games.contains("Signed in as cat"), "{games}");
    let (status, _) = submit(&server, "/sign-in", &[("token", token.as_str())]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

per_store!(
    a_sign_in_token_is_exchanged_once_only,
    the_mailed_link_signs_in_on_a_page,
    broken_sign_in_links_get_a_clear_page,
    the_sign_up_link_confirms_on_the_page,
);
