//! A tournament's start: every pairing's game recorded, then created already started, a
//! batch at a time for the start's working time; the sweep creates what is left.

use std::time::Instant;

use missive_domain::{
    GameId, SeatDoc, StartJob, Tournament, TournamentGame, TournamentId, TournamentState,
};
use missive_store::StoreError;

use crate::lobby::NewGame;
use crate::tournaments::{pairings, require_organiser, require_state};
use crate::{GameService, ServiceError};

impl GameService {
    /// What the sweep calls when the wake-up of tournament `id` is due: an open one whose
    /// start date has come starts with the players it has, if a round robin can be made of
    /// them; a starting one goes on creating its games where its start stopped (unless a
    /// start is at it). `true` when this made it running; `false` otherwise: not open nor
    /// starting, not yet due, too few players (then it stays due, and the next sweep looks
    /// at it again), or games left to create (due again at once).
    pub async fn start_due_tournament(&self, id: &TournamentId) -> Result<bool, ServiceError> {
        let tournament = self.tournament(id).await?;
        if tournament.state == TournamentState::Starting {
            return self.resume_start(id).await;
        }
        if tournament.starts_at().is_none_or(|at| at > self.now()) {
            return Ok(false);
        }
        let seats = (self.catalog)(&tournament.variant)?.seat_names().len();
        if pairings(seats, tournament.players.len(), tournament.double).is_err() {
            return Ok(false);
        }
        match self.begin(tournament).await {
            Ok(started) => Ok(started.state != TournamentState::Starting),
            Err(ServiceError::TournamentState(_)) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// Starts the open tournament `id` for `by`, its organiser, with the players it has
    /// (at least as many as a round robin needs): its games (who sits where) are recorded
    /// and it is starting, then they are created for the start's working time; it runs
    /// once all exist, else it is left starting and the sweep creates the rest. A starting
    /// tournament is given as it is (its start goes on in the sweep).
    pub async fn start_tournament(
        &self,
        id: &TournamentId,
        by: &str,
    ) -> Result<Tournament, ServiceError> {
        let tournament = self.tournament(id).await?;
        require_organiser(&tournament, by)?;
        if tournament.state == TournamentState::Starting {
            return Ok(tournament);
        }
        require_state(&tournament, &[TournamentState::Open])?;
        self.begin(tournament).await
    }

    /// Starts the open `tournament`: records its pairings as its games and makes it
    /// starting, then creates its games (see [`GameService::create_games`]).
    pub(crate) async fn begin(&self, tournament: Tournament) -> Result<Tournament, ServiceError> {
        let variant = (self.catalog)(&tournament.variant)?;
        let seats = variant.seat_names().len();
        let tables = pairings(seats, tournament.players.len(), tournament.double)?;
        let mut games = Vec::with_capacity(tables.len());
        for (index, (round, seated)) in tables.into_iter().enumerate() {
            games.push(TournamentGame {
                game: game_id(&tournament.id, index + 1)?,
                players: seated
                    .iter()
                    .map(|p| tournament.players[*p].clone())
                    .collect(),
                round,
            });
        }
        let now = self.now();
        let job = self.start_lease(0);
        let starting = self
            .change_tournament(&tournament.id, |tournament| {
                require_state(tournament, &[TournamentState::Open])?;
                tournament.games = games.clone();
                tournament.state = TournamentState::Starting;
                tournament.started_at = Some(now);
                tournament.start_job = Some(job);
                Ok(())
            })
            .await?;
        self.create_games(starting).await
    }

    /// Takes up the creation of the starting tournament `id`'s games where it stopped,
    /// unless another start is at it (its job not due yet): `true` if this made it
    /// running.
    async fn resume_start(&self, id: &TournamentId) -> Result<bool, ServiceError> {
        let now = self.now();
        let taken = self
            .change_tournament(id, |tournament| {
                require_state(tournament, &[TournamentState::Starting])?;
                let created = match tournament.start_job {
                    Some(job) if job.due > now => {
                        return Err(ServiceError::TournamentState(TournamentState::Starting));
                    }
                    Some(job) => job.created,
                    None => 0,
                };
                tournament.start_job = Some(self.start_lease(created));
                Ok(())
            })
            .await;
        let taken = match taken {
            Ok(taken) => taken,
            Err(ServiceError::TournamentState(_)) => return Ok(false),
            Err(error) => return Err(error),
        };
        let after = self.create_games(taken).await?;
        Ok(after.state != TournamentState::Starting)
    }

    /// A start job at `created` games that the sweep leaves alone for as long as one start
    /// works on it.
    fn start_lease(&self, created: usize) -> StartJob {
        let time = chrono::Duration::from_std(self.config.quotas.start_time)
            .unwrap_or(chrono::Duration::MAX);
        StartJob {
            created,
            due: self.now() + time,
        }
    }

    /// Creates the games of the starting `tournament` from where its job stopped, a batch
    /// at a time ([`Quotas::start_batch`](crate::Quotas)), for the start's working time
    /// ([`Quotas::start_time`](crate::Quotas); one batch at least). A game that exists
    /// already (created by a start that died before it counted it) is a conflict skipped:
    /// every game is created once. Once every game exists the tournament runs; otherwise
    /// the job records how far it came, due now, and the sweep goes on from there. The
    /// tournament as this leaves it.
    async fn create_games(&self, tournament: Tournament) -> Result<Tournament, ServiceError> {
        let limits = self.config.quotas;
        let deadline = Instant::now() + limits.start_time;
        let batch = usize::try_from(limits.start_batch.max(1)).unwrap_or(usize::MAX);
        let mut created = tournament.start_job.map_or(0, |job| job.created);
        while created < tournament.games.len() {
            let end = (created + batch).min(tournament.games.len());
            let starts = tournament.games[created..end]
                .iter()
                .map(|g| self.tournament_start(&tournament, &g.game, &g.players))
                .collect::<Result<Vec<_>, _>>()?;
            for answer in self.store.create_started(&starts).await {
                match answer {
                    Ok(()) | Err(StoreError::Conflict) => {}
                    Err(error) => return Err(error.into()),
                }
            }
            for start in &starts {
                self.changed(&start.head.id);
            }
            created = end;
            if Instant::now() >= deadline {
                break;
            }
        }
        match created < tournament.games.len() {
            true => self.stop_start(&tournament.id, created).await,
            false => self.run(&tournament).await,
        }
    }

    /// Records that the start of tournament `id` has created its first `created` games
    /// and stopped: due now in the sweep's index.
    async fn stop_start(
        &self,
        id: &TournamentId,
        created: usize,
    ) -> Result<Tournament, ServiceError> {
        let now = self.now();
        self.change_tournament(id, |tournament| {
            if tournament.state != TournamentState::Starting {
                return Ok(());
            }
            let counted = tournament.start_job.map_or(0, |job| job.created);
            tournament.start_job = Some(StartJob {
                created: created.max(counted),
                due: now,
            });
            Ok(())
        })
        .await
    }

    /// Makes the starting `tournament`, every game of which exists, running (once: a start
    /// that finds it running already changes nothing), then has its first game attended
    /// again now, so its start mails go out with the first game's turn.
    async fn run(&self, tournament: &Tournament) -> Result<Tournament, ServiceError> {
        let running = self
            .change_tournament(&tournament.id, |tournament| {
                if tournament.state == TournamentState::Starting {
                    tournament.state = TournamentState::Running;
                    tournament.start_job = None;
                }
                Ok(())
            })
            .await?;
        if let Some(first) = running.games.first() {
            self.store.hasten_wake(&first.game, self.now()).await?;
            self.changed(&first.game);
        }
        Ok(running)
    }

    /// The commit that starts tournament game `game` of `players` (by seat).
    fn tournament_start(
        &self,
        tournament: &Tournament,
        game: &GameId,
        players: &[String],
    ) -> Result<missive_domain::Commit, ServiceError> {
        let new = NewGame {
            creator: tournament.organiser.clone(),
            variant: tournament.variant.clone(),
            options: tournament.options.clone(),
            start_position: None,
            seats: Vec::new(),
            time_control: tournament.time_control,
            rated: tournament.rated,
            private: false,
        };
        let seats = players
            .iter()
            .map(|player| SeatDoc::Taken {
                player: player.clone(),
            })
            .collect();
        let mut head = self.new_head(&new, seats)?;
        head.id = game.clone();
        head.doc.tournament = Some(tournament.id.clone());
        self.start_commit(head)
    }
}

/// The id of game `n` (from 1) of tournament `id`: a ULID with the tournament's time and
/// its random part plus `n`, so that a start tried again names the same games.
fn game_id(id: &TournamentId, n: usize) -> Result<GameId, ServiceError> {
    let tournament = ulid::Ulid::from_string(&id.0)
        .map_err(|_| ServiceError::refused(format!("tournament id {id} is not a ULID")))?;
    let random = tournament.random().wrapping_add(n as u128) & ((1u128 << 80) - 1);
    Ok(GameId(
        ulid::Ulid::from_parts(tournament.timestamp_ms(), random).to_string(),
    ))
}
