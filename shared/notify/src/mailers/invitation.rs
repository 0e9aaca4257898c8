//! Invitations to a game, mailed when the request that creates the game asks (an address
//! invited is known to that request only, not to the game), not from the change feed: to
//! each player invited by handle who wants mail, and to each address a seat is reserved
//! for, with accept and decline links that work without signing in (for an address not
//! registered yet, accepting signs its owner up and seats them). Not claimed: the request
//! sends them once.

use chrono::{DateTime, Utc};
use missive_board::escape;
use missive_domain::{GameId, Head, MailPreference, Player, Seat, SeatDoc};
use missive_mail::Mail;

use crate::NotifyError;
use crate::compose::{about_game, time_control_words, to_address};
use crate::links::{InvitationFor, invitation_link};
use crate::scheduler::Scheduler;

impl Scheduler {
    /// Mails the invitations of the forming game `game`: to each player invited by handle
    /// and to each address of `addresses` for the seat reserved for it. A mail that cannot
    /// be sent is logged and left (the invited player still finds the game among their
    /// invitations). How many mails went out.
    pub async fn send_invitations(
        &self,
        game: &GameId,
        addresses: &[(Seat, String)],
    ) -> Result<usize, NotifyError> {
        let Some((head, rules)) = self.post.service.notice_state(game).await? else {
            return Ok(0);
        };
        let names = rules.seat_names();
        let now = self.post.clock.now();
        let mut sent = 0;
        for (index, state) in head.doc.seats.iter().enumerate() {
            let seat = Seat(index as u8);
            let name = names.get(index).copied().unwrap_or("?");
            let address = addresses.iter().find(|(s, _)| *s == seat).map(|(_, a)| a);
            let result = match (state, address) {
                (SeatDoc::Invited { player }, _) => {
                    self.invite_player(&head, seat, name, player, now).await
                }
                (SeatDoc::Reserved, Some(address)) => {
                    self.invite_address(&head, seat, name, address, now).await
                }
                _ => continue,
            };
            match result {
                Ok(mailed) => sent += usize::from(mailed),
                Err(error) => {
                    tracing::warn!(%game, seat = index, %error, "invitation not mailed");
                }
            }
        }
        Ok(sent)
    }

    /// Mails the registered player `handle` their invitation to `seat` of `head`'s game.
    async fn invite_player(
        &self,
        head: &Head,
        seat: Seat,
        seat_name: &str,
        handle: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, NotifyError> {
        if self.post.service.mail_preference(handle).await? == MailPreference::None {
            return Ok(false);
        }
        let Some(player) = self.post.service.registered(handle).await? else {
            return Ok(false);
        };
        let link = self.invitation(head, seat, handle, now)?;
        let unsubscribe = self.post.unsubscribe_link(handle, now)?;
        let to = Recipient::Player {
            player: &player,
            unsubscribe_link: &unsubscribe,
        };
        self.post
            .transport
            .send(&invitation_mail(&to, head, seat_name, &link))
            .await?;
        Ok(true)
    }

    /// Mails `address` the invitation to `seat` of `head`'s game, reserved for it.
    async fn invite_address(
        &self,
        head: &Head,
        seat: Seat,
        seat_name: &str,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, NotifyError> {
        let link = self.invitation(head, seat, address, now)?;
        let to = Recipient::Address(address);
        self.post
            .transport
            .send(&invitation_mail(&to, head, seat_name, &link))
            .await?;
        Ok(true)
    }

    /// The invitation link for `invitee` to `seat` of `head`'s game, minted at `now`.
    fn invitation(
        &self,
        head: &Head,
        seat: Seat,
        invitee: &str,
        now: DateTime<Utc>,
    ) -> Result<String, NotifyError> {
        let target = InvitationFor {
            invitee,
            game: &head.id,
            seat,
        };
        Ok(invitation_link(
            &self.post.authority,
            &self.post.public_url,
            &target,
            now,
        )?)
    }
}

/// Whom an invitation mail goes to.
enum Recipient<'a> {
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

/// The mail inviting `to` to the seat named `seat_name` (`black`, `wu`) of the forming game
/// of `head`: what the game is, who invites, and the links `{link}/accept` and
/// `{link}/decline` (`link` from [`invitation_link`]).
fn invitation_mail(to: &Recipient<'_>, head: &Head, seat_name: &str, link: &str) -> Mail {
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
        "{inviter} invites you to a game of {variant}{with}: {tc}, {rated}, you playing \
         {seat_name}.",
        variant = doc.variant,
        tc = time_control_words(doc.time_control),
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
    let subject = format!("{inviter} invites you to play {}", doc.variant);
    let accept = format!("{link}/accept");
    let decline = format!("{link}/decline");
    let text = format!(
        "{greeting}\n\n{what}\n\n{how}\n\nAccept: {accept}\nDecline: {decline}\n\n\
         The links work for 30 days, once.\n\n"
    );
    let html = format!(
        "<p>{greeting}</p>\n<p>{what}</p>\n<p>{how}</p>\n\
         <p><a href=\"{accept}\">Accept</a> · <a href=\"{decline}\">Decline</a></p>\n\
         <p style=\"font-size:small\">The links work for 30 days, once.</p>\n",
        greeting = escape(&greeting),
        what = escape(&what),
        how = escape(how),
        accept = escape(&accept),
        decline = escape(&decline),
    );
    let (address, unsubscribe) = match to {
        Recipient::Player {
            player,
            unsubscribe_link,
        } => (player.email.as_str(), Some(*unsubscribe_link)),
        Recipient::Address(address) => (*address, None),
    };
    let mail = to_address(address, subject, text, html, Vec::new(), unsubscribe);
    about_game(mail, &head.id)
}
