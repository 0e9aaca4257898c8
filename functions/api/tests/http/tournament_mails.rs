//! What a tournament's start mails, over HTTP on SQLite and DynamoDB Local, the notifier
//! swept by hand: one mail per player, listing their games with the move link of each game
//! where they move first (no separate first "Your move" mails), sent whatever order the
//! games are attended or end in.

use crate::common;

use common::tournaments::{full_tournament, resign};
use common::{Player, Server};
use missive_notify::SweepReport;
use missive_store::testing::Kind;
use serde_json::{Value, json};

/// Sweeps until a sweep sends nothing more (at most `most` sweeps): every report.
async fn sweep_out(server: &Server, most: usize) -> Vec<SweepReport> {
    let notifier = common::notifier(&server.app);
    let mut reports = Vec::new();
    for _ in 0..most {
        let report = notifier.sweep().await.unwrap();
        assert!(report.failures.is_empty(), "{report:?}");
        let quiet = report.tournaments == 0 && report.turns == 0 && report.due == 0;
        reports.push(report);
        if quiet {
            return reports;
        }
    }
    panic!("the sweeps never quietened: {reports:?}");
}

/// Signs up players `p01`, `p02`, ... (`count` of them).
async fn players(server: &Server, count: usize) -> Vec<Player<'_>> {
    let mut players = Vec::with_capacity(count);
    for n in 1..=count {
        players.push(server.player(&format!("p{n:02}")).await);
    }
    players
}

/// A chess round robin of all `players`, started by the last join: its games.
async fn round_robin(players: &[Player<'_>]) -> Vec<Value> {
    let body = json!({
        "name": "Winter cup",
        "variant": "chess",
        "time_control": { "kind": "days-per-move", "days": 3 },
        "players": players.len(),
    });
    full_tournament(players, body).await.1
}

/// The mails to `handle` holding `words`.
fn mails_with(server: &Server, handle: &str, words: &str) -> Vec<String> {
    server
        .mails_to(&format!("{handle}@example.org"))
        .into_iter()
        .filter(|mail| mail.contains(words))
        .collect()
}

/// How many of `games` `handle` moves first in (seat 0 of chess: white).
fn moving_first(games: &[Value], handle: &str) -> usize {
    games
        .iter()
        .filter(|game| game["players"][0] == handle)
        .count()
}

/// At a 30-player start (435 games) each player gets one mail: the start, listing their
/// 29 games, a move link for each game they have white in; no "Your move" mail besides.
async fn a_thirty_player_start_is_one_mail_per_player(kind: Kind) {
    let server = Server::start(kind).await;
    let players = players(&server, 30).await;
    let games = round_robin(&players).await;
    assert_eq!(games.len(), 435);
    sweep_out(&server, 20).await;
    for player in &players {
        let handle = player.handle.as_str();
        let starts = mails_with(&server, handle, "has started");
        assert_eq!(starts.len(), 1, "{handle}'s start mails");
        assert!(
            mails_with(&server, handle, "Your move: ").is_empty(),
            "{handle}'s first turns are in the start mail"
        );
        let links = starts[0].matches("/play/").count();
        let white = moving_first(&games, handle);
        assert!(white >= 14, "{handle} has white {white} times");
        assert!(
            links >= white,
            "{handle}: {links} move links for {white} games with white"
        );
    }
    let mails: usize = players
        .iter()
        .map(|p| server.mails_to(&format!("{}@example.org", p.handle)).len())
        .sum();
    assert_eq!(mails, 30 * 2, "each player's sign-up mail and start mail");
}

/// The first game of a three-player event resigned before the notifier reaches any game:
/// every player still gets the start mail, once, and the end of that game its own mail.
async fn start_mails_survive_a_first_game_ended_at_once(kind: Kind) {
    let server = Server::start(kind).await;
    let players = players(&server, 3).await;
    let games = round_robin(&players).await;
    let first = games[0]["game"].as_str().unwrap();
    let white = &players[players
        .iter()
        .position(|p| games[0]["players"][0] == p.handle.as_str())
        .unwrap()];
    resign(white, first).await;
    sweep_out(&server, 5).await;
    for player in &players {
        let handle = player.handle.as_str();
        assert_eq!(
            mails_with(&server, handle, "has started").len(),
            1,
            "{handle}'s start mails"
        );
    }
    sweep_out(&server, 5).await;
    for player in &players {
        let handle = player.handle.as_str();
        assert_eq!(
            mails_with(&server, handle, "has started").len(),
            1,
            "{handle}: once, whatever sweeps again"
        );
    }
}

missive_store::contract_tests!(
    a_thirty_player_start_is_one_mail_per_player,
    start_mails_survive_a_first_game_ended_at_once,
);
