//! The turn mail: when it has become a player's turn and they want a mail per move, the
//! opponent's last move in short notation with its move number (or that the game began),
//! the game's score, the board from their seat, the time left until the real deadline, the
//! move link, and the notes they are still to hear of. With replies by mail set up, it also
//! carries a `Reply-To` whose token plays the move a reply names
//! ([`crate::links::reply_address`]). Once per game and ply ([`Notice::Turn`]). The reminder
//! ([`super::reminder`]) is this mail again at 80% of the time.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_auth::MoveLink;
use missive_board::escape;
use missive_domain::{Head, MailPreference, MoveRecord, Notice, Player, Seat};
use missive_mail::Mail;
use missive_rules::AnyGame;

use super::notes::{self, Note, notes_section};
use super::tournament_start::folds_first_turn;
use super::{Attendance, MailKind, Stage};
use crate::NotifyError;
use crate::compose::{Board, game_mail, piece_list, score_section, time_left, utc};
use crate::post::{Composed, Post};
use crate::scheduler::Round;

/// The turn mail.
pub(super) struct TurnMail;

#[async_trait]
impl MailKind for TurnMail {
    fn stages(&self) -> &'static [Stage] {
        &[Stage::Turn]
    }

    /// Due to a player who wants a mail per move, unless the game's wake-up came after the
    /// turn's start (the turn mail then went out before it was moved on), or it is the
    /// first turn of a tournament's game, whose move link its start mail carried.
    async fn attend(&self, post: &Post, at: &Attendance<'_>, round: &mut Round) -> bool {
        let Some(turn) = &at.turn else {
            return false;
        };
        if turn.preference != MailPreference::EachMove || at.wake.at > turn.waiting.since {
            return false;
        }
        let sent = match folds_first_turn(post, at.head).await {
            Ok(true) => Ok(false),
            Ok(false) => send(post, at, TurnNotice::Turn).await,
            Err(error) => Err(error),
        };
        round.count(|r| &mut r.turns, &at.head.id.0, sent)
    }
}

/// Which mail about a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TurnNotice {
    /// It has just become the player's turn.
    Turn,
    /// 80% of the time for the move is gone.
    Reminder,
}

/// Sends `notice` about the turn `at` attends to the player to move, unless it was sent
/// before: whether it was sent.
pub(super) async fn send(
    post: &Post,
    at: &Attendance<'_>,
    notice: TurnNotice,
) -> Result<bool, NotifyError> {
    let (game, ply) = (at.head.id.clone(), at.head.ply);
    let key = match notice {
        TurnNotice::Turn => Notice::Turn { game, ply },
        TurnNotice::Reminder => Notice::Reminder { game, ply },
    };
    post.send_once(&key, compose(post, at, notice)).await
}

/// The turn mail (or reminder) for the player to move in the game `at` attends; none if
/// nobody registered sits there. A turn mail carries the notes its player is still to hear
/// of, claimed here: their markers come with the mail.
async fn compose(
    post: &Post,
    at: &Attendance<'_>,
    notice: TurnNotice,
) -> Result<Composed, NotifyError> {
    let head = at.head;
    let (Some(turn), Some(seat)) = (&at.turn, head.to_move) else {
        return Ok(None);
    };
    let Some(player) = post.service.registered(&turn.waiting.player).await? else {
        return Ok(None);
    };
    let Some(stored) = post.service.notice_log(&head.id).await? else {
        return Ok(None);
    };
    let now = post.clock.now();
    let deadline = turn.times.deadline;
    let link = MoveLink {
        handle: player.handle.clone(),
        game: head.id.clone(),
        seat,
        ply: head.ply,
    };
    let move_link = post.move_link(&link, deadline, now)?;
    let reply_to = post.reply_address(&link);
    let unsubscribe_link = post.unsubscribe_link(&player.handle, now)?;
    let (notes, claimed) = match notice {
        TurnNotice::Turn => notes::claim_pending(post, &stored, &player.handle).await?,
        TurnNotice::Reminder => (Vec::new(), Vec::new()),
    };
    let facts = TurnFacts {
        to: &player,
        head,
        game: at.game,
        moves: &stored.moves,
        now,
        deadline,
        public_url: &post.public_url,
        move_link,
        reply_to,
        unsubscribe_link,
        notes,
    };
    Ok(Some((turn_mail(notice, &facts), claimed)))
}

/// What a mail about one turn is made of.
struct TurnFacts<'a> {
    /// The recipient, the player to move.
    to: &'a Player,
    /// The game's head.
    head: &'a Head,
    /// The rules game it is at (its last moves known, at least the last one).
    game: &'a dyn AnyGame,
    /// The moves of its log (which may hold moves made since, past the head's ply).
    moves: &'a [MoveRecord],
    /// Now.
    now: DateTime<Utc>,
    /// When the time for the move runs out, the player's vacations counted.
    deadline: DateTime<Utc>,
    /// The API's public URL, without a trailing slash.
    public_url: &'a str,
    /// The move link for this turn.
    move_link: String,
    /// The address a reply with the move goes to, when replies are set up.
    reply_to: Option<String>,
    /// The recipient's unsubscribe link.
    unsubscribe_link: String,
    /// What the other players wrote or offered that the mail carries.
    notes: Vec<Note>,
}

