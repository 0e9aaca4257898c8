//! The game-over mail: when a game finished (a mate, a draw, a resignation, a time-out),
//! each of its registered players who wants mail is told how it ended and their own
//! result, with the game's score, the final position from their seat, links to the game's
//! page and its archive, and the archive attached; a game imported finished sends nothing. Once per game and player
//! ([`Notice::Ended`]).

use async_trait::async_trait;
use missive_board::escape;
use missive_domain::{Head, MoveRecord, Notice, Player, Seat, SeatResult};
use missive_mail::{Attachment, Mail};
use missive_rules::AnyGame;

use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::{Board, game_mail, piece_list, score_section};
use crate::post::Post;
use crate::scheduler::Round;

/// The game-over mail.
pub(super) struct Ending;

#[async_trait]
impl MailKind for Ending {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Finished]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let sent = send(post, at.head, at.game).await;
        round.count(|r| &mut r.endings, &at.head.id.0, sent)
    }
}

/// Tells every registered player of the finished game of `head` (at the rules game
/// `game`) how it ended, once each, unless they want no mail; nothing for a game that was
/// imported finished. Whether a mail was sent.
async fn send(post: &Post, head: &Head, game: &dyn AnyGame) -> Result<bool, NotifyError> {
    let doc = &head.doc;
    if doc.imported {
        return Ok(false);
    }
    let players = doc.players();
    let Some(stored) = post.service.notice_log(&head.id).await? else {
        return Ok(false);
    };
    let record = archive(post, head, &players).await;
    let facts = EndFacts {
        head,
        game,
        moves: &stored.moves,
        record: record.as_ref(),
        public_url: &post.public_url,
    };
    post.mail_each_once(&players, |player, unsubscribe| {
        let notice = Notice::Ended {
            game: head.id.clone(),
            player: player.handle.clone(),
        };
        (notice, ending_mail(player, &facts, unsubscribe))
    })
    .await
}

/// The game's archive as its players may read it (their messages included), as the file
/// the mail attaches: `game-{the id's last 8 characters}.pgn`, as PGN for chess and as
/// plain text for the other variants (the archive's format, which PGN tools know only for
/// chess). A game whose archive cannot be written is logged and its mail goes without.
async fn archive(post: &Post, head: &Head, players: &[&str]) -> Option<Attachment> {
    let player = players.first()?;
    match post.service.players_archive_text(&head.id, player).await {
        Ok(text) => Some(Attachment {
            name: format!("game-{}.pgn", short_id(&head.id.0)),
            content_type: match head.doc.variant.as_str() {
                "chess" => "application/vnd.chess-pgn; charset=utf-8",
                _ => "text/plain; charset=utf-8",
            }
            .into(),
            data: text.into_bytes(),
        }),
        Err(error) => {
            tracing::warn!(game = %head.id, %error, "game archive not attached");
            None
        }
    }
}

/// The last eight characters of a game id (a ULID's random part), in lower case.
fn short_id(id: &str) -> String {
    let start = id.len().saturating_sub(8);
    id.get(start..).unwrap_or(id).to_ascii_lowercase()
}

/// What a game-over mail is made of, the same for each of the game's players.
struct EndFacts<'a> {
    /// The game's head.
    head: &'a Head,
    /// The rules game it is at.
    game: &'a dyn AnyGame,
    /// The moves of its log.
    moves: &'a [MoveRecord],
    /// Its archive, attached.
    record: Option<&'a Attachment>,
    /// The API's public URL, without a trailing slash.
    public_url: &'a str,
}

/// The mail telling `to` how the finished game ended: the rule, who ended it, their own
/// result, the score, the final position from their seat, links to the game's page and its
/// archive, and the archive attached.
fn ending_mail(to: &Player, facts: &EndFacts<'_>, unsubscribe_link: &str) -> Mail {
    let (head, public_url) = (facts.head, facts.public_url);
    let outcome = outcome_text(head, &to.handle);
    let seat = head.doc.seat_of(&to.handle).unwrap_or(Seat(0));
    let diagram = facts.game.diagram();
    let board = Board::drawn(&diagram, seat, &head.id.0, &piece_list(&diagram));
    let how = format!("Game over: {}. {outcome}.", ending_text(head));
    let (score_text, score_html) = score_section(head, facts.moves, public_url);
    let page = format!("{public_url}/games/{}", head.id);
    let archive = format!("{public_url}/v1/games/{}/archive", head.id);
    let attached = facts
        .record
        .map(|file| format!("Its record is attached ({}), and online", file.name))
        .unwrap_or_else(|| "Its record".into());
    let text = format!(
        "Hello {name},\n\n{how}\n\n{score_text}The game: {page}\n\
         {attached} (PGN, with the date of every move): {archive}\n\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p><b>{how}</b></p>\n{board}{score_html}\
         <p><a href=\"{page}\">The game</a> · <a href=\"{archive}\">its record (PGN)</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        how = escape(&how),
        board = board.html,
        page = escape(&page),
        archive = escape(&archive),
        unsubscribe = escape(unsubscribe_link),
    );
    Mail {
        attachments: facts.record.into_iter().cloned().collect(),
        ..game_mail(to, head, text, html, board.inline, unsubscribe_link)
    }
}

/// How the game ended: "resignation by bob", "checkmate by ann".
fn ending_text(head: &Head) -> String {
    let Some(ending) = &head.doc.ending else {
        return "the game has ended".into();
    };
    let by = ending
        .by
        .and_then(|seat| head.doc.player_in(seat))
        .map(|player| format!(" by {player}"))
        .unwrap_or_default();
    format!("{}{by}", ending.rule)
}

/// The recipient's own result: "You won", "You share the win", "A draw", "You lost".
fn outcome_text(head: &Head, me: &str) -> String {
    let result = head
        .doc
        .ending
        .as_ref()
        .and_then(|ending| ending.result_of(head.doc.seat_of(me)?));
    match result {
        Some(SeatResult::Win) => "You won",
        Some(SeatResult::SharedWin) => "You share the win",
        Some(SeatResult::Draw) => "A draw",
        Some(SeatResult::Loss) => "You lost",
        None => "No result",
    }
    .to_string()
}
