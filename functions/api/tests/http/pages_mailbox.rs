//! The pages a player with nothing but a mailbox does everything from, over real HTTP on
//! both stores: asking for a sign-in link, signing up, the home with invitations, games and
//! results, a new game, the lobby (filters, publishing within the cap, accepting), joining
//! and leaving a tournament from its invitation mail, and the refusal of cross-site forms.

use crate::common;

use common::links::{get, press_sign_in, signed_in_pages, submit};
use common::{Player, Server};
use missive_game::Quotas;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

/// `email`'s mails in the outbox.
fn mail_count(server: &Server, email: &str) -> usize {
    server.mails_to(email).len()
}

/// The token of the newest mail to `email` (its `X-Missive-Token` header).
fn newest_token(server: &Server, email: &str) -> String {
    server
        .newest_mail(email)
        .lines()
        .find_map(|line| line.strip_prefix("X-Missive-Token: "))
        .expect("a token header")
        .to_string()
}

/// The text part of the mail `raw`.
fn text_of(raw: &str) -> String {
    let message = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .expect("a MIME message");
    message.body_text(0).expect("a text part").to_string()
}

/// Asking for a sign-in link answers the same whether the address is known or not, mails
/// only a registered one, and its link signs in; a used link's page offers to ask again.
async fn asking_for_a_sign_in_link(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    let (status, page) = get(&server, "/sign-in/ask").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("name=\"email\""), "{page}");
    let before = mail_count(&server, "ann@example.org");
    let (known, known_page) =
        submit(&server, "/sign-in/ask", &[("email", "ann@example.org")]).await;
    let (unknown, unknown_page) =
        submit(&server, "/sign-in/ask", &[("email", "nobody@example.org")]).await;
    assert_eq!(
        (known, unknown),
        (StatusCode::ACCEPTED, StatusCode::ACCEPTED)
    );
    let notice = |page: &str| {
        let start = page.find("data-code=\"done\"").unwrap();
        page[start..start + page[start..].find("</div>").unwrap()].to_string()
    };
    assert_eq!(
        notice(&known_page),
        notice(&unknown_page),
        "the same answer"
    );
    assert_eq!(mail_count(&server, "ann@example.org"), before + 1);
    assert!(server.newest_mail_to("nobody@example.org").is_none());
    let token = newest_token(&server, "ann@example.org");
    let home = press_sign_in(&server, &token).await;
    let (status, page) = get(&server, &home).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Signed in as ann"), "{page}");
    let used = server
        .http
        .post(format!("{}/sign-in", server.base))
        .form(&[("token", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(used.status(), StatusCode::UNAUTHORIZED);
    let page = used.text().await.unwrap();
    assert!(page.contains("href=\"/sign-in/ask\""), "{page}");
    let (_, sign_in) = get(&server, &format!("/sign-in?token={token}")).await;
    assert!(sign_in.contains("href=\"sign-in/ask\""), "{sign_in}");
}

/// The page counts against the same mail limit as `POST /v1/auth/login`: beyond it, the
/// page again with 429 `limit-reached`, and no mail.
async fn asking_beyond_the_mail_limit(kind: Kind) {
    let quotas = Quotas {
        mails_per_address: 2,
        ..common::test_limits()
    };
    let server = Server::start_with_limits(kind, quotas).await;
    let email = "ann@example.org";
    let (status, _) = server
        .call(
            reqwest::Method::POST,
            "/v1/auth/login",
            None,
            Some(json!({ "email": email })),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, _) = submit(&server, "/sign-in/ask", &[("email", email)]).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, page) = submit(&server, "/sign-in/ask", &[("email", email)]).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{page}");
    assert!(page.contains("data-code=\"limit-reached\""), "{page}");
    assert!(page.contains("name=\"email\""), "the form again: {page}");
}

/// Signing up by page mails a confirmation whose link registers the player; a taken
/// handle is 409 and an invalid one 422, the form again with what was typed.
async fn signing_up_by_page(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    let (status, page) = get(&server, "/sign-up").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("name=\"handle\""), "{page}");
    let fields = [("handle", "cleo"), ("email", "cleo@example.org")];
    let (status, page) = submit(&server, "/sign-up", &fields).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{page}");
    assert!(page.contains("confirmation mail") || page.contains("confirm your sign-up"));
    let home = press_sign_in(&server, &newest_token(&server, "cleo@example.org")).await;
    let (_, page) = get(&server, &home).await;
    assert!(page.contains("Signed in as cleo"), "{page}");
    let taken = [("handle", "ANN"), ("email", "other@example.org")];
    let (status, page) = submit(&server, "/sign-up", &taken).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    assert!(page.contains("data-code=\"taken\""), "{page}");
    assert!(page.contains("value=\"other@example.org\""), "kept: {page}");
    let invalid = [("handle", "1x"), ("email", "x@example.org")];
    let (status, page) = submit(&server, "/sign-up", &invalid).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(server.newest_mail_to("x@example.org").is_none());
}

