//! Clocks of correspondence play: whose time runs, from when, for how long, and how
//! vacations stop it.
//!
//! A seat's turn starts when the previous move was accepted (or when the game started).
//! With days per move, every turn has the same allowance. ICCF style (`moves` in `days`),
//! a seat has `days` at the start and `days` more after every `moves` of its moves; each
//! turn spends the running time it took. Time stands still during the player's vacations,
//! so a deadline is reached after `allowance` of running time.

use crate::{GameDoc, MoveRecord, Period, Seat, SeatClock, TimeControl, Waiting};
use chrono::{DateTime, Duration, Utc};

/// The day counts a days-per-move time control may use.
pub const DAYS_PER_MOVE: [u16; 7] = [1, 2, 3, 5, 7, 10, 14];

/// The seat to move's running turn: since when, and how much running time it has left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// When the turn started.
    pub since: DateTime<Utc>,
    /// Running time left at the start of the turn (zero or more).
    pub allowance: Duration,
}

impl Turn {
    /// The turn from `since` of a seat whose clock is `clock`, vacations not counted (so
    /// its deadline is a lower bound): what the head keeps.
    pub fn of(doc: &GameDoc, clock: &SeatClock, since: DateTime<Utc>) -> Option<Turn> {
        doc.started_at?;
        let allowance = match doc.time_control {
            TimeControl::DaysPerMove { days } => Duration::days(days.into()),
            TimeControl::Iccf { moves, days } => {
                let periods = 1 + i64::from(clock.moves) / i64::from(moves.max(1));
                let given = Duration::days(i64::from(days) * periods);
                (given - Duration::milliseconds(clock.used_ms)).max(Duration::zero())
            }
        };
        Some(Turn { since, allowance })
    }

    /// The turn a head's `waiting` describes: from its start, with the running time up to
    /// its stored deadline (which counts no vacation).
    pub fn waiting(waiting: &Waiting) -> Turn {
        Turn {
            since: waiting.since,
            allowance: (waiting.deadline - waiting.since).max(Duration::zero()),
        }
    }

    /// The same turn cut to `numerator / denominator` of its allowance: `part(4, 5)` ends
    /// when 80% of the running time is gone.
    pub fn part(&self, numerator: i32, denominator: i32) -> Turn {
        Turn {
            since: self.since,
            allowance: self.allowance * numerator / denominator.max(1),
        }
    }

    /// The deadline of the turn when time stands still during `vacations`.
    pub fn deadline(&self, vacations: &[Period]) -> DateTime<Utc> {
        deadline(self.since, self.allowance, vacations)
    }
}

/// The turn of `seat`, which is to move after `log`; `None` before the game started.
/// `vacations` are the seat's player's; they give back time spent in earlier turns.
pub fn current_turn(
    doc: &GameDoc,
    log: &[MoveRecord],
    seat: Seat,
    vacations: &[Period],
) -> Option<Turn> {
    let started = doc.started_at?;
    let since = log.last().map_or(started, |mv| mv.at);
    let allowance = match doc.time_control {
        TimeControl::DaysPerMove { days } => Duration::days(days.into()),
        TimeControl::Iccf { moves, days } => {
            let mut turn_start = started;
            let (mut made, mut used) = (0i64, Duration::zero());
            for mv in log {
                if mv.seat == seat {
                    made += 1;
                    used += running_time(turn_start, mv.at, vacations);
                }
                turn_start = mv.at;
            }
            let periods = 1 + made / i64::from(moves.max(1));
            (Duration::days(i64::from(days) * periods) - used).max(Duration::zero())
        }
    };
    Some(Turn { since, allowance })
}

/// Every span of `a` and `b` (each in order, not overlapping) in order, the overlapping
/// ones joined: a player's vacations with their game's pauses.
pub fn joined(a: &[Period], b: &[Period]) -> Vec<Period> {
    let mut all: Vec<Period> = a.iter().chain(b).copied().collect();
    all.sort_by_key(|p| p.start);
    let mut joined: Vec<Period> = Vec::with_capacity(all.len());
    for period in all {
        match joined.last_mut() {
            Some(last) if period.start <= last.end => last.end = last.end.max(period.end),
            _ => joined.push(period),
        }
    }
    joined
}

/// Running time between `from` and `to`: the wall time less the parts inside `vacations`.
pub fn running_time(from: DateTime<Utc>, to: DateTime<Utc>, vacations: &[Period]) -> Duration {
    let stopped: Duration = vacations
        .iter()
        .map(|p| (p.end.min(to) - p.start.max(from)).max(Duration::zero()))
        .sum();
    (to - from - stopped).max(Duration::zero())
}

/// The instant when `allowance` of running time has passed since `from`, the clock standing
/// still during `vacations` (sorted, not overlapping).
pub fn deadline(from: DateTime<Utc>, allowance: Duration, vacations: &[Period]) -> DateTime<Utc> {
    let (mut cursor, mut left) = (from, allowance);
    for period in vacations.iter().filter(|p| p.end > from) {
        if period.start > cursor {
            let run = period.start - cursor;
            if run >= left {
                return cursor + left;
            }
            left -= run;
        }
        cursor = cursor.max(period.end);
    }
    cursor + left
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(0, 0).unwrap() + Duration::days(d)
    }

    fn period(start: i64, end: i64) -> Period {
        Period {
            start: day(start),
            end: day(end),
        }
    }

    #[test]
    fn deadlines_skip_vacations() {
        let cases: &[(&[Period], i64, i64)] = &[
            (&[], 3, 3),
            (&[period(1, 3)], 3, 5),
            (&[period(5, 9)], 3, 3),
            (&[period(3, 5)], 3, 3),
            (&[period(0, 2), period(3, 4)], 3, 6),
            (&[period(-5, 1)], 3, 4),
        ];
        for (vacations, allowance, expected) in cases {
            assert_eq!(
                deadline(day(0), Duration::days(*allowance), vacations),
                day(*expected),
                "{vacations:?}"
            );
        }
    }

    #[test]
    fn a_part_of_a_turn_runs_out_later_across_a_vacation() {
        let turn = Turn {
            since: day(0),
            allowance: Duration::days(5),
        };
        assert_eq!(turn.part(4, 5).deadline(&[]), day(4));
        assert_eq!(turn.part(4, 5).deadline(&[period(1, 11)]), day(14));
        assert_eq!(turn.deadline(&[period(1, 11)]), day(15));
    }

    #[test]
    fn running_time_leaves_out_vacations() {
        assert_eq!(running_time(day(0), day(10), &[]), Duration::days(10));
        assert_eq!(
            running_time(day(0), day(10), &[period(2, 4), period(9, 12)]),
            Duration::days(7)
        );
        assert_eq!(
            running_time(day(3), day(4), &[period(2, 5)]),
            Duration::zero()
        );
    }
}
