//! The move page and move links over real HTTP, on every store: each variant's page (board,
//! move list, legal moves, buttons) and a short game of each played only through links, each
//! move named, shown and then confirmed; illegal moves, reused, tampered, forged, expired,
//! wrong-purpose and wrong-seat links; a confirmation sent twice answered like the first;
//! draws and resignation through the form; conditional lines set, refused and deleted from
//! the page; the read-only game page.

use crate::common;

use chrono::Duration;
use common::links::{
    form_target, get, hidden, link, link_to_move, offered_moves, play_through, submit,
};
use common::{Player, Server, seat_count, start_game};
use missive_auth::{Authority, MOVE_LINK_GRACE, MoveLink, SigningKey};
use missive_domain::{GameId, Seat};
use missive_rules::registry;
use missive_store::testing::Kind;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use reqwest::{Method, StatusCode};

/// Plies each variant's short game plays through links before its resignation.
const PLIES: usize = 6;

/// Signs up the players a game of `variant` needs and starts it.
async fn game_of<'s>(server: &'s Server, variant: &str) -> (Vec<Player<'s>>, String) {
    let names = ["ann", "bob", "cyd"];
    let mut players = Vec::new();
    for name in &names[..seat_count(server, variant).await] {
        players.push(server.player(&format!("{name}-{variant}")).await);
    }
    let id = start_game(&players, variant).await;
    (players, id)
}

