//! Ratings kept before rating periods, which rated each game on its own as it ended,
//! brought to rating periods by the upgrade (`missive upgrade`): every rated game of a
//! variant's histories is rated again, week by week from newcomers, as the weekly closes
//! would have rated it (`crate::rating_periods`).
//!
//! A variant is upgraded while it has ratings and no rating periods set up. Its new records
//! are computed whole, then written one by one, and its periods set up last: an upgrade cut
//! short leaves the variant to the next one, which computes the same records again from the
//! same games (a history rated in periods names the same games). Run it while no rated game
//! ends (the server stopped), as the other upgrades.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use missive_domain::{Cursor, GameId, PeriodsClosed, RatedGame, RatingRecord};
use missive_rules::registry;
use missive_tournament::rating::Rating;
use missive_tournament::rating::period::Period;

use crate::rating_periods::{PERIOD_GRACE, closed, players_of, rated_game};
use crate::{GameService, ServiceError};

impl GameService {
    /// Rates again in rating periods every variant whose ratings were rated game by game,
    /// every week closed by `now` rated, the games of the week still open kept for its
    /// close: how many variants.
    pub(crate) async fn rate_histories_in_periods(
        &self,
        now: DateTime<Utc>,
    ) -> Result<usize, ServiceError> {
        let set_up: Vec<String> = self
            .store
            .rating_periods()
            .await?
            .into_iter()
            .map(|closed| closed.variant)
            .collect();
        let mut upgraded = 0;
        for variant in registry::variants().iter().map(|v| v.id()) {
            if set_up.iter().any(|v| v == variant) {
                continue;
            }
            let records = self.every_rating(variant).await?;
            if !records.is_empty() {
                self.rate_in_periods(variant, records, now).await?;
                upgraded += 1;
            }
        }
        Ok(upgraded)
    }

    /// Every rating in `variant`.
    async fn every_rating(&self, variant: &str) -> Result<Vec<RatingRecord>, ServiceError> {
        let mut records = Vec::new();
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self
                .store
                .leaderboard(variant, cursor.as_ref(), 100)
                .await?;
            records.extend(page.items);
            match page.next {
                Some(next) => cursor = Some(next),
                None => return Ok(records),
            }
        }
    }

    /// Rates `variant`'s games again in periods from `records`, its ratings as they stand.
    async fn rate_in_periods(
        &self,
        variant: &str,
        records: Vec<RatingRecord>,
        now: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let ids: BTreeSet<&GameId> = records
            .iter()
            .flat_map(|record| record.history.iter().map(|change| &change.game))
            .collect();
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            games.extend(rated_game(&self.head_of(id).await?));
        }
        let through = Period::of(now - PERIOD_GRACE).previous();
        let rated = rated_through(variant, &games, through)?;
        for game in &games {
            self.store.keep_rated_game(game).await?;
        }
        let mut rated = rated;
        for record in records {
            let next = RatingRecord {
                revision: record.revision + 1,
                ..rated
                    .remove(&record.player)
                    .unwrap_or_else(|| newcomer(&record))
            };
            self.store.put_rating(&next).await?;
        }
        for first in rated.into_values() {
            let first = RatingRecord {
                revision: 1,
                ..first
            };
            self.store.put_rating(&first).await?;
        }
        let closed = PeriodsClosed {
            variant: variant.to_string(),
            through: through.first_day(),
        };
        self.store.open_rating_periods(&closed).await?;
        Ok(())
    }
}

/// Every player's record once each period of `games` up to `through` has closed, from
/// newcomers (revisions left at 0 for the caller).
fn rated_through(
    variant: &str,
    games: &[RatedGame],
    through: Period,
) -> Result<BTreeMap<String, RatingRecord>, ServiceError> {
    let mut by_period: BTreeMap<Period, Vec<RatedGame>> = BTreeMap::new();
    for game in games {
        let period = Period::of_day(game.period);
        if period <= through {
            by_period.entry(period).or_default().push(game.clone());
        }
    }
    let mut records: BTreeMap<String, RatingRecord> = BTreeMap::new();
    for (period, games) in by_period {
        let players = players_of(&games);
        let before = players.iter().map(|p| records.get(*p).cloned()).collect();
        for record in closed(variant, period, &games, &players, before)? {
            records.insert(record.player.clone(), record);
        }
    }
    Ok(records)
}

/// `record` as a newcomer's: no rated game yet.
fn newcomer(record: &RatingRecord) -> RatingRecord {
    let rating = Rating::default();
    RatingRecord {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
        games: 0,
        history: Vec::new(),
        ..record.clone()
    }
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeDelta};
    use missive_domain::SeatResult;
    use missive_domain::SeatResult::{Draw, Loss, Win};
    use missive_tournament::rating::replay::{EndedGame, replay};

    use super::*;
    use crate::rating_at;

    /// A game of `players` with `results`, ended `days` after Monday 2030-01-07.
    fn game(id: &str, players: [&str; 2], results: [SeatResult; 2], days: i64) -> RatedGame {
        let monday = NaiveDate::from_ymd_opt(2030, 1, 7).unwrap();
        let ended = monday.and_hms_opt(12, 0, 0).unwrap().and_utc() + TimeDelta::days(days);
        RatedGame {
            variant: "chess".into(),
            period: Period::of(ended).first_day(),
            game: GameId(id.into()),
            players: players.map(String::from).to_vec(),
            results: results.to_vec(),
            ended,
        }
    }

    /// The records rated period by period agree with the replay of the same games, for
    /// players idle for some of the weeks, and leave out the weeks after `through`.
    #[test]
    fn histories_rated_again_agree_with_the_replay() {
        let games = [
            game("g1", ["ann", "bob"], [Win, Loss], 0),
            game("g2", ["cyd", "ann"], [Draw, Draw], 2),
            game("g3", ["bob", "cyd"], [Win, Loss], 8),
            game("g4", ["ann", "dan"], [Loss, Win], 22),
            game("g5", ["bob", "dan"], [Draw, Draw], 23),
            game("g6", ["ann", "bob"], [Win, Loss], 29),
        ];
        let through = Period::of(games[4].ended);
        let records = rated_through("chess", &games, through).unwrap();
        let ended: Vec<EndedGame<String>> = games
            .iter()
            .map(|g| EndedGame {
                players: g.players.clone(),
                results: g.results.clone(),
                at: g.ended,
            })
            .collect();
        let replayed = replay(&ended, through).unwrap();
        assert_eq!(
            records.keys().collect::<Vec<_>>(),
            replayed.keys().collect::<Vec<_>>()
        );
        let after = through.next().start();
        for (player, theirs) in &replayed {
            let ours = rating_at(&records[player], after);
            assert_eq!(ours, *theirs, "{player}");
        }
        assert_eq!(records["ann"].games, 3, "g6 is after `through`");
        assert_eq!(records["ann"].history.len(), 3);
    }
}
