//! The daily digest: from the digest hour (UTC), a player who wants a daily digest gets one
//! mail of every game waiting for them, with the number of the move due, the time left to
//! its real deadline and a move link each. Once per player and UTC day
//! ([`Notice::Digest`]). The sweep gathers the player's games as it attends them and sends
//! the digest at its end; their wake-ups move on once it is sent.

use async_trait::async_trait;
use chrono::{DateTime, Duration, NaiveTime, Timelike, Utc};
use missive_auth::MoveLink;
use missive_board::escape;
use missive_domain::{Cursor, Head, MailPreference, Notice, Player};
use missive_game::timing::Turn;
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::{finish, game_title, time_left};
use crate::post::Post;
use crate::scheduler::{DUE_PAGE, Round};

/// The daily digest.
pub(super) struct Digest;

#[async_trait]
impl MailKind for Digest {
    /// None: the digest is sent after the sweep, not while a game is attended.
    fn stages(&self) -> &'static [Stage] {
        &[]
    }

    /// The player's next digest, for a digest player.
    fn next(&self, post: &Post, at: &Attendance<'_>) -> Option<DateTime<Utc>> {
        let turn = at.turn.as_ref()?;
        (turn.preference == MailPreference::DailyDigest)
            .then(|| next_digest(at.now, post.config.digest_hour))
    }

    /// From the digest hour the game waits in its player's digest: its wake-up moves on
    /// once the digest is sent (a change event leaves it due for the sweep, which sends
    /// digests).
    fn takes_wake(
        &self,
        post: &Post,
        at: &Attendance<'_>,
        next: DateTime<Utc>,
        round: &mut Round,
    ) -> bool {
        let Some(turn) = &at.turn else {
            return false;
        };
        if turn.preference != MailPreference::DailyDigest || at.now.hour() < post.config.digest_hour
        {
            return false;
        }
        let wakes = round
            .digests
            .entry(turn.waiting.player.clone())
            .or_default();
        wakes.push((at.wake.clone(), next));
        true
    }

    /// Sends each gathered player's digest, then moves their games' wake-ups on.
    async fn after_sweep(&self, post: &Post, now: DateTime<Utc>, round: &mut Round) {
        for (player, wakes) in std::mem::take(&mut round.digests) {
            let sent = send(post, &player, now).await;
            if round.count(|r| &mut r.digests, &player, sent) {
                continue;
            }
            for (wake, next) in wakes {
                if let Err(error) = wake.settle(&post.service, Some(next)).await {
                    round
                        .report
                        .failures
                        .push(format!("{}: {error}", wake.game));
                }
            }
        }
    }
}

/// The first digest time (`hour` o'clock UTC) after `now`.
pub fn next_digest(now: DateTime<Utc>, hour: u32) -> DateTime<Utc> {
    let at = NaiveTime::from_hms_opt(hour.min(23), 0, 0).unwrap_or_default();
    let today = now.date_naive().and_time(at).and_utc();
    if today > now {
        today
    } else {
        today + Duration::days(1)
    }
}

/// One game waiting for the recipient of a digest.
struct DigestEntry {
    /// The game's head.
    head: Head,
    /// When the time for the move runs out, the player's vacations counted.
    deadline: DateTime<Utc>,
    /// The move link for the turn.
    move_link: String,
}

/// Sends `player` today's digest of every game waiting for them, unless it went out
/// already: each game with its deadline (the player's vacations counted) and a move link
/// that lasts as long.
async fn send(post: &Post, player: &str, now: DateTime<Utc>) -> Result<bool, NotifyError> {
    let notice = Notice::Digest {
        player: player.to_string(),
        day: now.date_naive(),
    };
    post.send_once(&notice, async {
        let Some(to) = post.service.registered(player).await? else {
            return Ok(None);
        };
        let vacations = post.service.vacations(player).await?;
        let mut entries = Vec::new();
        for head in waiting_heads(post, player).await? {
            let (Some(waiting), Some(seat)) = (&head.waiting, head.to_move) else {
                continue;
            };
            let deadline = Turn::waiting(waiting).deadline(&vacations);
            let link = MoveLink {
                handle: player.to_string(),
                game: head.id.clone(),
                seat,
                ply: head.ply,
            };
            let move_link = post.move_link(&link, deadline, now)?;
            entries.push(DigestEntry {
                head,
                deadline,
                move_link,
            });
        }
        let unsubscribe = post.unsubscribe_link(player, now)?;
        Ok(Some((
            digest_mail(&to, &entries, now, &unsubscribe),
            Vec::new(),
        )))
    })
    .await
}

/// Every game waiting for `player`, page by page.
async fn waiting_heads(post: &Post, player: &str) -> Result<Vec<Head>, NotifyError> {
    let mut heads = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let page = post
            .service
            .heads_waiting_for(player, cursor.as_ref(), DUE_PAGE)
            .await?;
        heads.extend(page.items);
        match page.next {
            Some(next) => cursor = Some(next),
            None => return Ok(heads),
        }
    }
}

/// The daily digest for `to`: every game waiting for them, with a link each.
fn digest_mail(
    to: &Player,
    entries: &[DigestEntry],
    now: DateTime<Utc>,
    unsubscribe_link: &str,
) -> Mail {
    let lines: Vec<(String, &str)> = entries
        .iter()
        .map(|entry| {
            let head = &entry.head;
            let left = time_left(entry.deadline - now);
            let line = format!(
                "{} ({}), move {}: {left} left",
                game_title(head),
                head.id,
                head.next_move_number()
                    .map_or_else(|| (head.ply + 1).to_string(), |number| number.to_string())
            );
            (line, entry.move_link.as_str())
        })
        .collect();
    let subject = match entries.len() {
        1 => "1 game is waiting for your move".to_string(),
        n => format!("{n} games are waiting for your move"),
    };
    let text_list: String = lines
        .iter()
        .map(|(line, link)| format!("- {line}\n  {link}\n"))
        .collect();
    let html_list: String = lines
        .iter()
        .map(|(line, link)| {
            format!(
                "<li>{} <a href=\"{}\">Make your move</a></li>\n",
                escape(line),
                escape(link)
            )
        })
        .collect();
    let text = format!(
        "Hello {name},\n\nthese games are waiting for your move:\n\n{text_list}\n-- \n\
         Mail about your turns (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
    );
    let html = format!(
        "<p>Hello {name},</p>\n\
         <p>These games are waiting for your move:</p>\n<ul>\n{html_list}</ul>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your turns</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}
