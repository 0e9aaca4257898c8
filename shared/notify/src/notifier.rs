//! The notifier: decides who gets which mail when a game changed, and the sweep that ends
//! games on time, reminds players at 80% of their time, sends daily digests and catches
//! turns whose mail was never sent.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, Duration, Timelike, Utc};
use missive_auth::Authority;
use missive_game::{Clock, GameService, replay};
use missive_mail::{Mail, Mailer};
use missive_rules::registry;
use missive_store::{GameId, Head, MailPreference, Notice, Status, Store, StoredGame};

use crate::NotifyError;
use crate::compose::{DigestEntry, TurnFacts, TurnNotice, digest_mail, ending_mail, turn_mail};
use crate::links::{MoveLinkFor, move_link, unsubscribe_link};

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
    /// Games ended on time.
    pub timeouts: usize,
    /// Turn mails sent that no change event had sent.
    pub turns: usize,
    /// Reminders sent.
    pub reminders: usize,
    /// Digests sent.
    pub digests: usize,
    /// What failed (each is retried by the next sweep).
    pub failures: Vec<String>,
}

/// Sends notification mail for the games of one store. Every mail is claimed in the store
/// first ([`Store::claim_notice`]), so however often an event repeats or a sweep runs, each
/// mail goes out once; a mail that cannot be sent releases its claim for the next try.
#[derive(Clone)]
pub struct Notifier {
    service: GameService,
    authority: Arc<Authority>,
    mailer: Arc<dyn Mailer>,
    clock: Arc<dyn Clock>,
    public_url: String,
    config: NotifyConfig,
}

