//! The notifier: decides who gets which mail when a game changed, and the sweep that ends
//! games on time, reminds players at 80% of their time, sends daily digests, tells players
//! when an opponent's leave starts and ends, and catches mails no change event sent.
//!
//! Every game has a wake-up in the sweep's index: when the notifier next has something to
//! do for it. A change that moves the turn on, or ends the game, sets it to that moment, and
//! a change of a player's vacations makes it due at once; the notifier attends the game then
//! (from the change feed at once, or from the sweep if the feed missed it) and moves the
//! wake-up to the next thing due: the reminder, the deadline, the player's next digest, the
//! next start or end of a player's leave. So a sweep reads only the games due, and a mail
//! sent costs nothing on later sweeps.
//!
//! Times are the real ones: the deadline and the reminder (80% of the running time) of a
//! turn count the vacations of the player to move, so do the deadlines mails show and the
//! expiry of the move links they carry.
//!
//! Notes (messages, draws offered without a move and their answers; see [`crate::notes`])
//! wake the game at once too: the notifier then mails each player the notes due to them
//! ([`delivery`]), and a turn mail carries the notes its player is still to hear of.

mod delivery;
mod invites;

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveTime, TimeDelta, Timelike, Utc};
use missive_auth::Authority;
use missive_domain::{
    Cursor, GameId, Head, Hook, LeaveEdge, MailPreference, Notice, Period, Player, Status,
    Tournament, TournamentEdge, TournamentId, TournamentState, Waiting,
};
use missive_game::timing::Turn;
use missive_game::{Clock, GameService, Membership, Seated, WakeSubject};
use missive_mail::{Mail, Mailer};
use missive_rules::AnyGame;

use crate::NotifyError;
use crate::compose::{
    DigestEntry, LeaveFacts, SharedGame, TurnFacts, TurnNotice, digest_mail, ending_mail,
    leave_mail, turn_mail,
};
use crate::dispatch::{HOOKS_AT_ONCE, HookDispatcher};
use crate::hooks::HookSender;
use crate::links::{MoveLinkFor, move_link, unsubscribe_link};
use crate::tournaments::{
    tournament_finished_mail, tournament_invitation_mail, tournament_started_mail,
};

/// Games read from the sweep's index at a time.
const DUE_PAGE: usize = 100;
/// How long a turn whose deadline passed but whose time is not up (an ICCF clock given time
/// back by vacations in earlier turns) waits before it is looked at again.
const RECHECK: TimeDelta = TimeDelta::hours(1);
/// How far before its wake-up a game looks for starts and ends of leaves whose mail is not
/// sent (a move that set the wake-up to its own time may have overtaken one).
const LEAVE_LOOKBACK: TimeDelta = TimeDelta::days(1);

/// Settings of the notifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotifyConfig {
    /// The hour (UTC, 0 to 23) from which a day's digests are sent.
    pub digest_hour: u32,
}

impl Default for NotifyConfig {
    fn default() -> NotifyConfig {
        NotifyConfig { digest_hour: 7 }
    }
}

/// What one sweep did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Games looked at (those due).
    pub due: usize,
    /// Games ended on time.
    pub timeouts: usize,
    /// Turn mails sent that no change event had sent.
    pub turns: usize,
    /// Reminders sent.
    pub reminders: usize,
    /// Game-over mails sent that no change event had sent.
    pub endings: usize,
    /// Digests sent.
    pub digests: usize,
    /// Mails of notes (messages, draw offers and their answers) sent on their own.
    pub notes: usize,
    /// Mails telling players that an opponent's leave started or ended.
    pub leaves: usize,
    /// Mails telling a tournament's players that it started or ended.
    pub tournaments: usize,
    /// Tournaments started because their start date came.
    pub tournaments_started: usize,
    /// Webhooks handed over to be attended (out of line: see [`crate::dispatch`]).
    pub hooks: usize,
    /// What failed (each is retried by the next sweep).
    pub failures: Vec<String>,
}

/// A game's wake-up as the sweep or a change found it: what moving it on is conditional on.
#[derive(Clone, Debug)]
struct GameWake {
    game: GameId,
    at: DateTime<Utc>,
}

