//! Before the first move: create a game, join it, decline an invitation, abort.

use missive_domain::{
    Game, GameDoc, GameEvent, GameId, Head, Reason, Seat, SeatClock, SeatDoc, Status, TimeControl,
};
use missive_rules::registry::EDITION;
use serde::{Deserialize, Serialize};

use crate::invitations::decline_seat;
use crate::service::Access;
use crate::timing::DAYS_PER_MOVE;
use crate::{GameService, ServiceError};

/// Who goes in a seat of a new game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SeatRequest {
    /// The creator sits here.
    #[cfg_attr(feature = "openapi", schema(title = "CreatorSeat"))]
    Creator,
    /// Kept for this player.
    #[cfg_attr(feature = "openapi", schema(title = "InviteSeat"))]
    Invite {
        /// The invited player.
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::handle))]
        player: String,
    },
    /// Kept for whoever holds this e-mail address: the registered player with it (as if
    /// invited by handle), else reserved for the address until its owner signs up through
    /// the invitation mailed there.
    #[cfg_attr(feature = "openapi", schema(title = "InviteEmailSeat"))]
    InviteEmail {
        /// The invited address.
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::email))]
        email: String,
    },
    /// Anyone may take it.
    #[cfg_attr(feature = "openapi", schema(title = "OpenSeatRequest"))]
    Open,
}

/// A game to create.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewGame {
    /// The player creating it.
    pub creator: String,
    /// The variant id.
    pub variant: String,
    /// Options as `key=value,...`.
    pub options: String,
    /// A start position other than the standard one.
    pub start_position: Option<String>,
    /// One request per seat of the variant, in turn order; exactly one is the creator's.
    pub seats: Vec<SeatRequest>,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// Whether only the game's players may see it.
    #[serde(default)]
    pub private: bool,
}

impl GameService {
    /// Creates a game: the variant and options must be valid, the seats must match the
    /// variant's, with the creator in exactly one (so at least one seat is left to invite or
    /// open) and every invited player different. A seat invited by e-mail address goes to
    /// the registered player with that address, else it is reserved for the address. The
    /// game starts once every seat is taken.
    pub async fn create_game(&self, mut new: NewGame) -> Result<GameId, ServiceError> {
        new.seats = self.invitations_by_handle(new.seats).await?;
        let variant = (self.catalog)(&new.variant)?;
        let seats = seat_docs(&new, variant.seat_names().len())?;
        let head = self.new_head(&new, seats)?;
        self.count_invitations(
            &new.creator,
            &invited_handles(&head),
            &invited_addresses(&new),
        )
        .await?;
        let feed = missive_domain::told_of_invitations(&head, head.doc.created_at);
        self.store.create(&head, &feed).await?;
        Ok(head.id)
    }

    /// The head of a new game as `new` describes it (its `seats` aside), with `seats`:
    /// forming, at revision 0, under a fresh id. The variant, options, start position and
    /// time control must be valid.
    pub(crate) fn new_head(
        &self,
        new: &NewGame,
        seats: Vec<SeatDoc>,
    ) -> Result<Head, ServiceError> {
        let variant = (self.catalog)(&new.variant)?;
        let game = variant.new_game(&new.options, new.start_position.as_deref())?;
        check_time_control(new.time_control)?;
        let now = self.now();
        let doc = GameDoc {
            variant: new.variant.clone(),
            options: game.options(),
            edition: EDITION,
            start_position: new.start_position.clone(),
            seats,
            time_control: new.time_control,
            rated: new.rated,
            status: Status::Forming,
            created_by: new.creator.clone(),
            created_at: now,
            started_at: None,
            ending: None,
            draw_offers: Vec::new(),
            conditional: Vec::new(),
            private: new.private,
            imported: false,
            archive_tags: Vec::new(),
            verified: false,
            tournament: None,
            pauses: Vec::new(),
        };
        let clocks = vec![SeatClock::default(); doc.seats.len()];
        let id = GameId(ulid::Ulid::new().to_string());
        Ok(Head::new(id, doc, game.as_ref(), clocks))
    }

    /// Seats `player` in `game`: in the seat they were invited to, else in `seat` or the
    /// first open seat. When the last seat is taken the game starts.
    pub async fn join(
        &self,
        game: &GameId,
        player: &str,
        seat: Option<Seat>,
    ) -> Result<Seat, ServiceError> {
        self.change(game, Access::Joiner(player), |draft| {
            draft.require_forming()?;
            if draft.seat_of(player).is_ok() {
                return Err(ServiceError::refused("you already sit in this game"));
            }
            let index = free_seat(draft, player, seat)?;
            draft.take_seat(index, player);
            Ok(Seat(index as u8))
        })
        .await
    }