/// Every variant: the page shows board, players, legal moves and buttons, GET changes
/// nothing, and a short game is played through links alone, then resigned through the form.
async fn every_variant_through_links(kind: Kind) {
    let server = Server::start(kind).await;
    let mut rng = StdRng::seed_from_u64(10);
    for variant in registry::variants().iter().map(|v| v.id()) {
        let (players, id) = game_of(&server, variant).await;
        let before = players[0].game(&id).await;
        let (path, _) = link_to_move(&players, &id).await;
        let (status, html) = get(&server, &path).await;
        assert_eq!(status, StatusCode::OK, "{variant}: {html}");
        assert_eq!(get(&server, &path).await.1, html, "{variant}: pages differ");
        assert_eq!(players[0].game(&id).await, before, "GET changed the game");
        assert!(
            html.contains("<svg") && html.contains("</svg>"),
            "{variant}"
        );
        assert!(html.contains("name=\"viewport\""));
        for player in &players {
            assert!(
                html.contains(&player.handle),
                "{variant}: {}",
                player.handle
            );
        }
        let legal = before["legal_moves_short"].as_array().unwrap();
        assert_eq!(offered_moves(&html).len(), legal.len(), "{variant}");
        for button in ["value=\"move\"", "value=\"draw-offer\"", "value=\"resign\""] {
            assert!(html.contains(button), "{variant}: {button}");
        }
        assert!(html.contains("No moves yet"));
        for ply in 0..PLIES {
            let (path, seat) = link_to_move(&players, &id).await;
            let (_, html) = get(&server, &path).await;
            if ply > 0 {
                assert!(
                    html.contains("class=\"last-move\""),
                    "{variant}: no highlight"
                );
                assert!(html.contains("2026-03-01 12:00"), "{variant}: no dates");
                assert!(
                    html.contains("<th class=\"round\">1.</th><td"),
                    "{variant}: the first round's number"
                );
            }
            // Moves are numbered by rounds of every seat, as the archive numbers them.
            let seats = players.len();
            let dots = if ply % seats == 0 { "." } else { "..." };
            let number = format!("(move {}{dots}).", ply / seats + 1);
            assert!(html.contains(&number), "{variant} at ply {ply}: {number}");
            let moves = offered_moves(&html);
            let choice = moves.choose(&mut rng).unwrap();
            let (status, done) = play_through(&server, &path, choice, &[]).await;
            assert_eq!(status, StatusCode::OK, "{variant} {choice}: {done}");
            assert!(done.contains("the opponent has been told"), "{done}");
            let state = players[0].game(&id).await;
            assert_eq!(state["ply"], ply + 1, "{variant}");
            if state["status"] != "active" {
                break;
            }
            assert_ne!(state["to_move"], seat);
        }
        let (path, seat) = link_to_move(&players, &id).await;
        let (status, asked) = submit(&server, &path, &[("action", "resign")]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(asked.contains("name=\"confirm\" value=\"yes\""), "{asked}");
        assert_eq!(players[0].game(&id).await["status"], "active");
        let fields = [("action", "resign"), ("confirm", "yes")];
        let (status, resigned) = submit(&server, &path, &fields).await;
        assert_eq!(status, StatusCode::OK, "{resigned}");
        assert!(resigned.contains("by resignation"), "{resigned}");
        let state = players[0].game(&id).await;
        assert_eq!(state["ending"]["rule"], "resignation");
        assert_eq!(state["ending"]["by"], seat);
        let (status, over) = get(&server, &path).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert!(over.contains("This game is over") && over.contains("resignation"));
        let (status, public) = get(&server, &format!("/games/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            public.contains("<svg") && !public.contains("<form"),
            "{variant}"
        );
    }
}

/// An illegal move answers 422 with the legal moves and the form holding what was typed;
/// a second POST through a used link is stale and points to the current game.
async fn illegal_then_reused(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let path = link(&server, &players[0].handle, &id, 0, 0);
    let (status, html) = submit(&server, &path, &[("action", "move"), ("move", "e5<")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{html}");
    assert!(html.contains("data-code=\"illegal-move\"") && html.contains("Nf3"));
    assert!(
        html.contains("value=\"e5&lt;\""),
        "typed move kept, escaped"
    );
    assert!(!html.contains("e5<"));
    assert_eq!(players[0].game(&id).await["ply"], 0);
    let confirmed = [("action", "move"), ("move", "e5<"), ("confirm", "yes")];
    let (status, html) = submit(&server, &path, &confirmed).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{html}");
    assert_eq!(players[0].game(&id).await["ply"], 0);
    let (status, _) = play_through(&server, &path, "e4", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let confirmed = [("action", "move"), ("move", "d2d4"), ("confirm", "yes")];
    for (status, html) in [
        submit(&server, &path, &[("action", "move"), ("move", "d4")]).await,
        submit(&server, &path, &confirmed).await,
        get(&server, &path).await,
    ] {
        assert_eq!(status, StatusCode::CONFLICT, "{html}");
        assert!(html.contains("already been made"));
        assert!(html.contains(&format!("href=\"../games/{id}\"")));
    }
    assert_eq!(players[0].game(&id).await["ply"], 1);
    let (status, html) = submit(&server, &path, &[("action", "nonsense")]).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "the stale link is refused first: {html}"
    );
    let path = link(&server, &players[1].handle, &id, 1, 1);
    let (status, _) = submit(&server, &path, &[("action", "nonsense")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// Links that cannot act: each gets its page and status, and nothing changes; a move
/// after the deadline ends the game on time instead.
async fn refused_links(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let good = link(&server, &players[0].handle, &id, 0, 0);
    let mut tampered = good.clone().into_bytes();
    let at = tampered.len() - 5;
    tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let foreign = Authority::new(&SigningKey::generate(), common::ISSUER, common::ISSUER).unwrap();
    let forgery = MoveLink {
        handle: players[0].handle.clone(),
        game: GameId(id.clone()),
        seat: Seat(0),
        ply: 0,
    };
    let now = server.app.clock.now();
    let forged = format!("/play/{}", forgery.token(&foreign, now, now).unwrap());
    let cases = [
        (tampered, StatusCode::UNAUTHORIZED, "not valid"),
        (forged, StatusCode::UNAUTHORIZED, "not valid"),
        (
            "/play/not-a-token".into(),
            StatusCode::UNAUTHORIZED,
            "not valid",
        ),
        (
            format!("/play/{}", players[0].token),
            StatusCode::FORBIDDEN,
            "not meant for this",
        ),
        (
            link(&server, &players[1].handle, &id, 0, 0),
            StatusCode::FORBIDDEN,
            "not for your seat",
        ),
        (
            link(&server, &players[0].handle, "nope", 0, 0),
            StatusCode::NOT_FOUND,
            "No such game",
        ),
    ];
    for (path, want, says) in &cases {
        for (status, html) in [
            get(&server, path).await,
            submit(&server, path, &[("action", "move"), ("move", "e4")]).await,
        ] {
            assert_eq!(status, *want, "{path}: {html}");
            assert!(html.contains(says), "{path}: {html}");
        }
    }
    server.clock.advance(Duration::days(4));
    let (status, html) = get(&server, &good).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the time is up, nobody claimed it yet"
    );
    assert!(html.contains("Time left: no time"), "{html}");
    let confirmed = [("action", "move"), ("move", "e2e4"), ("confirm", "yes")];
    let (status, html) = submit(&server, &good, &confirmed).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        html.contains("This game is over") && html.contains("timeout"),
        "{html}"
    );
    server.clock.advance(MOVE_LINK_GRACE + Duration::seconds(1));
    let (status, html) = submit(&server, &good, &[("action", "move"), ("move", "e4")]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        html.contains("has expired") && html.contains("sign in"),
        "{html}"
    );
    let path = format!("/v1/games/{id}");
    let (_, state) = server.call(Method::GET, &path, None, None).await;
    assert_eq!(
        state["ply"], 0,
        "the access token expired too: read as anyone"
    );
}

/// A draw offered with a move is accepted through the other side's link; a draw offered on
/// its own leaves the link good for the move.
async fn draws_through_links(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let white = link(&server, &players[0].handle, &id, 0, 0);
    let (status, html) = submit(&server, &white, &[("action", "draw-offer")]).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("You offered a draw") && html.contains("name=\"move\""));
    assert!(!html.contains("value=\"draw-offer\""), "offered already");
    let (status, asked) = submit(
        &server,
        &white,
        &[("action", "move"), ("move", "e4"), ("offer_draw", "yes")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert!(
        asked.contains("name=\"offer_draw\" value=\"yes\" checked"),
        "the offer goes on to the confirmation: {asked}"
    );
    assert_eq!(players[0].game(&id).await["ply"], 0, "nothing played yet");
    let (status, _) = play_through(&server, &white, "e4", &[("offer_draw", "yes")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        players[0].game(&id).await["draw_offers"],
        serde_json::json!([0])
    );
    let black = link(&server, &players[1].handle, &id, 1, 1);
    let (_, html) = get(&server, &black).await;
    assert!(
        html.contains("value=\"draw-accept\"") && html.contains("(draw?)"),
        "{html}"
    );
    let (status, html) = submit(&server, &black, &[("action", "draw-accept")]).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(
        html.contains("The game is drawn") && html.contains("agreement"),
        "{html}"
    );
    assert_eq!(players[0].game(&id).await["ending"]["rule"], "agreement");
}

/// A move is played only once confirmed: the first answer shows the board after it (the
/// move marked) and changes nothing, a GET of the link still shows the move page, and the
/// confirmation plays it and hands on a link for the conditional lines.
async fn a_move_waits_for_its_confirmation(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let path = link(&server, &players[0].handle, &id, 0, 0);
    let (status, asked) = submit(&server, &path, &[("action", "move"), ("move", "Nf3")]).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert!(asked.contains("Play Nf3?") && asked.contains("id=\"confirm\""));
    for spot in ["g1", "f3"] {
        let marked = format!("class=\"last-move\" data-spot=\"{spot}\"");
        assert!(asked.contains(&marked), "{spot} marked: {asked}");
    }
    assert_eq!(hidden(&asked, "move"), "g1f3");
    assert_eq!(players[0].game(&id).await["ply"], 0, "nothing played yet");
    let (status, html) = get(&server, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("name=\"move\"") && !html.contains("data-code"));
    let confirmed = [("action", "move"), ("move", "g1f3"), ("confirm", "yes")];
    let (status, done) = submit(&server, &path, &confirmed).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert!(done.contains("data-code=\"done\"") && done.contains("Nf3 is in"));
    assert!(done.contains("Conditional moves") && done.contains("id=\"lines\""));
    assert_eq!(players[0].game(&id).await["ply"], 1);
    let (status, again) = submit(&server, &path, &confirmed).await;
    assert_eq!(status, StatusCode::OK, "the first answer again: {again}");
    assert!(again.contains("Nf3 is in"), "{again}");
    assert_eq!(
        players[0].game(&id).await["ply"],
        1,
        "the link played its move"
    );
    let next = form_target(&done, &path);
    let (status, waiting) = get(&server, &next).await;
    assert_eq!(status, StatusCode::OK, "{waiting}");
    assert!(waiting.contains("Waiting for") && waiting.contains("id=\"save-lines\""));
    let (status, refused) = submit(&server, &next, &[("action", "move"), ("move", "e5")]).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "not this seat's move: {refused}"
    );
}

/// Conditional lines from the page after a move: saved and listed in short notation,
/// an illegal or an ambiguous line refused with the reason (what was typed kept, nothing
/// changed), a line deleted; the line left answers the opponent's move at once.
async fn conditional_lines_from_the_page(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let path = link(&server, &players[0].handle, &id, 0, 0);
    let (_, done) = play_through(&server, &path, "e4", &[]).await;
    let lines = form_target(&done, &path);
    let typed = "1... e5 2. Nf3\nd5 exd5";
    let (status, saved) = submit(&server, &lines, &[("action", "lines"), ("lines", typed)]).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert!(saved.contains("data-code=\"saved\""), "{saved}");
    assert!(
        saved.contains("1... e5 2. Nf3") && saved.contains("1... d5 2. exd5"),
        "{saved}"
    );
    assert!(
        saved.contains("<ul class=\"lines\">"),
        "lines, not numbered: {saved}"
    );
    let state = players[0].game(&id).await;
    assert_eq!(state["conditional"].as_array().unwrap().len(), 2, "{state}");
    for (typed, reason) in [
        ("Nc6 Ke3", "illegal"),
        ("e5 Nc3", "answer the same moves differently"),
    ] {
        let (status, refused) =
            submit(&server, &lines, &[("action", "lines"), ("lines", typed)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert!(
            refused.contains("were not saved") && refused.contains(reason),
            "{refused}"
        );
        assert!(
            refused.contains(&format!(">{typed}</textarea>")),
            "kept: {refused}"
        );
        assert_eq!(
            players[0].game(&id).await["conditional"],
            state["conditional"]
        );
    }
    let (status, html) = submit(&server, &lines, &[("action", "lines"), ("lines", " ")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{html}");
    let (status, html) = submit(&server, &lines, &[("action", "delete-line"), ("line", "2")]).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(
        html.contains("1... e5 2. Nf3") && !html.contains("d5 2. exd5"),
        "{html}"
    );
    let (status, _) = submit(&server, &lines, &[("action", "delete-line"), ("line", "9")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    players[1].play(&id, "e5", 1).await;
    let state = players[0].game(&id).await;
    assert_eq!(state["ply"], 3, "Nf3 answered at once: {state}");
    assert_eq!(get(&server, &lines).await.0, StatusCode::CONFLICT);
}

/// A confirmation sent twice (a double click, a reload that posts again) is answered like
/// the first, "Move played", and plays nothing more; so is one of a move that ended the
/// game.
async fn a_confirmation_sent_twice(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let mut ply = 0;
    for (seat, text) in [(0, "f2f3"), (1, "e7e5"), (0, "g2g4"), (1, "d8h4")] {
        let path = link(&server, &players[seat].handle, &id, seat as u8, ply);
        let (status, first) = play_through(&server, &path, text, &[]).await;
        assert_eq!(status, StatusCode::OK, "{text}: {first}");
        let confirmed = [("action", "move"), ("move", text), ("confirm", "yes")];
        let (status, again) = submit(&server, &path, &confirmed).await;
        assert_eq!(status, StatusCode::OK, "{text}: {again}");
        for page in [&first, &again] {
            assert!(
                page.contains("Move played") && page.contains("the opponent has been told"),
                "{text}: {page}"
            );
        }
        ply += 1;
        assert_eq!(players[0].game(&id).await["ply"], ply, "{text}");
    }
    assert_eq!(players[0].game(&id).await["ending"]["rule"], "checkmate");
}

/// A message written on the confirmation goes with the move, once even when the form is
/// sent twice; one too long refuses the move; the page after the move writes messages
/// through its fresh link.
async fn a_message_with_the_confirmed_move(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let path = link(&server, &players[0].handle, &id, 0, 0);
    let (_, asked) = submit(&server, &path, &[("action", "move"), ("move", "e4")]).await;
    assert!(asked.contains("name=\"message\""), "{asked}");
    let long = "x".repeat(2001);
    let too_long = [("message", long.as_str())];
    let (status, refused) = play_through(&server, &path, "e4", &too_long).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(players[0].game(&id).await["ply"], 0, "nothing played");
    let with = [("message", "  Good luck!  ")];
    let (status, done) = play_through(&server, &path, "e4", &with).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let confirmed = [
        ("action", "move"),
        ("move", "e2e4"),
        ("confirm", "yes"),
        ("message", "Good luck!"),
    ];
    let (status, again) = submit(&server, &path, &confirmed).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    let (_, messages) = players[1].get(&format!("/v1/games/{id}/messages")).await;
    let texts: Vec<&str> = messages["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{messages}"))
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Good luck!"], "written once, trimmed");
    assert!(done.contains("id=\"send-message\""), "{done}");
    let next = form_target(&done, &path);
    let (status, sent) = submit(&server, &next, &[("action", "message"), ("message", "gl")]).await;
    assert_eq!(status, StatusCode::OK, "{sent}");
    assert!(sent.contains("data-code=\"message-sent\""), "{sent}");
}

/// A draw offered without a move on the offerer's own turn is accepted through the other
/// side's link, though the offerer is still to move.
async fn a_standing_offer_accepted_from_the_link(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    let white = link(&server, &players[0].handle, &id, 0, 0);
    let (status, _) = submit(&server, &white, &[("action", "draw-offer")]).await;
    assert_eq!(status, StatusCode::OK);
    let black = link(&server, &players[1].handle, &id, 1, 0);
    let (status, html) = get(&server, &black).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(
        html.contains("id=\"accept-draw\"") && html.contains("white offers a draw"),
        "{html}"
    );
    let (status, html) = submit(&server, &black, &[("action", "draw-accept")]).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("The game is drawn"), "{html}");
    assert_eq!(players[0].game(&id).await["ending"]["rule"], "agreement");
}

/// The page's score goes by rounds, and its archive (the players' copy behind the link,
/// with their messages; anyone's behind the game page) downloads as a file.
async fn the_score_and_the_archive(kind: Kind) {
    let server = Server::start(kind).await;
    let (players, id) = game_of(&server, "chess").await;
    players[0].play(&id, "e4", 0).await;
    players[1].play(&id, "e5", 1).await;
    let (status, _) = players[0]
        .post(
            &format!("/v1/games/{id}/messages"),
            serde_json::json!({"text": "hello-from-ann"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let path = link(&server, &players[0].handle, &id, 0, 2);
    let (_, html) = get(&server, &path).await;
    let round = html.find("<th class=\"round\">1.</th>").expect("round 1");
    let row = &html[round..round + html[round..].find("</tr>").unwrap()];
    assert!(row.contains(">e4<") && row.contains(">e5<"), "{row}");
    let start = html.find("id=\"archive\" href=\"").unwrap() + "id=\"archive\" href=\"".len();
    let href = &html[start..start + html[start..].find('"').unwrap()];
    let own = format!("/{}", href.trim_start_matches("../"));
    for (page, messages) in [(own, true), (format!("/games/{id}/archive"), false)] {
        let response = server
            .http
            .get(format!("{}{page}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{page}");
        let kind = response.headers()["content-type"].to_str().unwrap();
        assert!(
            kind.starts_with("application/x-chess-pgn"),
            "{page}: {kind}"
        );
        let disposition = response.headers()["content-disposition"].to_str().unwrap();
        assert!(
            disposition.contains(&format!("missive-{id}.pgn")),
            "{disposition}"
        );
        let text = response.text().await.unwrap();
        assert!(
            text.contains("1. e4") && text.contains("1... e5"),
            "{page}: {text}"
        );
        assert_eq!(text.contains("hello-from-ann"), messages, "{page}: {text}");
    }
}

/// The read-only page of a game that does not exist is a 404 page.
async fn unknown_game_page(kind: Kind) {
    let server = Server::start(kind).await;
    let (status, html) = get(&server, "/games/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("No such game"));
}

per_store!(
    every_variant_through_links,
    illegal_then_reused,
    refused_links,
    draws_through_links,
    a_move_waits_for_its_confirmation,
    a_confirmation_sent_twice,
    a_message_with_the_confirmed_move,
    a_standing_offer_accepted_from_the_link,
    the_score_and_the_archive,
    conditional_lines_from_the_page,
    unknown_game_page,
);
