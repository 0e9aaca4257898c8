//! Notes: what happens in a game besides its moves that its other players are told of by
//! mail: messages, and draws offered without a move, accepted (while the game goes on) or
//! declined. Which notes a player is still to hear of, when they go out, and how a mail
//! words them.
//!
//! A player is still to hear of the notes logged after their own last move (they moved on
//! from the earlier ones, which went out with a turn mail or on their own), written by
//! another seat; once a game is over, only its messages. Each note goes to each player once
//! (a [`Notice::Note`] marker).
//!
//! A note goes out on its own at once when it is about a draw (a move lapses the offer), the
//! game is over, it is its player's turn (their turn mail went out already), they want no
//! mail per move, or they want messages at once ([`MessageMail::AtOnce`]); otherwise a
//! message waits for the player's next turn mail ([`super::turn`]), which carries every
//! note they are still to hear of. Players who want no mail at all get none.
//!
//! Messages are the players' own text: a mail quotes them as plain text, each line behind
//! `> ` in the text part, escaped in the HTML part; they never reach a header (a subject is
//! the game's title: its players' handles and its variant).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_auth::MoveLink;
use missive_board::escape;
use missive_domain::{
    GameEvent, Head, LogEntry, MailPreference, MessageMail, Notice, Player, Status, StoredGame,
};
use missive_mail::Mail;

use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::game_mail;
use crate::post::Post;
use crate::scheduler::Round;

/// The mails of notes sent on their own.
pub(super) struct Notes;

#[async_trait]
impl MailKind for Notes {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Turn, Stage::Finished]
    }

    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let sent = deliver(post, at.head, round).await;
        round.count(|r| &mut r.notes, &at.head.id.0, sent)
    }
}

/// Mails each player of `head`'s game the notes due to them now, one mail each (the game's
/// log is read only when it has events). Whose turn it is comes from `head`, the state
/// being attended, not from the log read after it: a move made meanwhile is attended next,
/// and its turn mail carries the messages waiting for it. Whether a mail was sent.
async fn deliver(post: &Post, head: &Head, round: &mut Round) -> Result<bool, NotifyError> {
    let started = matches!(head.doc.status, Status::Active | Status::Finished);
    if head.events == 0 || !started {
        return Ok(false);
    }
    let Some(stored) = post.service.notice_log(&head.id).await? else {
        return Ok(false);
    };
    let mut sent = false;
    for player in stored.head.doc.players() {
        let pending = pending_notes(&stored, player);
        if pending.is_empty() {
            continue;
        }
        let preference = round.preference(&post.service, player).await?;
        if preference == MailPreference::None {
            continue;
        }
        let waits = waits_for_turn(post, head, player, preference).await?;
        let due = pending
            .into_iter()
            .filter(|note| note.is_draw() || !waits)
            .collect();
        sent |= send(post, &stored.head, player, due).await?;
    }
    Ok(sent)
}

/// The notes `player` is still to hear of in the game `stored`, claimed for the turn mail
/// that carries them, and their markers.
pub(super) async fn claim_pending(
    post: &Post,
    stored: &StoredGame,
    player: &str,
) -> Result<(Vec<Note>, Vec<Notice>), NotifyError> {
    claim(post, &stored.head, player, pending_notes(stored, player)).await
}

/// Whether `player`'s messages in the game of `head` wait for their next turn mail: they
/// get a mail per move and want messages with it, and it is not their turn.
async fn waits_for_turn(
    post: &Post,
    head: &Head,
    player: &str,
    preference: MailPreference,
) -> Result<bool, NotifyError> {
    let their_turn = head.player_to_move() == Some(player);
    if preference != MailPreference::EachMove || head.doc.status != Status::Active || their_turn {
        return Ok(false);
    }
    Ok(post.service.message_mail(player).await? == MessageMail::WithTurn)
}

