//! Invitations mailed when a game is created, and the word to its creator when an invitee
//! declines. They are sent when the request that created or declined the game asks (an
//! address invited is known to that request only, not to the game), not from the change
//! feed; players who want no mail at all get none.

use chrono::{DateTime, Utc};
use missive_domain::{GameId, Head, MailPreference, Seat, SeatDoc};

use super::Notifier;
use crate::NotifyError;
use crate::invitations::{Recipient, declined_mail, invitation_mail};
use crate::links::{InvitationFor, invitation_link, unsubscribe_link};

impl Notifier {
    /// Mails the invitations of the forming game `game`: to each player invited by handle
    /// and to each address of `addresses` for the seat reserved for it. A mail that cannot
    /// be sent is logged and left (the invited player still finds the game among their
    /// invitations). How many mails went out.
    pub async fn send_invitations(
        &self,
        game: &GameId,
        addresses: &[(Seat, String)],
    ) -> Result<usize, NotifyError> {
        let Some((head, rules)) = self.service.notice_state(game).await? else {
            return Ok(0);
        };
        let names = rules.seat_names();
        let now = self.clock.now();
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

    /// Tells the creator of the cancelled game `game` that `who` (a handle, or the address
    /// invited) declined their invitation. Whether a mail was sent.
    pub async fn tell_declined(&self, game: &GameId, who: &str) -> Result<bool, NotifyError> {
        let Some((head, _)) = self.service.notice_state(game).await? else {
            return Ok(false);
        };
        let creator = &head.doc.created_by;
        if self.service.mail_preference(creator).await? == MailPreference::None {
            return Ok(false);
        }
        let Some(inviter) = self.service.registered(creator).await? else {
            return Ok(false);
        };
        let unsubscribe =
            unsubscribe_link(&self.authority, &self.public_url, creator, self.clock.now())?;
        let mail = declined_mail(&inviter, who, &head, &unsubscribe);
        self.mailer.send(&mail).await?;
        Ok(true)
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
        if self.service.mail_preference(handle).await? == MailPreference::None {
            return Ok(false);
        }
        let Some(player) = self.service.registered(handle).await? else {
            return Ok(false);
        };
        let link = self.invitation(head, seat, handle, now)?;
        let unsubscribe = unsubscribe_link(&self.authority, &self.public_url, handle, now)?;
        let to = Recipient::Player {
            player: &player,
            unsubscribe_link: &unsubscribe,
        };
        self.mailer
            .send(&invitation_mail(&to, head, seat, seat_name, &link))
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
        self.mailer
            .send(&invitation_mail(&to, head, seat, seat_name, &link))
            .await?;
        Ok(true)
    }

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
            &self.authority,
            &self.public_url,
            &target,
            now,
        )?)
    }
}
