//! Ratings: each player's Glicko-2 rating per variant, moved by every rated game that ends
//! (one rating period per game: see `missive_tournament::rating`), its deviation widened by
//! every full week (`missive_tournament::rating::period`) the player went without a rated
//! game: before the next game is rated, and wherever the rating is shown. Unrated and
//! imported games never change a rating. A game's change is recorded in each player's
//! history under the game's id, so rating a game again changes nothing.

use chrono::{DateTime, Utc};
use missive_domain::{Cursor, Head, Page, RatingChange, RatingRecord, Status};
use missive_store::StoreError;
use missive_tournament::rating::period::{self, Period};
use missive_tournament::rating::{PROVISIONAL_GAMES, Rating, rate_game};

use crate::tournaments::forfeited;
use crate::views::filled;
use crate::{GameService, ServiceError};

/// Tries of a rating write that another game's write made stale.
const RATING_TRIES: usize = 5;

/// The most entries of a leaderboard page.
pub const MAX_LEADERBOARD: usize = 100;

impl GameService {
    /// What the end of the game at `head` changes beyond the game: its players' ratings
    /// (rated games) and its tournament (games of one). Safe to call again.
    pub async fn game_ended(&self, head: &Head) -> Result<(), ServiceError> {
        if head.doc.status != Status::Finished {
            return Ok(());
        }
        let tournament = match &head.doc.tournament {
            Some(id) => Some(self.tournament(id).await?),
            None => None,
        };
        if !tournament.as_ref().is_some_and(|t| forfeited(t, head)) {
            self.rate(head).await?;
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

    /// Moves the ratings of the finished rated game at `head`'s players, each from the
    /// ratings all of them had before it.
    async fn rate(&self, head: &Head) -> Result<(), ServiceError> {
        let doc = &head.doc;
        let Some(ending) = doc.ending.as_ref().filter(|_| doc.rated && !doc.imported) else {
            return Ok(());
        };
        let players: Option<Vec<&str>> = doc.seats.iter().map(|s| s.player()).collect();
        let Some(players) = players else {
            return Ok(());
        };
        for _ in 0..RATING_TRIES {
            let mut records = Vec::with_capacity(players.len());
            for player in &players {
                records.push(self.store.rating(player, &doc.variant).await?);
            }
            let before: Vec<Rating> = records
                .iter()
                .map(|r| {
                    r.as_ref()
                        .map_or_else(Rating::default, rating_before(head, ending.at))
                })
                .collect();
            let after = rate_game(&before, &ending.results)
                .map_err(|e| ServiceError::refused(format!("rating game {}: {e}", head.id)))?;
            let mut stale = false;
            let changes = players.iter().zip(records).zip(before.iter().zip(after));
            for ((player, record), (before, rating)) in changes {
                if record.as_ref().is_some_and(|r| r.has_rated(&head.id)) {
                    continue;
                }
                let next = rated(record, player, head, (before, &rating), ending.at);
                match self.store.put_rating(&next).await {
                    Ok(()) => {}
                    Err(StoreError::Conflict) => stale = true,
                    Err(error) => return Err(error.into()),
                }
            }
            if !stale {
                return Ok(());
            }
        }
        Err(ServiceError::Contended)
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

/// A stored rating as it was before the game at `head`, which ended at `ended`: as it
/// stands then ([`rating_at`]), unless that game has rated it already (then as the game
/// found it, from its history).
fn rating_before(head: &Head, ended: DateTime<Utc>) -> impl Fn(&RatingRecord) -> Rating + '_ {
    move |record| {
        let rating = rating_at(record, ended);
        match record.history.iter().find(|c| c.game == head.id) {
            Some(change) => Rating {
                rating: change.before,
                deviation: change.deviation_before,
                volatility: change.volatility_before,
                games: record.games.saturating_sub(1),
            },
            None => rating,
        }
    }
}

/// `record` (or a first record of `player`) with `rating` after the game at `head`, which
/// found it at `before`.
fn rated(
    record: Option<RatingRecord>,
    player: &str,
    head: &Head,
    (before, rating): (&Rating, &Rating),
    at: DateTime<Utc>,
) -> RatingRecord {
    let mut record = record.unwrap_or_else(|| RatingRecord {
        player: player.to_string(),
        variant: head.doc.variant.clone(),
        revision: 0,
        rating: Rating::default().rating,
        deviation: Rating::default().deviation,
        volatility: Rating::default().volatility,
        games: 0,
        history: Vec::new(),
    });
    record.history.push(RatingChange {
        game: head.id.clone(),
        at,
        before: record.rating,
        after: rating.rating,
        deviation_before: before.deviation,
        volatility_before: record.volatility,
    });
    record.revision += 1;
    record.rating = rating.rating;
    record.deviation = rating.deviation;
    record.volatility = rating.volatility;
    record.games = rating.games;
    record
}