/// What attending one game asks of the sweep around it.
#[derive(Default)]
struct Round {
    report: SweepReport,
    /// Players whose digest is due, with the wake-ups of their games to move on once it is
    /// sent (where each goes next).
    digests: BTreeMap<String, Vec<(GameWake, DateTime<Utc>)>>,
    /// Mail preferences read so far.
    preferences: HashMap<String, MailPreference>,
}

impl Round {
    /// Adds a sent mail to `counter` or a failure (named by `what`); whether it failed.
    fn count(
        &mut self,
        counter: fn(&mut SweepReport) -> &mut usize,
        what: &str,
        result: Result<bool, NotifyError>,
    ) -> bool {
        match result {
            Ok(sent) => {
                *counter(&mut self.report) += usize::from(sent);
                false
            }
            Err(error) => {
                tracing::warn!(%what, %error, "notification failed");
                self.report.failures.push(format!("{what}: {error}"));
                true
            }
        }
    }
}

/// Sends notification mail for the games of one service. Every mail is claimed first
/// ([`GameService::claim_notice`]), so however often an event repeats or a sweep runs, each
/// mail goes out once; a mail that cannot be sent releases its claim for the next try.
#[derive(Clone)]
pub struct Notifier {
    service: GameService,
    authority: Arc<Authority>,
    mailer: Arc<dyn Mailer>,
    clock: Arc<dyn Clock>,
    public_url: String,
    config: NotifyConfig,
    hooks: Option<HookDispatcher>,
}

impl Notifier {
    /// A notifier over `service`, minting links with `authority` for `public_url` (no
    /// trailing slash), sending with `mailer`, telling time by `clock`.
    pub fn new(
        service: GameService,
        authority: Arc<Authority>,
        mailer: Arc<dyn Mailer>,
        clock: Arc<dyn Clock>,
        public_url: &str,
    ) -> Notifier {
        Notifier {
            service,
            authority,
            mailer,
            clock,
            public_url: public_url.trim_end_matches('/').to_string(),
            config: NotifyConfig::default(),
            hooks: None,
        }
    }

    /// The same notifier, delivering the players' events to their webhooks with `hooks`
    /// (when a game changes, and in every sweep), out of line, at most [`HOOKS_AT_ONCE`]
    /// hooks at once.
    pub fn with_hooks(mut self, hooks: HookSender) -> Notifier {
        self.hooks = Some(HookDispatcher::new(hooks, HOOKS_AT_ONCE));
        self
    }

    /// Waits until the webhook deliveries handed over so far are done, at most `within`:
    /// whether they are (what a process waits for before it stops or freezes; any left
    /// are the sweep's).
    pub async fn hooks_settled(&self, within: std::time::Duration) -> bool {
        match &self.hooks {
            Some(hooks) => hooks.settled(within).await,
            None => true,
        }
    }

    /// The same notifier with `config`.
    pub fn with_config(mut self, config: NotifyConfig) -> Notifier {
        self.config = config;
        self
    }

    /// Handles a change of game `id`: attends the game at the wake-up the change set (the
    /// new turn's start, or the game's end), so the player now to move gets their turn mail
    /// and the players of a game just ended hear how it ended, once each; then hands the
    /// webhooks of the game's members over to be attended (out of line: this does not wait
    /// for them). Returns whether a mail was sent.
    pub async fn game_changed(&self, id: &GameId) -> Result<bool, NotifyError> {
        let Some((head, game)) = self.service.notice_state(id).await? else {
            return Ok(false);
        };
        let members: Vec<String> = head.doc.members().into_iter().map(String::from).collect();
        let mailed = self.mail_change(id, head, game).await;
        if let Some(hooks) = &self.hooks {
            let members: Vec<&str> = members.iter().map(String::as_str).collect();
            hooks.attend_players(&members).await?;
        }
        mailed
    }

    /// The mails of a change of game `id` (at `head`, the rules game `game`): see
    /// [`Notifier::game_changed`].
    async fn mail_change(
        &self,
        id: &GameId,
        head: Head,
        game: Box<dyn AnyGame>,
    ) -> Result<bool, NotifyError> {
        let at = match head.doc.status {
            Status::Active => head.waiting.as_ref().map(|w| w.since),
            Status::Finished => head.doc.ending.as_ref().map(|e| e.at),
            Status::Forming | Status::Cancelled => None,
        };
        let Some(at) = at else {
            return Ok(false);
        };
        let mut round = Round::default();
        let wake = GameWake {
            game: id.clone(),
            at,
        };
        self.attend(&wake, head, game, &mut round).await?;
        let report = round.report;
        if let Some(failure) = report.failures.into_iter().next() {
            return Err(NotifyError::Failed(failure));
        }
        Ok(report.turns + report.reminders + report.endings + report.notes + report.leaves > 0)
    }

