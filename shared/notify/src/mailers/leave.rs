//! Leaves: when a seated player's leave starts, and when it ends (at its end or when it is
//! ended early), each opponent who wants mail is told: who, until when, and the games the
//! two share. Once per leave, edge and recipient ([`Notice::Leave`]), whatever the games
//! they share; a leave cancelled before it starts sends nothing.

use async_trait::async_trait;
use chrono::{DateTime, TimeDelta, Utc};
use missive_board::escape;
use missive_domain::{Cursor, GameId, Head, LeaveEdge, MailPreference, Notice, Period, Player};
use missive_game::{Membership, Seated};
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::{finish, utc};
use crate::post::{Composed, Post};
use crate::scheduler::{DUE_PAGE, Round};

/// How far before its wake-up a game looks for starts and ends of leaves whose mail is not
/// sent (a move that set the wake-up to its own time may have overtaken one).
const LEAVE_LOOKBACK: TimeDelta = TimeDelta::days(1);

/// The mails of leaves.
pub(super) struct Leave;

#[async_trait]
impl MailKind for Leave {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Turn]
    }

    /// Due for each start or end of a seated player's leave since a while before the
    /// game's wake-up (never before the game started).
    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let Some(turn) = &at.turn else {
            return false;
        };
        let started = at.head.doc.started_at.unwrap_or(turn.waiting.since);
        let from = (at.wake.at - LEAVE_LOOKBACK).max(started);
        let mut failed = false;
        for (seated, period, edge) in leave_edges(&turn.seated, from, at.now) {
            let sent = send(post, at.head, seated, period, edge, round).await;
            failed |= round.count(|r| &mut r.leaves, &at.head.id.0, sent);
        }
        failed
    }

    /// The next start or end of a seated player's leave.
    fn next(&self, _post: &Post, at: &Attendance<'_>) -> Option<DateTime<Utc>> {
        let turn = at.turn.as_ref()?;
        turn.seated
            .iter()
            .flat_map(|s| &s.periods)
            .flat_map(|p| [p.start, p.end])
            .filter(|edge| *edge > at.now)
            .min()
    }
}

/// The starts and ends of the leaves of `seated` from `from` to `now` (both included), each
/// leave once: its end if that has come, else its start.
fn leave_edges(
    seated: &[Seated],
    from: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Vec<(&Seated, Period, LeaveEdge)> {
    let within = |at: DateTime<Utc>| from <= at && at <= now;
    seated
        .iter()
        .flat_map(|s| s.periods.iter().map(move |p| (s, *p)))
        .filter_map(|(s, p)| match (within(p.start), within(p.end)) {
            (_, true) => Some((s, p, LeaveEdge::End)),
            (true, false) => Some((s, p, LeaveEdge::Start)),
            (false, false) => None,
        })
        .collect()
}

/// Tells every other registered player of the game of `head` who wants mail that the leave
/// `period` of `seated` reached its `edge`, once each. Whether a mail was sent.
async fn send(
    post: &Post,
    head: &Head,
    seated: &Seated,
    period: Period,
    edge: LeaveEdge,
    round: &mut Round,
) -> Result<bool, NotifyError> {
    let mut sent = false;
    for handle in head.doc.players() {
        if handle == seated.player
            || round.preference(&post.service, handle).await? == MailPreference::None
        {
            continue;
        }
        let notice = Notice::Leave {
            to: handle.to_string(),
            player: seated.player.clone(),
            start: period.start,
            edge,
        };
        let compose = compose(post, handle, &seated.player, period, edge);
        sent |= post.send_once(&notice, compose).await?;
    }
    Ok(sent)
}

/// The mail telling `to` that the leave `period` of `player` reached its `edge`, with the
/// games they play together; none if `to` is not registered.
async fn compose(
    post: &Post,
    to: &str,
    player: &str,
    period: Period,
    edge: LeaveEdge,
) -> Result<Composed, NotifyError> {
    let Some(recipient) = post.service.registered(to).await? else {
        return Ok(None);
    };
    let now = post.clock.now();
    let facts = LeaveFacts {
        to: &recipient,
        player,
        period,
        edge,
        games: shared_games(post, to, player).await?,
        public_url: &post.public_url,
        unsubscribe_link: post.unsubscribe_link(to, now)?,
    };
    Ok(Some((leave_mail(&facts), Vec::new())))
}

/// The games being played that `to` and `player` both sit in, page by page.
async fn shared_games(post: &Post, to: &str, player: &str) -> Result<Vec<SharedGame>, NotifyError> {
    let mut games = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let page = post
            .service
            .games_of(to, Membership::Active, cursor.as_ref(), DUE_PAGE)
            .await?;
        games.extend(
            page.items
                .into_iter()
                .filter(|game| game.players.iter().flatten().any(|p| p == player))
                .map(|game| SharedGame {
                    next_move: game.next_move.unwrap_or_else(|| (game.ply + 1).to_string()),
                    id: game.id,
                    variant: game.variant,
                }),
        );
        match page.next {
            Some(next) => cursor = Some(next),
            None => return Ok(games),
        }
    }
}

