//! What each game counts for, once withdrawals are applied: the checked results of
//! finished, adjudicated and forfeited games, the games still to play, the annulled ones.

use missive_rules::SeatResult;

use super::input::{Game, GameState, StandingsError, Withdrawal};
use crate::score::{Points, SeatCount, game_points, points};

/// What one game counts for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// It counts: each seat's result and points.
    Counted {
        /// Each seat's result.
        results: Vec<SeatResult>,
        /// Each seat's points.
        points: Vec<Points>,
        /// Whether it was decided by a withdrawal rather than played or adjudicated.
        forfeit: bool,
    },
    /// It is still being played.
    Pending,
    /// It counts for nobody.
    Annulled,
}

/// The tournament the verdicts are reached for.
pub(super) struct Field<'a> {
    /// The number of players.
    pub players: usize,
    /// The number of seats at every game.
    pub seats: SeatCount,
    /// Whether each player (by index) withdrew.
    pub withdrawn: &'a [bool],
    /// What the unfinished games of withdrawn players become.
    pub policy: Withdrawal,
}

impl Field<'_> {
    /// The verdict on every game, in order, each checked: the right number of distinct,
    /// known players, and results that are a game's result.
    pub fn verdicts(&self, games: &[Game]) -> Result<Vec<Verdict>, StandingsError> {
        games
            .iter()
            .enumerate()
            .map(|(index, game)| self.verdict(index, game))
            .collect()
    }

    /// The verdict on `game`, the game at `index`.
    fn verdict(&self, index: usize, game: &Game) -> Result<Verdict, StandingsError> {
        self.check_players(index, &game.players)?;
        match &game.state {
            GameState::Finished(results) | GameState::Adjudicated(results) => {
                self.counted(index, results)
            }
            GameState::Unfinished => Ok(self.unfinished(&game.players)),
        }
    }

    /// An unfinished game between `players`: pending unless one of them withdrew.
    fn unfinished(&self, players: &[usize]) -> Verdict {
        let stayed = players.iter().filter(|&&p| !self.withdrawn[p]).count();
        if stayed == players.len() {
            return Verdict::Pending;
        }
        let winners = match (self.policy, stayed) {
            (Withdrawal::Annul, _) | (Withdrawal::Forfeit, 0) => return Verdict::Annulled,
            (Withdrawal::Forfeit, 1) => SeatResult::Win,
            (Withdrawal::Forfeit, _) => SeatResult::SharedWin,
        };
        let results: Vec<SeatResult> = players
            .iter()
            .map(|&p| {
                if self.withdrawn[p] {
                    SeatResult::Loss
                } else {
                    winners
                }
            })
            .collect();
        let scored = results.iter().map(|&r| points(self.seats, r));
        Verdict::Counted {
            points: scored.collect(),
            results,
            forfeit: true,
        }
    }

    /// The verdict on the finished or adjudicated game at `index` with `results`, checked
    /// to be one per seat and to add up to one point.
    fn counted(&self, index: usize, results: &[SeatResult]) -> Result<Verdict, StandingsError> {
        if results.len() != self.seats.get() {
            return Err(StandingsError::ResultCount {
                game: index,
                results: results.len(),
                seats: self.seats.get(),
            });
        }
        let points = game_points(results).map_err(|source| StandingsError::Results {
            game: index,
            source,
        })?;
        Ok(Verdict::Counted {
            results: results.to_vec(),
            points,
            forfeit: false,
        })
    }

    /// Checks that the game at `index` seats as many players as the tournament's games,
    /// each known and none twice.
    fn check_players(&self, index: usize, players: &[usize]) -> Result<(), StandingsError> {
        if players.len() != self.seats.get() {
            return Err(StandingsError::SeatCount {
                game: index,
                found: players.len(),
                expected: self.seats.get(),
            });
        }
        for (seat, &player) in players.iter().enumerate() {
            if player >= self.players {
                return Err(StandingsError::UnknownPlayer {
                    game: index,
                    player,
                    players: self.players,
                });
            }
            if players[..seat].contains(&player) {
                return Err(StandingsError::PlayerTwice {
                    game: index,
                    player,
                });
            }
        }
        Ok(())
    }
}