/// Claims each of `notes` for `player` and mails the ones this call claimed, together; a
/// failure releases their claims. Whether a mail was sent.
async fn send(
    post: &Post,
    head: &Head,
    player: &str,
    notes: Vec<Note>,
) -> Result<bool, NotifyError> {
    if notes.is_empty() {
        return Ok(false);
    }
    let Some(to) = post.service.registered(player).await? else {
        return Ok(false);
    };
    let (notes, claimed) = claim(post, head, player, notes).await?;
    if notes.is_empty() {
        return Ok(false);
    }
    let sent = async {
        let mail = compose(post, head, &to, &notes)?;
        post.transport.send(&mail).await?;
        Ok(true)
    }
    .await;
    if sent.is_err() {
        post.release_all(&claimed).await;
    }
    sent
}

/// Claims each of `notes` for `player`: the ones this call claimed (others were told
/// before) and their markers; if a claim fails, the ones made are released.
async fn claim(
    post: &Post,
    head: &Head,
    player: &str,
    notes: Vec<Note>,
) -> Result<(Vec<Note>, Vec<Notice>), NotifyError> {
    let (mut kept, mut claimed) = (Vec::new(), Vec::new());
    for note in notes {
        let notice = note.notice(head, player);
        match post.service.claim_notice(&notice).await {
            Ok(true) => {
                claimed.push(notice);
                kept.push(note);
            }
            Ok(false) => {}
            Err(error) => {
                post.release_all(&claimed).await;
                return Err(error.into());
            }
        }
    }
    Ok((kept, claimed))
}

/// The mail of `notes` to `to`, linking to the move page of their seat while the game is
/// on (to answer, accept a draw, or move), else to the game's page.
fn compose(post: &Post, head: &Head, to: &Player, notes: &[Note]) -> Result<Mail, NotifyError> {
    let now = post.clock.now();
    let link = match (head.doc.status, head.doc.seat_of(&to.handle)) {
        (Status::Active, Some(seat)) => {
            let link = MoveLink {
                handle: to.handle.clone(),
                game: head.id.clone(),
                seat,
                ply: head.ply,
            };
            let deadline = head.waiting.as_ref().map_or(now, |w| w.deadline);
            post.move_link(&link, deadline, now)?
        }
        _ => format!("{}/games/{}", post.public_url, head.id),
    };
    let unsubscribe = post.unsubscribe_link(&to.handle, now)?;
    Ok(notes_mail(to, head, notes, &link, &unsubscribe))
}

/// A note as a mail tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Note {
    /// The event's sequence number in its game.
    pub seq: u32,
    /// Who did it.
    pub author: String,
    /// When.
    pub at: DateTime<Utc>,
    /// What.
    pub kind: NoteKind,
}

/// What a note says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum NoteKind {
    /// A message, as written.
    Message(String),
    /// A draw offered without a move.
    DrawOffered,
    /// The draw offered accepted, while others have still to agree.
    DrawAccepted,
    /// The draw offered declined.
    DrawDeclined,
}

impl Note {
    /// Whether it is about a draw: those go out at once, since a move lapses the offer.
    fn is_draw(&self) -> bool {
        !matches!(self.kind, NoteKind::Message(_))
    }

    /// The marker of `player` having been told of it in `head`'s game.
    fn notice(&self, head: &Head, player: &str) -> Notice {
        Notice::Note {
            game: head.id.clone(),
            seq: self.seq,
            player: player.to_string(),
        }
    }

    /// What happened, in a few words (a subject's).
    fn summary(&self) -> String {
        let author = &self.author;
        match &self.kind {
            NoteKind::Message(_) => format!("Message from {author}"),
            NoteKind::DrawOffered => format!("{author} offers a draw"),
            NoteKind::DrawAccepted => format!("{author} accepts the draw offered"),
            NoteKind::DrawDeclined => format!("{author} declines the draw"),
        }
    }

    /// The note in a sentence with its time, without the message itself.
    fn headline(&self) -> String {
        let at = self.at.format("%Y-%m-%d %H:%M UTC");
        match &self.kind {
            NoteKind::Message(_) => format!("{} wrote ({at}):", self.author),
            _ => format!("{} ({at}).", self.summary()),
        }
    }