/// The mail telling `facts.to` it is their turn (or reminding them).
fn turn_mail(notice: TurnNotice, facts: &TurnFacts<'_>) -> Mail {
    let head = facts.head;
    let deadline = facts.deadline;
    let left = time_left(deadline - facts.now);
    let last = last_move_text(head, facts.game);
    let mut intro = match notice {
        TurnNotice::Turn => format!("Your move: {last}"),
        TurnNotice::Reminder => {
            format!("Reminder: {left} left for your move (80% of the time for it is gone). {last}")
        }
    };
    if let Some(offer) = draw_offer_text(head, &facts.to.handle) {
        intro = format!("{intro} {offer}");
    }
    let (notes_text, notes_html) = notes_section(&facts.notes);
    let (score_text, score_html) = score_section(head, facts.moves, facts.public_url);
    let seat = head.to_move.unwrap_or(Seat(0));
    let board_url = format!(
        "{}/v1/games/{}/board.svg?seat={}",
        facts.public_url,
        head.id,
        facts
            .game
            .seat_names()
            .get(seat.index())
            .copied()
            .unwrap_or("white")
    );
    let diagram = facts.game.diagram();
    let pieces = piece_list(&diagram);
    let board = Board::drawn(&diagram, seat, &head.id.0, &pieces);
    let until = utc(deadline);
    let (make_text, make_html) = match facts.reply_to {
        Some(_) => (REPLY_OFFER_TEXT, REPLY_OFFER_HTML),
        None => ("Make your move:", ""),
    };
    let text = format!(
        "Hello {name},\n\n{intro}\n\n{notes_text}{score_text}{pieces}\n\nTime left: {left} (until {until}).\n\n\
         {make_text}\n{link}\n\nThe board: {board_url}\n\n-- \n\
         Mail about your turns (each move, a daily digest, or none):\n{unsubscribe}\n",
        name = facts.to.handle,
        link = facts.move_link,
        unsubscribe = facts.unsubscribe_link,
    );
    let html = format!(
        "<p>Hello {name},</p>\n<p>{intro}</p>\n{notes_html}{board}{score_html}\
         <p>Time left: <b>{left}</b> (until {until}).</p>\n\
         {make_html}<p><a href=\"{link}\">Make your move</a></p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your turns</a>: \
         each move, a daily digest, or none.</p>\n",
        name = escape(&facts.to.handle),
        intro = escape(&intro),
        board = board.html,
        link = escape(&facts.move_link),
        unsubscribe = escape(&facts.unsubscribe_link),
    );
    let mut mail = game_mail(
        facts.to,
        head,
        text,
        html,
        board.inline,
        &facts.unsubscribe_link,
    );
    if let Some(address) = &facts.reply_to {
        mail.headers.push(("Reply-To".into(), address.clone()));
    }
    mail
}

/// What a turn mail says of replying, when replies are set up: text, then HTML.
pub(super) const REPLY_OFFER_TEXT: &str = "Reply with your move (add `draw` to offer a draw \
     with it, or write `resign`), or make it here:";
/// [`REPLY_OFFER_TEXT`] in the HTML part.
pub(super) const REPLY_OFFER_HTML: &str = "<p>Reply with your move (add <code>draw</code> to \
     offer a draw with it, or write <code>resign</code>), or:</p>\n";

/// "bob played 12... Nf6." (moves numbered by rounds, as the archive numbers them) or,
/// before the first move, that the game began.
fn last_move_text(head: &Head, game: &dyn AnyGame) -> String {
    let Some(last) = game.played().pop().filter(|_| head.ply > 0) else {
        return "the game has begun, and you move first.".into();
    };
    let mover = head.doc.player_in(last.seat).unwrap_or("your opponent");
    format!(
        "{mover} played {} {}.",
        head.last_move_number(last.seat),
        last.short
    )
}

/// "ann offers a draw: accept it on the move page." when seats other than `me`'s offer one.
fn draw_offer_text(head: &Head, me: &str) -> Option<String> {
    let mine = head.doc.seat_of(me);
    let offering: Vec<&str> = head
        .doc
        .draw_offers
        .iter()
        .filter(|seat| Some(**seat) != mine)
        .filter_map(|seat| head.doc.player_in(*seat))
        .collect();
    if offering.is_empty() {
        return None;
    }
    let verb = if offering.len() == 1 {
        "offers"
    } else {
        "offer"
    };
    Some(format!(
        "{} {verb} a draw: accept it on the move page, or play on.",
        offering.join(" and ")
    ))
}