    /// One sweep: goes over what is due now in every shard of the index, one query a shard:
    /// starts the tournaments whose start date came, hands the webhooks due over, ends
    /// games whose time ran out, sends turn mails and game-over mails no event sent,
    /// reminders at 80% of the time, and (from the digest hour) each digest player's daily
    /// digest, then moves each game's wake-up on. Failures are reported and left for the
    /// next sweep (what failed stays due).
    pub async fn sweep(&self) -> Result<SweepReport, NotifyError> {
        self.sweep_until(&tokio::sync::watch::channel(false).1)
            .await
    }

    /// [`Notifier::sweep`], stopping between two games (and before the digests) once
    /// `stop` holds `true`; what is left stays due for the next sweep.
    pub async fn sweep_until(
        &self,
        stop: &tokio::sync::watch::Receiver<bool>,
    ) -> Result<SweepReport, NotifyError> {
        let now = self.clock.now();
        let mut round = Round::default();
        for shard in 0..self.service.wake_shards() {
            let mut cursor: Option<Cursor> = None;
            loop {
                let page = self
                    .service
                    .due(shard, now, cursor.as_ref(), DUE_PAGE)
                    .await?;
                for wake in &page.items {
                    if *stop.borrow() {
                        return Ok(round.report);
                    }
                    round.report.due += 1;
                    let attended = match &wake.subject {
                        WakeSubject::Game(game) => {
                            let wake = GameWake {
                                game: game.clone(),
                                at: wake.at,
                            };
                            self.attend_due(&wake, &mut round).await
                        }
                        WakeSubject::Tournament(id) => self.start_tournament(id, &mut round).await,
                        WakeSubject::Hook(hook) => self.attend_hook(hook, &mut round).await,
                    };
                    if let Err(error) = attended {
                        round
                            .report
                            .failures
                            .push(format!("{}: {error}", wake.subject));
                    }
                }
                match page.next {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
            }
        }
        if *stop.borrow() {
            return Ok(round.report);
        }
        for (player, wakes) in std::mem::take(&mut round.digests) {
            let sent = self.digest(&player, now).await;
            if round.count(|r| &mut r.digests, &player, sent) {
                continue;
            }
            for (wake, next) in wakes {
                if let Err(error) = self.settle(&wake, Some(next)).await {
                    round
                        .report
                        .failures
                        .push(format!("{}: {error}", wake.game));
                }
            }
        }
        Ok(round.report)
    }

    /// Starts the tournament `id` the sweep found due, if it can start (its games' first
    /// turns are then due in the same index).
    async fn start_tournament(
        &self,
        id: &TournamentId,
        round: &mut Round,
    ) -> Result<(), NotifyError> {
        if self.service.start_due_tournament(id).await? {
            round.report.tournaments_started += 1;
        }
        Ok(())
    }

    /// Hands the webhook the sweep found due over to be attended, if this notifier sends to
    /// webhooks (else it stays due for one that does).
    async fn attend_hook(&self, hook: &Hook, round: &mut Round) -> Result<(), NotifyError> {
        if let Some(hooks) = &self.hooks {
            hooks.attend(&hook.player, &hook.id);
            round.report.hooks += 1;
        }
        Ok(())
    }

    /// Attends a game the sweep found due.
    async fn attend_due(&self, wake: &GameWake, round: &mut Round) -> Result<(), NotifyError> {
        match self.service.notice_state(&wake.game).await? {
            Some((head, game)) => self.attend(wake, head, game, round).await,
            None => self.settle(wake, None).await,
        }
    }

    /// Does what is due for the game of `wake` (its head `head`, at the rules game `game`)
    /// and moves its wake-up to the next thing due; a failure leaves the wake-up where it
    /// is, so the next sweep tries again. A game just ended first settles what its end
    /// changes beyond it (ratings, its tournament), then its players hear of it.
    async fn attend(
        &self,
        wake: &GameWake,
        head: Head,
        game: Box<dyn AnyGame>,
        round: &mut Round,
    ) -> Result<(), NotifyError> {
        match head.doc.status {
            Status::Finished => {
                let settled = self.service.game_ended(&head).await.map(|()| false);
                let mut failed =
                    round.count(|r| &mut r.endings, &head.id.0, settled.map_err(Into::into));
                let sent = self.ending_notices(&head, game.as_ref()).await;
                failed |= round.count(|r| &mut r.endings, &head.id.0, sent);
                let sent = self.tournament_notices(&head, TournamentEdge::End).await;
                failed |= round.count(|r| &mut r.tournaments, &head.id.0, sent);
                let sent = self.deliver_notes(&head, round).await;
                failed |= round.count(|r| &mut r.notes, &head.id.0, sent);
                if !failed {
                    self.settle(wake, None).await?;
                }
                Ok(())
            }
            Status::Active if head.waiting.is_some() => {
                let sent = self.tournament_notices(&head, TournamentEdge::Start).await;
                if round.count(|r| &mut r.tournaments, &head.id.0, sent) {
                    return Ok(());
                }
                self.attend_turn(wake, &head, game.as_ref(), round).await
            }
            Status::Active | Status::Forming | Status::Cancelled => self.settle(wake, None).await,
        }
    }

    /// The turn of an active game: a time-out, the turn mail, the reminder, the mails about
    /// leaves, the digest, then the next wake-up.
    async fn attend_turn(
        &self,
        wake: &GameWake,
        head: &Head,
        game: &dyn AnyGame,
        round: &mut Round,
    ) -> Result<(), NotifyError> {
        let Some(waiting) = &head.waiting else {
            return Ok(());
        };
        let now = self.clock.now();
        let seated = self.service.seated_vacations(&head.doc).await?;
        let times = TurnTimes::of(waiting, &seated);
        if now > times.deadline && self.service.enforce_deadline(&head.id).await?.is_some() {
            // The time-out set the game's wake-up: its game-over mails come next.
            round.report.timeouts += 1;
            return Ok(());
        }
        let preference = self.preference(&waiting.player, round).await?;
        let mut failed = false;
        // A wake-up after the turn's start (or its reminder) comes once that was done.
        if preference == MailPreference::EachMove && wake.at <= waiting.since {
            let sent = self.turn_notice(head, game, TurnNotice::Turn, &times).await;
            failed |= round.count(|r| &mut r.turns, &head.id.0, sent);
        }
        if preference != MailPreference::None && wake.at <= times.reminder && now >= times.reminder
        {
            let sent = self
                .turn_notice(head, game, TurnNotice::Reminder, &times)
                .await;
            failed |= round.count(|r| &mut r.reminders, &head.id.0, sent);
        }
        let sent = self.deliver_notes(head, round).await;
        failed |= round.count(|r| &mut r.notes, &head.id.0, sent);
        let started = head.doc.started_at.unwrap_or(waiting.since);
        let from = (wake.at - LEAVE_LOOKBACK).max(started);
        for (seated, period, edge) in leave_edges(&seated, from, now) {
            let sent = self.leave_notices(head, seated, period, edge, round).await;
            failed |= round.count(|r| &mut r.leaves, &head.id.0, sent);
        }
        if failed {
            return Ok(());
        }
        let next = self.next_wake(&times, &seated, preference, now);
        if preference == MailPreference::DailyDigest && now.hour() >= self.config.digest_hour {
            // The game waits in the digest: its wake-up moves on once the digest is sent
            // (a change event leaves it due for the sweep, which sends digests).
            let wakes = round.digests.entry(waiting.player.clone()).or_default();
            wakes.push((wake.clone(), next));
            return Ok(());
        }
        self.settle(wake, Some(next)).await
    }

    /// The player's mail preference, read once per round.
    async fn preference(
        &self,
        player: &str,
        round: &mut Round,
    ) -> Result<MailPreference, NotifyError> {
        if let Some(preference) = round.preferences.get(player) {
            return Ok(*preference);
        }
        let preference = self.service.mail_preference(player).await?;
        round.preferences.insert(player.to_string(), preference);
        Ok(preference)
    }

    /// When the turn timed by `times` next needs the notifier after `now`: its reminder
    /// (unless the player wants no mail), the player's next digest (for digest players),
    /// the next start or end of a seated player's leave, its deadline.
    fn next_wake(
        &self,
        times: &TurnTimes,
        seated: &[Seated],
        preference: MailPreference,
        now: DateTime<Utc>,
    ) -> DateTime<Utc> {
        let mut next = match times.deadline > now {
            true => times.deadline,
            false => now + RECHECK,
        };
        if preference != MailPreference::None && times.reminder > now {
            next = next.min(times.reminder);
        }
        if preference == MailPreference::DailyDigest {
            next = next.min(next_digest(now, self.config.digest_hour));
        }
        let edges = seated
            .iter()
            .flat_map(|s| &s.periods)
            .flat_map(|p| [p.start, p.end]);
        if let Some(edge) = edges.filter(|at| *at > now).min() {
            next = next.min(edge);
        }
        next
    }

    /// Moves the game's wake-up from where `wake` found it to `to`; a change of the game
    /// that moved it meanwhile wins.
    async fn settle(&self, wake: &GameWake, to: Option<DateTime<Utc>>) -> Result<(), NotifyError> {
        self.service.move_wake(&wake.game, wake.at, to).await?;
        Ok(())
    }

    /// Tells every registered player of the finished game of `head` (at the rules game
    /// `game`) how it ended, once
    /// each, unless they want no mail; nothing for a game that was imported finished.
    /// Whether a mail was sent.
    async fn ending_notices(&self, head: &Head, game: &dyn AnyGame) -> Result<bool, NotifyError> {
        let doc = &head.doc;
        if doc.imported {
            return Ok(false);
        }
        let players = doc.players();
        self.mail_each_once(&players, |player, unsubscribe| {
            let notice = Notice::Ended {
                game: head.id.clone(),
                player: player.handle.clone(),
            };
            let mail = ending_mail(player, head, game, &self.public_url, unsubscribe);
            (notice, mail)
        })
        .await
    }

    /// The mails of the start or the end (`edge`) of the tournament of the game at `head`,
    /// to each of its players once: sent when its first game is attended while it runs
    /// (the start) or a game of it is attended once it is finished (the end).
    async fn tournament_notices(
        &self,
        head: &Head,
        edge: TournamentEdge,
    ) -> Result<bool, NotifyError> {
        let Some(id) = &head.doc.tournament else {
            return Ok(false);
        };
        // Only the tournament first: this runs at every turn of every one of its games, and
        // only its end needs the crosstable (every game's head).
        let tournament = &self.service.tournament(id).await?;
        let due = match edge {
            TournamentEdge::Start => {
                tournament.games.first().is_some_and(|g| g.game == head.id)
                    && matches!(
                        tournament.state,
                        TournamentState::Running | TournamentState::Paused
                    )
            }
            TournamentEdge::End => tournament.state == TournamentState::Finished,
            TournamentEdge::Invited => false,
        };
        if !due {
            return Ok(false);
        }
        let crosstable = match edge {
            TournamentEdge::End => self
                .service
                .tournament_standings(id)
                .await?
                .standings
                .map(|s| s.render_text(&tournament.players))
                .unwrap_or_default(),
            TournamentEdge::Start | TournamentEdge::Invited => String::new(),
        };
        let players: Vec<&str> = tournament.players.iter().map(String::as_str).collect();
        self.mail_each_once(&players, |player, unsubscribe| {
            let notice = Notice::Tournament {
                tournament: id.clone(),
                player: player.handle.clone(),
                edge,
            };
            let url = &self.public_url;
            let mail = match edge {
                TournamentEdge::Start => {
                    tournament_started_mail(player, tournament, url, unsubscribe)
                }
                TournamentEdge::End => {
                    tournament_finished_mail(player, tournament, &crosstable, url, unsubscribe)
                }
                TournamentEdge::Invited => {
                    tournament_invitation_mail(player, tournament, url, unsubscribe)
                }
            };
            (notice, mail)
        })
        .await
    }

    /// Mails each player invited to `tournament` their invitation, once each: whether a
    /// mail was sent.
    pub async fn tournament_invitations(
        &self,
        tournament: &Tournament,
    ) -> Result<bool, NotifyError> {
        let invited: Vec<&str> = tournament.invited.iter().map(String::as_str).collect();
        self.mail_each_once(&invited, |player, unsubscribe| {
            let notice = Notice::Tournament {
                tournament: tournament.id.clone(),
                player: player.handle.clone(),
                edge: TournamentEdge::Invited,
            };
            let mail =
                tournament_invitation_mail(player, tournament, &self.public_url, unsubscribe);
            (notice, mail)
        })
        .await
    }

    /// Mails each of `handles` who is registered and wants mail the notice and mail
    /// `compose` makes for them (given their unsubscribe link), once each: whether a mail
    /// was sent.
    async fn mail_each_once(
        &self,
        handles: &[&str],
        compose: impl Fn(&Player, &str) -> (Notice, Mail),
    ) -> Result<bool, NotifyError> {
        let mut sent = false;
        for handle in handles {
            if self.service.mail_preference(handle).await? == MailPreference::None {
                continue;
            }
            let Some(player) = self.service.registered(handle).await? else {
                continue;
            };
            let unsubscribe =
                unsubscribe_link(&self.authority, &self.public_url, handle, self.clock.now())?;
            let (notice, mail) = compose(&player, &unsubscribe);
            sent |= self
                .send_once(&notice, async { Ok(Some((mail, Vec::new()))) })
                .await?;
        }
        Ok(sent)
    }

    /// Sends `notice` about the turn in `head` (at the rules game `game`, timed by
    /// `times`) to the player to move, unless it was sent before.
    async fn turn_notice(
        &self,
        head: &Head,
        game: &dyn AnyGame,
        notice: TurnNotice,
        times: &TurnTimes,
    ) -> Result<bool, NotifyError> {
        let (game_id, ply) = (head.id.clone(), head.ply);
        let key = match notice {
            TurnNotice::Turn => Notice::Turn { game: game_id, ply },
            TurnNotice::Reminder => Notice::Reminder { game: game_id, ply },
        };
        self.send_once(&key, self.compose_turn(notice, head, game, times.deadline))
            .await
    }

    /// The turn mail (or reminder) for the player to move in `head`, whose turn ends at
    /// `deadline`; none if nobody registered sits there. A turn mail carries the notes its
    /// player is still to hear of, claimed here: their markers come with the mail.
    async fn compose_turn(
        &self,
        notice: TurnNotice,
        head: &Head,
        game: &dyn AnyGame,
        deadline: DateTime<Utc>,
    ) -> Result<Option<(Mail, Vec<Notice>)>, NotifyError> {
        let (Some(waiting), Some(seat)) = (&head.waiting, head.to_move) else {
            return Ok(None);
        };
        let Some(player) = self.service.registered(&waiting.player).await? else {
            return Ok(None);
        };
        let now = self.clock.now();
        let target = MoveLinkFor {
            handle: &player.handle,
            game: &head.id,
            seat,
            ply: head.ply,
            deadline,
        };
        let move_link = move_link(&self.authority, &self.public_url, &target, now)?;
        let unsubscribe_link =
            unsubscribe_link(&self.authority, &self.public_url, &player.handle, now)?;
        let (notes, claimed) = match notice {
            TurnNotice::Turn => self.claim_notes(head, &player.handle).await?,
            TurnNotice::Reminder => (Vec::new(), Vec::new()),
        };
        let facts = TurnFacts {
            to: &player,
            head,
            game,
            now,
            deadline,
            public_url: &self.public_url,
            move_link,
            unsubscribe_link,
            notes,
        };
        Ok(Some((turn_mail(notice, &facts), claimed)))
    }

    /// Claims `notice`, then sends the mail `compose` makes (none: nothing to send), with
    /// the markers of what else it carries, claimed while composing. A notice claimed
    /// before sends nothing; a failure releases the claim, and those of the mail's
    /// contents once it was composed.
    async fn send_once(
        &self,
        notice: &Notice,
        compose: impl Future<Output = Result<Option<(Mail, Vec<Notice>)>, NotifyError>>,
    ) -> Result<bool, NotifyError> {
        if !self.service.claim_notice(notice).await? {
            return Ok(false);
        }
        let mut claimed = vec![notice.clone()];
        let sent = async {
            let Some((mail, carried)) = compose.await? else {
                return Ok(false);
            };
            claimed.extend(carried);
            self.mailer.send(&mail).await?;
            Ok(true)
        }
        .await;
        if sent.is_err() {
            self.release_all(&claimed).await;
        }
        sent
    }

    /// Releases the claims of `notices` (their mail was not sent), logging any that fails.
    async fn release_all(&self, notices: &[Notice]) {
        for notice in notices {
            if let Err(error) = self.service.release_notice(notice).await {
                tracing::error!(?notice, %error, "could not release a notice claim");
            }
        }
    }

    /// Sends `player` today's digest of every game waiting for them, unless it went out
    /// already: each game with its deadline (the player's vacations counted) and a move
    /// link that lasts as long.
    async fn digest(&self, player: &str, now: DateTime<Utc>) -> Result<bool, NotifyError> {
        let notice = Notice::Digest {
            player: player.to_string(),
            day: now.date_naive(),
        };
        self.send_once(&notice, async {
            let Some(to) = self.service.registered(player).await? else {
                return Ok(None);
            };
            let vacations = self.service.vacations(player).await?;
            let mut entries = Vec::new();
            for head in self.waiting_heads(player).await? {
                let (Some(waiting), Some(seat)) = (&head.waiting, head.to_move) else {
                    continue;
                };
                let deadline = Turn::waiting(waiting).deadline(&vacations);
                let target = MoveLinkFor {
                    handle: player,
                    game: &head.id,
                    seat,
                    ply: head.ply,
                    deadline,
                };
                let link = move_link(&self.authority, &self.public_url, &target, now)?;
                entries.push(DigestEntry {
                    head,
                    deadline,
                    move_link: link,
                });
            }
            let unsubscribe = unsubscribe_link(&self.authority, &self.public_url, player, now)?;
            Ok(Some((
                digest_mail(&to, &entries, now, &unsubscribe),
                Vec::new(),
            )))
        })
        .await
    }

    /// Tells every other registered player of the game of `head` who wants mail that the
    /// leave `period` of `seated` reached its `edge`, once each (one mail per leave, whatever
    /// the games they share). Whether a mail was sent.
    async fn leave_notices(
        &self,
        head: &Head,
        seated: &Seated,
        period: Period,
        edge: LeaveEdge,
        round: &mut Round,
    ) -> Result<bool, NotifyError> {
        let mut sent = false;
        for handle in head.doc.players() {
            if handle == seated.player
                || self.preference(handle, round).await? == MailPreference::None
            {
                continue;
            }
            let notice = Notice::Leave {
                to: handle.to_string(),
                player: seated.player.clone(),
                start: period.start,
                edge,
            };
            let compose = self.compose_leave(handle, &seated.player, period, edge);
            sent |= self.send_once(&notice, compose).await?;
        }
        Ok(sent)
    }

    /// The mail telling `to` that the leave `period` of `player` reached its `edge`, with
    /// the games they play together; none if `to` is not registered.
    async fn compose_leave(
        &self,
        to: &str,
        player: &str,
        period: Period,
        edge: LeaveEdge,
    ) -> Result<Option<(Mail, Vec<Notice>)>, NotifyError> {
        let Some(recipient) = self.service.registered(to).await? else {
            return Ok(None);
        };
        let now = self.clock.now();
        let facts = LeaveFacts {
            to: &recipient,
            player,
            period,
            edge,
            games: self.shared_games(to, player).await?,
            public_url: &self.public_url,
            unsubscribe_link: unsubscribe_link(&self.authority, &self.public_url, to, now)?,
        };
        Ok(Some((leave_mail(&facts), Vec::new())))
    }

    /// The games being played that `to` and `player` both sit in, page by page.
    async fn shared_games(&self, to: &str, player: &str) -> Result<Vec<SharedGame>, NotifyError> {
        let mut games = Vec::new();
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self
                .service
                .games_of(to, Membership::Active, cursor.as_ref(), DUE_PAGE)
                .await?;
            games.extend(
                page.items
                    .into_iter()
                    .filter(|game| game.players.iter().flatten().any(|p| p == player))
                    .map(|game| SharedGame {
                        next_move: game.next_move.unwrap_or_else(|| (game.ply + 1).to_string()),
                        id: game.id,
                        variant: game.variant,
                    }),
            );
            match page.next {
                Some(next) => cursor = Some(next),
                None => return Ok(games),
            }
        }
    }