/// A page form posted from another site (`Sec-Fetch-Site: cross-site`, or an `Origin`
/// other than the public URL's) is refused with 403 `cross-site` and does nothing; the
/// public URL's origin, `Origin: null` (what browsers send from a `no-referrer` page) and
/// no such header at all pass; reads are never refused.
async fn cross_site_forms_are_refused(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    let email = [("email", "ann@example.org")];
    let post = |headers: &'static [(&'static str, &'static str)]| {
        let mut request = server
            .http
            .post(format!("{}/sign-in/ask", server.base))
            .form(&email);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send()
    };
    let before = mail_count(&server, "ann@example.org");
    for refused in [
        &[("origin", "https://evil.example")][..],
        &[("sec-fetch-site", "cross-site")][..],
        &[
            ("origin", "http://missive.test"),
            ("sec-fetch-site", "cross-site"),
        ][..],
    ] {
        let answer = post(refused).await.unwrap();
        assert_eq!(answer.status(), StatusCode::FORBIDDEN, "{refused:?}");
        let page = answer.text().await.unwrap();
        assert!(page.contains("data-code=\"cross-site\""), "{page}");
        assert!(page.contains("another site"), "{page}");
    }
    assert_eq!(
        mail_count(&server, "ann@example.org"),
        before,
        "nothing mailed"
    );
    for allowed in [
        &[
            ("origin", "http://missive.test"),
            ("sec-fetch-site", "same-origin"),
        ][..],
        &[("origin", "null"), ("sec-fetch-site", "same-origin")][..],
        &[][..],
    ] {
        let answer = post(allowed).await.unwrap();
        assert_eq!(answer.status(), StatusCode::ACCEPTED, "{allowed:?}");
    }
    let home = signed_in_pages(&server, "ann@example.org").await;
    let answer = server
        .http
        .post(format!("{}{home}/vacation", server.base))
        .header("origin", "https://evil.example")
        .form(&[("action", "take"), ("start", "2026-03-10"), ("days", "2")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::FORBIDDEN, "existing forms too");
    let read = server
        .http
        .get(format!("{}{home}", server.base))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), StatusCode::OK, "a link followed from a mail");
}

