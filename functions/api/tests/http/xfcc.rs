//! Xfcc, as desktop correspondence programs speak it: zeep (a SOAP client nobody here
//! wrote, driven by the served WSDL alone) plays a whole game (`xfcc_client/play.py`), and
//! raw envelopes check what zeep would not send: faults, SOAP 1.2, revoked passwords,
//! resignation, claims, games of other variants; on both stores wherever the store takes
//! part. Application passwords are made over REST as a player makes them. The interpreter
//! is `$MISSIVE_PYTHON` (default `python3`) with `zeep` installed
//! (infra/python-requirements.txt).

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::{Options, Player, Server, start_game};
use missive_domain::GameId;
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::json;

const XFCC: &str = "http://www.bennedik.com/webservices/XfccBasic";
const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12: &str = "http://www.w3.org/2003/05/soap-envelope";

/// A server over a store of `kind` whose public URL is its own address, so the WSDL's
/// address reaches it.
async fn server_on(kind: Kind) -> Server {
    let options = Options {
        reachable_url: true,
        ..Options::default()
    };
    Server::start_with(kind, options).await
}

/// Such a server over SQLite, for what the store has no part in.
async fn server() -> Server {
    server_on(Kind::Sqlite).await
}

/// A new application password of `player`'s, labelled `label`.
async fn app_password(player: &Player<'_>, label: &str) -> String {
    let (status, body) = player
        .post("/v1/players/me/app-passwords", json!({ "label": label }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["password"].as_str().unwrap().to_string()
}

/// A SOAP call of `operation` with `params`, in the envelope of namespace `soap`: the
/// status, the content type and the answer.
async fn soap(
    server: &Server,
    soap: &str,
    operation: &str,
    params: &[(&str, &str)],
) -> (StatusCode, String, String) {
    let params: String = params
        .iter()
        .map(|(name, value)| format!("<{name}>{value}</{name}>"))
        .collect();
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><e:Envelope xmlns:e=\"{soap}\"><e:Body>\
         <{operation} xmlns=\"{XFCC}\">{params}</{operation}></e:Body></e:Envelope>"
    );
    raw(server, &body).await
}

/// Posts `body` to `/xfcc` as SOAP 1.1 does.
async fn raw(server: &Server, body: &str) -> (StatusCode, String, String) {
    let answer = server
        .http
        .post(format!("{}/xfcc", server.base))
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{XFCC}/MakeAMove\""))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = answer.status();
    let content_type = answer.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    (status, content_type, answer.text().await.unwrap())
}

/// The text of the first element named `name` in `xml`.
fn element(xml: &str, name: &str) -> Option<String> {
    let document = roxmltree::Document::parse(xml).unwrap();
    document
        .descendants()
        .find(|node| node.tag_name().name() == name)
        .map(|node| node.text().unwrap_or("").to_string())
}

