//! Notes to the players of a game: the ones due now mailed on their own, and the ones a
//! turn mail carries.
//!
//! A note goes out on its own at once when it is about a draw (a move lapses the offer), the
//! game is over, it is its player's turn (their turn mail went out already), they want no
//! mail per move, or they want messages at once ([`MessageMail::AtOnce`]); otherwise a
//! message waits for the player's next turn mail, which carries every note they are still
//! to hear of. Players who want no mail at all get none.

use missive_domain::{Head, MailPreference, MessageMail, Notice, Player, Status};
use missive_mail::Mail;

use super::{Notifier, Round};
use crate::NotifyError;
use crate::links::{MoveLinkFor, move_link, unsubscribe_link};
use crate::notes::{Note, notes_mail, pending_notes};

impl Notifier {
    /// Mails each player of `head`'s game the notes due to them now, one mail each (the
    /// game's log is read only when it has events). Whose turn it is comes from `head`, the
    /// state being attended, not from the log read after it: a move made meanwhile is
    /// attended next, and its turn mail carries the messages waiting for it. Whether a
    /// mail was sent.
    pub(super) async fn deliver_notes(
        &self,
        head: &Head,
        round: &mut Round,
    ) -> Result<bool, NotifyError> {
        let started = matches!(head.doc.status, Status::Active | Status::Finished);
        if head.events == 0 || !started {
            return Ok(false);
        }
        let Some(stored) = self.service.notice_log(&head.id).await? else {
            return Ok(false);
        };
        let mut sent = false;
        for player in stored.head.doc.players() {
            let pending = pending_notes(&stored, player);
            if pending.is_empty() {
                continue;
            }
            let preference = self.preference(player, round).await?;
            if preference == MailPreference::None {
                continue;
            }
            let waits = self.waits_for_turn(head, player, preference).await?;
            let due = pending
                .into_iter()
                .filter(|note| note.is_draw() || !waits)
                .collect();
            sent |= self.send_notes(&stored.head, player, due).await?;
        }
        Ok(sent)
    }

    /// The notes `player` is still to hear of in `head`'s game, claimed for the turn mail
    /// that carries them, and their markers.
    pub(super) async fn claim_notes(
        &self,
        head: &Head,
        player: &str,
    ) -> Result<(Vec<Note>, Vec<Notice>), NotifyError> {
        if head.events == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let Some(stored) = self.service.notice_log(&head.id).await? else {
            return Ok((Vec::new(), Vec::new()));
        };
        self.claim(&stored.head, player, pending_notes(&stored, player))
            .await
    }

    /// Whether `player`'s messages in the game of `head` wait for their next turn mail:
    /// they get a mail per move and want messages with it, and it is not their turn.
    async fn waits_for_turn(
        &self,
        head: &Head,
        player: &str,
        preference: MailPreference,
    ) -> Result<bool, NotifyError> {
        let their_turn = head.player_to_move() == Some(player);
        if preference != MailPreference::EachMove || head.doc.status != Status::Active || their_turn
        {
            return Ok(false);
        }
        Ok(self.service.message_mail(player).await? == MessageMail::WithTurn)
    }

    /// Claims each of `notes` for `player` and mails the ones this call claimed, together;
    /// a failure releases their claims. Whether a mail was sent.
    async fn send_notes(
        &self,
        head: &Head,
        player: &str,
        notes: Vec<Note>,
    ) -> Result<bool, NotifyError> {
        if notes.is_empty() {
            return Ok(false);
        }
        let Some(to) = self.service.registered(player).await? else {
            return Ok(false);
        };
        let (notes, claimed) = self.claim(head, player, notes).await?;
        if notes.is_empty() {
            return Ok(false);
        }
        let sent = async {
            let mail = self.compose_notes(head, &to, &notes)?;
            self.mailer.send(&mail).await?;
            Ok(true)
        }
        .await;
        if sent.is_err() {
            self.release_all(&claimed).await;
        }
        sent
    }

    /// Claims each of `notes` for `player`: the ones this call claimed (others were told
    /// before) and their markers; if a claim fails, the ones made are released.
    async fn claim(
        &self,
        head: &Head,
        player: &str,
        notes: Vec<Note>,
    ) -> Result<(Vec<Note>, Vec<Notice>), NotifyError> {
        let (mut kept, mut claimed) = (Vec::new(), Vec::new());
        for note in notes {
            let notice = note.notice(head, player);
            match self.service.claim_notice(&notice).await {
                Ok(true) => {
                    claimed.push(notice);
                    kept.push(note);
                }
                Ok(false) => {}
                Err(error) => {
                    self.release_all(&claimed).await;
                    return Err(error.into());
                }
            }
        }
        Ok((kept, claimed))
    }

    /// The mail of `notes` to `to`, linking to the move page of their seat while the game
    /// is on (to answer, accept a draw, or move), else to the game's page.
    fn compose_notes(&self, head: &Head, to: &Player, notes: &[Note]) -> Result<Mail, NotifyError> {
        let now = self.clock.now();
        let link = match (head.doc.status, head.doc.seat_of(&to.handle)) {
            (Status::Active, Some(seat)) => {
                let target = MoveLinkFor {
                    handle: &to.handle,
                    game: &head.id,
                    seat,
                    ply: head.ply,
                    deadline: head.waiting.as_ref().map_or(now, |w| w.deadline),
                };
                move_link(&self.authority, &self.public_url, &target, now)?
            }
            _ => format!("{}/games/{}", self.public_url, head.id),
        };
        let unsubscribe = unsubscribe_link(&self.authority, &self.public_url, &to.handle, now)?;
        Ok(notes_mail(to, head, notes, &link, &unsubscribe))
    }
}
