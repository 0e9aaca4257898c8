//! Vacations over REST and on the vacation page, on both stores with a manual clock: the
//! balance of the year, a future leave cancelled, a leave under way ended early (the days
//! not used given back), the game view saying who is on leave until when and counting the
//! leave in the deadline.

use crate::common;

use chrono::{DateTime, Duration, Utc};
use common::links::{get, signed_in_pages, submit};
use common::{Server, start_game};
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// The time a JSON answer gives (RFC 3339).
fn time(value: &Value) -> DateTime<Utc> {
    value.as_str().unwrap().parse().unwrap()
}

async fn the_balance_counts_what_is_taken_cancelled_and_ended(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let id = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let since = server.clock_now();
    let (status, balance) = ann.get("/v1/players/me/vacation").await;
    assert_eq!(status, StatusCode::OK, "{balance}");
    assert_eq!(
        (&balance["year"], &balance["used"], &balance["left"]),
        (&json!(2026), &json!(0), &json!(45))
    );
    assert!(balance["current"].is_null() && balance["periods"] == json!([]));
    let later = (since + Duration::days(1)).to_rfc3339();
    let (status, balance) = ann
        .put(
            "/v1/players/me/vacation",
            json!({"start": later, "days": 10}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{balance}");
    assert_eq!(
        (&balance["used"], &balance["left"]),
        (&json!(10), &json!(35))
    );
    let start = balance["periods"][0]["start"].as_str().unwrap();
    let leave = format!("/v1/players/me/vacation/{start}");
    let (status, balance) = server
        .call(Method::DELETE, &leave, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{balance}");
    assert_eq!(
        (&balance["used"], &balance["periods"]),
        (&json!(0), &json!([]))
    );
    let (status, balance) = ann
        .put(
            "/v1/players/me/vacation",
            json!({"start": since.to_rfc3339(), "days": 5}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{balance}");
    assert_eq!(time(&balance["current"]["end"]), since + Duration::days(5));
    let state = bob.game(&id).await;
    assert_eq!(
        state["on_leave"],
        json!([{"seat": 0, "player": "ann", "until": state["on_leave"][0]["until"]}])
    );
    assert_eq!(
        time(&state["on_leave"][0]["until"]),
        since + Duration::days(5)
    );
    assert_eq!(time(&state["deadline"]), since + Duration::days(8));
    let (status, page) = get(&server, &format!("/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    let until = (since + Duration::days(5)).format("%Y-%m-%d %H:%M UTC");
    assert!(
        page.contains(&format!("ann is on leave until {until}")),
        "{page}"
    );
    server.clock.advance(Duration::days(2) + Duration::hours(1));
    let start = balance["periods"][0]["start"].as_str().unwrap();
    let leave = format!("/v1/players/me/vacation/{start}");
    let (status, balance) = server
        .call(Method::DELETE, &leave, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{balance}");
    assert_eq!(
        (&balance["used"], &balance["left"]),
        (&json!(3), &json!(42))
    );
    assert!(balance["current"].is_null(), "{balance}");
    let state = bob.game(&id).await;
    assert!(state.get("on_leave").is_none(), "nobody on leave: {state}");
    let ended = since + Duration::days(5) + Duration::hours(1);
    assert_eq!(time(&state["deadline"]), ended);
    for (path, want) in [
        (leave.as_str(), StatusCode::UNPROCESSABLE_ENTITY),
        (
            "/v1/players/me/vacation/2026-01-01T00:00:00Z",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ("/v1/players/me/vacation/soon", StatusCode::BAD_REQUEST),
    ] {
        let (status, body) = server
            .call(Method::DELETE, path, Some(&ann.token), None)
            .await;
        assert_eq!(status, want, "{path}: {body}");
    }
    let (status, _) = server.call(Method::DELETE, &leave, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// The form fields that take `days` of leave from the day `start`.
fn take<'a>(start: &'a str, days: &'a str) -> [(&'a str, &'a str); 3] {
    [("action", "take"), ("start", start), ("days", days)]
}

/// The start (in milliseconds) of the first leave the vacation page offers to cancel.
fn start_of_cancel(page: &str) -> String {
    let start = page.find("id=\"cancel-").expect("a leave to cancel") + "id=\"cancel-".len();
    page[start..start + page[start..].find('"').unwrap()].to_string()
}

async fn the_vacation_page_takes_cancels_and_ends_leaves(kind: Kind) {
    let server = Server::start(kind).await;
    server.player("ann").await;
    let pages = signed_in_pages(&server, "ann@example.org").await;
    let path = format!("{pages}/vacation");
    let (status, page) = get(&server, &path).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("45 of 45 days left") && page.contains("id=\"take-leave\""));
    assert!(
        page.contains("href=\"../"),
        "a way back to the games: {page}"
    );
    let today = server.clock_now().date_naive().to_string();
    let tomorrow = (server.clock_now() + Duration::days(1))
        .date_naive()
        .to_string();
    let (status, page) = submit(&server, &path, &take(&tomorrow, "50")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("more than the 45 allowed"), "{page}");
    let (status, page) = submit(&server, &path, &take(&tomorrow, "2")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("is booked") && page.contains("43 of 45 days left"),
        "{page}"
    );
    let start = start_of_cancel(&page);
    let (status, page) = submit(&server, &path, &[("action", "end"), ("leave", &start)]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("cancelled") && page.contains("45 of 45 days left"),
        "{page}"
    );
    let (status, page) = submit(&server, &path, &take(&today, "3")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("You are on leave") && page.contains("id=\"end-leave\""));
    let (status, games) = get(&server, &pages).await;
    assert_eq!(status, StatusCode::OK);
    assert!(games.contains("You are on leave until"), "{games}");
    server.clock.advance(Duration::hours(20));
    let leave = common::links::hidden(&page, "leave");
    let (status, page) = submit(&server, &path, &[("action", "end"), ("leave", &leave)]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Your leave is over") && page.contains("44 of 45 days left"));
    for fields in [
        vec![("action", "end"), ("leave", leave.as_str())],
        vec![("action", "take"), ("start", "2020-01-01"), ("days", "1")],
    ] {
        let (status, page) = submit(&server, &path, &fields).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
        assert!(page.contains("Nothing was changed"), "{page}");
    }
    let (status, _) = submit(&server, &path, &[("action", "nonsense")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = submit(&server, &path, &take("someday", "1")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

per_store!(
    the_balance_counts_what_is_taken_cancelled_and_ended,
    the_vacation_page_takes_cancels_and_ends_leaves,
);