    /// Every game waiting for `player`, page by page.
    async fn waiting_heads(&self, player: &str) -> Result<Vec<Head>, NotifyError> {
        let mut heads = Vec::new();
        let mut cursor: Option<Cursor> = None;
        loop {
            let page = self
                .service
                .heads_waiting_for(player, cursor.as_ref(), DUE_PAGE)
                .await?;
            heads.extend(page.items);
            match page.next {
                Some(next) => cursor = Some(next),
                None => return Ok(heads),
            }
        }
    }
}

impl Notifier {
    /// Handles every game id `feed` delivers (the service's change feed on one machine)
    /// until it closes, or until `stop` holds `true` and the ids delivered by then are
    /// handled; failures are logged and left for the sweep.
    pub async fn follow(
        &self,
        mut feed: tokio::sync::mpsc::UnboundedReceiver<GameId>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        loop {
            tokio::select! {
                id = feed.recv() => {
                    let Some(id) = id else { return };
                    if let Err(error) = self.game_changed(&id).await {
                        tracing::warn!(game = %id, %error, "mail not sent; the sweep retries");
                    }
                }
                // Closing takes no more ids; those already delivered are still received.
                _ = stop.changed(), if stop.has_changed().is_ok() && !*stop.borrow() => {
                    if *stop.borrow() {
                        feed.close();
                    }
                }
            }
        }
    }

