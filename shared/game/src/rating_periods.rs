//! Rating periods: how rated games change ratings. A rated game that ends is kept with the
//! rating period (a week, UTC, Monday to Monday: `missive_tournament::rating::period`) it
//! ended in. [`PERIOD_GRACE`] after a period ends, the sweep closes it
//! ([`GameService::close_rating_periods`]): every game kept with it is rated at once, each
//! player from their rating at the period's start (widened by the idle periods before it),
//! with Glicko-2 as in Glickman's paper. A player idle in a period is not written: their
//! deviation grows where the rating is read (`crate::rating_at`).
//!
//! Closing is exact and idempotent: a player already rated by the period keeps what was
//! written, and the others are rated from what each player had at the period's start (read
//! back from the first change of the period where it was written), so a close cut short and
//! done again, or done by two sweeps at once, writes the same ratings. Each variant's
//! periods close in order, one at a time, and how far they have closed is kept in the store.

use std::collections::BTreeSet;

use chrono::{DateTime, TimeDelta, Utc};
use missive_domain::{GameId, Head, PeriodsClosed, RatedGame, RatingChange, RatingRecord, Status};
use missive_store::StoreError;
use missive_tournament::rating::Rating;
use missive_tournament::rating::period::{Period, PeriodGame, rate_together};

use crate::{GameService, ServiceError, rating_at};

/// How long after a rating period ends it closes: a game that ended just before has this
/// long to reach its period.
pub const PERIOD_GRACE: TimeDelta = TimeDelta::hours(1);

/// Tries of a period's rating writes when another write made one stale.
const RATING_TRIES: usize = 5;

impl GameService {
    /// Keeps the finished rated game at `head` with its rating period, to be rated when the
    /// period closes: the period it ended in, or the first one still open if that one has
    /// closed already. Unrated and imported games, and games with an empty seat, change no
    /// rating. A game kept already stays where it is.
    pub(crate) async fn keep_rated(&self, head: &Head) -> Result<(), ServiceError> {
        let Some(mut game) = rated_game(head) else {
            return Ok(());
        };
        let ended = Period::of_day(game.period);
        game.period = self.open_period(&game.variant, ended).await?.first_day();
        Ok(self.store.keep_rated_game(&game).await?)
    }

    /// `period`, or the first of `variant`'s periods still open if `period` has closed; a
    /// variant's periods are set up (closed through the one before `period`) by its first
    /// rated game.
    /// The periods' marker is read first, so only a variant's first rated game writes.
    async fn open_period(&self, variant: &str, period: Period) -> Result<Period, ServiceError> {
        if let Some(through) = self.periods_closed(variant).await? {
            return Ok(period.max(through.next()));
        }
        let first = PeriodsClosed {
            variant: variant.to_string(),
            through: period.previous().first_day(),
        };
        if self.store.open_rating_periods(&first).await? {
            return Ok(period);
        }
        let closed = self.periods_closed(variant).await?;
        Ok(closed.map_or(period, |through| period.max(through.next())))
    }

    /// The last of `variant`'s rating periods closed, if they are set up.
    async fn periods_closed(&self, variant: &str) -> Result<Option<Period>, ServiceError> {
        let periods = self.store.rating_periods().await?;
        Ok(periods
            .into_iter()
            .find(|closed| closed.variant == variant)
            .map(|closed| Period::of_day(closed.through)))
    }

    /// Closes, in order, every rating period of every variant that ended
    /// [`PERIOD_GRACE`] or more before `now`, rating its games: how many closed. A period
    /// another sweep closed meanwhile is left to it, with the ones after.
    pub async fn close_rating_periods(&self, now: DateTime<Utc>) -> Result<u32, ServiceError> {
        let mut closed = 0;
        for marker in self.store.rating_periods().await? {
            let mut through = Period::of_day(marker.through);
            loop {
                let next = through.next();
                if now < next.end() + PERIOD_GRACE {
                    break;
                }
                let games = self
                    .store
                    .rated_games(&marker.variant, next.first_day())
                    .await?;
                self.rate_period(&marker.variant, next, &games).await?;
                let (from, to) = (through.first_day(), next.first_day());
                if !self
                    .store
                    .move_rating_periods(&marker.variant, from, to)
                    .await?
                {
                    break;
                }
                through = next;
                closed += 1;
            }
        }
        Ok(closed)
    }

