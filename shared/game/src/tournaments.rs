//! Tournaments: round robins whose games all start at once. An organiser creates one,
//! players join (or are invited), and once it is full (or the organiser starts it) every
//! pairing's game is created, already started, colours balanced by Berger tables (tables of
//! three for three-seat variants, seats rotated). A player who withdraws resigns their games
//! still being played; the crosstable scores those as the organiser chose (forfeit or
//! annulled), and so it does for a player who loses the organiser's number of games on time.
//! The crosstable is computed from the games' heads whenever it is read, so it never
//! disagrees with them.

use std::time::Instant;

use missive_domain::{Cursor, EndRule, Ending, GameEvent, Page, Period, SeatResult};
use missive_domain::{
    GameId, Head, SeatDoc, StartJob, Status, TimeControl, Tournament, TournamentGame, TournamentId,
    TournamentStart, TournamentState, Withdrawal, WithdrawalScoring,
};
use missive_store::StoreError;
use missive_tournament::pairing::{round_robin, tables_of_three};
use missive_tournament::score::{SeatCount, game_points};
use missive_tournament::standings::{self, GameState, Standings};
use serde::{Deserialize, Serialize};

use crate::lobby::{NewGame, check_time_control};
use crate::service::Access;
use crate::timing::joined;
use crate::{GameService, ServiceError};

/// The longest tournament name.
pub const MAX_TOURNAMENT_NAME: usize = 80;

/// The longest extension of a game's deadline, in days.
pub const MAX_EXTENSION_DAYS: u16 = 60;

/// How far ahead a pause still going is taken to end (it ends when resumed).
const FOREVER_DAYS: i64 = 100 * 365;

/// The longest reason of an adjudication.
pub const MAX_ADJUDICATION_REASON: usize = 200;

/// Tries of a change to a tournament that others' changes made stale.
const TOURNAMENT_TRIES: usize = 5;

/// Why a player was withdrawn: their own choice.
pub const WITHDREW: &str = "withdrew";

/// Why a player was withdrawn: they lost the organiser's number of games on time.
pub const TIMEOUTS: &str = "timeouts";

/// A tournament to create.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewTournament {
    /// The player creating and running it.
    pub organiser: String,
    /// Its name.
    pub name: String,
    /// The variant of every game.
    pub variant: String,
    /// The variant's options (`key=value,...`).
    pub options: String,
    /// Every game's time control.
    pub time_control: TimeControl,
    /// Whether the games are rated.
    pub rated: bool,
    /// How many players it takes.
    pub size: u8,
    /// Whether every pairing plays twice, colours swapped (two-seat variants only).
    pub double: bool,
    /// When the games start.
    pub start: TournamentStart,
    /// What becomes of a withdrawn player's unfinished games.
    pub withdrawal: WithdrawalScoring,
    /// Games lost on time after which a player is withdrawn (`None`: never).
    pub timeouts_to_withdraw: Option<u8>,
    /// Players invited.
    pub invited: Vec<String>,
    /// Whether the organiser plays too (joins at once).
    pub plays: bool,
}

/// A tournament with its crosstable, as of the heads of its games.
#[derive(Clone, Debug)]
pub struct TournamentStandings {
    /// The tournament.
    pub tournament: Tournament,
    /// Its standings (players by their index in [`Tournament::players`]); `None` before
    /// it starts.
    pub standings: Option<Standings>,
}

