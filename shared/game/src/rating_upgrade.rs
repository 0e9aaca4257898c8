//! Ratings kept before rating periods, which rated each game on its own as it ended,
//! brought to rating periods by the upgrade (`missive upgrade`): every rated game of a
//! variant's histories is rated again, week by week from newcomers, as the weekly closes
//! would have rated it (`crate::rating_periods`).
//!
//! A variant is upgraded while one of its ratings was rated game by game
//! (`RatingRecord::in_periods` false). Its new records are computed whole (from the games
//! its histories name, and the games kept with weeks not closed yet), then written one by
//! one, and its weeks set up last: an upgrade cut short leaves the variant to the next one,
//! which computes the same records again from the same games (a history rated in periods
//! names the same games). Run it while no rated game ends (the server stopped), as the
//! other upgrades.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use missive_domain::{Cursor, GameId, PeriodsClosed, RatedGame, RatingRecord};
use missive_rules::registry;
use missive_tournament::rating::Rating;
use missive_tournament::rating::period::Period;

use crate::rating_periods::{PERIOD_GRACE, closed, players_of, rated_game};
use crate::{GameService, ServiceError};

impl GameService {
    /// Rates again in rating periods every variant with a rating rated game by game, every
    /// week closed by `now` rated, the games of the week still open kept for its close: how
    /// many variants.
    pub(crate) async fn rate_histories_in_periods(
        &self,
        now: DateTime<Utc>,
    ) -> Result<usize, ServiceError> {
        let markers = self.store.rating_periods().await?;
        let mut upgraded = 0;
        for variant in registry::variants().iter().map(|v| v.id()) {
            let records = self.every_rating(variant).await?;
            if records.iter().all(|record| record.in_periods) {
                continue;
            }
            let marker = markers
                .iter()
                .find(|closed| closed.variant == variant)
                .map(|closed| Period::of_day(closed.through));
            self.rate_in_periods(variant, records, marker, now).await?;
            upgraded += 1;
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

    /// Rates `variant`'s games again in periods through the last week closed by `now`:
    /// those of `records` (its ratings as they stand) and those kept with the weeks after
    /// `marker` (how far its weeks have closed, if they are set up); then sets its weeks
    /// up as closed through that week.
    async fn rate_in_periods(
        &self,
        variant: &str,
        records: Vec<RatingRecord>,
        marker: Option<Period>,
        now: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let through = Period::of(now - PERIOD_GRACE).previous();
        let games = self
            .games_to_rate(variant, &records, marker, through)
            .await?;
        let mut rated = rated_through(variant, &games, through)?;
        for game in &games {
            self.store.keep_rated_game(game).await?;
        }
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
        let set = match marker {
            Some(marker) => {
                let (from, to) = (marker.first_day(), through.first_day());
                self.store.move_rating_periods(variant, from, to).await?
            }
            None => {
                let closed = PeriodsClosed {
                    variant: variant.to_string(),
                    through: through.first_day(),
                };
                self.store.open_rating_periods(&closed).await?
            }
        };
        match set {
            true => Ok(()),
            false => Err(ServiceError::Contended),
        }
    }

    /// The rated games to rate `variant` again with: those kept with the weeks after
    /// `marker` up to `through` (with the week each was kept with), and those the
    /// histories of `records` name.
    async fn games_to_rate(
        &self,
        variant: &str,
        records: &[RatingRecord],
        marker: Option<Period>,
        through: Period,
    ) -> Result<Vec<RatedGame>, ServiceError> {
        let mut games: BTreeMap<GameId, RatedGame> = BTreeMap::new();
        let mut week = marker.map(|marker| marker.next());
        while let Some(period) = week.filter(|period| *period <= through) {
            for game in self.store.rated_games(variant, period.first_day()).await? {
                games.insert(game.game.clone(), game);
            }
            week = Some(period.next());
        }
        let named: BTreeSet<&GameId> = records
            .iter()
            .flat_map(|record| record.history.iter().map(|change| &change.game))
            .filter(|id| !games.contains_key(*id))
            .collect();
        for id in named {
            if let Some(game) = rated_game(&self.head_of(id).await?) {
                games.insert(game.game.clone(), game);
            }
        }
        Ok(games.into_values().collect())
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
        in_periods: true,
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
