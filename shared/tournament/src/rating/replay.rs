//! Replaying rated games period by period: every player's rating from nothing, as the
//! weekly rating periods ([`super::period`]) make it. What a history rated game by game
//! becomes once rated in periods, and what closing periods one by one must agree with.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use missive_rules::SeatResult;

use super::period::{Period, PeriodGame, rate_together, widened};
use super::{Rating, RatingError};

/// One rated game to replay: its players by seat, its results by seat, when it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct EndedGame<P> {
    /// The player in each seat.
    pub players: Vec<P>,
    /// Each seat's result: a game's result (see [`crate::score::game_points`]).
    pub results: Vec<SeatResult>,
    /// When the game ended: it is rated with its period.
    pub at: DateTime<Utc>,
}

/// Every player's rating once every period up to and including `through` has closed,
/// from `games` in any order. A player starts as a newcomer in the period of their first
/// game and is widened for every closed period after it without a game; games ending
/// after `through` are left out (still pending). Players with no game by then are absent.
pub fn replay<P: Ord + Clone>(
    games: &[EndedGame<P>],
    through: Period,
) -> Result<BTreeMap<P, Rating>, RatingError> {
    let mut by_period: BTreeMap<Period, Vec<&EndedGame<P>>> = BTreeMap::new();
    for game in games.iter().filter(|g| Period::of(g.at) <= through) {
        by_period.entry(Period::of(game.at)).or_default().push(game);
    }
    let mut ratings: BTreeMap<P, Rating> = BTreeMap::new();
    let mut closed: Option<Period> = None;
    for (period, games) in by_period {
        if let Some(last) = closed {
            widen_all(&mut ratings, period.since(last).saturating_sub(1));
        }
        for game in &games {
            for player in &game.players {
                ratings.entry(player.clone()).or_default();
            }
        }
        close(&mut ratings, &games)?;
        closed = Some(period);
    }
    if let Some(last) = closed {
        widen_all(&mut ratings, through.since(last));
    }
    Ok(ratings)
}

/// Widens every rating in `ratings` by `idle` periods.
fn widen_all<P>(ratings: &mut BTreeMap<P, Rating>, idle: u32) {
    for rating in ratings.values_mut() {
        *rating = widened(rating, idle);
    }
}

/// Rates one period's `games` into `ratings`, which holds every player of them.
fn close<P: Ord + Clone>(
    ratings: &mut BTreeMap<P, Rating>,
    games: &[&EndedGame<P>],
) -> Result<(), RatingError> {
    let players: Vec<P> = ratings.keys().cloned().collect();
    let index = |player: &P| players.binary_search(player).unwrap_or(usize::MAX);
    let period: Vec<PeriodGame> = games
        .iter()
        .map(|game| PeriodGame {
            players: game.players.iter().map(index).collect(),
            results: game.results.clone(),
        })
        .collect();
    let before: Vec<Rating> = ratings.values().copied().collect();
    let after = rate_together(&before, &period)?;
    for (rating, new) in ratings.values_mut().zip(after) {
        *rating = new;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
