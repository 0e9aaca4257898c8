//! Open challenges: a player offers a game to anyone (variant, options, time control,
//! rated or not); anyone lists the open ones, newest first, and accepts one, seat by seat;
//! when the last seat is taken the game is created, already started, in the same write
//! that closes the challenge. The creator may withdraw it while it is open; unanswered, it
//! expires [`CHALLENGE_LIFETIME`] after publication.
//!
//! Every change is a conditional write of the challenge's record on the revision read, so
//! of players racing for the last seat exactly one gets it; the others read the challenge
//! again and are told it is taken.

use chrono::{DateTime, TimeDelta, Utc};
use missive_domain::{
    Challenge, ChallengeFilter, ChallengeId, ChallengeState, Commit, Cursor, GameId, Page, Seat,
    SeatDoc, TimeControl,
};
use missive_store::StoreError;
use serde::Serialize;

use crate::lobby::{NewGame, check_time_control};
use crate::service::ATTEMPTS;
use crate::views::filled;
use crate::{GameService, Limit, ServiceError};

/// How long an unanswered challenge stays open: 14 days from publication.
pub const CHALLENGE_LIFETIME: TimeDelta = TimeDelta::days(14);

/// A challenge to publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    /// The player offering the game.
    pub creator: String,
    /// The variant id.
    pub variant: String,
    /// Options as `key=value,...`.
    pub options: String,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The creator's seat; one chosen at random when `None`.
    pub seat: Option<Seat>,
    /// The least rating an accepting player needs in the variant.
    pub min_rating: Option<u32>,
    /// The highest rating an accepting player may have in the variant.
    pub max_rating: Option<u32>,
}

/// A seat taken by accepting a challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeAccepted {
    /// The seat taken.
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// The game, once every seat is taken (it has started); `None` while seats are left.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api_schema::GameId>))]
    pub game: Option<GameId>,
}

/// A player's current rating in a variant, as a challenge shows its creator's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ShownRating {
    /// The Glicko-2 rating, rounded.
    pub rating: u32,
    /// Its deviation as it stands today (widened by each idle rating period), rounded.
    pub deviation: u32,
    /// Rated games played in the variant.
    pub games: u32,
}

/// Which creators' challenges a list keeps, by their current rating in the challenge's
/// variant (an unrated creator counts as 1500); both bounds included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreatorRating {
    /// The least rating.
    pub min: Option<u32>,
    /// The highest rating.
    pub max: Option<u32>,
}

impl CreatorRating {
    /// Whether a creator rated `rating` (`None`: unrated) is kept.
    fn keeps(&self, rating: Option<ShownRating>) -> bool {
        let rating = rating.map_or(UNRATED, |shown| shown.rating);
        self.min.is_none_or(|min| rating >= min) && self.max.is_none_or(|max| rating <= max)
    }
}

/// The rating an unrated player counts as, rounded: Glicko-2's start.
const UNRATED: u32 = 1500;

/// A challenge as lists and clients show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeView {
    /// The challenge.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::ChallengeId))]
    pub id: ChallengeId,
    /// Who published it.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::handle))]
    pub creator: String,
    /// The creator's current rating in the variant (`None`: unrated).
    pub creator_rating: Option<ShownRating>,
    /// The variant id.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::VariantId))]
    pub variant: String,
    /// Canonical options.
    pub options: String,
    /// The variant's seat names in turn order.
    pub seat_names: Vec<String>,
    /// The player in each seat (`None` while open).
    pub seats: Vec<Option<String>>,
    /// The game's time control.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api_schema::TimeControl))]
    pub time_control: TimeControl,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The least rating an accepting player needs in the variant.
    pub min_rating: Option<u32>,
    /// The highest rating an accepting player may have in the variant.
    pub max_rating: Option<u32>,
    /// When it was published.
    pub created_at: DateTime<Utc>,
    /// When it expires unless accepted or withdrawn before.
    pub expires_at: DateTime<Utc>,
    /// `open`, `accepted` (the game was created), `withdrawn` or `expired`.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::api_schema::challenge_status))]
    pub status: &'static str,
    /// The game it became, once accepted.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api_schema::GameId>))]
    pub game: Option<GameId>,
}