    /// Sweeps every `period` (the first sweep at once) until `stop` holds `true`; a sweep
    /// under way stops between two games.
    pub async fn sweep_every(
        &self,
        period: std::time::Duration,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !*stop.borrow() {
            tokio::select! {
                _ = ticks.tick() => {}
                // A stop signal whose sender is gone can never come: only tick then.
                _ = stop.changed(), if stop.has_changed().is_ok() => continue,
            }
            match self.sweep_until(&stop).await {
                Ok(report) if report.failures.is_empty() => {
                    tracing::debug!(?report, "sweep done");
                }
                Ok(report) => tracing::warn!(?report, "sweep done with failures"),
                Err(error) => tracing::warn!(%error, "sweep failed"),
            }
        }
    }
}

/// A turn's times as its clock really runs, standing still during the vacations of the
/// player to move.
struct TurnTimes {
    /// When the time for the move runs out.
    deadline: DateTime<Utc>,
    /// When 80% of the running time is gone: the reminder.
    reminder: DateTime<Utc>,
}

impl TurnTimes {
    /// The times of the turn `waiting` describes, counting the vacations of its player
    /// among `seated`.
    fn of(waiting: &Waiting, seated: &[Seated]) -> TurnTimes {
        let vacations = seated
            .iter()
            .find(|s| s.player == waiting.player)
            .map_or(&[][..], |s| &s.periods[..]);
        let turn = Turn::waiting(waiting);
        TurnTimes {
            deadline: turn.deadline(vacations),
            reminder: reminder_time(&turn, vacations),
        }
    }
}

