//! Mail limits hold across client addresses: a flood of sign-in requests for one address
//! from several clients mails it a few times only, a registered address and an unknown one
//! get the same answers, and every refusal is 429 with `Retry-After` and the limit named.
//! The clients are real connections from distinct loopback addresses. Invitations count
//! too: against the address invited, whoever invites, and against the player inviting.

use crate::common;

use std::net::{IpAddr, Ipv4Addr};

use common::Server;
use futures_util::future::join_all;
use missive_game::Quotas;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Requests each client sends in a flood.
const PER_CLIENT: usize = 40;

/// The limits under test: the defaults.
fn limits() -> Quotas {
    Quotas::default()
}

/// A client connecting from `127.0.0.<last>`.
fn client(last: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
        .build()
        .unwrap()
}

/// `PER_CLIENT` concurrent posts of `body` to `path` from each of `clients`; each answer's
/// status with the limit it names (if any).
async fn flood(
    server: &Server,
    clients: &[reqwest::Client],
    path: &str,
    body: Value,
) -> Vec<(StatusCode, Option<String>)> {
    let url = format!("{}{path}", server.base);
    let requests = clients
        .iter()
        .flat_map(|client| (0..PER_CLIENT).map(|_| server.send(client.post(&url).json(&body))));
    let mut answers = Vec::new();
    for (status, body) in join_all(requests).await {
        answers.push((status, limit_of(status, &body)));
    }
    answers
}

/// The name of the limit a 429 names; checks the refusal's shape.
fn limit_of(status: StatusCode, body: &Value) -> Option<String> {
    if status != StatusCode::TOO_MANY_REQUESTS {
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        return None;
    }
    let error = &body["error"];
    assert_eq!(error["code"], "limit-reached", "{body}");
    assert!(error["limit"]["value"].as_u64().is_some(), "{body}");
    assert_eq!(error["limit"]["per_seconds"], 3600, "{body}");
    error["limit"]["name"].as_str().map(str::to_string)
}

/// How many of `answers` were accepted.
fn accepted(answers: &[(StatusCode, Option<String>)]) -> usize {
    answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::ACCEPTED)
        .count()
}

async fn a_flood_from_many_clients_mails_one_address_a_few_times(kind: Kind) {
    let server = Server::start_with_limits(kind, limits()).await;
    server.player("ann").await;
    let clients: Vec<_> = (2..5).map(client).collect();
    let answers = flood(
        &server,
        &clients,
        "/v1/auth/login",
        json!({"email": "ann@example.org"}),
    )
    .await;
    let most = limits().mails_per_address as usize;
    // The sign-up's confirmation was the address's first mail of the window.
    assert_eq!(accepted(&answers), most - 1, "{answers:?}");
    assert_eq!(
        server.mails_to("ann@example.org").len(),
        most,
        "mails written"
    );
    let named = |answers: &[(StatusCode, Option<String>)], name: &str| {
        answers
            .iter()
            .filter(|(_, l)| l.as_deref() == Some(name))
            .count()
    };
    let per_client = (PER_CLIENT - limits().mails_per_client as usize) * clients.len();
    assert_eq!(
        named(&answers, "mails-per-client"),
        per_client,
        "{answers:?}"
    );
    // An address nobody plays with gets the same answers (from as many fresh clients), and
    // no mail.
    let others: Vec<_> = (7..10).map(client).collect();
    let unknown = flood(
        &server,
        &others,
        "/v1/auth/login",
        json!({"email": "nobody@example.org"}),
    )
    .await;
    assert_eq!(accepted(&unknown), most);
    assert_eq!(named(&unknown, "mails-per-client"), per_client);
    assert!(server.mails_to("nobody@example.org").is_empty());
    // A sign-up counts as a mail to its address too.
    let (status, body) = server
        .send(
            server
                .http
                .post(format!("{}/v1/players", server.base))
                .json(&json!({"handle": "annex", "email": "ann@example.org"})),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["error"]["limit"]["name"], "mails-per-address");
    assert_eq!(server.mails_to("ann@example.org").len(), most);
    // The next window mails again.
    server.clock.advance(chrono::Duration::hours(1));
    let token = server.sign_in_token("ann@example.org").await;
    assert_eq!(server.exchange(&token).await.0, StatusCode::OK);
}

async fn refusals_say_when_to_come_back(kind: Kind) {
    let server = Server::start_with_limits(kind, limits()).await;
    server.clock.advance(chrono::Duration::minutes(20));
    let url = format!("{}/v1/auth/login", server.base);
    let body = json!({"email": "nobody@example.org"});
    let most = limits().mails_per_address as usize;
    for _ in 0..most {
        let (status, _) = server.send(server.http.post(&url).json(&body)).await;
        assert_eq!(status, StatusCode::ACCEPTED);
    }
    let refused = server.http.post(&url).json(&body).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(retry_after, "2400", "the window ends at the next hour");
}

