//! Tournaments: round robins whose games all start at once. An organiser creates one,
//! players join (or are invited), and once it is full (or the organiser starts it) every
//! pairing's game is created, already started, colours balanced by Berger tables (tables of
//! three for three-seat variants, seats rotated). A player who withdraws resigns their games
//! still being played; the crosstable scores those as the organiser chose (forfeit or
//! annulled), and so it does for a player who loses the organiser's number of games on time.
//! The crosstable is computed from the games' heads whenever it is read, so it never
//! disagrees with them.

use missive_domain::{Cursor, EndRule, Page, told_of_tournament};
use missive_domain::{
    GameId, Head, Status, TimeControl, Tournament, TournamentGame, TournamentId, TournamentStart,
    TournamentState, Withdrawal, WithdrawalScoring,
};
use missive_store::StoreError;
use missive_tournament::pairing::{round_robin, tables_of_three};
use missive_tournament::score::SeatCount;
use missive_tournament::standings::{self, GameState, Standings};
use serde::{Deserialize, Serialize};

use crate::lobby::check_time_control;
use crate::{GameService, ServiceError};

/// The longest tournament name.
pub const MAX_TOURNAMENT_NAME: usize = 80;

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
            told: Vec::new(),
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

    /// The heads of every game of `tournament`, in its order (while it is starting, of
    /// those created so far).
    pub(crate) async fn tournament_heads(
        &self,
        tournament: &Tournament,
    ) -> Result<Vec<Head>, ServiceError> {
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

    /// Applies `change` to tournament `id` and stores it over its revision, with what its
    /// players are told of it ([`told_of_tournament`]: its start, its end), reading it
    /// again when another change came first.
    pub(crate) async fn change_tournament(
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
            let feed = told_of_tournament(&before, &after, self.now());
            match self.store.put_tournament_telling(&after, &feed).await {
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

/// The games of a round robin of `players` in a variant of `seats` seats: each one's round
/// and its players' indices by seat. Refused when the variant or the size does not allow one.
pub(crate) fn pairings(
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

pub(crate) fn require_state(
    tournament: &Tournament,
    allowed: &[TournamentState],
) -> Result<(), ServiceError> {
    match allowed.contains(&tournament.state) {
        true => Ok(()),
        false => Err(ServiceError::TournamentState(tournament.state)),
    }
}

pub(crate) fn require_organiser(tournament: &Tournament, player: &str) -> Result<(), ServiceError> {
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