    /// Rates `games`, the rated games of `variant`'s `period`, together: every player not
    /// yet rated by the period gets the period's change.
    async fn rate_period(
        &self,
        variant: &str,
        period: Period,
        games: &[RatedGame],
    ) -> Result<(), ServiceError> {
        let players = players_of(games);
        for _ in 0..RATING_TRIES {
            let mut records = Vec::with_capacity(players.len());
            for player in &players {
                records.push(self.store.rating(player, variant).await?);
            }
            let mut stale = false;
            for next in closed(variant, period, games, &players, records)? {
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

/// The players of `games`, sorted, each once.
pub(crate) fn players_of(games: &[RatedGame]) -> Vec<&str> {
    games
        .iter()
        .flat_map(|game| game.players.iter().map(String::as_str))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// What closing `variant`'s `period`, which holds `games`, writes: the record after it of
/// each of `players` (the players of `games`, sorted; `records` their ratings as they
/// stand) whom the period has not rated yet, every player rated from their rating at the
/// period's start.
pub(crate) fn closed(
    variant: &str,
    period: Period,
    games: &[RatedGame],
    players: &[&str],
    records: Vec<Option<RatingRecord>>,
) -> Result<Vec<RatingRecord>, ServiceError> {
    let seats: Vec<PeriodGame> = games
        .iter()
        .map(|game| PeriodGame {
            players: game.players.iter().map(|p| index_of(players, p)).collect(),
            results: game.results.clone(),
        })
        .collect();
    let before: Vec<Rating> = records
        .iter()
        .map(|record| at_start(record.as_ref(), period, games))
        .collect();
    let after = rate_together(&before, &seats).map_err(|e| {
        let day = period.first_day();
        ServiceError::refused(format!("rating {variant}'s week of {day}: {e}"))
    })?;
    let rated = players.iter().zip(records).zip(before.iter().zip(&after));
    Ok(rated
        .filter(|((_, record), _)| !record.as_ref().is_some_and(|r| rated_in(r, games)))
        .map(|((player, record), change)| {
            let own: Vec<&RatedGame> = games
                .iter()
                .filter(|game| game.players.iter().any(|p| p == player))
                .collect();
            with_period(record, (player, variant, period), &own, change)
        })
        .collect())
}

/// The finished rated game at `head` as its rating period keeps it, with the period it
/// ended in; `None` for a game that changes no rating (unrated, imported, not finished, or
/// with an empty seat).
pub(crate) fn rated_game(head: &Head) -> Option<RatedGame> {
    let doc = &head.doc;
    let rates = doc.status == Status::Finished && doc.rated && !doc.imported;
    let ending = doc.ending.as_ref().filter(|_| rates)?;
    let players: Option<Vec<String>> = doc
        .seats
        .iter()
        .map(|seat| seat.player().map(str::to_string))
        .collect();
    Some(RatedGame {
        variant: doc.variant.clone(),
        period: Period::of(ending.at).first_day(),
        game: head.id.clone(),
        players: players?,
        results: ending.results.clone(),
        ended: ending.at,
    })
}

/// Where `player` is in `players`, which holds them.
fn index_of(players: &[&str], player: &str) -> usize {
    players.binary_search(&player).unwrap_or(usize::MAX)
}

/// Whether `record` has been rated by any of `games` (one period's).
fn rated_in(record: &RatingRecord, games: &[RatedGame]) -> bool {
    games.iter().any(|game| record.has_rated(&game.game))
}

/// The rating `record` (none: a newcomer's) had at the start of `period`, whose games are
/// `games`: as written with its first change of the period if the period has rated it
/// already, else as it stood then ([`rating_at`]).
fn at_start(record: Option<&RatingRecord>, period: Period, games: &[RatedGame]) -> Rating {
    let Some(record) = record else {
        return Rating::default();
    };
    let in_period = |change: &&RatingChange| games.iter().any(|g| g.game == change.game);
    let changes: Vec<&RatingChange> = record.history.iter().filter(in_period).collect();
    match changes.first() {
        Some(first) => Rating {
            rating: first.before,
            deviation: first.deviation_before,
            volatility: first.volatility_before,
            games: record.games.saturating_sub(changes.len() as u32),
        },
        None => rating_at(record, period.start()),
    }
}

/// `record` (or a first record of `player` in `variant`) after `period`, whose games
/// `games` of the player's took them from `before` to `after`: one change per game, in the
/// order they ended, each the period's (a game that reached the period after its own is
/// dated at the period's start).
fn with_period(
    record: Option<RatingRecord>,
    (player, variant, period): (&str, &str, Period),
    games: &[&RatedGame],
    (before, after): (&Rating, &Rating),
) -> RatingRecord {
    let mut record = record.unwrap_or_else(|| RatingRecord {
        player: player.to_string(),
        variant: variant.to_string(),
        revision: 0,
        rating: before.rating,
        deviation: before.deviation,
        volatility: before.volatility,
        games: 0,
        history: Vec::new(),
        in_periods: true,
    });
    let mut ended: Vec<(DateTime<Utc>, &GameId)> = games
        .iter()
        .map(|game| (game.ended.max(period.start()), &game.game))
        .collect();
    ended.sort();
    for (at, game) in ended {
        record.history.push(RatingChange {
            game: game.clone(),
            at,
            before: before.rating,
            after: after.rating,
            deviation_before: before.deviation,
            volatility_before: before.volatility,
        });
    }
    record.revision += 1;
    record.rating = after.rating;
    record.deviation = after.deviation;
    record.volatility = after.volatility;
    record.games = after.games;
    record
}
