//! Notes: what happens in a game besides its moves that its other players are told of by
//! mail: messages, and draws offered without a move, accepted (while the game goes on) or
//! declined. Which notes a player is still to hear of, and how a mail words them.
//!
//! A player is still to hear of the notes logged after their own last move (they moved on
//! from the earlier ones, which went out with a turn mail or on their own), written by
//! another seat; once a game is over, only its messages. Each note goes to each player once
//! (a [`Notice::Note`] marker).
//!
//! Messages are the players' own text: a mail quotes them as plain text, each line behind
//! `> ` in the text part, escaped in the HTML part; they never reach a header (subjects name
//! only handles, variants and games).

use chrono::{DateTime, Utc};
use missive_board::escape;
use missive_domain::{GameEvent, Head, LogEntry, Notice, Player, Status, StoredGame};
use missive_mail::Mail;

/// A note as a mail tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
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
pub enum NoteKind {
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
    pub fn is_draw(&self) -> bool {
        !matches!(self.kind, NoteKind::Message(_))
    }

    /// The marker of `player` having been told of it in `head`'s game.
    pub fn notice(&self, head: &Head, player: &str) -> Notice {
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
    pub fn text(&self) -> String {
        match &self.kind {
            NoteKind::Message(text) => {
                let quoted: Vec<String> = text.lines().map(|line| format!("> {line}")).collect();
                format!("{}\n{}", self.headline(), quoted.join("\n"))
            }
            _ => self.headline(),
        }
    }

    /// The note in an HTML part, every text escaped, the message's line breaks kept.
    pub fn html(&self) -> String {
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
pub fn pending_notes(stored: &StoredGame, player: &str) -> Vec<Note> {
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
pub fn notes_section(notes: &[Note]) -> (String, String) {
    if notes.is_empty() {
        return (String::new(), String::new());
    }
    let text: Vec<String> = notes.iter().map(Note::text).collect();
    let html: String = notes.iter().map(Note::html).collect();
    (format!("{}\n\n", text.join("\n\n")), html)
}

/// The mail telling `to` the notes of `head`'s game: who wrote or offered what, and where
/// to answer (`link`: the move page for their seat, or the game's page once it is over).
pub fn notes_mail(
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
    let subject = format!("{what} in {} ({})", head.doc.variant, head.id);
    let (text_notes, html_notes) = notes_section(notes);
    let answer = match head.doc.status {
        Status::Active => "Answer, or see the game",
        _ => "The game",
    };
    let text = format!(
        "Hello {name},\n\nin your {variant} game {id}:\n\n{text_notes}{answer}:\n{link}\n\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = to.handle,
        variant = head.doc.variant,
        id = head.id,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>in your {variant} game {id}:</p>\n\
         {html_notes}<p><a href=\"{link}\">{answer}</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&to.handle),
        variant = escape(&head.doc.variant),
        id = escape(&head.id.0),
        link = escape(link),
        unsubscribe = escape(unsubscribe_link),
    );
    crate::compose::finish(to, subject, text, html, Vec::new(), unsubscribe_link)
}