impl GameService {
    /// Creates a tournament, open for players: the variant and options must be valid, the
    /// size within what a round robin of the variant's seats allows, a double round only for
    /// two-seat variants, and every invited player registered; the invitation mails are
    /// counted against the organiser's and each invitee's mail limits
    /// ([`ServiceError::Limited`] beyond them, and nothing is created).
    pub async fn create_tournament(&self, new: NewTournament) -> Result<Tournament, ServiceError> {
        let name = new.name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_TOURNAMENT_NAME {
            return Err(ServiceError::TooLong {
                what: "a tournament's name (not empty)",
                limit: MAX_TOURNAMENT_NAME,
            });
        }
        let variant = (self.catalog)(&new.variant)?;
        let game = variant.new_game(&new.options, None)?;
        let seats = variant.seat_names().len();
        check_time_control(new.time_control)?;
        if new.double && seats != 2 {
            return Err(ServiceError::refused(
                "a double round robin is for two-player variants",
            ));
        }
        pairings(seats, usize::from(new.size), new.double)?;
        for player in &new.invited {
            if self.store.player(player).await?.is_none() {
                return Err(ServiceError::UnknownPlayer(player.clone()));
            }
        }
        let invited: Vec<&str> = new.invited.iter().map(String::as_str).collect();
        self.count_invitations(&new.organiser, &invited, &[])
            .await?;
        let now = self.now();
        let tournament = Tournament {
            id: TournamentId(ulid::Ulid::new().to_string()),
            revision: 1,
            name,
            organiser: new.organiser.clone(),
            variant: new.variant,
            options: game.options(),
            time_control: new.time_control,
            rated: new.rated,
            size: new.size,
            double: new.double,
            start: new.start,
            withdrawal: new.withdrawal,
            timeouts_to_withdraw: new.timeouts_to_withdraw.filter(|n| *n > 0),
            invited: new.invited,
            players: if new.plays {
                vec![new.organiser]
            } else {
                Vec::new()
            },
            withdrawn: Vec::new(),
            games: Vec::new(),
            start_job: None,
            state: TournamentState::Open,
            created_at: now,
            started_at: None,
            paused_at: None,
            finished_at: None,
        };
        self.store.put_tournament(&tournament).await?;
        Ok(tournament)
    }

    /// The tournament `id`.
    pub async fn tournament(&self, id: &TournamentId) -> Result<Tournament, ServiceError> {
        self.store
            .tournament(id)
            .await?
            .ok_or_else(|| ServiceError::NoTournament(id.clone()))
    }

    /// Every tournament, newest first, a page at a time.
    pub async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, ServiceError> {
        Ok(self.store.tournaments(cursor, limit).await?)
    }

    /// Adds `player` to the open tournament `id`; once it is full and starts when full,
    /// it starts (see [`GameService::start_tournament`]).
    pub async fn join_tournament(
        &self,
        id: &TournamentId,
        player: &str,
    ) -> Result<Tournament, ServiceError> {
        let joined = self
            .change_tournament(id, |tournament| {
                require_state(tournament, &[TournamentState::Open])?;
                if tournament.has_player(player) {
                    return Err(ServiceError::Taken("you are in this tournament".into()));
                }
                if tournament.players.len() >= usize::from(tournament.size) {
                    return Err(ServiceError::Taken("the tournament is full".into()));
                }
                tournament.players.push(player.to_string());
                Ok(())
            })
            .await?;
        let full = joined.players.len() == usize::from(joined.size);
        match (full, joined.start) {
            (true, TournamentStart::WhenFull) => self.begin(joined).await,
            _ => Ok(joined),
        }
    }

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

    /// Withdraws `player` from the tournament `id`. Before it starts they just leave it
    /// (their place is free again); once it runs the withdrawal is recorded, then each of
    /// their games still being played is resigned on their behalf (the crosstable scores
    /// those games as the organiser chose).
    pub async fn withdraw_from_tournament(
        &self,
        id: &TournamentId,
        player: &str,
    ) -> Result<Tournament, ServiceError> {
        if self.tournament(id).await?.state != TournamentState::Open {
            return self.withdraw(id, player, WITHDREW).await;
        }
        self.change_tournament(id, |tournament| {
            require_state(tournament, &[TournamentState::Open])?;
            if !tournament.has_player(player) {
                return Err(ServiceError::refused("you do not play in this tournament"));
            }
            tournament.players.retain(|p| p != player);
            Ok(())
        })
        .await
    }

    /// The tournament `id` with its standings as of its games' heads now (none until it
    /// runs).
    pub async fn tournament_standings(
        &self,
        id: &TournamentId,
    ) -> Result<TournamentStandings, ServiceError> {
        let tournament = self.tournament(id).await?;
        if matches!(
            tournament.state,
            TournamentState::Open | TournamentState::Starting
        ) {
            return Ok(TournamentStandings {
                tournament,
                standings: None,
            });
        }
        let heads = self.tournament_heads(&tournament).await?;
        let standings = standings_of(&tournament, &heads)?;
        Ok(TournamentStandings {
            tournament,
            standings: Some(standings),
        })
    }

