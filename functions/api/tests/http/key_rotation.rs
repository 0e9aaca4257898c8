//! Key rotation on both stores: a server restarted with a rotated token key set (the old
//! key kept, a new one appended) still takes the move links and access tokens it minted
//! before, signs new ones with the new key, and once the old key is removed refuses what it
//! signed as any invalid token. The archive key rotates the same way: an archive signed
//! before the rotation still imports as verified until its key is removed.

use crate::common;

use common::links::{get, link_to_move, play_through};
use common::{Options, Player, Server, archive_key, start_game};
use missive_archive::KeyPair;
use missive_auth::SigningKey;
use missive_store::testing::Kind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// The `kid` in the header of the JWT `token`.
fn kid(token: &str) -> Option<String> {
    jsonwebtoken::decode_header(token).unwrap().kid
}

/// `player` (signed in on another server) as a client of `server`.
fn on<'s>(server: &'s Server, player: &Player<'_>) -> Player<'s> {
    Player {
        server,
        handle: player.handle.clone(),
        token: player.token.clone(),
    }
}

/// A restart of `server` with the token key set `keys` (oldest first).
async fn with_keys(server: &Server, keys: &[SigningKey]) -> Server {
    let options = Options {
        signing_keys: keys.to_vec(),
        ..Options::default()
    };
    server.restart(options).await
}

async fn links_and_tokens_outlive_a_rotation_until_their_key_is_removed(kind: Kind) {
    let before = Server::start(kind).await;
    let players = [before.player("ann").await, before.player("bob").await];
    let game = start_game(&players, "chess").await;
    let (old_link, _) = link_to_move(&players, &game).await;
    let old_token = old_link.strip_prefix("/play/").unwrap();
    let old_key = before.key.clone();
    assert_eq!(kid(old_token), Some(old_key.id()));
    assert_eq!(kid(&players[0].token), Some(old_key.id()));

    let new_key = SigningKey::generate();
    let rotated = with_keys(&before, &[old_key.clone(), new_key.clone()]).await;
    let (status, page) = get(&rotated, &old_link).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let ann = on(&rotated, &players[0]);
    let (status, body) = ann.get(&format!("/v1/games/{game}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, page) = play_through(&rotated, &old_link, "e4", &[]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(ann.game(&game).await["ply"], 1);

    let cat = rotated.player("cat").await;
    assert_eq!(kid(&cat.token), Some(new_key.id()));
    let bob_then = on(&rotated, &players[1]);
    let (new_link, _) = link_to_move(&[on(&rotated, &players[0]), bob_then], &game).await;
    assert_eq!(
        kid(new_link.strip_prefix("/play/").unwrap()),
        Some(new_key.id())
    );

    let removed = with_keys(&before, &[new_key]).await;
    let (status, page) = get(&removed, &old_link).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{page}");
    assert!(page.contains("not valid"), "{page}");
    let (status, body) = on(&removed, &players[0])
        .get(&format!("/v1/games/{game}"))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"]["code"], "invalid-token");
    let (status, page) = get(&removed, &new_link).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let (status, body) = on(&removed, &cat).get("/v1/players/me/vacation").await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// POSTs `text` to the import route as `player`: the one game's outcome, imported or not.
async fn import(player: &Player<'_>, text: &str) -> Value {
    let (status, body) = player.import(text).await;
    match status {
        StatusCode::OK => body["games"][0].clone(),
        _ => {
            assert_eq!(
                body["error"]["code"], "nothing-imported",
                "{status}: {body}"
            );
            body["error"]["games"][0].clone()
        }
    }
}

/// A restart of `server` with its token key and the archive key set `keys`.
async fn with_archive_keys(server: &Server, keys: &[KeyPair]) -> Server {
    let options = Options {
        signing_keys: vec![server.key.clone()],
        archive_keys: keys.to_vec(),
        ..Options::default()
    };
    server.restart(options).await
}

async fn archives_signed_before_a_rotation_import_until_their_key_is_removed(kind: Kind) {
    let before = Server::start(kind).await;
    let players = [before.player("ann").await, before.player("bob").await];
    let game = start_game(&players, "chess").await;
    let (status, body) = players[0]
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, text) = common::text_of(&before, &format!("/v1/games/{game}/archive")).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let old = archive_key();
    let signed = format!("[Signature \"ed25519:{}:", old.id());
    assert!(text.contains(&signed), "{text}");

    let new = KeyPair::from_seed([43; 32]);
    let rotated = with_archive_keys(&before, &[old.clone(), new.clone()]).await;
    let (status, body) = rotated
        .call(Method::GET, "/v1/archive/key", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["key"], new.public().to_text());
    assert_eq!(body["id"], new.id());
    let listed: Vec<&str> = body["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|key| key["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [old.id(), new.id()]);
    let outcome = import(&on(&rotated, &players[1]), &text).await;
    assert_eq!(outcome["verified"], true, "{outcome}");
    let copy = outcome["id"].as_str().unwrap();
    let (_, again) = common::text_of(&rotated, &format!("/v1/games/{copy}/archive")).await;
    assert!(again.contains(&format!("ed25519:{}:", new.id())), "{again}");

    let removed = with_archive_keys(&before, &[new]).await;
    let outcome = import(&on(&removed, &players[1]), &text).await;
    assert_eq!(outcome.get("id"), None, "{outcome}");
    let error = outcome["error"].as_str().unwrap();
    assert!(error.contains(&old.id()), "{error}");
    assert!(error.contains("not this server's"), "{error}");
}

per_store!(
    links_and_tokens_outlive_a_rotation_until_their_key_is_removed,
    archives_signed_before_a_rotation_import_until_their_key_is_removed,
);
