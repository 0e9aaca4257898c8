//! Vacations: whole days, per player, that stop the player's clocks in every game.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use missive_domain::Period;
use missive_store::StoreError;

use crate::{GameService, ServiceError};

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
        loop {
            let mut record = self.store.vacation(player).await?;
            if record
                .periods
                .iter()
                .any(|p| p.start < period.end && period.start < p.end)
            {
                return Err(ServiceError::refused("overlaps a vacation already taken"));
            }
            record.periods.push(period);
            record.periods.sort();
            for year in [period.start.year(), period.end.year()] {
                let used = days_in_year(&record.periods, year);
                if used > i64::from(self.config.vacation_days_per_year) {
                    return Err(ServiceError::refused(format!(
                        "{used} vacation days in {year}, more than the {} allowed",
                        self.config.vacation_days_per_year
                    )));
                }
            }
            record.revision += 1;
            match self.store.put_vacation(player, &record).await {
                Ok(()) => {
                    self.record_vacation(player, period).await?;
                    return Ok(record.periods);
                }
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// The vacations `player` has taken.
    pub async fn vacations(&self, player: &str) -> Result<Vec<Period>, ServiceError> {
        Ok(self.store.vacation(player).await?.periods)
    }
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