async fn one_client_may_ask_for_a_few_mails_only(kind: Kind) {
    let server = Server::start_with_limits(kind, limits()).await;
    let client = client(5);
    let url = format!("{}/v1/auth/login", server.base);
    let most = limits().mails_per_client as usize;
    let requests = (0..most + 10).map(|n| {
        let body = json!({"email": format!("someone{n}@example.org")});
        server.send(client.post(&url).json(&body))
    });
    let answers: Vec<_> = join_all(requests)
        .await
        .into_iter()
        .map(|(status, body)| (status, limit_of(status, &body)))
        .collect();
    assert_eq!(accepted(&answers), most, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(_, l)| l.as_deref().is_none_or(|l| l == "mails-per-client"))
    );
    let other = self::client(6);
    let (status, _) = server
        .send(
            other
                .post(&url)
                .json(&json!({"email": "someone@example.org"})),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::ACCEPTED,
        "another client has its own count"
    );
}

/// A chess game of `ann`'s inviting `seat`: its status and answer.
async fn invite(ann: &common::Player<'_>, seat: Value) -> (StatusCode, Value) {
    ann.post(
        "/v1/games",
        json!({
            "variant": "chess",
            "seats": [{"kind": "creator"}, seat],
            "time_control": {"kind": "days-per-move", "days": 3},
        }),
    )
    .await
}

/// A tournament of `ann`'s inviting `player`: its status and answer.
async fn invite_to_tournament(ann: &common::Player<'_>, player: &str) -> (StatusCode, Value) {
    ann.post(
        "/v1/tournaments",
        json!({
            "name": "Invitational",
            "variant": "chess",
            "time_control": {"kind": "days-per-move", "days": 3},
            "players": 3,
            "invite": [player],
        }),
    )
    .await
}

/// The name of the limit a refusal names, after checking it is one.
fn refused_limit(status: StatusCode, body: &Value) -> String {
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    limit_of(status, body).unwrap()
}

async fn invitations_flood_no_address(kind: Kind) {
    let server = Server::start_with_limits(kind, limits()).await;
    let ann = server.player("ann").await;
    let most = limits().mails_per_address as usize;
    let stranger = json!({"kind": "invite-email", "email": "stranger@example.org"});
    let mut created = 0;
    for _ in 0..15 {
        let (status, body) = invite(&ann, stranger.clone()).await;
        match status {
            StatusCode::CREATED => created += 1,
            _ => assert_eq!(refused_limit(status, &body), "mails-per-address"),
        }
    }
    assert_eq!(created, most);
    assert_eq!(server.mails_to("stranger@example.org").len(), most);
    let (_, forming) = ann.get("/v1/games?player=me&status=forming").await;
    assert_eq!(
        forming["items"].as_array().unwrap().len(),
        most,
        "a refused invitation leaves no game behind: {forming}"
    );
    // A registered player invited to tournaments: their sign-up mail was the first.
    server.player("bob").await;
    let mut tournaments = 0;
    for _ in 0..12 {
        let (status, body) = invite_to_tournament(&ann, "bob").await;
        match status {
            StatusCode::CREATED => tournaments += 1,
            _ => assert_eq!(refused_limit(status, &body), "mails-per-address"),
        }
    }
    assert_eq!(tournaments, most - 1);
    assert_eq!(server.mails_to("bob@example.org").len(), most);
    let (_, listed) = ann.get("/v1/tournaments").await;
    assert_eq!(listed["items"].as_array().unwrap().len(), most - 1);
}

async fn a_player_sends_a_few_invitations_a_window(kind: Kind) {
    let quotas = Quotas {
        mails_per_player: 3,
        ..limits()
    };
    let server = Server::start_with_limits(kind, quotas).await;
    let ann = server.player("ann").await;
    for n in 0..3 {
        let seat = json!({"kind": "invite-email", "email": format!("friend{n}@example.org")});
        assert_eq!(invite(&ann, seat).await.0, StatusCode::CREATED);
    }
    let seat = json!({"kind": "invite-email", "email": "friend3@example.org"});
    let (status, body) = invite(&ann, seat.clone()).await;
    assert_eq!(refused_limit(status, &body), "mails-per-player");
    assert!(server.mails_to("friend3@example.org").is_empty());
    // An open seat mails nobody; another player has a count of their own.
    assert_eq!(
        invite(&ann, json!({"kind": "open"})).await.0,
        StatusCode::CREATED
    );
    let bob = server.player("bob").await;
    assert_eq!(invite(&bob, seat).await.0, StatusCode::CREATED);
}

per_store!(
    invitations_flood_no_address,
    a_player_sends_a_few_invitations_a_window,
    a_flood_from_many_clients_mails_one_address_a_few_times,
    refusals_say_when_to_come_back,
    one_client_may_ask_for_a_few_mails_only,
);