/// When `turn` has used 80% of its running time, the clock standing still during
/// `vacations`.
pub fn reminder_time(turn: &Turn, vacations: &[Period]) -> DateTime<Utc> {
    turn.part(4, 5).deadline(vacations)
}

/// The starts and ends of the leaves of `seated` from `from` to `now` (both included), each
/// leave once: its end if that has come, else its start.
fn leave_edges(
    seated: &[Seated],
    from: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Vec<(&Seated, Period, LeaveEdge)> {
    let within = |at: DateTime<Utc>| from <= at && at <= now;
    seated
        .iter()
        .flat_map(|s| s.periods.iter().map(move |p| (s, *p)))
        .filter_map(|(s, p)| match (within(p.start), within(p.end)) {
            (_, true) => Some((s, p, LeaveEdge::End)),
            (true, false) => Some((s, p, LeaveEdge::Start)),
            (false, false) => None,
        })
        .collect()
}

/// The first digest time (`hour` o'clock UTC) after `now`.
pub fn next_digest(now: DateTime<Utc>, hour: u32) -> DateTime<Utc> {
    let at = NaiveTime::from_hms_opt(hour.min(23), 0, 0).unwrap_or_default();
    let today = now.date_naive().and_time(at).and_utc();
    if today > now {
        today
    } else {
        today + Duration::days(1)
    }
}
