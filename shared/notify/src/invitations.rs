//! The mails of invitations: the invitation itself, with accept and decline links that
//! work without signing in (for an address not registered yet, accepting signs its owner
//! up and seats them), and the word to the inviter when an invitee declines.

use missive_board::escape;
use missive_domain::{Head, Player, Seat, TimeControl};
use missive_mail::Mail;

use crate::compose::finish;

/// Whom an invitation mail goes to.
pub enum Recipient<'a> {
    /// A registered player, with their unsubscribe link.
    Player {
        /// The player.
        player: &'a Player,
        /// Their unsubscribe link.
        unsubscribe_link: &'a str,
    },
    /// An address no player has yet.
    Address(&'a str),
}

/// The time control in words: "3 days per move", "10 moves in 50 days".
pub fn time_control_words(time_control: TimeControl) -> String {
    match time_control {
        TimeControl::DaysPerMove { days: 1 } => "1 day per move".into(),
        TimeControl::DaysPerMove { days } => format!("{days} days per move"),
        TimeControl::Iccf { moves, days } => format!("{moves} moves in {days} days"),
    }
}

/// The mail inviting `to` to `seat` (named `seat_name`) of the forming game of `head`:
/// what the game is, who invites, and the links `{link}/accept` and `{link}/decline`
/// (`link` from [`crate::links::invitation_link`]).
pub fn invitation_mail(
    to: &Recipient<'_>,
    head: &Head,
    seat: Seat,
    seat_name: &str,
    link: &str,
) -> Mail {
    let doc = &head.doc;
    let inviter = &doc.created_by;
    let others: Vec<&str> = doc
        .players()
        .into_iter()
        .filter(|player| player != inviter)
        .collect();
    let with = match others.is_empty() {
        true => String::new(),
        false => format!(" (with {})", others.join(" and ")),
    };
    let rated = if doc.rated { "rated" } else { "unrated" };
    let what = format!(
        "{inviter} invites you to a game of {variant}{with}: {tc}, {rated}, you playing {seat_name} \
         (seat {number}).",
        variant = doc.variant,
        tc = time_control_words(doc.time_control),
        number = seat.0,
    );
    let (greeting, how) = match to {
        Recipient::Player { player, .. } => (
            format!("Hello {},", player.handle),
            "Answer with one of these links (no sign-in needed):",
        ),
        Recipient::Address(_) => (
            "Hello,".to_string(),
            "You have no Missive account yet: accepting lets you choose a name, signs you up \
             with this address and seats you in the game, played by mail. Or decline:",
        ),
    };
    let subject = format!(
        "{inviter} invites you to play {} ({})",
        doc.variant, head.id
    );
    let accept = format!("{link}/accept");
    let decline = format!("{link}/decline");
    let text = format!(
        "{greeting}\n\n{what}\n\n{how}\n\nAccept: {accept}\nDecline: {decline}\n\n\
         The links work for 30 days, once.\n"
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>{greeting}</p>\n<p>{what}</p>\n<p>{how}</p>\n\
         <p><a href=\"{accept}\">Accept</a> · <a href=\"{decline}\">Decline</a></p>\n\
         <p style=\"font-size:small\">The links work for 30 days, once.</p>\n</body></html>\n",
        greeting = escape(&greeting),
        what = escape(&what),
        how = escape(how),
        accept = escape(&accept),
        decline = escape(&decline),
    );
    match to {
        Recipient::Player {
            player,
            unsubscribe_link,
        } => finish(player, subject, text, html, Vec::new(), unsubscribe_link),
        Recipient::Address(address) => Mail {
            to: address.to_string(),
            subject,
            text,
            html: Some(html),
            inline: Vec::new(),
            headers: Vec::new(),
        },
    }
}

/// The mail telling `inviter` that `who` (a handle, or the address invited) declined their
/// invitation to the game of `head`, which is therefore cancelled.
pub fn declined_mail(inviter: &Player, who: &str, head: &Head, unsubscribe_link: &str) -> Mail {
    let subject = format!(
        "{who} declined your {} game ({})",
        head.doc.variant, head.id
    );
    let said = format!(
        "{who} declined your invitation to a game of {} ({}), so the game is cancelled. \
         You may invite someone else, or publish an open challenge.",
        head.doc.variant, head.id
    );
    let text = format!(
        "Hello {name},\n\n{said}\n\n-- \n\
         Mail about your games (each move, a daily digest, or none):\n{unsubscribe_link}\n",
        name = inviter.handle,
    );
    let html = format!(
        "<!doctype html><html><body>\n<p>Hello {name},</p>\n<p>{said}</p>\n\
         <p style=\"font-size:small\"><a href=\"{unsubscribe}\">Mail about your games</a>: \
         each move, a daily digest, or none.</p>\n</body></html>\n",
        name = escape(&inviter.handle),
        said = escape(&said),
        unsubscribe = escape(unsubscribe_link),
    );
    finish(inviter, subject, text, html, Vec::new(), unsubscribe_link)
}
