//! Whole games played the way a correspondence player plays by mail, on every store: the
//! server's notifier mails the player to move, the test reads the mail from the outbox,
//! follows its move link, reads the legal moves off the page, submits the form and confirms
//! the move. Chess
//! ends in a checkmate typed into the form; every other variant plays random moves from the
//! page, then its players resign through their links until the game has a result. No move
//! reaches the server any other way. After the mate both chess players are mailed how the
//! game ended.

use crate::common;

use std::time::Duration;

use common::inbox::{Inbox, MoveMail, Read, mail_files};
use common::links::{get, offered_moves, play_through, submit};
use common::{Player, Server, seat_count, start_game};
use missive_rules::registry;
use missive_store::testing::Kind;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use reqwest::StatusCode;

/// Moves each variant other than chess plays through mailed links before the resignations.
const RANDOM_PLIES: usize = 12;

/// The fool's mate, typed into the form move by move.
const FOOLS_MATE: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

/// The game's status as its first player sees it over the JSON API.
async fn status(players: &[Player<'_>], id: &str) -> String {
    players[0].game(id).await["status"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The player a mail was addressed to.
fn addressee<'p, 's>(players: &'p [Player<'s>], mail: &MoveMail) -> &'p Player<'s> {
    players
        .iter()
        .find(|player| mail.to == format!("{}@example.org", player.handle))
        .unwrap_or_else(|| panic!("a move mail to a stranger: {}", mail.to))
}

/// Follows the mail's link and plays `choose`'s pick among the page's legal moves.
async fn play_from_mail(
    server: &Server,
    mail: &MoveMail,
    choose: impl FnOnce(&[String]) -> String,
) -> String {
    let (status, page) = get(server, &mail.link).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = choose(&offered_moves(&page));
    let (status, page) = play_through(server, &mail.link, &text, &[]).await;
    assert_eq!(status, StatusCode::OK, "{text}: {page}");
    let (status, _) = submit(server, &mail.link, &[("action", "move"), ("move", &text)]).await;
    assert_eq!(status, StatusCode::CONFLICT, "a mailed link plays one move");
    text
}

/// Resigns through the mail's link, confirming on the second form.
async fn resign_from_mail(server: &Server, mail: &MoveMail) {
    let (status, page) = submit(server, &mail.link, &[("action", "resign")]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("confirm"), "a confirmation first: {page}");
    let (status, page) = submit(
        server,
        &mail.link,
        &[("action", "resign"), ("confirm", "yes")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
}

/// Signs up the players a game of `variant` needs and starts it.
async fn game_of<'s>(server: &'s Server, variant: &str) -> (Vec<Player<'s>>, String) {
    let mut players = Vec::new();
    for name in &["ann", "bob", "cyd"][..seat_count(server, variant).await] {
        players.push(server.player(&format!("{name}-{variant}-mail")).await);
    }
    let id = start_game(&players, variant).await;
    (players, id)
}

/// Chess by mail: the fool's mate, each move typed into the page the mail links to.
async fn chess_by_mail(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let mut inbox = Inbox::new(&server);
    let (players, id) = game_of(&server, "chess").await;
    for (ply, text) in FOOLS_MATE.iter().enumerate() {
        let mail = inbox.next().await;
        assert_eq!(addressee(&players, &mail).handle, players[ply % 2].handle);
        play_from_mail(&server, &mail, |legal| {
            assert!(legal.iter().any(|m| m == text), "{text} offered: {legal:?}");
            text.to_string()
        })
        .await;
    }
    let game = players[0].game(&id).await;
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["ending"]["rule"], "checkmate", "{game}");
    assert!(
        inbox.unread_move_mails().is_empty(),
        "no move mail after the end"
    );
    let told = game_over_mails(&server, 2).await;
    assert!(told.iter().any(|mail| mail.contains("You won")), "{told:?}");
    assert!(
        told.iter().any(|mail| mail.contains("You lost")),
        "{told:?}"
    );
}

/// The `count` game-over mails in the outbox, waiting up to ten seconds for them.
async fn game_over_mails(server: &Server, count: usize) -> Vec<String> {
    for _ in 0..200 {
        let mails: Vec<String> = mail_files(&server.outbox)
            .iter()
            .map(|path| Read::file(path))
            .filter(|mail| mail.text.contains("Game over: "))
            .map(|mail| mail.text)
            .collect();
        if mails.len() >= count {
            assert_eq!(mails.len(), count, "one game-over mail per player");
            return mails;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no game-over mails in {}", server.outbox.display());
}

/// Every other variant by mail: random moves from the pages, then resignations through the
/// links until the game has a result; the mails always go to the player to move.
async fn every_variant_by_mail(kind: Kind) {
    let server = Server::start_mailing(kind).await;
    let mut inbox = Inbox::new(&server);
    let mut rng = StdRng::seed_from_u64(7);
    for variant in registry::variants().iter().map(|v| v.id()) {
        if variant == "chess" {
            continue;
        }
        let (players, id) = game_of(&server, variant).await;
        let mut plies = 0;
        while status(&players, &id).await == "active" {
            let mail = inbox.next().await;
            let to_move = players[0].game(&id).await["to_move"].as_u64().unwrap();
            assert_eq!(
                addressee(&players, &mail).handle,
                players[to_move as usize].handle,
                "{variant}: the mail goes to the player to move"
            );
            if plies < RANDOM_PLIES {
                play_from_mail(&server, &mail, |legal| {
                    legal.choose(&mut rng).expect("a legal move").clone()
                })
                .await;
                plies += 1;
            } else {
                resign_from_mail(&server, &mail).await;
            }
        }
        let game = players[0].game(&id).await;
        assert_eq!(game["status"], "finished", "{variant}: {game}");
        assert_eq!(game["ply"], plies, "{variant}: every move came by mail");
    }
}

per_store!(chess_by_mail, every_variant_by_mail);