    /// Every game of tournament `id` as one archive text, in the tournament's order, each
    /// signed as a game's archive is (its tags name the tournament, its round and its
    /// players' ratings); once the tournament runs, its crosstable opens the first game's
    /// moves as a comment (outside what the signature covers). While it is starting, the
    /// games created so far.
    pub async fn tournament_archive_text(&self, id: &TournamentId) -> Result<String, ServiceError> {
        let read = self.tournament_standings(id).await?;
        let crosstable = read
            .standings
            .as_ref()
            .map(|s| s.render_text(&read.tournament.players));
        let games: Vec<GameId> = match read.tournament.state {
            TournamentState::Starting => self
                .tournament_heads(&read.tournament)
                .await?
                .into_iter()
                .map(|head| head.id)
                .collect(),
            _ => read
                .tournament
                .games
                .iter()
                .map(|g| g.game.clone())
                .collect(),
        };
        let mut archive = String::new();
        for (index, game) in games.iter().enumerate() {
            let text = self.archive_text(game, None).await?;
            match (index, &crosstable) {
                (0, Some(crosstable)) => archive.push_str(&with_comment(&text, crosstable)),
                _ => archive.push_str(&text),
            }
        }
        Ok(archive)
    }

    /// What a tournament game's end changes in its tournament: a player who has now lost
    /// the organiser's number of games on time is withdrawn, and once every game is over
    /// the tournament is finished (never while it is starting: its last games do not exist
    /// yet). Safe to call again for the same game. While it is starting a withdrawal is
    /// refused (`TournamentState`), so the game's end is settled again later.
    pub(crate) async fn tournament_game_ended(
        &self,
        tournament: &Tournament,
        head: &Head,
    ) -> Result<(), ServiceError> {
        let id = &tournament.id;
        let heads = self.tournament_heads(tournament).await?;
        if let Some(player) = timed_out_too_often(tournament, head, &heads) {
            self.withdraw(id, &player, TIMEOUTS).await?;
        }
        let over = heads.len() == tournament.games.len()
            && heads
                .iter()
                .all(|h| matches!(h.doc.status, Status::Finished | Status::Cancelled));
        if over {
            let now = self.now();
            self.change_tournament(id, |tournament| {
                if tournament.state == TournamentState::Finished {
                    return Ok(());
                }
                tournament.state = TournamentState::Finished;
                tournament.finished_at = Some(now);
                Ok(())
            })
            .await?;
        }
        Ok(())
    }

    /// Ends tournament game `game` with `results` (one per seat, a game's result: one
    /// point in all) for `reason`, as `by`, the tournament's organiser, decides: recorded
    /// in the game's log (`adjudicated`), its ending rule `adjudication`. A game `by` may
    /// not see (private, not theirs) is `GameNotFound`, as a missing one.
    pub async fn adjudicate(
        &self,
        game: &GameId,
        by: &str,
        results: Vec<SeatResult>,
        reason: &str,
    ) -> Result<Ending, ServiceError> {
        let head = self.head_for(game, by).await?;
        let Some(id) = &head.doc.tournament else {
            return Err(ServiceError::refused(
                "only a tournament's games are adjudicated",
            ));
        };
        require_organiser(&self.tournament(id).await?, by)?;
        let reason = reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_ADJUDICATION_REASON {
            return Err(ServiceError::TooLong {
                what: "an adjudication's reason (not empty)",
                limit: MAX_ADJUDICATION_REASON,
            });
        }
        if results.len() != head.doc.seats.len() {
            return Err(ServiceError::refused("one result per seat"));
        }
        game_points(&results).map_err(|e| ServiceError::refused(e.to_string()))?;
        let event = GameEvent::Adjudicated {
            by: by.to_string(),
            reason: reason.to_string(),
        };
        self.change(game, Access::Service, |draft| {
            draft.require_active()?;
            draft.record(event.clone(), None);
            Ok(draft.adjudicate(results.clone()))
        })
        .await
    }