impl Notifier {
    /// A notifier over `service`'s store, minting links with `authority` for `public_url`
    /// (no trailing slash), sending with `mailer`, telling time by `clock`.
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
        }
    }

    /// The same notifier with `config`.
    pub fn with_config(mut self, config: NotifyConfig) -> Notifier {
        self.config = config;
        self
    }

    fn store(&self) -> &Arc<dyn Store> {
        self.service.store()
    }

    /// Handles a change of game `id`: if someone is now to move (after a move, conditional
    /// replies, or the start) and wants a mail for each move, mails them once; if the game
    /// has just finished, tells each of its players how it ended, once each. Returns
    /// whether a mail was sent.
    pub async fn game_changed(&self, id: &GameId) -> Result<bool, NotifyError> {
        let Some(stored) = self.store().load(id).await? else {
            return Ok(false);
        };
        if stored.head.doc.status == Status::Finished {
            return self.ending_notices(&stored).await;
        }
        let head = stored.head.clone();
        let Some(waiting) = &head.waiting else {
            return Ok(false);
        };
        let preference = self.store().mail_preference(&waiting.player).await?;
        self.turn_notice(&head, TurnNotice::Turn, preference, Some(stored))
            .await
    }

    /// Tells every registered player of the finished game in `stored` how it ended, once
    /// each, unless they want no mail; nothing for a game that was imported finished.
    /// Whether a mail was sent.
    async fn ending_notices(&self, stored: &StoredGame) -> Result<bool, NotifyError> {
        let doc = &stored.head.doc;
        if doc.imported {
            return Ok(false);
        }
        let mut sent = false;
        for handle in doc.players() {
            if self.store().mail_preference(handle).await? == MailPreference::None {
                continue;
            }
            let Some(player) = self.store().player(handle).await? else {
                continue;
            };
            let unsubscribe =
                unsubscribe_link(&self.authority, &self.public_url, handle, self.clock.now())?;
            let mail = ending_mail(&player, stored, &self.public_url, &unsubscribe);
            let notice = Notice::Ended {
                game: stored.head.id.clone(),
                player: player.handle.clone(),
            };
            sent |= self.send_once(&notice, async { Ok(Some(mail)) }).await?;
        }
        Ok(sent)
    }

    /// Sends `notice` about the turn in `head` if the player to move wants it (their mail
    /// `preference`) and it was not sent before; `loaded` is the game if the caller has it
    /// already.
    async fn turn_notice(
        &self,
        head: &Head,
        notice: TurnNotice,
        preference: MailPreference,
        loaded: Option<StoredGame>,
    ) -> Result<bool, NotifyError> {
        if head.waiting.is_none() || head.doc.status != Status::Active {
            return Ok(false);
        }
        let wanted = match notice {
            TurnNotice::Turn => preference == MailPreference::EachMove,
            TurnNotice::Reminder => preference != MailPreference::None,
        };
        if !wanted {
            return Ok(false);
        }
        let (game, ply) = (head.id.clone(), head.ply);
        let key = match notice {
            TurnNotice::Turn => Notice::Turn { game, ply },
            TurnNotice::Reminder => Notice::Reminder { game, ply },
        };
        self.send_once(&key, async {
            let stored = match loaded {
                Some(stored) => stored,
                None => self
                    .store()
                    .load(&head.id)
                    .await?
                    .ok_or_else(|| NotifyError::Gone(head.id.clone()))?,
            };
            if stored.head.ply != head.ply {
                // The turn is over already: nothing to tell.
                return Ok(None);
            }
            self.compose_turn(notice, &stored).await
        })
        .await
    }

    /// The turn mail (or reminder) for the player to move in `stored`; none if nobody
    /// registered sits there.
    async fn compose_turn(
        &self,
        notice: TurnNotice,
        stored: &StoredGame,
    ) -> Result<Option<Mail>, NotifyError> {
        let head = &stored.head;
        let (Some(waiting), Some(seat)) = (&head.waiting, head.to_move) else {
            return Ok(None);
        };
        let Some(player) = self.store().player(&waiting.player).await? else {
            return Ok(None);
        };
        let game = replay(registry::variant, stored)?;
        let now = self.clock.now();
        let target = MoveLinkFor {
            handle: &player.handle,
            game: &head.id,
            seat,
            ply: head.ply,
            deadline: waiting.deadline,
        };
        let facts = TurnFacts {
            to: &player,
            stored,
            game: game.as_ref(),
            now,
            public_url: &self.public_url,
            move_link: move_link(&self.authority, &self.public_url, &target, now)?,
            unsubscribe_link: unsubscribe_link(
                &self.authority,
                &self.public_url,
                &player.handle,
                now,
            )?,
        };
        Ok(Some(turn_mail(notice, &facts)))
    }

    /// Claims `notice`, then sends the mail `compose` makes (none: nothing to send). A
    /// notice claimed before sends nothing; a failure releases the claim.
    async fn send_once(
        &self,
        notice: &Notice,
        compose: impl Future<Output = Result<Option<Mail>, NotifyError>>,
    ) -> Result<bool, NotifyError> {
        if !self.store().claim_notice(notice, self.clock.now()).await? {
            return Ok(false);
        }
        let sent = async {
            match compose.await? {
                Some(mail) => self.mailer.send(&mail).await.map(|()| true),
                None => Ok(false),
            }
            .map_err(NotifyError::from)
        }
        .await;
        if sent.is_err()
            && let Err(error) = self.store().release_notice(notice).await
        {
            tracing::error!(?notice, %error, "could not release a notice claim");
        }
        sent
    }

    /// One sweep over every game someone is to move in: ends games whose time ran out,
    /// sends turn mails no event sent, reminders at 80% of the time, and (from the digest
    /// hour) each digest player's daily digest. Failures are reported and left for the
    /// next sweep.
    pub async fn sweep(&self) -> Result<SweepReport, NotifyError> {
        self.sweep_until(&tokio::sync::watch::channel(false).1)
            .await
    }

    /// [`Notifier::sweep`], stopping between two games (and before the digests) once
    /// `stop` holds `true`; what is left waits for the next sweep.
    pub async fn sweep_until(
        &self,
        stop: &tokio::sync::watch::Receiver<bool>,
    ) -> Result<SweepReport, NotifyError> {
        let now = self.clock.now();
        let heads = self.store().waiting_games(DateTime::<Utc>::MAX_UTC).await?;
        let mut report = SweepReport::default();
        let mut preferences: HashMap<String, MailPreference> = HashMap::new();
        let mut digests: BTreeMap<String, Vec<Head>> = BTreeMap::new();
        for head in heads {
            if *stop.borrow() {
                return Ok(report);
            }
            let Some(waiting) = head.waiting.clone() else {
                continue;
            };
            if now > waiting.deadline {
                match self.service.enforce_deadline(&head.id).await {
                    Ok(Some(_)) => {
                        report.timeouts += 1;
                        continue;
                    }
                    Ok(None) => {}
                    Err(error) => report.failures.push(format!("{}: {error}", head.id)),
                }
            }
            let preference = match preferences.get(&waiting.player) {
                Some(preference) => *preference,
                None => match self.store().mail_preference(&waiting.player).await {
                    Ok(preference) => *preferences
                        .entry(waiting.player.clone())
                        .or_insert(preference),
                    Err(error) => {
                        report.failures.push(format!("{}: {error}", waiting.player));
                        continue;
                    }
                },
            };
            match preference {
                MailPreference::EachMove => {
                    count(
                        &mut report.turns,
                        &mut report.failures,
                        &head.id.0,
                        self.turn_notice(&head, TurnNotice::Turn, preference, None)
                            .await,
                    );
                }
                MailPreference::DailyDigest => {
                    digests
                        .entry(waiting.player.clone())
                        .or_default()
                        .push(head.clone());
                }
                MailPreference::None => continue,
            }
            if now >= reminder_time(waiting.since, waiting.deadline) {
                count(
                    &mut report.reminders,
                    &mut report.failures,
                    &head.id.0,
                    self.turn_notice(&head, TurnNotice::Reminder, preference, None)
                        .await,
                );
            }
        }
        if now.hour() >= self.config.digest_hour && !*stop.borrow() {
            for (player, heads) in digests {
                let sent = self.digest(&player, heads, now).await;
                count(&mut report.digests, &mut report.failures, &player, sent);
            }
        }
        Ok(report)
    }

    /// Sends `player` today's digest of `heads` unless it went out already.
    async fn digest(
        &self,
        player: &str,
        heads: Vec<Head>,
        now: DateTime<Utc>,
    ) -> Result<bool, NotifyError> {
        let notice = Notice::Digest {
            player: player.to_string(),
            day: now.date_naive(),
        };
        self.send_once(&notice, async {
            let Some(to) = self.store().player(player).await? else {
                return Ok(None);
            };
            let mut entries = Vec::with_capacity(heads.len());
            for head in heads {
                let (Some(waiting), Some(seat)) = (&head.waiting, head.to_move) else {
                    continue;
                };
                let target = MoveLinkFor {
                    handle: player,
                    game: &head.id,
                    seat,
                    ply: head.ply,
                    deadline: waiting.deadline,
                };
                let link = move_link(&self.authority, &self.public_url, &target, now)?;
                entries.push(DigestEntry {
                    head,
                    move_link: link,
                });
            }
            let unsubscribe = unsubscribe_link(&self.authority, &self.public_url, player, now)?;
            Ok(Some(digest_mail(&to, &entries, now, &unsubscribe)))
        })
        .await
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
                        tracing::warn!(game = %id, %error, "turn mail not sent; the sweep retries");
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
    /// under way then stops between two games.
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

/// When a turn from `since` to `deadline` has used 80% of its time.
pub fn reminder_time(since: DateTime<Utc>, deadline: DateTime<Utc>) -> DateTime<Utc> {
    let allowance = (deadline - since).max(Duration::zero());
    since + allowance * 4 / 5
}

/// Adds a sent mail to `sent` or a failure (named by `what`) to `failures`.
fn count(
    sent: &mut usize,
    failures: &mut Vec<String>,
    what: &str,
    result: Result<bool, NotifyError>,
) {
    match result {
        Ok(true) => *sent += 1,
        Ok(false) => {}
        Err(error) => {
            tracing::warn!(%what, %error, "notification failed");
            failures.push(format!("{what}: {error}"));
        }
    }
}
