//! Vacations: whole days, per player, that stop the player's clocks in every game.
//!
//! The allowance is ICCF's: a number of days per calendar year (UTC), 45 by default
//! ([`crate::Config`]). A leave is taken in whole days from a start that is not in the past,
//! never overlapping another. It may be cancelled before it starts, or ended early while it
//! runs, and the days not used are given back: the days a year counts are the time its
//! leaves take inside it (a leave over New Year counts in both years), rounded up to whole
//! days. Every change makes each of the player's current games due for the notifier at once
//! (at a new leave's start if that is earlier), which then works out reminders and deadlines
//! anew and tells the opponents when the leave starts and ends.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use missive_domain::{Cursor, GameDoc, Period, Seat, VacationRecord};
use missive_store::{Membership, StoreError};
use serde::Serialize;

use crate::{GameService, ServiceError};

/// Current games read at a time when their wake-ups are made due.
const GAMES_PAGE: usize = 100;

/// A player's vacations as they stand, and the balance of the current year.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VacationBalance {
    /// The calendar year (UTC) the balance is of: the current one.
    pub year: i32,
    /// Days a player may take in a year.
    pub allowance: u32,
    /// Days of the year taken or booked (rounded up to whole days).
    pub used: u32,
    /// Days of the year still to take.
    pub left: u32,
    /// The leave under way now, if any.
    pub current: Option<PeriodView>,
    /// Every leave taken or booked, in order (past ones too).
    pub periods: Vec<PeriodView>,
}

/// A leave, as clients read it: from its first instant to the first instant after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PeriodView {
    /// The first instant.
    pub start: DateTime<Utc>,
    /// The first instant after it.
    pub end: DateTime<Utc>,
}

impl From<Period> for PeriodView {
    fn from(period: Period) -> PeriodView {
        PeriodView {
            start: period.start,
            end: period.end,
        }
    }
}

/// A seated player's vacations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    /// The seat.
    pub seat: Seat,
    /// The player in it.
    pub player: String,
    /// Every leave the player took, in order.
    pub periods: Vec<Period>,
}

/// A player of a game on leave now, and until when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnLeave {
    /// The seat.
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// The player in it.
    pub player: String,
    /// When the leave ends: the player's clocks stand still until then.
    pub until: DateTime<Utc>,
}

impl GameService {
    /// Takes `days` of vacation for `player` from `start` (not in the past). The days of
    /// each calendar year, with those already taken, may not exceed the yearly allowance
    /// (45 by default), and vacations may not overlap. The vacation is recorded in each of
    /// the player's current games. Returns every period taken.
    pub async fn take_vacation(
        &self,
        player: &str,
        start: DateTime<Utc>,
        days: u32,
    ) -> Result<Vec<Period>, ServiceError> {
        if days == 0 {
            return Err(ServiceError::refused("a vacation lasts at least one day"));
        }
        let now = self.now();
        if start < now - Duration::minutes(1) {
            return Err(ServiceError::refused("a vacation cannot start in the past"));
        }
        let period = Period {
            start,
            end: start + Duration::days(days.into()),
        };
        let allowance = self.config.vacation_days_per_year;
        let record = self
            .change_vacations(player, |record| {
                if record
                    .periods
                    .iter()
                    .any(|p| p.start < period.end && period.start < p.end)
                {
                    return Err(ServiceError::refused("overlaps a vacation already taken"));
                }
                record.periods.push(period);
                record.periods.sort();
                check_allowance(&record.periods, &period, allowance)
            })
            .await?;
        self.record_vacation(player, period).await?;
        self.wake_games_of(player, start.min(now)).await?;
        Ok(record.periods)
    }

    /// Cancels the leave of `player` that starts at `start` if it has not begun, or ends it
    /// now if it is under way; the days not used are given back. A leave that is over, or
    /// none starting then, is refused. Returns every period taken.
    pub async fn end_vacation(
        &self,
        player: &str,
        start: DateTime<Utc>,
    ) -> Result<Vec<Period>, ServiceError> {
        let now = self.now();
        let record = self
            .change_vacations(player, |record| {
                let index = record
                    .periods
                    .iter()
                    .position(|p| p.start == start)
                    .ok_or_else(|| ServiceError::refused("no leave of yours starts then"))?;
                let period = &mut record.periods[index];
                if period.end <= now {
                    return Err(ServiceError::refused("that leave is over already"));
                }
                if period.start > now {
                    record.periods.remove(index);
                } else {
                    period.end = now;
                }
                Ok(())
            })
            .await?;
        self.record_vacation_end(player).await?;
        self.wake_games_of(player, now).await?;
        Ok(record.periods)
    }