impl GameService {
    /// Publishes a challenge: the variant, options and time control must be valid, and the
    /// creator's seat (if given) one of the variant's, and a `min_rating` no higher than a
    /// `max_rating`; the creator may have at most [`Quotas::open_challenges`](crate::Quotas)
    /// open at once ([`ServiceError::TooManyChallenges`] beyond). It is listed until every
    /// seat is taken, its creator withdraws it, or [`CHALLENGE_LIFETIME`] passes, which
    /// frees its place among the creator's open ones.
    pub async fn publish_challenge(
        &self,
        new: NewChallenge,
    ) -> Result<ChallengeView, ServiceError> {
        let variant = (self.catalog)(&new.variant)?;
        let game = variant.new_game(&new.options, None)?;
        check_time_control(new.time_control)?;
        check_rating_bounds(new.min_rating, new.max_rating)?;
        let id = ulid::Ulid::new();
        let count = variant.seat_names().len();
        let seat = match new.seat {
            Some(seat) if seat.index() < count => seat.index(),
            Some(seat) => {
                return Err(ServiceError::refused(format!(
                    "{} has no seat {}",
                    new.variant, seat.0
                )));
            }
            None => (id.random() % count as u128) as usize,
        };
        let mut seats = vec![None; count];
        seats[seat] = Some(new.creator.clone());
        let now = self.now();
        let challenge = Challenge {
            id: ChallengeId(id.to_string()),
            revision: 1,
            creator: new.creator,
            variant: new.variant,
            options: game.options(),
            time_control: new.time_control,
            rated: new.rated,
            min_rating: new.min_rating,
            max_rating: new.max_rating,
            seats,
            created_at: now,
            expires_at: now + CHALLENGE_LIFETIME,
            state: ChallengeState::Open,
        };
        self.store_published(&challenge).await?;
        self.challenge_view_of(&challenge).await
    }