/// Creates a chess game by API: `creator` in the first seat, `invited` in the second.
async fn invite(creator: &Player<'_>, invited: &str) -> String {
    let (status, body) = creator
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": invited }],
                "time_control": { "kind": "days-per-move", "days": 3 },
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// The home lists the invitations waiting (accepted or declined from it, as the API does),
/// the games being played and the finished ones with their results; refusals come back
/// with the API's status.
async fn the_home_answers_invitations_and_shows_results(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    server.player("bob").await;
    let first = invite(&ann, "bob").await;
    let second = invite(&ann, "bob").await;
    let home = signed_in_pages(&server, "bob@example.org").await;
    let (_, page) = get(&server, &home).await;
    assert!(page.contains(&format!("id=\"accept-{first}\"")), "{page}");
    assert!(page.contains(&format!("id=\"decline-{second}\"")), "{page}");
    assert!(page.contains("id=\"new-game\"") && page.contains("id=\"challenges\""));
    let (status, page) = submit(&server, &home, &[("action", "accept"), ("game", &first)]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(ann.game(&first).await["status"], "active");
    let (status, page) = submit(&server, &home, &[("action", "decline"), ("game", &second)]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(ann.game(&second).await["status"], "cancelled");
    let (status, page) = submit(&server, &home, &[("action", "accept"), ("game", &second)]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    assert!(page.contains("data-code=\"not-active\""), "{page}");
    let (status, _) = submit(&server, &home, &[("action", "dance")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, body) = ann
        .post(&format!("/v1/games/{first}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, page) = get(&server, &home).await;
    assert!(
        page.contains("0-1 won by resignation against ann"),
        "{page}"
    );
    assert!(
        page.contains(&format!("href=\"../games/{first}\"")),
        "{page}"
    );
}

/// The new-game page creates a game with invitations as `POST /v1/games` does; an unknown
/// invitee is 404 and a missing number 400, the form again.
async fn a_new_game_from_the_page(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    server.player("bob").await;
    let home = signed_in_pages(&server, "ann@example.org").await;
    let new = format!("{home}/games/new");
    let (status, page) = get(&server, &new).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("<option value=\"xiangqi\""), "{page}");
    let fields = |opponent: &'static str, days: &'static str| {
        vec![
            ("variant", "chess"),
            ("clock", "iccf"),
            ("days", days),
            ("moves", "10"),
            ("seat", "1"),
            ("opponent", opponent),
        ]
    };
    let answer = server
        .http_without_redirects()
        .post(format!("{}{new}", server.base))
        .form(&fields("bob", "30"))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let (_, list) = ann.get("/v1/games?player=me&status=forming").await;
    let game = &list["items"][0];
    assert_eq!(game["players"], json!([null, "ann"]), "{list}");
    let (status, page) = submit(&server, &new, &fields("nobody", "30")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{page}");
    assert!(page.contains("data-code=\"player-not-found\""), "{page}");
    assert!(page.contains("value=\"nobody\""), "kept: {page}");
    let (status, page) = submit(&server, &new, &fields("bob", "")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{page}");
    let (status, page) = submit(&server, &new, &fields("newcomer@example.org", "30")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(server.newest_mail_to("newcomer@example.org").is_some());
}

/// The fields of a chess challenge at three days a move, `rated` or not.
fn challenge(rated: bool) -> Vec<(&'static str, &'static str)> {
    let mut fields = vec![
        ("action", "publish"),
        ("variant", "chess"),
        ("clock", "days-per-move"),
        ("days", "3"),
        ("seat", "0"),
    ];
    if rated {
        fields.push(("rated", "yes"));
    }
    fields
}

/// The lobby publishes (up to the cap: 409 `too-many-challenges` beyond it), lists with the
/// API's filters (a bad one is 400) and accepts; accepting one's own is 422.
async fn the_lobby_publishes_filters_and_accepts(kind: Kind) {
    let quotas = Quotas {
        open_challenges: 1,
        ..common::test_limits()
    };
    let server = Server::start_with_limits(kind, quotas).await;
    let ann = server.player("ann").await;
    server.player("bob").await;
    let lobby = format!(
        "{}/challenges",
        signed_in_pages(&server, "ann@example.org").await
    );
    let (status, page) = submit(&server, &lobby, &challenge(false)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let (status, page) = submit(&server, &lobby, &challenge(true)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    assert!(page.contains("data-code=\"too-many-challenges\""), "{page}");
    assert!(
        page.contains("name=\"rated\" value=\"yes\" checked"),
        "kept: {page}"
    );
    let (_, open) = ann.get("/v1/challenges").await;
    let id = open["items"][0]["id"].as_str().unwrap().to_string();
    let (status, page) = submit(&server, &lobby, &[("action", "accept"), ("challenge", &id)]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "own: {page}");
    let bobs = format!(
        "{}/challenges",
        signed_in_pages(&server, "bob@example.org").await
    );
    let (status, page) = get(&server, &bobs).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&format!("id=\"accept-{id}\"")), "{page}");
    let filtered = [
        ("?variant=xiangqi", false),
        ("?variant=chess&time_control=days-per-move:3", true),
        ("?time_control=iccf:10/50", false),
        ("?min_rating=1600", false),
        ("?max_rating=1600&min_rating=", true),
    ];
    for (query, listed) in filtered {
        let (status, page) = get(&server, &format!("{bobs}{query}")).await;
        assert_eq!(status, StatusCode::OK, "{query}");
        assert_eq!(
            page.contains(&format!("data-challenge=\"{id}\"")),
            listed,
            "{query}"
        );
    }
    let (status, page) = get(&server, &format!("{bobs}?time_control=soon")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{page}");
    let (status, page) = submit(&server, &bobs, &[("action", "accept"), ("challenge", &id)]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("the game has begun"), "{page}");
    let (status, page) = submit(&server, &bobs, &[("action", "accept"), ("challenge", &id)]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    let (_, list) = ann.get("/v1/games?player=me&status=active").await;
    assert_eq!(list["items"].as_array().unwrap().len(), 1, "{list}");
}

/// The tournament invitation mail links the tournament's page; from there a sign-in link
/// leads back to the player's page of it, which joins (a second join is 409) and leaves.
async fn a_tournament_joined_from_its_invitation(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    server.player("bob").await;
    let (status, body) = ann
        .post(
            "/v1/tournaments",
            json!({
                "name": "Spring cup",
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "players": 3,
                "invite": ["bob"],
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let mail = text_of(&server.newest_mail("bob@example.org"));
    let page_link = format!("http://missive.test/tournaments/{id}");
    assert!(mail.contains(&page_link), "{mail}");
    assert!(!mail.contains("POST"), "{mail}");
    let (status, page) = get(&server, &format!("/tournaments/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    let ask = format!("../sign-in/ask?then=tournaments/{id}");
    assert!(page.contains(&format!("href=\"{ask}\"")), "{page}");
    let (_, page) = get(&server, &format!("/sign-in/ask?then=tournaments/{id}")).await;
    let then = format!("name=\"then\" value=\"tournaments/{id}\"");
    assert!(page.contains(&then), "{page}");
    let fields = [
        ("email", "bob@example.org"),
        ("then", &format!("tournaments/{id}")),
    ];
    let (status, _) = submit(&server, "/sign-in/ask", &fields).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let mail = text_of(&server.newest_mail("bob@example.org"));
    assert!(mail.contains(&format!("&then=tournaments/{id}")), "{mail}");
    let token = newest_token(&server, "bob@example.org");
    let (_, page) = get(
        &server,
        &format!("/sign-in?token={token}&then=tournaments/{id}"),
    )
    .await;
    assert!(page.contains(&then), "{page}");
    let answer = server
        .http_without_redirects()
        .post(format!("{}/sign-in", server.base))
        .form(&[
            ("token", token.as_str()),
            ("then", &format!("tournaments/{id}")),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let location = answer.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.ends_with(&format!("/tournaments/{id}")),
        "{location}"
    );
    let mine = format!("/{location}");
    let (status, page) = get(&server, &mine).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("id=\"join\""), "{page}");
    let (status, page) = submit(&server, &mine, &[("action", "join")]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("id=\"leave\""), "{page}");
    let (_, read) = ann.get(&format!("/v1/tournaments/{id}")).await;
    assert!(
        read["players"].as_array().unwrap().contains(&json!("bob")),
        "{read}"
    );
    let (status, page) = submit(&server, &mine, &[("action", "join")]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    let (status, page) = submit(&server, &mine, &[("action", "leave")]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("id=\"join\""), "{page}");
    let (status, _) = get(
        &server,
        &format!(
            "{home}/tournaments/NOSUCH",
            home = &mine[..mine.rfind("/tournaments").unwrap()]
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

per_store!(
    asking_for_a_sign_in_link,
    asking_beyond_the_mail_limit,
    signing_up_by_page,
    cross_site_forms_are_refused,
    the_home_answers_invitations_and_shows_results,
    a_new_game_from_the_page,
    the_lobby_publishes_filters_and_accepts,
    a_tournament_joined_from_its_invitation,
);