    /// Declines an invitation: the game is cancelled.
    pub async fn decline(&self, game: &GameId, player: &str) -> Result<(), ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            draft.require_forming()?;
            let seat = draft
                .doc()
                .seats
                .iter()
                .position(|s| matches!(s, SeatDoc::Invited { player: p } if p == player))
                .ok_or_else(|| ServiceError::refused("you have no invitation to this game"))?;
            decline_seat(draft, Seat(seat as u8));
            Ok(())
        })
        .await
    }

    /// Aborts a game before its first move: any seated player may.
    pub async fn abort(&self, game: &GameId, player: &str) -> Result<(), ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            let seat = draft.seat_of(player)?;
            let before_first_move = match draft.doc().status {
                Status::Forming => true,
                Status::Active => draft.head().ply == 0,
                status => return Err(ServiceError::NotActive(status)),
            };
            if !before_first_move {
                return Err(ServiceError::refused(
                    "a game can only be aborted before its first move",
                ));
            }
            draft.record(GameEvent::Aborted, Some(seat));
            draft.cancel(Reason::Aborted, Some(seat));
            Ok(())
        })
        .await
    }
}

pub(crate) fn check_time_control(time_control: TimeControl) -> Result<(), ServiceError> {
    match time_control {
        TimeControl::DaysPerMove { days } if DAYS_PER_MOVE.contains(&days) => Ok(()),
        TimeControl::DaysPerMove { days } => Err(ServiceError::refused(format!(
            "{days} days per move is not offered (choose {DAYS_PER_MOVE:?})"
        ))),
        TimeControl::Iccf { moves, days }
            if (1..=50).contains(&moves) && (1..=365).contains(&days) =>
        {
            Ok(())
        }
        TimeControl::Iccf { .. } => Err(ServiceError::refused(
            "ICCF time control needs 1 to 50 moves in 1 to 365 days",
        )),
    }
}

/// The players invited by handle to the game of `head`.
fn invited_handles(head: &Head) -> Vec<&str> {
    head.doc
        .seats
        .iter()
        .filter_map(|seat| match seat {
            SeatDoc::Invited { player } => Some(player.as_str()),
            _ => None,
        })
        .collect()
}

/// The addresses `new` invites that no registered player has.
fn invited_addresses(new: &NewGame) -> Vec<&str> {
    new.seats
        .iter()
        .filter_map(|seat| match seat {
            SeatRequest::InviteEmail { email } => Some(email.as_str()),
            _ => None,
        })
        .collect()
}

fn seat_docs(new: &NewGame, seat_count: usize) -> Result<Vec<SeatDoc>, ServiceError> {
    if new.seats.len() != seat_count {
        return Err(ServiceError::refused(format!(
            "{} has {seat_count} seats, {} given",
            new.variant,
            new.seats.len()
        )));
    }
    let creators = new
        .seats
        .iter()
        .filter(|s| **s == SeatRequest::Creator)
        .count();
    if creators != 1 {
        return Err(ServiceError::refused("the creator takes exactly one seat"));
    }
    let mut players = vec![new.creator.as_str()];
    let mut docs = Vec::with_capacity(seat_count);
    for request in &new.seats {
        docs.push(match request {
            SeatRequest::Creator => SeatDoc::Taken {
                player: new.creator.clone(),
            },
            SeatRequest::Invite { player } => {
                if players.contains(&player.as_str()) {
                    return Err(ServiceError::refused(format!("{player} is seated twice")));
                }
                players.push(player);
                SeatDoc::Invited {
                    player: player.clone(),
                }
            }
            SeatRequest::InviteEmail { email } => {
                if players.contains(&email.as_str()) {
                    return Err(ServiceError::refused(format!("{email} is invited twice")));
                }
                players.push(email);
                SeatDoc::Reserved
            }
            SeatRequest::Open => SeatDoc::Open,
        });
    }
    Ok(docs)
}

/// The seat `player` may take: their invitation, else the chosen or first open seat.
fn free_seat(draft: &Game, player: &str, wanted: Option<Seat>) -> Result<usize, ServiceError> {
    let seats = &draft.doc().seats;
    if let Some(invited) = seats
        .iter()
        .position(|s| matches!(s, SeatDoc::Invited { player: p } if p == player))
    {
        return Ok(invited);
    }
    let open = |index: &usize| seats[*index] == SeatDoc::Open;
    match wanted.map(Seat::index) {
        Some(index) if index < seats.len() && open(&index) => Ok(index),
        Some(index) => Err(ServiceError::refused(format!("seat {index} is not open"))),
        None => (0..seats.len())
            .find(open)
            .ok_or_else(|| ServiceError::refused("no seat is open to you")),
    }
}