    /// Pauses the running tournament `id` for `by`, its organiser: every clock of its games
    /// being played stops from now (moves are still taken) until it is resumed. Each game
    /// records `paused`.
    pub async fn pause_tournament(
        &self,
        id: &TournamentId,
        by: &str,
    ) -> Result<Tournament, ServiceError> {
        let now = self.now();
        let paused = self
            .organiser_change(id, by, |tournament| {
                require_state(tournament, &[TournamentState::Running])?;
                tournament.state = TournamentState::Paused;
                tournament.paused_at = Some(now);
                Ok(())
            })
            .await?;
        let stop = Period {
            start: now,
            end: now + chrono::Duration::days(FOREVER_DAYS),
        };
        self.each_active_game(&paused, GameEvent::Paused, |pauses| {
            *pauses = joined(pauses, &[stop]);
        })
        .await?;
        Ok(paused)
    }

    /// Resumes the paused tournament `id` for `by`, its organiser: the clocks run again
    /// from now, every turn's deadline later by the pause's length. Each game records
    /// `resumed`.
    pub async fn resume_tournament(
        &self,
        id: &TournamentId,
        by: &str,
    ) -> Result<Tournament, ServiceError> {
        let now = self.now();
        let resumed = self
            .organiser_change(id, by, |tournament| {
                require_state(tournament, &[TournamentState::Paused])?;
                tournament.state = TournamentState::Running;
                tournament.paused_at = None;
                Ok(())
            })
            .await?;
        self.each_active_game(&resumed, GameEvent::Resumed, |pauses| {
            for pause in pauses.iter_mut().filter(|p| p.end > now) {
                pause.end = now.max(pause.start);
            }
        })
        .await?;
        Ok(resumed)
    }

    /// Stops the clocks of tournament game `game` for `days` days from now, as `by`, its
    /// tournament's organiser, decides: the current turn's deadline moves that much later
    /// (a move made meanwhile starts the next turn inside the same stop). Recorded in the
    /// game's log (`deadline-extended`). A game `by` may not see is `GameNotFound`, as a missing
    /// one.
    pub async fn extend_deadline(
        &self,
        game: &GameId,
        by: &str,
        days: u16,
    ) -> Result<(), ServiceError> {
        if !(1..=MAX_EXTENSION_DAYS).contains(&days) {
            return Err(ServiceError::refused(format!(
                "an extension is 1 to {MAX_EXTENSION_DAYS} days"
            )));
        }
        let head = self.head_for(game, by).await?;
        let Some(id) = &head.doc.tournament else {
            return Err(ServiceError::refused(
                "only a tournament's games are extended",
            ));
        };
        require_organiser(&self.tournament(id).await?, by)?;
        let now = self.now();
        let stop = Period {
            start: now,
            end: now + chrono::Duration::days(days.into()),
        };
        let event = GameEvent::DeadlineExtended {
            by: by.to_string(),
            days,
        };
        self.stop_clocks(game, event, |pauses| *pauses = joined(pauses, &[stop]))
            .await
    }

    /// Records `event` in every game of `tournament` being played, its pauses changed by
    /// `change`.
    async fn each_active_game(
        &self,
        tournament: &Tournament,
        event: GameEvent,
        change: impl Fn(&mut Vec<Period>) + Copy,
    ) -> Result<(), ServiceError> {
        for head in self.tournament_heads(tournament).await? {
            if head.doc.status == Status::Active {
                self.stop_clocks(&head.id, event.clone(), change).await?;
            }
        }
        Ok(())
    }

