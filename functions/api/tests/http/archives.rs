//! Archives over HTTP, on both stores: a player's archive streamed, archive text imported
//! game by game, and private games hidden from everyone but their players.

use crate::common;

use common::{Player, Server, start_game};
use missive_store::testing::Kind;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Fool's mate: black wins by checkmate.
const FOOLS_MATE: [&str; 4] = ["f2f3", "e7e5", "g2g4", "d8h4"];

/// Plays fool's mate in a new game between `white` and `black`; returns its id.
async fn fools_mate(white: &Player<'_>, black: &Player<'_>) -> String {
    let id = start_game(&[white.clone(), black.clone()], "chess").await;
    play_fools_mate(&id, white, black).await;
    id
}

/// GETs `path` as text: status, content type and body.
async fn get_text(
    server: &Server,
    path: &str,
    token: Option<&str>,
) -> (StatusCode, String, String) {
    let mut request = server.http.get(format!("{}{path}", server.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

/// POSTs `body` to the import route.
async fn import(server: &Server, token: Option<&str>, body: Vec<u8>) -> (StatusCode, Value) {
    let mut request = server
        .http
        .post(format!("{}/v1/archive", server.base))
        .header("content-type", "application/x-chess-pgn")
        .body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    server.send(request).await
}

async fn a_players_finished_games_stream_as_one_archive(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let first = fools_mate(&ann, &bob).await;
    let second = fools_mate(&bob, &ann).await;
    let active = start_game(&[ann.clone(), bob.clone()], "chess").await;

    let (status, kind, text) = get_text(&server, "/v1/players/ann/archive", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/x-chess-pgn; charset=utf-8");
    let at_first = text.find(&first).expect("the first game");
    let at_second = text.find(&second).expect("the second game");
    assert!(at_second < at_first, "most recent first");
    assert!(!text.contains(&active), "finished games only");
    assert_eq!(text.matches("[Result \"0-1\"]").count(), 2, "{text}");
    assert!(text.contains("[White \"ann\"]") && text.contains("[White \"bob\"]"));

    let (_, _, single) = get_text(&server, &format!("/v1/games/{second}/archive"), None).await;
    assert!(
        text.starts_with(&single),
        "the same text as the game's own archive"
    );

    let (status, _, empty) = get_text(&server, "/v1/players/cid/archive", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{empty}");
    let _cid = server.player("cid").await;
    let (status, _, empty) = get_text(&server, "/v1/players/cid/archive", None).await;
    assert_eq!((status, empty.as_str()), (StatusCode::OK, ""));
    let (status, _, _) = get_text(&server, "/v1/players/ann/archive", Some("forged")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

const IMPORTED: &str = "\
[Event \"Paris\"]
[White \"Morphy\"]
[Black \"ANN\"]
[TimeControl \"10/50\"]
[Result \"1-0\"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0

[White \"Someone\"]
[Black \"Else\"]

1. e4 e5 *

[White \"Bad\"]
[Black \"Move\"]
[Result \"1-0\"]

1. e4 e5 2. Ke3 1-0

[White \"ann\"]
[Black \"Resigner\"]
[Result \"1-0\"]
[Termination \"resignation\"]

1. d4 d5 1-0
";

async fn archives_import_game_by_game(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let (status, body) = import(&server, Some(&ann.token), IMPORTED.as_bytes().to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (body["imported"].as_u64(), body["rejected"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(body.get("warnings"), None, "UTF-8 text warns of nothing");
    let games = body["games"].as_array().unwrap();
    let numbers: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    assert!(
        games[0]["id"].is_string() && games[3]["id"].is_string(),
        "{body}"
    );
    assert!(
        games[1]["error"].as_str().unwrap().contains("no result"),
        "{body}"
    );
    assert_eq!(games[2]["line"], 20, "{body}");
    assert!(games[2]["column"].as_u64().unwrap() > 1, "{body}");
    assert!(
        games[2]["error"].as_str().unwrap().contains("move 3"),
        "{body}"
    );

    let morphy = games[0]["id"].as_str().unwrap();
    let view = ann.game(morphy).await;
    assert_eq!(view["status"], "finished");
    assert_eq!(
        (view["imported"].as_bool(), view["private"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(view["ply"], 33);
    assert_eq!(view["ending"]["rule"], "checkmate");
    assert_eq!(view["ending"]["results"], json!(["win", "loss"]));
    assert_eq!(
        view["seats"],
        json!([{ "state": "named", "name": "Morphy" }, { "state": "taken", "player": "ann" }])
    );
    assert_eq!(
        view["time_control"],
        json!({ "kind": "iccf", "moves": 10, "days": 50 })
    );
    let (status, list) = server
        .call(
            reqwest::Method::GET,
            "/v1/games?player=ann&status=finished",
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["items"].as_array().unwrap().len(), 2, "{list}");
    let (_, _, text) = get_text(&server, &format!("/v1/games/{morphy}/archive"), None).await;
    assert!(text.contains("[White \"Morphy\"]") && text.contains("[Black \"ann\"]"));
    assert!(text.contains("Rd8#"), "{text}");
    assert!(text.contains("[Event \"Paris\"]") && text.contains("[Site \"?\"]"));

    let (status, body) = import(&server, Some(&ann.token), b"1. e4 e5 *\n".to_vec()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["error"]["code"], "nothing-imported");
    assert_eq!(body["error"]["games"][0]["game"], 1);
    let (status, _) = import(&server, Some(&ann.token), Vec::new()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = import(&server, None, IMPORTED.as_bytes().to_vec()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let huge = IMPORTED.repeat(missive_api::archives::ARCHIVE_LIMIT / IMPORTED.len() + 1);
    let request = server
        .http
        .post(format!("{}/v1/archive", server.base))
        .bearer_auth(&ann.token)
        .body(huge);
    // The server answers without reading the rest: the client may still be writing when
    // the connection closes.
    match request.send().await {
        Ok(response) => assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE),
        Err(error) => assert!(error.is_request(), "{error}"),
    }
    let (status, body) = server
        .call(
            reqwest::Method::GET,
            "/v1/games?player=ann&status=finished",
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["items"].as_array().unwrap().len(),
        2,
        "nothing more stored"
    );

    let latin_1 = b"[White \"Ju\xe1rez\"]\n[Black \"ann\"]\n[Result \"0-1\"]\n\n\
                    1. f3 e5 2. g4 Qh4# 0-1\n";
    let (status, body) = import(&server, Some(&ann.token), latin_1.to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["warnings"],
        json!(["game 1, line 1, column 1: the text is not UTF-8; read as Windows-1252 (1 game)"])
    );
    let view = ann.game(body["games"][0]["id"].as_str().unwrap()).await;
    assert_eq!(
        view["seats"][0],
        json!({ "state": "named", "name": "Juárez" })
    );
}

/// A private chess game `creator` creates with `invitee` invited (not joined yet).
async fn private_game(creator: &Player<'_>, invitee: &Player<'_>) -> String {
    let (status, body) = creator
        .post(
            "/v1/games",
            json!({
                "variant": "chess",
                "seats": [{ "kind": "creator" }, { "kind": "invite", "player": invitee.handle }],
                "time_control": { "kind": "days-per-move", "days": 3 },
                "private": true,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// Plays fool's mate in started game `id`: `white` loses.
async fn play_fools_mate(id: &str, white: &Player<'_>, black: &Player<'_>) {
    for (ply, text) in FOOLS_MATE.iter().enumerate() {
        let mover = if ply % 2 == 0 { white } else { black };
        mover.play(id, text, ply as u64).await;
    }
}

async fn private_games_are_seen_by_their_players_only(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let eve = server.player("eve").await;
    let id = private_game(&ann, &bob).await;
    assert_eq!(
        bob.game(&id).await["status"],
        "forming",
        "the invited player sees it"
    );
    let (status, _) = bob.post(&format!("/v1/games/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    play_fools_mate(&id, &ann, &bob).await;
    let public = fools_mate(&ann, &bob).await;

    let paths = [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/moves"),
        format!("/v1/games/{id}/board.svg"),
        format!("/v1/games/{id}/board.png"),
        format!("/v1/games/{id}/archive"),
    ];
    for path in &paths {
        for token in [None, Some(eve.token.as_str())] {
            let (status, _, body) = get_text(&server, path, token).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
            assert!(body.contains("game-not-found"), "{body}");
        }
        for player in [&ann, &bob] {
            let (status, _, body) = get_text(&server, path, Some(&player.token)).await;
            assert_eq!(status, StatusCode::OK, "{path}: {body}");
        }
    }
    let finished = |token: Option<String>| {
        let server = &server;
        async move {
            let (status, body) = server
                .call(
                    reqwest::Method::GET,
                    "/v1/games?player=ann&status=finished",
                    token.as_deref(),
                    None,
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            body["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(finished(None).await, [public.as_str()]);
    assert_eq!(finished(Some(eve.token.clone())).await, [public.as_str()]);
    assert_eq!(
        finished(Some(bob.token.clone())).await,
        [public.as_str(), id.as_str()]
    );
    let (_, _, text) = get_text(&server, "/v1/players/ann/archive", Some(&eve.token)).await;
    assert!(text.contains(&public) && !text.contains(&id));
    let (_, _, text) = get_text(&server, "/v1/players/ann/archive", Some(&bob.token)).await;
    assert!(text.contains(&public) && text.contains(&id));
}

/// Every game id of `path` (a list of games), page by page of `limit`, as `token` sees it.
async fn every_listed(server: &Server, path: &str, limit: usize, token: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut page = format!("{path}&limit={limit}");
        if let Some(cursor) = &cursor {
            page.push_str(&format!("&cursor={cursor}"));
        }
        let (status, body) = server
            .call(reqwest::Method::GET, &page, Some(token), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let items = body["items"].as_array().unwrap();
        assert!(items.len() <= limit);
        ids.extend(items.iter().map(|g| g["id"].as_str().unwrap().to_string()));
        match body["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return ids,
        }
    }
}

async fn long_lists_and_archives_go_on_page_after_page(kind: Kind) {
    let server = Server::start(kind).await;
    let ann = server.player("ann").await;
    let bob = server.player("bob").await;
    let eve = server.player("eve").await;
    let games = 130;
    let archive: String = (0..games)
        .map(|n| {
            format!(
                "[Event \"Club {n}\"]\n[White \"ann\"]\n[Black \"Rival\"]\n[Result \"0-1\"]\n\n\
                 1. f3 e5 2. g4 Qh4# 0-1\n\n"
            )
        })
        .collect();
    let (status, body) = import(&server, Some(&ann.token), archive.into_bytes()).await;
    assert_eq!(
        (status, body["imported"].as_u64()),
        (StatusCode::OK, Some(games))
    );
    let mut private = Vec::new();
    for _ in 0..3 {
        let id = private_game(&ann, &bob).await;
        bob.post(&format!("/v1/games/{id}/join"), json!({})).await;
        play_fools_mate(&id, &ann, &bob).await;
        private.push(id);
    }
    let path = "/v1/games?player=ann&status=finished";
    let seen_by_eve = every_listed(&server, path, 7, &eve.token).await;
    assert_eq!(seen_by_eve.len(), games as usize, "every public game, once");
    assert!(private.iter().all(|id| !seen_by_eve.contains(id)));
    let seen_by_bob = every_listed(&server, path, 7, &bob.token).await;
    assert_eq!(seen_by_bob.len(), games as usize + private.len());
    assert_eq!(
        &seen_by_bob[..3],
        private.iter().rev().cloned().collect::<Vec<_>>()
    );
    let (_, _, text) = get_text(&server, "/v1/players/ann/archive", Some(&eve.token)).await;
    assert_eq!(text.matches("[Result \"0-1\"]").count(), games as usize);
    let (_, _, text) = get_text(&server, "/v1/players/ann/archive", Some(&bob.token)).await;
    assert_eq!(
        text.matches("[Result ").count(),
        games as usize + private.len()
    );
}

per_store!(
    a_players_finished_games_stream_as_one_archive,
    long_lists_and_archives_go_on_page_after_page,
    archives_import_game_by_game,
    private_games_are_seen_by_their_players_only,
);