/// What a mail about an opponent's leave is made of.
struct LeaveFacts<'a> {
    /// The recipient, an opponent of the player on leave.
    to: &'a Player,
    /// The player on leave.
    player: &'a str,
    /// The leave (its end as it stands: the planned one, or when it was ended early).
    period: Period,
    /// Whether the leave began or is over.
    edge: LeaveEdge,
    /// The games being played that the two share.
    games: Vec<SharedGame>,
    /// The API's public URL, without a trailing slash.
    public_url: &'a str,
    /// The recipient's unsubscribe link.
    unsubscribe_link: String,
}

/// A game the recipient of a leave mail plays with the player on leave.
struct SharedGame {
    /// The game.
    id: GameId,
    /// The variant id.
    variant: String,
    /// The number of the move due (`13.`, `13...`).
    next_move: String,
}

/// The mail telling `facts.to` that `facts.player`'s leave began (their clocks stand still
/// until its end) or is over (they run again), with a link to each game the two share.
fn leave_mail(facts: &LeaveFacts<'_>) -> Mail {
    let player = facts.player;
    let (from, until) = (utc(facts.period.start), utc(facts.period.end));
    let (subject, news) = match facts.edge {
        LeaveEdge::Start => (
            format!("{player} is on leave until {until}"),
            format!(
                "{player} is on leave from {from} until {until}. Meanwhile {player}'s clocks \
                 stand still, and answers may take longer."
            ),
        ),
        LeaveEdge::End => (
            format!("{player} is back from leave"),
            format!("{player}'s leave from {from} ended at {until}: {player}'s clocks run again."),
        ),
    };
    let games: Vec<(String, String)> = facts
        .games
        .iter()
        .map(|game| {
            let line = format!("{} {}, move {}", game.variant, game.id, game.next_move);
            (line, format!("{}/games/{}", facts.public_url, game.id))
        })
        .collect();
    let text_list: String = games
        .iter()
        .map(|(line, link)| format!("- {line}: {link}\n"))
        .collect();
    let html_list: String = games
        .iter()
        .map(|(line, link)| {
            format!(
                "<li><a href=\"{}\">{}</a></li>\n",
                escape(link),
                escape(line)
            )
        })
        .collect();
    let text = format!(
        "Hello {name},\n\n{news}\n\nYour games with {player}:\n{text_list}\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe}\n",
        name = facts.to.handle,
        unsubscribe = facts.unsubscribe_link,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{news}</p>\n\
         <p>Your games with {player}:</p>\n<ul>\n{html_list}</ul>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&facts.to.handle),
        news = escape(&news),
        player = escape(player),
        unsubscribe = escape(&facts.unsubscribe_link),
    );
    finish(
        facts.to,
        subject,
        text,
        html,
        Vec::new(),
        &facts.unsubscribe_link,
    )
}