    /// The vacations `player` has taken.
    pub async fn vacations(&self, player: &str) -> Result<Vec<Period>, ServiceError> {
        Ok(self.store.vacation(player).await?.periods)
    }

    /// The vacations of `player` and the balance of the current year.
    pub async fn vacation_balance(&self, player: &str) -> Result<VacationBalance, ServiceError> {
        let periods = self.vacations(player).await?;
        let now = self.now();
        let year = now.year();
        let allowance = self.config.vacation_days_per_year;
        let used = u32::try_from(days_in_year(&periods, year)).unwrap_or(u32::MAX);
        Ok(VacationBalance {
            year,
            allowance,
            used,
            left: allowance.saturating_sub(used),
            current: leave_at(&periods, now).map(PeriodView::from),
            periods: periods.into_iter().map(PeriodView::from).collect(),
        })
    }

    /// The vacations of every player seated in `doc`, in seat order.
    pub async fn seated_vacations(&self, doc: &GameDoc) -> Result<Vec<Seated>, ServiceError> {
        let mut seated = Vec::new();
        for (index, seat) in doc.seats.iter().enumerate() {
            if let Some(player) = seat.player() {
                seated.push(Seated {
                    seat: Seat(index as u8),
                    player: player.to_string(),
                    periods: self.vacations(player).await?,
                });
            }
        }
        Ok(seated)
    }

    /// Applies `change` to the vacation record of `player` and stores it, deciding again on
    /// the newest record when another writer got there first. Returns the record stored.
    async fn change_vacations(
        &self,
        player: &str,
        change: impl Fn(&mut VacationRecord) -> Result<(), ServiceError>,
    ) -> Result<VacationRecord, ServiceError> {
        loop {
            let mut record = self.store.vacation(player).await?;
            change(&mut record)?;
            record.revision += 1;
            match self.store.put_vacation(player, &record).await {
                Ok(()) => return Ok(record),
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// Makes every current game of `player` due for the notifier by `at`.
    async fn wake_games_of(&self, player: &str, at: DateTime<Utc>) -> Result<(), ServiceError> {
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self
                .store
                .games_of(player, Membership::Active, cursor.as_ref(), GAMES_PAGE)
                .await?;
            for game in &page.items {
                self.store.hasten_wake(game, at).await?;
            }
            match page.next {
                Some(next) => cursor = Some(next),
                None => return Ok(()),
            }
        }
    }
}

/// The players among `seated` on leave at `at`, in seat order.
pub fn on_leave(seated: &[Seated], at: DateTime<Utc>) -> Vec<OnLeave> {
    seated
        .iter()
        .filter_map(|s| {
            leave_at(&s.periods, at).map(|period| OnLeave {
                seat: s.seat,
                player: s.player.clone(),
                until: period.end,
            })
        })
        .collect()
}

/// The leave of `periods` under way at `at`, if any.
pub fn leave_at(periods: &[Period], at: DateTime<Utc>) -> Option<Period> {
    periods
        .iter()
        .find(|p| p.start <= at && at < p.end)
        .copied()
}

/// Refuses `periods` (with `added` among them) if a year `added` touches counts more days
/// than `allowance`.
fn check_allowance(periods: &[Period], added: &Period, allowance: u32) -> Result<(), ServiceError> {
    for year in [added.start.year(), added.end.year()] {
        let used = days_in_year(periods, year);
        if used > i64::from(allowance) {
            return Err(ServiceError::refused(format!(
                "{used} vacation days in {year}, more than the {allowance} allowed"
            )));
        }
    }
    Ok(())
}

/// Vacation time inside calendar year `year`, in days rounded up.
fn days_in_year(periods: &[Period], year: i32) -> i64 {
    let start_of = |y: i32| {
        NaiveDate::from_ymd_opt(y, 1, 1)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc())
    };
    let (Some(from), Some(to)) = (start_of(year), start_of(year + 1)) else {
        return 0;
    };
    let inside: Duration = periods
        .iter()
        .map(|p| (p.end.min(to) - p.start.max(from)).max(Duration::zero()))
        .sum();
    (inside + Duration::days(1) - Duration::milliseconds(1)).num_days()
}
