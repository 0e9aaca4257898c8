//! The scheduler: attends each game when a change or the sweep finds it due, ends games on
//! time, starts tournaments at their start date, hands webhooks over to be attended, and
//! has the mailers ([`crate::mailers`]) send what is due to a game's players.
//!
//! Every game has a wake-up in the sweep's index: when the scheduler next has something to
//! do for it. A change that moves the turn on, or ends the game, sets it to that moment, and
//! a change of a player's vacations makes it due at once; the scheduler attends the game
//! then (from the change feed at once, or from the sweep if the feed missed it) and moves
//! the wake-up to the next thing due: the deadline, or the earliest moment a mailer names
//! (the reminder, the player's next digest, the next start or end of a player's leave). So
//! a sweep reads only the games due, and a mail sent costs nothing on later sweeps.
//!
//! Times are the real ones: the deadline and the reminder (80% of the running time) of a
//! turn count the vacations of the player to move, so do the deadlines mails show and the
//! expiry of the move links they carry.

mod round;

use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use missive_auth::Authority;
use missive_domain::{Cursor, GameId, Head, Hook, Status, TournamentId};
use missive_game::{Clock, GameService, WakeSubject};
use missive_mail::Mailer;
use missive_rules::AnyGame;

pub use round::SweepReport;
pub(crate) use round::{GameWake, Round};

use crate::NotifyError;
use crate::dispatch::{HOOKS_AT_ONCE, HookDispatcher};
use crate::hooks::HookSender;
use crate::mailers::{Attendance, MAILERS, Stage, TurnState, TurnTimes};
use crate::post::Post;
use crate::sockets::SocketSender;

/// Entries read from the sweep's index (or a player's games) at a time.
pub(crate) const DUE_PAGE: usize = 100;
/// How long a turn whose deadline passed but whose time is not up (an ICCF clock given time
/// back by vacations in earlier turns) waits before it is looked at again.
const RECHECK: TimeDelta = TimeDelta::hours(1);

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

/// Attends the games of one service and sends their mail. Every mail is claimed first
/// ([`GameService::claim_notice`]), so however often an event repeats or a sweep runs, each
/// mail goes out once; a mail that cannot be sent releases its claim for the next try.
#[derive(Clone)]
pub struct Scheduler {
    pub(crate) post: Post,
    hooks: Option<HookDispatcher>,
    sockets: Option<SocketSender>,
}

impl Scheduler {
    /// A scheduler over `service`, minting links with `authority` for `public_url` (no
    /// trailing slash), sending with `mailer`, telling time by `clock`.
    pub fn new(
        service: GameService,
        authority: Arc<Authority>,
        mailer: Arc<dyn Mailer>,
        clock: Arc<dyn Clock>,
        public_url: &str,
    ) -> Scheduler {
        let post = Post {
            service,
            authority,
            transport: mailer,
            clock,
            public_url: public_url.trim_end_matches('/').to_string(),
            config: NotifyConfig::default(),
            reply_to: None,
        };
        Scheduler {
            post,
            hooks: None,
            sockets: None,
        }
    }

    /// The same scheduler, delivering the players' events to their webhooks with `hooks`
    /// (when a game changes, and in every sweep), out of line, at most [`HOOKS_AT_ONCE`]
    /// hooks at once.
    pub fn with_hooks(mut self, hooks: HookSender) -> Scheduler {
        self.hooks = Some(HookDispatcher::new(hooks, HOOKS_AT_ONCE));
        self
    }

