//! The start of a tournament: when any of its games is attended (active or finished) once
//! it has started, every player is told it started, in one mail listing their games, each
//! with its link: the move link for the games where they move first, whose own first turn
//! mails are folded into this one ([`folds_first_turn`]). Once per tournament and player
//! ([`missive_domain::Notice::Tournament`], edge `start`); once every player's went out the
//! tournament records it ([`Tournament::told`]) and its games stop looking.

use std::collections::HashMap;

use async_trait::async_trait;
use missive_auth::MoveLink;
use missive_board::escape;
use missive_domain::{GameId, Head, Player, Tournament, TournamentEdge, TournamentState};
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage, tournament};
use crate::NotifyError;
use crate::compose::finish;
use crate::post::Post;
use crate::scheduler::Round;

/// The mail of a tournament's start.
pub(super) struct TournamentStart;

#[async_trait]
impl MailKind for TournamentStart {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Active, Stage::Finished]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let sent = send(post, at.head).await;
        round.count(|r| &mut r.tournaments, &at.head.id.0, sent)
    }
}

/// Whether the first turn mail of the game at `head` is folded into its tournament's start
/// mail: it is a tournament's game at its first move, and the start mail (which carries its
/// move link) has gone to every player.
pub(super) async fn folds_first_turn(post: &Post, head: &Head) -> Result<bool, NotifyError> {
    if head.ply > 0 {
        return Ok(false);
    }
    let Some(tournament) = tournament::of_game(post, head).await? else {
        return Ok(false);
    };
    Ok(tournament.told.contains(&TournamentEdge::Start))
}

/// Tells the players of the tournament of the game at `head` that it started, unless they
/// were all told before (only the tournament is read then: this runs at every attendance of
/// every one of its games). Whether a mail was sent.
async fn send(post: &Post, head: &Head) -> Result<bool, NotifyError> {
    let Some(tournament) = tournament::of_game(post, head).await? else {
        return Ok(false);
    };
    let started = matches!(
        tournament.state,
        TournamentState::Running | TournamentState::Paused | TournamentState::Finished
    );
    if !started || tournament.told.contains(&TournamentEdge::Start) {
        return Ok(false);
    }
    let first_moves = first_move_links(post, &tournament).await?;
    let sent = tournament::tell(
        post,
        &tournament,
        &tournament.players,
        TournamentEdge::Start,
        |to, unsubscribe| {
            let started = Started {
                tournament: &tournament,
                first_moves: &first_moves,
                public_url: &post.public_url,
            };
            tournament_started_mail(to, &started, unsubscribe)
        },
    )
    .await?;
    post.service
        .tournament_told(&tournament.id, TournamentEdge::Start)
        .await?;
    Ok(sent)
}

/// The first moves still to play in `tournament`'s games, by game: the player to move at
/// ply 0 of each and their move link.
async fn first_move_links(post: &Post, tournament: &Tournament) -> Result<FirstMoves, NotifyError> {
    let mut links = HashMap::new();
    let now = post.clock.now();
    for game in &tournament.games {
        let Some((head, _)) = post.service.notice_state(&game.game).await? else {
            continue;
        };
        let (Some(waiting), Some(seat)) = (&head.waiting, head.to_move) else {
            continue;
        };
        if head.ply > 0 {
            continue;
        }
        let Some(deadline) = post.service.turn_deadline(&head).await? else {
            continue;
        };
        let link = MoveLink {
            handle: waiting.player.clone(),
            game: head.id.clone(),
            seat,
            ply: 0,
        };
        let address = post.move_link(&link, deadline, now)?;
        links.insert(head.id.clone(), (link.handle, address));
    }
    Ok(links)
}

/// Each game's player to move first and their move link, by game.
type FirstMoves = HashMap<GameId, (String, String)>;

/// What a start mail tells of: the tournament, the move links of its first moves, and the
/// API's public URL.
struct Started<'a> {
    tournament: &'a Tournament,
    first_moves: &'a FirstMoves,
    public_url: &'a str,
}

/// The mail telling `to` that the tournament started: their games, each with its link (the
/// move link where they move first).
fn tournament_started_mail(to: &Player, started: &Started<'_>, unsubscribe_link: &str) -> Mail {
    let (tournament, public_url) = (started.tournament, started.public_url);
    let games: Vec<(String, String)> = tournament
        .games
        .iter()
        .filter(|g| g.players.iter().any(|p| p == &to.handle))
        .map(|g| {
            let others: Vec<&str> = g
                .players
                .iter()
                .filter(|p| **p != to.handle)
                .map(String::as_str)
                .collect();
            let against = format!("round {} against {}", g.round, others.join(" and "));
            match started.first_moves.get(&g.game) {
                Some((mover, link)) if *mover == to.handle => {
                    (link.clone(), format!("{against}: your move"))
                }
                _ => (format!("{public_url}/games/{}", g.game), against),
            }
        })
        .collect();
    let page = format!("{public_url}/tournaments/{}", tournament.id);
    let subject = format!(
        "{} has started: {}",
        tournament.name,
        your_games(games.len())
    );
    let list: String = games
        .iter()
        .map(|(link, what)| format!("- {what}: {link}\n"))
        .collect();
    let text = format!(
        "Hello {name},\n\n{event} has started: every game at once, {variant}.\n\n{list}\n\
         The standings: {page}\n\n-- \nMail about your games (each move, a daily digest, or \
         none):\n{unsubscribe_link}\n",
        name = to.handle,
        event = tournament.name,
        variant = tournament.variant,
    );
    let items: String = games
        .iter()
        .map(|(link, what)| {
            format!(
                "<li><a href=\"{}\">{}</a></li>\n",
                escape(link),
                escape(what)
            )
        })
        .collect();
    let html = format!(
        "<p>Hello {name},</p>\n<p>{event} has started: every \
         game at once, {variant}.</p>\n<ul>\n{items}</ul>\n<p><a href=\"{page}\">The \
         standings</a></p>\n<p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about \
         your games</a>: each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        event = escape(&tournament.name),
        variant = escape(&tournament.variant),
        page = escape(&page),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}

/// "your game" or "your N games", as the start mail's subject counts them.
fn your_games(count: usize) -> String {
    match count {
        1 => "your game".to_string(),
        n => format!("your {n} games"),
    }
}

#[cfg(test)]
mod tests {
    use super::your_games;

    #[test]
    fn one_game_is_not_counted_as_games() {
        assert_eq!(your_games(1), "your game");
        assert_eq!(your_games(2), "your 2 games");
    }
}
