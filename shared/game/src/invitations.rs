//! Invitations: seats of a forming game kept for one invitee, a registered player (by
//! handle) or an e-mail address whose owner has not signed up yet. The links mailed to the
//! invitee show the game and accept or decline the invitation without signing in; these are
//! the use cases behind them.

use missive_domain::{Game, GameEvent, GameId, Reason, Seat, SeatDoc, Status};

use crate::lobby::SeatRequest;
use crate::players::check_email;
use crate::rules::resumed;
use crate::service::Access;
use crate::{GameService, GameView, ServiceError};

/// Whom an invited seat is kept for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invitee {
    /// A registered player, by handle: the seat is `invited` for them.
    Player(String),
    /// An e-mail address no player had when the game was created: the seat is `reserved`.
    Address,
}

impl GameService {
    /// `seats` with each seat invited by the address of a registered player invited by that
    /// player's handle instead; every address must look like one, and every handle invited
    /// must be a player's ([`ServiceError::UnknownPlayer`] names the first that is not).
    pub(crate) async fn invitations_by_handle(
        &self,
        seats: Vec<SeatRequest>,
    ) -> Result<Vec<SeatRequest>, ServiceError> {
        let mut resolved = Vec::with_capacity(seats.len());
        for request in seats {
            resolved.push(match request {
                SeatRequest::InviteEmail { email } => {
                    check_email(&email)?;
                    match self.store.player_by_email(&email).await? {
                        Some(player) => SeatRequest::Invite {
                            player: player.handle,
                        },
                        None => SeatRequest::InviteEmail { email },
                    }
                }
                SeatRequest::Invite { player } => SeatRequest::Invite {
                    player: self.player(&player).await?.handle,
                },
                other => other,
            });
        }
        Ok(resolved)
    }

    /// The state of `game` as the invitee of `seat` sees it, private games included (the
    /// invitation is theirs to see): `NotActive` once the game is no longer forming, refused
    /// when the seat is no longer kept for `invitee`.
    pub async fn invitation_view(
        &self,
        game: &GameId,
        seat: Seat,
        invitee: &Invitee,
    ) -> Result<GameView, ServiceError> {
        let head = self.head_of(game).await?;
        check_invitation(&head.doc, seat, invitee)?;
        let replayed = resumed(self.catalog, &head)?.ok_or_else(|| ServiceError::Corrupt {
            game: game.clone(),
            reason: "a forming game without a resume point".into(),
        })?;
        let viewer = match invitee {
            Invitee::Player(handle) => Some(handle.as_str()),
            Invitee::Address => None,
        };
        self.view_of(&head, replayed.as_ref(), viewer).await
    }

    /// Accepts the invitation to `seat` of `game`: `taker` takes the seat, which must be
    /// kept for `invitee` (for a registered player, `taker` is that player; for an address,
    /// the player who signed up with it). The game starts when every seat is taken.
    pub async fn accept_invitation(
        &self,
        game: &GameId,
        seat: Seat,
        invitee: &Invitee,
        taker: &str,
    ) -> Result<(), ServiceError> {
        if matches!(invitee, Invitee::Player(handle) if handle != taker) {
            return Err(ServiceError::refused(
                "the invitation is for another player",
            ));
        }
        self.change(game, Access::Service, |draft| {
            check_invitation(draft.doc(), seat, invitee)?;
            if draft.seat_of(taker).is_ok() {
                return Err(ServiceError::refused("you already sit in this game"));
            }
            draft.take_seat(seat.index(), taker);
            Ok(())
        })
        .await
    }

    /// Declines the invitation to `seat` of `game`, kept for `invitee`: the game is
    /// cancelled.
    pub async fn decline_invitation(
        &self,
        game: &GameId,
        seat: Seat,
        invitee: &Invitee,
    ) -> Result<(), ServiceError> {
        self.change(game, Access::Service, |draft| {
            check_invitation(draft.doc(), seat, invitee)?;
            decline_seat(draft, seat);
            Ok(())
        })
        .await
    }
}

/// Refuses unless `doc` is forming with `seat` kept for `invitee`.
fn check_invitation(
    doc: &missive_domain::GameDoc,
    seat: Seat,
    invitee: &Invitee,
) -> Result<(), ServiceError> {
    if doc.status != Status::Forming {
        return Err(ServiceError::NotActive(doc.status));
    }
    let kept = match (doc.seats.get(seat.index()), invitee) {
        (Some(SeatDoc::Invited { player }), Invitee::Player(handle)) => player == handle,
        (Some(SeatDoc::Reserved), Invitee::Address) => true,
        _ => false,
    };
    if !kept {
        return Err(ServiceError::refused(
            "this invitation is no longer open: the seat is not kept for you",
        ));
    }
    Ok(())
}

/// The invitee of `seat` declines: the event is logged and the game cancelled.
pub(crate) fn decline_seat(draft: &mut Game, seat: Seat) {
    draft.record(GameEvent::InvitationDeclined, Some(seat));
    draft.cancel(Reason::Declined, Some(seat));
}