    /// The same scheduler, sending the players' events to their subscribed WebSocket
    /// connections with `sockets` when a game changes, before its mail.
    pub fn with_sockets(mut self, sockets: Option<SocketSender>) -> Scheduler {
        self.sockets = sockets;
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

    /// The same scheduler offering replies by mail at `reply_to` (`reply@example.org`,
    /// checked by [`crate::links::check_reply_to`]): turn mails go out with a `Reply-To`
    /// of `reply+{token}@example.org`. None: no replies offered.
    pub fn with_reply_to(mut self, reply_to: Option<String>) -> Scheduler {
        self.post.reply_to = reply_to;
        self
    }

    /// The same scheduler with `config`.
    pub fn with_config(mut self, config: NotifyConfig) -> Scheduler {
        self.post.config = config;
        self
    }

    /// Handles a change of game `id`: attends the game at the wake-up the change set (the
    /// new turn's start, or the game's end), so the player now to move gets their turn mail
    /// and the players of a game just ended hear how it ended, once each; then hands the
    /// webhooks of the game's members over to be attended (out of line: this does not wait
    /// for them). The members' WebSocket connections are sent their events first (a
    /// failure there is logged: their clients go on from their cursors). Returns whether a
    /// mail was sent.
    pub async fn game_changed(&self, id: &GameId) -> Result<bool, NotifyError> {
        let Some((head, game)) = self.post.service.notice_state(id).await? else {
            return Ok(false);
        };
        let members: Vec<String> = head.doc.members().into_iter().map(String::from).collect();
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        if let Some(sockets) = &self.sockets
            && let Err(error) = sockets.attend_players(&members).await
        {
            tracing::warn!(game = %id, %error, "events not sent to connections");
        }
        let mailed = self.mail_change(id, head, game).await;
        if let Some(hooks) = &self.hooks {
            hooks.attend_players(&members).await?;
        }
        mailed
    }

    /// Writes the feed items of the change from head `before` to head `after` that its
    /// commit left to the reader of the store's change stream
    /// ([`GameService::tell_change`]); the number of items. The stream's reader tells each
    /// change before it attends the game ([`Scheduler::game_changed`]), whose connections
    /// and webhooks are sent the events then.
    pub async fn tell_change(&self, before: &Head, after: &Head) -> Result<usize, NotifyError> {
        Ok(self.post.service.tell_change(before, after).await?)
    }

    /// The mails of a change of game `id` (at `head`, the rules game `game`): see
    /// [`Scheduler::game_changed`].
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
    /// reminders at 80% of the time, then closes the rating periods due (one query when
    /// none is), and (from the digest hour) sends each digest player's daily digest; it
    /// moves each game's wake-up on. Failures are reported and left for the
    /// next sweep (what failed stays due).
    pub async fn sweep(&self) -> Result<SweepReport, NotifyError> {
        self.sweep_until(&tokio::sync::watch::channel(false).1)
            .await
    }

    /// [`Scheduler::sweep`], stopping between two games (and before the mails left to the
    /// end of the sweep, the digests) once `stop` holds `true`; what is left stays due for
    /// the next sweep.
    pub async fn sweep_until(
        &self,
        stop: &tokio::sync::watch::Receiver<bool>,
    ) -> Result<SweepReport, NotifyError> {
        let now = self.post.clock.now();
        let mut round = Round::default();
        for shard in 0..self.post.service.wake_shards() {
            let mut cursor: Option<Cursor> = None;
            loop {
                let page = self
                    .post
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
        match self.post.service.close_rating_periods(now).await {
            Ok(closed) => round.report.rating_periods = closed,
            Err(error) => round
                .report
                .failures
                .push(format!("rating periods: {error}")),
        }
        for mailer in MAILERS {
            mailer.after_sweep(&self.post, now, &mut round).await;
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
        if self.post.service.start_due_tournament(id).await? {
            round.report.tournaments_started += 1;
        }
        Ok(())
    }

    /// Hands the webhook the sweep found due over to be attended, if this scheduler sends
    /// to webhooks (else it stays due for one that does).
    async fn attend_hook(&self, hook: &Hook, round: &mut Round) -> Result<(), NotifyError> {
        if let Some(hooks) = &self.hooks {
            hooks.attend(&hook.player, &hook.id);
            round.report.hooks += 1;
        }
        Ok(())
    }

    /// Attends a game the sweep found due.
    async fn attend_due(&self, wake: &GameWake, round: &mut Round) -> Result<(), NotifyError> {
        match self.post.service.notice_state(&wake.game).await? {
            Some((head, game)) => self.attend(wake, head, game, round).await,
            None => wake.settle(&self.post.service, None).await,
        }
    }

    /// Does what is due for the game of `wake` (its head `head`, at the rules game `game`)
    /// and moves its wake-up to the next thing due; a failure leaves the wake-up where it
    /// is, so the next sweep tries again. A game just ended first settles what its end
    /// changes beyond it (ratings, its tournament), then its players hear of it; an active
    /// game has the mails of [`Stage::Active`] sent before its turn is attended.
    async fn attend(
        &self,
        wake: &GameWake,
        head: Head,
        game: Box<dyn AnyGame>,
        round: &mut Round,
    ) -> Result<(), NotifyError> {
        let at = Attendance {
            wake,
            head: &head,
            game: game.as_ref(),
            now: self.post.clock.now(),
            turn: None,
        };
        match head.doc.status {
            Status::Finished => {
                let settled = self.post.service.game_ended(&head).await.map(|()| false);
                let mut failed =
                    round.count(|r| &mut r.endings, &head.id.0, settled.map_err(Into::into));
                failed |= self.mail(Stage::Finished, &at, round).await;
                if !failed {
                    wake.settle(&self.post.service, None).await?;
                }
                Ok(())
            }
            Status::Active if head.waiting.is_some() => {
                if self.mail(Stage::Active, &at, round).await {
                    return Ok(());
                }
                self.attend_turn(at, round).await
            }
            Status::Active | Status::Forming | Status::Cancelled => {
                wake.settle(&self.post.service, None).await
            }
        }
    }

    /// The turn of the active game `at` attends: a time-out, the mails of [`Stage::Turn`],
    /// then the next wake-up (unless a mailer takes the wake-up over).
    async fn attend_turn(&self, at: Attendance<'_>, round: &mut Round) -> Result<(), NotifyError> {
        let head = at.head;
        let Some(waiting) = &head.waiting else {
            return Ok(());
        };
        let service = &self.post.service;
        let seated = service.seated_vacations(&head.doc).await?;
        let times = TurnTimes::of(waiting, &seated);
        if at.now > times.deadline && service.enforce_deadline(&head.id).await?.is_some() {
            // The time-out set the game's wake-up: its game-over mails come next.
            round.report.timeouts += 1;
            return Ok(());
        }
        let preference = round.preference(service, &waiting.player).await?;
        let at = Attendance {
            turn: Some(TurnState {
                waiting,
                seated,
                times,
                preference,
            }),
            ..at
        };
        if self.mail(Stage::Turn, &at, round).await {
            return Ok(());
        }
        let next = self.next_wake(&at);
        for mailer in MAILERS {
            if mailer.takes_wake(&self.post, &at, next, round) {
                return Ok(());
            }
        }
        at.wake.settle(service, Some(next)).await
    }

    /// Has every mailer of `stage` send what is due for the game `at` attends: whether one
    /// failed (each is tried all the same).
    async fn mail(&self, stage: Stage, at: &Attendance<'_>, round: &mut Round) -> bool {
        let mut failed = false;
        for mailer in MAILERS.iter().filter(|m| m.stages().contains(&stage)) {
            failed |= mailer.attend(&self.post, at, round).await;
        }
        failed
    }

    /// When the turn `at` attends next needs the scheduler: its deadline (or, once that
    /// passed without the time being up, a while later), or the earliest moment a mailer
    /// names before it.
    fn next_wake(&self, at: &Attendance<'_>) -> DateTime<Utc> {
        let deadline = at.turn.as_ref().map_or(at.now, |turn| turn.times.deadline);
        let next = match deadline > at.now {
            true => deadline,
            false => at.now + RECHECK,
        };
        MAILERS
            .iter()
            .filter_map(|mailer| mailer.next(&self.post, at))
            .fold(next, DateTime::min)
    }

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