    /// Records `event` in active game `game` with its pauses changed by `change`.
    async fn stop_clocks(
        &self,
        game: &GameId,
        event: GameEvent,
        change: impl Fn(&mut Vec<Period>),
    ) -> Result<(), ServiceError> {
        let done = self
            .change(game, Access::Service, |draft| {
                if draft.doc().status != Status::Active {
                    return Ok(false);
                }
                change(&mut draft.doc_mut().pauses);
                draft.record(event.clone(), None);
                Ok(true)
            })
            .await;
        match done {
            Ok(_) | Err(ServiceError::NotActive(_)) => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// [`GameService::change_tournament`] by `by`, who must be its organiser.
    async fn organiser_change(
        &self,
        id: &TournamentId,
        by: &str,
        change: impl FnMut(&mut Tournament) -> Result<(), ServiceError>,
    ) -> Result<Tournament, ServiceError> {
        require_organiser(&self.tournament(id).await?, by)?;
        self.change_tournament(id, change).await
    }

    /// Records `player`'s withdrawal for `reason` and resigns their games being played.
    async fn withdraw(
        &self,
        id: &TournamentId,
        player: &str,
        reason: &str,
    ) -> Result<Tournament, ServiceError> {
        let now = self.now();
        let heads = self.tournament_heads(&self.tournament(id).await?).await?;
        let playing: Vec<GameId> = heads
            .iter()
            .filter(|h| h.doc.status == Status::Active)
            .filter(|h| h.doc.seats.iter().any(|s| s.player() == Some(player)))
            .map(|h| h.id.clone())
            .collect();
        let tournament = self
            .change_tournament(id, |tournament| {
                require_state(
                    tournament,
                    &[TournamentState::Running, TournamentState::Paused],
                )?;
                if !tournament.has_player(player) {
                    return Err(ServiceError::refused("you do not play in this tournament"));
                }
                if tournament.has_withdrawn(player) {
                    return Err(ServiceError::Taken("you have withdrawn already".into()));
                }
                tournament.withdrawn.push(Withdrawal {
                    player: player.to_string(),
                    at: now,
                    reason: reason.to_string(),
                    games: playing.clone(),
                });
                Ok(())
            })
            .await?;
        for game in &playing {
            match self.resign(game, player).await {
                Ok(_) | Err(ServiceError::NotActive(_)) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(tournament)
    }

    /// Starts the open `tournament`: records its pairings as its games and makes it
    /// starting, then creates its games (see [`GameService::create_games`]).
    async fn begin(&self, tournament: Tournament) -> Result<Tournament, ServiceError> {
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

    /// The heads of every game of `tournament`, in its order (while it is starting, of
    /// those created so far).
    async fn tournament_heads(&self, tournament: &Tournament) -> Result<Vec<Head>, ServiceError> {
        let ids: Vec<GameId> = tournament.games.iter().map(|g| g.game.clone()).collect();
        let heads = self.store.heads(&ids).await?;
        if heads.len() != ids.len() && tournament.state != TournamentState::Starting {
            return Err(ServiceError::Store(StoreError::Corrupt(format!(
                "tournament {} lists games that do not exist",
                tournament.id
            ))));
        }
        Ok(heads)
    }

    /// Applies `change` to tournament `id` and stores it over its revision, reading it
    /// again when another change came first.
    async fn change_tournament(
        &self,
        id: &TournamentId,
        mut change: impl FnMut(&mut Tournament) -> Result<(), ServiceError>,
    ) -> Result<Tournament, ServiceError> {
        for _ in 0..TOURNAMENT_TRIES {
            let before = self.tournament(id).await?;
            let mut after = before.clone();
            change(&mut after)?;
            if after == before {
                return Ok(after);
            }
            after.revision = before.revision + 1;
            match self.store.put_tournament(&after).await {
                Ok(()) => return Ok(after),
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ServiceError::Contended)
    }
}

/// A game's archive `text` with `comment` (its braces taken out) before its moves.
fn with_comment(text: &str, comment: &str) -> String {
    let comment: String = comment
        .chars()
        .filter(|c| !matches!(c, '{' | '}'))
        .collect();
    match text.split_once("\n\n") {
        Some((tags, moves)) => format!("{tags}\n\n{{Crosstable\n{}}}\n{moves}", comment.trim_end()),
        None => text.to_string(),
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

/// The games of a round robin of `players` in a variant of `seats` seats: each one's round
/// and its players' indices by seat. Refused when the variant or the size does not allow one.
fn pairings(
    seats: usize,
    players: usize,
    double: bool,
) -> Result<Vec<(u32, Vec<usize>)>, ServiceError> {
    let refused =
        |e: missive_tournament::pairing::PairingError| ServiceError::refused(e.to_string());
    match seats {
        2 => Ok(round_robin(players, double)
            .map_err(refused)?
            .into_iter()
            .map(|p| (p.round, p.seats.to_vec()))
            .collect()),
        3 => Ok(tables_of_three(players)
            .map_err(refused)?
            .into_iter()
            .map(|t| (1, t.seats.to_vec()))
            .collect()),
        _ => Err(ServiceError::refused(
            "tournaments are for variants of two or three players",
        )),
    }
}

fn require_state(tournament: &Tournament, allowed: &[TournamentState]) -> Result<(), ServiceError> {
    match allowed.contains(&tournament.state) {
        true => Ok(()),
        false => Err(ServiceError::TournamentState(tournament.state)),
    }
}

fn require_organiser(tournament: &Tournament, player: &str) -> Result<(), ServiceError> {
    match tournament.organiser == player {
        true => Ok(()),
        false => Err(ServiceError::NotOrganiser),
    }
}

/// The player of the game `ended` who lost it on time and has now lost the organiser's
/// number of `tournament`'s games (`heads`) on time, unless already withdrawn.
fn timed_out_too_often(tournament: &Tournament, ended: &Head, heads: &[Head]) -> Option<String> {
    let limit = usize::from(tournament.timeouts_to_withdraw?);
    let player = timed_out_player(ended)?;
    let count = heads
        .iter()
        .filter(|h| timed_out_player(h).as_deref() == Some(player.as_str()))
        .count();
    (count >= limit && !tournament.has_withdrawn(&player)).then_some(player)
}

/// The player who lost `head`'s game on time, if it ended so.
fn timed_out_player(head: &Head) -> Option<String> {
    let ending = head.doc.ending.as_ref()?;
    let on_time = matches!(
        ending.rule.rule(),
        Some(EndRule::Timeout | EndRule::TimeoutVsInsufficientMaterial)
    );
    if !on_time {
        return None;
    }
    let seat = ending.by?;
    head.doc.seats.get(seat.index())?.player().map(String::from)
}

/// The standings of `tournament` with its games at `heads` (in its order). A game of a
/// withdrawn player that was being played when they withdrew counts as unfinished,
/// whatever became of it since (their resignation), so the organiser's choice scores it.
fn standings_of(tournament: &Tournament, heads: &[Head]) -> Result<Standings, ServiceError> {
    let index = |player: &str| tournament.players.iter().position(|p| p == player);
    let withdrawn: Vec<usize> = tournament
        .withdrawn
        .iter()
        .filter_map(|w| index(&w.player))
        .collect();
    let games = tournament
        .games
        .iter()
        .zip(heads)
        .map(|(game, head)| standings::Game {
            players: game.players.iter().filter_map(|p| index(p)).collect(),
            state: game_state(tournament, game, head),
        })
        .collect::<Vec<_>>();
    let seats = SeatCount::of(heads.first().map_or(2, |h| h.doc.seats.len()))
        .ok_or_else(|| ServiceError::refused("tournaments are for two or three players"))?;
    let policy = match tournament.withdrawal {
        WithdrawalScoring::Forfeit => standings::Withdrawal::Forfeit,
        WithdrawalScoring::Annul => standings::Withdrawal::Annul,
    };
    Standings::compute(tournament.players.len(), seats, &withdrawn, policy, &games).map_err(|e| {
        ServiceError::Store(StoreError::Corrupt(format!(
            "tournament {}: {e}",
            tournament.id
        )))
    })
}

/// Whether the finished game at `head`, a game of `tournament`, is one that one of its
/// players withdrew from while it was being played: the crosstable scores it as the
/// organiser chose, and it is not rated (it was not played out).
pub(crate) fn forfeited(tournament: &Tournament, head: &Head) -> bool {
    tournament
        .game(&head.id)
        .is_some_and(|game| game_state(tournament, game, head) == GameState::Unfinished)
}

/// How the crosstable counts `game` (at `head`): unfinished while it is played, and so
/// for good when a player withdrew while it was and it ended by their withdrawal (their
/// resignation, which the organiser's choice then scores). A game that ended otherwise
/// before the withdrawal reached it (on time, say) counts as it ended.
fn game_state(tournament: &Tournament, game: &TournamentGame, head: &Head) -> GameState {
    let Some(ending) = head
        .doc
        .ending
        .as_ref()
        .filter(|_| head.doc.status == Status::Finished)
    else {
        return GameState::Unfinished;
    };
    let resigned_by = ending
        .by
        .filter(|_| ending.rule.rule() == Some(EndRule::Resignation))
        .and_then(|seat| head.doc.seats.get(seat.index()))
        .and_then(|seat| seat.player());
    let forfeited = tournament
        .withdrawn
        .iter()
        .any(|w| w.games.contains(&game.game) && resigned_by == Some(w.player.as_str()));
    match forfeited {
        true => GameState::Unfinished,
        false => GameState::Finished(ending.results.clone()),
    }
}