    /// The note in a text part: the headline and the message's lines behind `> `.
    fn text(&self) -> String {
        match &self.kind {
            NoteKind::Message(text) => {
                let quoted: Vec<String> = text.lines().map(|line| format!("> {line}")).collect();
                format!("{}\n{}", self.headline(), quoted.join("\n"))
            }
            _ => self.headline(),
        }
    }

    /// The note in an HTML part, every text escaped, the message's line breaks kept.
    fn html(&self) -> String {
        match &self.kind {
            NoteKind::Message(text) => format!(
                "<p>{}</p>\n<blockquote style=\"white-space:pre-wrap\">{}</blockquote>\n",
                escape(&self.headline()),
                escape(text)
            ),
            _ => format!("<p>{}</p>\n", escape(&self.headline())),
        }
    }
}

/// The notes of `stored` that `player` (seated in it) is still to hear of, in log order:
/// those after their last move, by other seats; only messages once the game is over.
fn pending_notes(stored: &StoredGame, player: &str) -> Vec<Note> {
    let doc = &stored.head.doc;
    let Some(seat) = doc.seat_of(player) else {
        return Vec::new();
    };
    let over = doc.status != Status::Active;
    let entries = stored.entries();
    let after = entries
        .iter()
        .rposition(|entry| matches!(entry, LogEntry::Move(mv) if mv.seat == seat))
        .map_or(0, |index| index + 1);
    entries[after..]
        .iter()
        .filter_map(|entry| match entry {
            LogEntry::Event(event) if event.seat != Some(seat) => Some(event),
            _ => None,
        })
        .filter_map(|event| {
            let kind = match &event.event {
                GameEvent::Message { text } => NoteKind::Message(text.clone()),
                GameEvent::DrawOffered if !over => NoteKind::DrawOffered,
                GameEvent::DrawAccepted if !over => NoteKind::DrawAccepted,
                GameEvent::DrawDeclined if !over => NoteKind::DrawDeclined,
                _ => return None,
            };
            Some(Note {
                seq: event.seq,
                author: doc.player_in(event.seat?)?.to_string(),
                at: event.at,
                kind,
            })
        })
        .collect()
}

/// The notes as a turn mail carries them (nothing when there are none): text and HTML.
pub(super) fn notes_section(notes: &[Note]) -> (String, String) {
    if notes.is_empty() {
        return (String::new(), String::new());
    }
    let text: Vec<String> = notes.iter().map(Note::text).collect();
    let html: String = notes.iter().map(Note::html).collect();
    (format!("{}\n\n", text.join("\n\n")), html)
}

/// The mail telling `to` the notes of `head`'s game: who wrote or offered what, and where
/// to answer (`link`: the move page for their seat, or the game's page once it is over).
fn notes_mail(
    to: &Player,
    head: &Head,
    notes: &[Note],
    link: &str,
    unsubscribe_link: &str,
) -> Mail {
    let authors = notes
        .iter()
        .map(|note| note.author.as_str())
        .fold(Vec::<&str>::new(), |mut names, name| {
            if !names.contains(&name) {
                names.push(name);
            }
            names
        })
        .join(" and ");
    let what = match notes {
        [note] => note.summary(),
        _ => format!("News from {authors}"),
    };
    let (text_notes, html_notes) = notes_section(notes);
    let answer = match head.doc.status {
        Status::Active => "Answer, or see the game",
        _ => "The game",
    };
    let text = format!(
        "Hello {name},\n\n{what}:\n\n{text_notes}{answer}:\n{link}\n\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{what}:</p>\n\
         {html_notes}<p><a href=\"{link}\">{answer}</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&to.handle),
        what = escape(&what),
        link = escape(link),
        unsubscribe = escape(unsubscribe_link),
    );
    game_mail(to, head, text, html, Vec::new(), unsubscribe_link)
}