    /// Stores the new open `challenge` while its creator has fewer open (not withdrawn,
    /// accepted or expired) than [`Quotas::open_challenges`](crate::Quotas) (0: no limit):
    /// [`ServiceError::TooManyChallenges`] once they have that many. Of publications at
    /// once, those the store finds counted by another count again.
    async fn store_published(&self, challenge: &Challenge) -> Result<(), ServiceError> {
        let most = self.config.quotas.open_challenges;
        if most == 0 {
            return Ok(self.store.put_challenge(challenge, None).await?);
        }
        for _ in 0..ATTEMPTS {
            match self.store.publish_challenge(challenge, most).await {
                Ok(true) => return Ok(()),
                Ok(false) => {
                    return Err(ServiceError::TooManyChallenges(Limit {
                        name: "open-challenges",
                        value: most,
                        per_seconds: None,
                    }));
                }
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ServiceError::Contended)
    }

    /// The challenge `id`, whatever its state.
    pub async fn challenge(&self, id: &ChallengeId) -> Result<ChallengeView, ServiceError> {
        self.challenge_view_of(&self.challenge_record(id).await?)
            .await
    }

    /// A page of the open challenges `filter` lets through whose creator `creator_rating`
    /// keeps, newest first. A page may hold fewer than `limit` and still have a next one.
    pub async fn open_challenges(
        &self,
        filter: &ChallengeFilter,
        creator_rating: CreatorRating,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<ChallengeView>, ServiceError> {
        if let Some(variant) = &filter.variant {
            (self.catalog)(variant)?;
        }
        let now = self.now();
        let read = |cursor: Option<Cursor>, want: usize| async move {
            let page = self
                .store
                .open_challenges(filter, now, cursor.as_ref(), want)
                .await?;
            let mut items = Vec::with_capacity(page.items.len());
            for challenge in &page.items {
                let view = self.challenge_view_of(challenge).await?;
                if creator_rating.keeps(view.creator_rating) {
                    items.push(view);
                }
            }
            Ok(Page {
                items,
                next: page.next,
            })
        };
        filled(cursor, limit, read).await
    }

    /// Accepts challenge `id` for `player`: takes `seat` (or the first open one). When
    /// that was the last open seat, the game is created, started, in the same write. A
    /// player seated in the challenge already (its creator included) is refused; a
    /// withdrawn or full challenge is [`ServiceError::ChallengeClosed`], an expired one
    /// [`ServiceError::ChallengeExpired`], one whose rating bounds leave out the player's
    /// current rating in its variant (1500 unrated) [`ServiceError::RatingOutOfRange`]; of
    /// players racing for one seat exactly one gets
    /// it.
    pub async fn accept_challenge(
        &self,
        id: &ChallengeId,
        player: &str,
        seat: Option<Seat>,
    ) -> Result<ChallengeAccepted, ServiceError> {
        for _ in 0..ATTEMPTS {
            let mut challenge = self.challenge_record(id).await?;
            check_open(&challenge, self.now())?;
            if challenge.seats_player(player) {
                return Err(ServiceError::refused("you already sit in this challenge"));
            }
            self.check_admitted(&challenge, player).await?;
            let index = open_seat(&challenge, seat)?;
            challenge.seats[index] = Some(player.to_string());
            challenge.revision += 1;
            let start = match challenge.seats.iter().all(Option::is_some) {
                true => Some(self.accepted_start(&challenge, player)?),
                false => None,
            };
            let game = start.as_ref().map(|commit| commit.head.id.clone());
            if let Some(game) = &game {
                challenge.state = ChallengeState::Accepted { game: game.clone() };
            }
            match self.store.put_challenge(&challenge, start.as_ref()).await {
                Ok(()) => {
                    if let Some(game) = &game {
                        self.changed(game);
                    }
                    let seat = Seat(index as u8);
                    return Ok(ChallengeAccepted { seat, game });
                }
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ServiceError::Contended)
    }

    /// The commit that starts the game of `challenge`, whose last seat `player` took: its
    /// other players are told first that their challenge was accepted.
    fn accepted_start(&self, challenge: &Challenge, player: &str) -> Result<Commit, ServiceError> {
        let mut start = self.start_commit(self.challenge_game(challenge)?)?;
        let head = &start.head;
        let mut feed =
            missive_domain::told_of_challenge_accepted(head, &challenge.id, player, self.now());
        feed.append(&mut start.feed);
        start.feed = feed;
        Ok(start)
    }

    /// Withdraws challenge `id`: only its creator may, while it is open (or expired); the
    /// players who took seats in it lose them.
    pub async fn withdraw_challenge(
        &self,
        id: &ChallengeId,
        player: &str,
    ) -> Result<(), ServiceError> {
        for _ in 0..ATTEMPTS {
            let mut challenge = self.challenge_record(id).await?;
            if challenge.creator != player {
                return Err(ServiceError::NotCreator);
            }
            if challenge.state != ChallengeState::Open {
                return Err(ServiceError::ChallengeClosed(challenge.state));
            }
            challenge.state = ChallengeState::Withdrawn;
            challenge.revision += 1;
            match self.store.put_challenge(&challenge, None).await {
                Ok(()) => return Ok(()),
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ServiceError::Contended)
    }

    /// Refuses `player` when `challenge`'s rating bounds leave out their current rating in
    /// its variant (an unrated player counts as rated [`UNRATED`]).
    async fn check_admitted(
        &self,
        challenge: &Challenge,
        player: &str,
    ) -> Result<(), ServiceError> {
        if challenge.min_rating.is_none() && challenge.max_rating.is_none() {
            return Ok(());
        }
        let rating = self
            .store
            .rating(player, &challenge.variant)
            .await?
            .map_or(f64::from(UNRATED), |record| record.rating);
        match challenge.admits(rating) {
            true => Ok(()),
            false => Err(ServiceError::RatingOutOfRange {
                rating: rating.round() as u32,
                min: challenge.min_rating,
                max: challenge.max_rating,
            }),
        }
    }

    async fn challenge_record(&self, id: &ChallengeId) -> Result<Challenge, ServiceError> {
        self.store
            .challenge(id)
            .await?
            .ok_or_else(|| ServiceError::NoChallenge(id.clone()))
    }

    /// The new game's head for a challenge whose every seat is taken: forming, seated as
    /// the challenge is, public.
    fn challenge_game(&self, challenge: &Challenge) -> Result<missive_domain::Head, ServiceError> {
        let new = NewGame {
            creator: challenge.creator.clone(),
            variant: challenge.variant.clone(),
            options: challenge.options.clone(),
            start_position: None,
            seats: Vec::new(),
            time_control: challenge.time_control,
            rated: challenge.rated,
            private: false,
        };
        let seats = challenge
            .seats
            .iter()
            .flatten()
            .map(|player| SeatDoc::Taken {
                player: player.clone(),
            })
            .collect();
        self.new_head(&new, seats)
    }

    /// How lists and clients show `challenge`, with its creator's current rating.
    async fn challenge_view_of(
        &self,
        challenge: &Challenge,
    ) -> Result<ChallengeView, ServiceError> {
        let variant = (self.catalog)(&challenge.variant)?;
        let creator_rating = self
            .store
            .rating(&challenge.creator, &challenge.variant)
            .await?
            .map(|record| {
                let now = crate::rating_at(&record, self.now());
                ShownRating {
                    rating: now.rating.round() as u32,
                    deviation: now.deviation.round() as u32,
                    games: record.games,
                }
            });
        let (status, game) = match &challenge.state {
            ChallengeState::Open if self.now() >= challenge.expires_at => ("expired", None),
            ChallengeState::Open => ("open", None),
            ChallengeState::Accepted { game } => ("accepted", Some(game.clone())),
            ChallengeState::Withdrawn => ("withdrawn", None),
        };
        Ok(ChallengeView {
            id: challenge.id.clone(),
            creator: challenge.creator.clone(),
            creator_rating,
            variant: challenge.variant.clone(),
            options: challenge.options.clone(),
            seat_names: variant.seat_names().iter().map(|s| s.to_string()).collect(),
            seats: challenge.seats.clone(),
            time_control: challenge.time_control,
            rated: challenge.rated,
            min_rating: challenge.min_rating,
            max_rating: challenge.max_rating,
            created_at: challenge.created_at,
            expires_at: challenge.expires_at,
            status,
            game,
        })
    }
}

/// Refuses bounds that admit no rating: a minimum above the maximum.
fn check_rating_bounds(min: Option<u32>, max: Option<u32>) -> Result<(), ServiceError> {
    match (min, max) {
        (Some(min), Some(max)) if min > max => Err(ServiceError::refused(format!(
            "min_rating {min} is above max_rating {max}"
        ))),
        _ => Ok(()),
    }
}

/// Refuses a challenge that is not open at `now`: withdrawn or full, or expired.
fn check_open(challenge: &Challenge, now: DateTime<Utc>) -> Result<(), ServiceError> {
    if challenge.state != ChallengeState::Open {
        return Err(ServiceError::ChallengeClosed(challenge.state.clone()));
    }
    if !challenge.is_open_at(now) {
        return Err(ServiceError::ChallengeExpired(challenge.id.clone()));
    }
    Ok(())
}

/// The seat to take: `wanted` if it is open, else the first open one.
fn open_seat(challenge: &Challenge, wanted: Option<Seat>) -> Result<usize, ServiceError> {
    let seats = &challenge.seats;
    match wanted.map(Seat::index) {
        Some(index) if index < seats.len() && seats[index].is_none() => Ok(index),
        Some(index) if index < seats.len() => {
            Err(ServiceError::Taken(format!("seat {index} is taken")))
        }
        Some(index) => Err(ServiceError::refused(format!("there is no seat {index}"))),
        None => seats
            .iter()
            .position(Option::is_none)
            .ok_or_else(|| ServiceError::ChallengeClosed(challenge.state.clone())),
    }
}
