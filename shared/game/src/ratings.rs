//! Ratings: each player's Glicko-2 rating per variant, shown with its deviation widened by
//! every full week the player went without a rated game (`rating_at`). How rated games
//! change them is in [`crate::rating_periods`]: together, week by week.

use chrono::{DateTime, Utc};
use missive_domain::{Cursor, Head, Page, RatingChange, RatingRecord, Status};
use missive_tournament::rating::period::{self, Period};
use missive_tournament::rating::{PROVISIONAL_GAMES, Rating};

use crate::tournaments::forfeited;
use crate::views::filled;
use crate::{GameService, ServiceError};

/// The most entries of a leaderboard page.
pub const MAX_LEADERBOARD: usize = 100;

impl GameService {
    /// What the end of the game at `head` changes beyond the game: its players' ratings
    /// (a rated game is kept with its rating period, which rates it when it closes) and
    /// its tournament (games of one). Safe to call again.
    pub async fn game_ended(&self, head: &Head) -> Result<(), ServiceError> {
        if head.doc.status != Status::Finished {
            return Ok(());
        }
        let tournament = match &head.doc.tournament {
            Some(id) => Some(self.tournament(id).await?),
            None => None,
        };
        if !tournament.as_ref().is_some_and(|t| forfeited(t, head)) {
            self.keep_rated(head).await?;
        }
        match tournament {
            Some(tournament) => self.tournament_game_ended(&tournament, head).await,
            None => Ok(()),
        }
    }

    /// The player's ratings, by variant.
    pub async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, ServiceError> {
        Ok(self.store.ratings_of(player).await?)
    }

    /// A page of the highest ratings in `variant` from `cursor`, at most `limit` (up to
    /// [`MAX_LEADERBOARD`]): only established ones (at least [`PROVISIONAL_GAMES`] rated
    /// games) unless `provisional`. A page may hold fewer than `limit` and still have a
    /// next one.
    pub async fn leaderboard(
        &self,
        variant: &str,
        provisional: bool,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<RatingRecord>, ServiceError> {
        (self.catalog)(variant)?;
        let limit = limit.clamp(1, MAX_LEADERBOARD);
        filled(cursor, limit, |cursor, want| async move {
            let page = self
                .store
                .leaderboard(variant, cursor.as_ref(), want)
                .await?;
            Ok(Page {
                items: page
                    .items
                    .into_iter()
                    .filter(|record| provisional || record.games >= PROVISIONAL_GAMES)
                    .collect(),
                next: page.next,
            })
        })
        .await
    }

    /// A page of `player`'s rating history in `variant`, newest change first, from
    /// `cursor` (the page before's `next`), at most `limit` (up to [`MAX_LEADERBOARD`]);
    /// [`ServiceError::NoRating`] when they have no rating there.
    pub async fn rating_history(
        &self,
        player: &str,
        variant: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<RatingChange>, ServiceError> {
        let record =
            self.store
                .rating(player, variant)
                .await?
                .ok_or_else(|| ServiceError::NoRating {
                    player: player.to_string(),
                    variant: variant.to_string(),
                })?;
        let skip = match cursor {
            Some(cursor) => history_position(cursor)?,
            None => 0,
        };
        let limit = limit.clamp(1, MAX_LEADERBOARD);
        let items: Vec<RatingChange> = record
            .history
            .into_iter()
            .rev()
            .skip(skip)
            .take(limit + 1)
            .collect();
        Ok(history_page(items, skip, limit))
    }
}

/// The changes a history cursor skips: the text `changes:{n}`.
fn history_position(cursor: &Cursor) -> Result<usize, ServiceError> {
    cursor
        .0
        .strip_prefix("changes:")
        .and_then(|n| n.parse().ok())
        .ok_or(ServiceError::BadCursor)
}

/// The page of `items` (read after skipping `skip`, one more than `limit` if there are
/// more) with the cursor after it.
fn history_page(mut items: Vec<RatingChange>, skip: usize, limit: usize) -> Page<RatingChange> {
    let more = items.len() > limit;
    items.truncate(limit);
    let next = more.then(|| Cursor(format!("changes:{}", skip + limit)));
    Page { items, next }
}

/// `record`'s rating as it stands at `at`: its deviation widened by each full rating period
/// since its last rated game ([`period::current`]).
pub fn rating_at(record: &RatingRecord, at: DateTime<Utc>) -> Rating {
    let rating = Rating {
        rating: record.rating,
        deviation: record.deviation,
        volatility: record.volatility,
        games: record.games,
    };
    match record.history.last() {
        Some(last) => period::current(&rating, Period::of(last.at), at),
        None => rating,
    }
}