/// `MakeAMove`'s result code for `player` with `password` in game `number`.
async fn make_a_move(
    server: &Server,
    (player, password): (&str, &str),
    number: i32,
    movecount: &str,
    my_move: &str,
    flags: &[&str],
) -> String {
    let number = number.to_string();
    let flag = |name: &str| {
        if flags.contains(&name) {
            "true"
        } else {
            "false"
        }
    };
    let (status, _, answer) = soap(
        server,
        SOAP11,
        "MakeAMove",
        &[
            ("username", player),
            ("password", password),
            ("gameId", &number),
            ("resign", flag("resign")),
            ("acceptDraw", flag("acceptDraw")),
            ("movecount", movecount),
            ("myMove", my_move),
            ("offerDraw", flag("offerDraw")),
            ("claimDraw", flag("claimDraw")),
            ("myMessage", ""),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    element(&answer, "MakeAMoveResult").unwrap()
}

fn number(game: &str) -> i32 {
    missive_api::xfcc::number_of(&GameId(game.to_string()))
}

async fn zeep_plays_a_whole_game_from_the_served_wsdl(kind: Kind) {
    let server = server_on(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let (ann_password, bob_password) = (
        app_password(&ann, "Scid").await,
        app_password(&bob, "ChessBase").await,
    );
    let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/xfcc_client/play.py");
    let args = [
        script.to_str().unwrap().to_string(),
        format!("{}/xfcc?wsdl", server.base),
        server.base.clone(),
        game.clone(),
        ann_password,
        bob_password,
    ];
    let output = tokio::task::spawn_blocking(move || Command::new(&python).args(&args).output())
        .await
        .unwrap()
        .expect("run Python with zeep (infra/python-requirements.txt)");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && said.contains("played the game over Xfcc"),
        "{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let view = ann.game(&game).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["ending"]["rule"], "checkmate", "{view}");
    let (_, messages) = bob.get(&format!("/v1/games/{game}/messages")).await;
    let texts: Vec<&str> = messages["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Good luck!", "No, thanks."], "{messages}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_wsdl_names_the_public_address_and_both_soap_versions() {
    let server = server().await;
    let answer = server
        .http
        .get(format!("{}/xfcc?WSDL", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(
        answer.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/xml")
    );
    let text = answer.text().await.unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let addresses: Vec<&str> = document
        .descendants()
        .filter(|node| node.tag_name().name() == "address")
        .filter_map(|node| node.attribute("location"))
        .collect();
    let expected = format!("{}/xfcc", server.base);
    assert_eq!(addresses, [expected.as_str(), expected.as_str()]);
}

#[tokio::test(flavor = "multi_thread")]
async fn what_is_not_an_xfcc_call_is_a_fault_with_status_500() {
    let server = server().await;
    let cases = [
        "not xml at all".to_string(),
        "<Envelope/>".to_string(),
        format!("<e:Envelope xmlns:e=\"{SOAP11}\"><e:Body><Nothing/></e:Body></e:Envelope>"),
        format!("<e:Envelope xmlns:e=\"{SOAP11}\"><e:Body><GetMyGames xmlns=\"{XFCC}\">"),
        format!(
            "<e:Envelope xmlns:e=\"{SOAP11}\"><e:Body><Delete xmlns=\"{XFCC}\"/></e:Body></e:Envelope>"
        ),
        format!(
            "<e:Envelope xmlns:e=\"{SOAP11}\"><e:Body><MakeAMove xmlns=\"{XFCC}\">\
             <gameId>twelve</gameId></MakeAMove></e:Body></e:Envelope>"
        ),
    ];
    for case in cases {
        let (status, content_type, answer) = raw(&server, &case).await;
        assert_eq!(
            status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{case}: {answer}"
        );
        assert!(content_type.starts_with("text/xml"), "{content_type}");
        assert_eq!(
            element(&answer, "faultcode").as_deref(),
            Some("soap:Client"),
            "{answer}"
        );
        assert!(!element(&answer, "faultstring").unwrap().is_empty());
    }
    let (status, _, answer) = soap(
        &server,
        SOAP11,
        "GetMyGames",
        &[("username", "nobody"), ("password", "abc-def")],
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        element(&answer, "faultstring")
            .unwrap()
            .contains("AuthenticationFailed")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn soap_12_is_answered_in_soap_12() {
    let server = server().await;
    let ann = server.player("ann").await;
    let password = app_password(&ann, "laptop").await;
    let (status, content_type, answer) = soap(
        &server,
        SOAP12,
        "GetMyGames",
        &[("username", "ANN"), ("password", &password)],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(
        content_type.starts_with("application/soap+xml"),
        "{content_type}"
    );
    assert!(answer.contains(SOAP12), "{answer}");
    assert_eq!(element(&answer, "GetMyGamesResult").as_deref(), Some(""));
    let (status, _, fault) = soap(&server, SOAP12, "Nope", &[]).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        element(&fault, "Value").as_deref(),
        Some("soap:Sender"),
        "{fault}"
    );
}

async fn app_passwords_are_shown_once_listed_without_secrets_and_revoked_at_once(kind: Kind) {
    let server = server_on(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let (status, created) = ann
        .post("/v1/players/me/app-passwords", json!({ "label": " Scid " }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let password = created["password"].as_str().unwrap().to_string();
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(password.len(), 33, "{password}");
    assert!(password.starts_with(&format!("{id}-")));
    assert_eq!(created["label"], "Scid");

    let (status, listed) = ann.get("/v1/players/me/app-passwords").await;
    assert_eq!(status, StatusCode::OK);
    let items = listed["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{listed}");
    assert_eq!(items[0]["id"], id.as_str());
    assert!(items[0]["last_used"].is_null(), "{listed}");
    assert!(!listed.to_string().contains(&password[9..]), "{listed}");
    assert!(items[0].get("hash").is_none() && items[0].get("password").is_none());
    let (_, bobs) = bob.get("/v1/players/me/app-passwords").await;
    assert_eq!(bobs["items"], json!([]));

    let ann_signs = ("ann", password.as_str());
    let wrong = format!("{id}-{}", "x".repeat(24));
    let n = number(&game);
    assert_eq!(
        make_a_move(&server, ("ann", &wrong), n, "1", "e4", &[]).await,
        "AuthenticationFailed"
    );
    assert_eq!(
        make_a_move(&server, ("bob", &password), n, "1", "e4", &[]).await,
        "AuthenticationFailed"
    );
    assert_eq!(
        make_a_move(&server, ann_signs, n, "1", "e4", &[]).await,
        "Success"
    );
    let (_, listed) = ann.get("/v1/players/me/app-passwords").await;
    assert!(listed["items"][0]["last_used"].is_string(), "{listed}");

    let path = format!("/v1/players/me/app-passwords/{id}");
    let (status, _) = bob
        .server
        .call(reqwest::Method::DELETE, &path, Some(&bob.token), None)
        .await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "bob cannot revoke ann's password"
    );
    let (status, _) = ann
        .server
        .call(reqwest::Method::DELETE, &path, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        make_a_move(&server, ann_signs, n, "2", "d4", &[]).await,
        "AuthenticationFailed"
    );
    let (status, body) = ann
        .server
        .call(reqwest::Method::DELETE, &path, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "app-password-not-found");
    let far = format!("/v1/players/me/app-passwords/{}", "x".repeat(3000));
    let (status, _) = ann
        .server
        .call(reqwest::Method::DELETE, &far, Some(&ann.token), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "an id no store could hold");
    let long = (
        "a".repeat(3000),
        format!("{}-{}", "a".repeat(3000), "b".repeat(24)),
    );
    for (name, password) in [
        (long.0.as_str(), password.as_str()),
        ("ann", long.1.as_str()),
    ] {
        let said = make_a_move(&server, (name, password), n, "2", "d4", &[]).await;
        assert_eq!(
            said, "AuthenticationFailed",
            "a handle or id no store could hold"
        );
    }

    for label in ["", "two\nlines", &"x".repeat(65)] {
        let (status, body) = ann
            .post("/v1/players/me/app-passwords", json!({ "label": label }))
            .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{label:?}: {body}"
        );
    }
    let (status, _) = server
        .call(
            reqwest::Method::GET,
            "/v1/players/me/app-passwords",
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    for n in 0..10 {
        app_password(&ann, &format!("program {n}")).await;
    }
    let (status, body) = ann
        .post(
            "/v1/players/me/app-passwords",
            json!({ "label": "one more" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
}

async fn moves_claims_and_resignation_answer_the_protocol_s_codes(kind: Kind) {
    let server = server_on(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = start_game(&[ann.clone(), bob.clone()], "chess").await;
    let (ann_password, bob_password) =
        (app_password(&ann, "a").await, app_password(&bob, "b").await);
    let ann_signs = ("ann", ann_password.as_str());
    let bob_signs = ("bob", bob_password.as_str());
    let n = number(&game);
    let steps: [(_, &str, &str, &[&str], &str); 14] = [
        (ann_signs, "1", "Nc3", &[], "Success"),
        (bob_signs, "1", "Nc6", &[], "Success"),
        (ann_signs, "2", "e3", &[], "Success"),
        (bob_signs, "2", "e6", &[], "Success"),
        (ann_signs, "3", "Ne2", &[], "MoveIsAmbigous"),
        (ann_signs, "3", "Qd5", &[], "InvalidMove"),
        (ann_signs, "3", "", &["claimDraw"], "InvalidMove"),
        (ann_signs, "1", "Nb1", &[], "InvalidMoveNumber"),
        (ann_signs, "4", "Nb1", &[], "InvalidMoveNumber"),
        (ann_signs, "", "Nb1", &[], "InvalidMoveNumber"),
        (bob_signs, "3", "Nb8", &[], "NotYourTurn"),
        (ann_signs, "3", "", &[], "InvalidMove"),
        (ann_signs, "3", "", &["offerDraw"], "Success"),
        (bob_signs, "3", "", &["resign"], "Success"),
    ];
    for (signs, movecount, text, flags, expected) in steps {
        let said = make_a_move(&server, signs, n, movecount, text, flags).await;
        assert_eq!(said, expected, "{} {movecount} {text:?} {flags:?}", signs.0);
    }
    let view = ann.game(&game).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["ending"]["rule"], "resignation", "{view}");
    let (_, _, listed) = soap(
        &server,
        SOAP11,
        "GetMyGames",
        &[("username", "bob"), ("password", &bob_password)],
    )
    .await;
    assert_eq!(element(&listed, "result").as_deref(), Some("WhiteWins"));
    assert_eq!(
        element(&listed, "moves").as_deref(),
        Some("1.Nc3 Nc6 2.e3 e6")
    );
    assert_eq!(element(&listed, "myTurn").as_deref(), Some("false"));
    let said = make_a_move(&server, bob_signs, n, "3", "Nb8", &[]).await;
    assert_eq!(said, "NotYourTurn");
}

/// `whiteElo` and `blackElo` are the players' current chess ratings, rounded; 0 for a
/// player without one.
async fn the_players_chess_ratings_are_sent_as_elo(kind: Kind) {
    let server = server_on(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let cyd = server.player("cyd").await;
    let (status, body) = ann
        .post(
            "/v1/challenges",
            json!({
                "variant": "chess",
                "time_control": { "kind": "days-per-move", "days": 3 },
                "rated": true,
                "seat": 0,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let challenge = body["id"].as_str().unwrap();
    let (status, body) = bob
        .post(&format!("/v1/challenges/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let rated = body["game"].as_str().unwrap();
    let (status, body) = bob
        .post(&format!("/v1/games/{rated}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    server.close_rating_week().await;
    start_game(&[ann.clone(), cyd.clone()], "chess").await;
    let rating = |handle: &'static str| {
        let ann = &ann;
        async move {
            let (_, ratings) = ann.get(&format!("/v1/players/{handle}/ratings")).await;
            let rating = ratings[0]["rating"].as_f64().unwrap();
            format!("{}", rating.round() as u32)
        }
    };
    let (ann_elo, bob_elo) = (rating("ann").await, rating("bob").await);
    assert_ne!(ann_elo, bob_elo);
    let password = app_password(&ann, "a").await;
    let (_, _, listed) = soap(
        &server,
        SOAP11,
        "GetMyGames",
        &[("username", "ann"), ("password", &password)],
    )
    .await;
    let document = roxmltree::Document::parse(&listed).unwrap();
    let mut elos: Vec<(String, String, String)> = document
        .descendants()
        .filter(|node| node.tag_name().name() == "XfccGame")
        .map(|game| {
            let field = |name: &str| {
                let node = game.children().find(|n| n.tag_name().name() == name);
                node.and_then(|n| n.text()).unwrap_or("").to_string()
            };
            (field("black"), field("whiteElo"), field("blackElo"))
        })
        .collect();
    elos.sort();
    assert_eq!(
        elos,
        [
            ("bob".to_string(), ann_elo.clone(), bob_elo),
            ("cyd".to_string(), ann_elo, "0".to_string()),
        ],
        "{listed}"
    );
}

async fn games_of_other_variants_are_neither_listed_nor_played(kind: Kind) {
    let server = server_on(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let game = start_game(&[ann.clone(), bob.clone()], "xiangqi").await;
    let password = app_password(&ann, "a").await;
    let (status, _, listed) = soap(
        &server,
        SOAP11,
        "GetMyGames",
        &[("username", "ann"), ("password", &password)],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        element(&listed, "GetMyGamesResult").as_deref(),
        Some(""),
        "{listed}"
    );
    let moved = make_a_move(&server, ("ann", &password), number(&game), "1", "h3e3", &[]).await;
    assert_eq!(moved, "InvalidGameID");
}

/// A GetMyGames envelope of `ann` with `password` and one more parameter, `extra`, which
/// the operation ignores.
fn get_my_games_with(password: &str, extra: &str) -> String {
    format!(
        "<e:Envelope xmlns:e=\"{SOAP11}\"><e:Body><GetMyGames xmlns=\"{XFCC}\">\
         <username>ann</username><password>{password}</password><extra>{extra}</extra>\
         </GetMyGames></e:Body></e:Envelope>"
    )
}

/// Envelopes beyond the XML limits are the sender's faults that name the limit, not a crash:
/// nested as deep as the body limit allows (the reader used to recurse once per element and
/// overflow the stack), as many elements as it allows, and beyond it 413; an envelope at
/// exactly the depth limit is read, and the server goes on answering.
async fn hostile_envelopes_are_faults_and_the_server_keeps_answering(kind: Kind) {
    let server = server_on(kind).await;
    let ann = server.player("ann").await;
    let password = app_password(&ann, "laptop").await;
    let deep = 21_000;
    let cases = [
        ("<a>".repeat(deep), "deeper than 32"),
        ("<a x=\"/>\">".repeat(deep / 4), "deeper than 32"),
        (
            get_my_games_with(&password, &"<a/>".repeat(15_000)),
            "more than 2000 elements",
        ),
        (
            get_my_games_with(&password, &"x<!---->".repeat(7_000)),
            "more than 2000 nodes",
        ),
    ];
    for (body, limit) in cases {
        assert!(body.len() <= missive_api::BODY_LIMIT, "{}", body.len());
        let (status, _, answer) = raw(&server, &body).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{answer}");
        assert_eq!(
            element(&answer, "faultcode").as_deref(),
            Some("soap:Client")
        );
        let reason = element(&answer, "faultstring").unwrap();
        assert!(reason.contains(limit), "{reason}");
    }
    let at_limit = get_my_games_with(
        &password,
        &format!("{}{}", "<a>".repeat(28), "</a>".repeat(28)),
    );
    let (status, _, answer) = raw(&server, &at_limit).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let beyond = format!("{}{}", "<a>".repeat(50_000), "</a>".repeat(50_000));
    let request = format!(
        "POST /xfcc HTTP/1.1\r\nhost: missive.test\r\ncontent-type: text/xml\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{beyond}",
        beyond.len()
    );
    let answer =
        common::raw::exchange(server.addr, request.into_bytes(), Duration::from_secs(30)).await;
    assert_eq!(answer.status(), Some(413));
    let (status, _, answer) = raw(&server, &get_my_games_with(&password, "")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(element(&answer, "GetMyGamesResult").as_deref(), Some(""));
}

per_store!(
    hostile_envelopes_are_faults_and_the_server_keeps_answering,
    zeep_plays_a_whole_game_from_the_served_wsdl,
    app_passwords_are_shown_once_listed_without_secrets_and_revoked_at_once,
    moves_claims_and_resignation_answer_the_protocol_s_codes,
    games_of_other_variants_are_neither_listed_nor_played,
    the_players_chess_ratings_are_sent_as_elo,
);
