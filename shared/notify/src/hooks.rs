//! Delivering players' events to their webhooks: each event of the player's feed is POSTed
//! to the hook's address as JSON, signed, in the feed's order; the next only once the
//! address accepted the one before (any 2xx answer).
//!
//! - **Signature.** `Missive-Signature: t=<unix seconds>,v1=<hex>`, where the hex is
//!   HMAC-SHA256 with the hook's secret over `<t>.<body>`. A receiver recomputes it, and
//!   refuses a `t` more than [`REPLAY_WINDOW_SECS`] from its own clock and an event id
//!   (`Missive-Event-Id`, also the body's `id`) it has already handled: so a delivery
//!   captured and sent again is told from a real one.
//! - **Retries.** A delivery that fails (no answer within the timeout, no connection, an
//!   answer other than 2xx) is tried again after 30 s, then 1, 2, 4 ... minutes, at most an
//!   hour apart; after [`MAX_FAILURES`] failures in a row the hook is disabled. Every attempt
//!   is in the hook's delivery log.
//! - **When.** The notifier has the hooks of a game's players attended whenever the game
//!   changes, and the sweep every hook due, each out of line ([`crate::dispatch`]) (each is a wake-up in the sweep's index): a retry,
//!   and each active hook at least every [`CHECK_EVERY`] so that a change whose trigger was
//!   lost is still delivered.
//! - **Where.** Only to public addresses, unless local hooks are allowed ([`crate::reach`]);
//!   a delivery refused for its address is a failure like any other, logged with why.
//! - **Web Push.** A hook with push keys is a Web Push subscription: it is sent each
//!   event's notice encrypted for it and signed with the server's VAPID key
//!   ([`crate::push`]), retried the same way, and removed when the push service answers
//!   404 or 410 (the subscription is gone).
//! - **At least once.** The hook's place in the feed is saved after each event accepted; a
//!   delivery cut off before that is sent again, with the same event id.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::TimeDelta;
use hmac::{Hmac, Mac};
use missive_domain::{DeliveryAttempt, Hook, HookId, HookState, PushKeys};
use missive_game::hook_address::hook_url;
use missive_game::{Clock, GameService, HookEvent};
use missive_metrics::Metric;
use sha2::Sha256;

use crate::NotifyError;
use crate::push::{self, PushIdentity};
use crate::reach::{Guarded, Reach, refusal};

/// Failed attempts in a row after which a hook is disabled.
pub const MAX_FAILURES: u32 = 10;
/// How far from the receiver's clock a signature's time may be, as the documentation
/// advises receivers.
pub const REPLAY_WINDOW_SECS: i64 = 300;
/// The longest an active hook goes unattended.
pub const CHECK_EVERY: TimeDelta = TimeDelta::minutes(5);
/// Events delivered to one hook per attendance.
const BATCH: usize = 25;

/// Sends events to webhooks.
#[derive(Clone)]
pub struct HookSender {
    service: GameService,
    clock: Arc<dyn Clock>,
    client: reqwest::Client,
    reach: Reach,
    push: Option<PushIdentity>,
}

/// The signature header's value for `body` sent at `t` (unix seconds) with `secret`.
pub fn signature(secret: &str, t: i64, body: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(format!("{t}.{body}").as_bytes());
    format!(
        "t={t},v1={}",
        missive_domain::hex(&mac.finalize().into_bytes())
    )
}

/// The wait before the next attempt after `failures` failures in a row: 30 s, then 1, 2,
/// 4 ... minutes, at most an hour.
pub fn backoff(failures: u32) -> TimeDelta {
    let seconds = 30_i64 << failures.saturating_sub(1).min(7);
    TimeDelta::seconds(seconds.min(3600))
}

impl HookSender {
    /// A sender over `service`, telling time by `clock` (the service's), whose attempts
    /// give up after `timeout` and connect only where `reach` allows (through no proxy,
    /// following no redirect).
    pub fn new(
        service: GameService,
        clock: Arc<dyn Clock>,
        timeout: Duration,
        reach: Reach,
    ) -> Result<HookSender, NotifyError> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .no_proxy()
            .dns_resolver(Arc::new(Guarded(reach.clone())))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent("Missive-Hooks/1")
            .build()
            .map_err(|e| NotifyError::Failed(format!("the webhook client: {e}")))?;
        Ok(HookSender {
            service,
            clock,
            client,
            reach,
            push: None,
        })
    }

    /// The same sender, delivering to Web Push subscriptions as `identity` (without one,
    /// each attempt to a subscription fails, and it is retried as any failure).
    pub fn with_push(mut self, identity: Option<PushIdentity>) -> HookSender {
        self.push = identity;
        self
    }

    /// The service whose hooks this sends to.
    pub(crate) fn service(&self) -> &GameService {
        &self.service
    }

    /// Attends `player`'s hook `id` as it is stored now, if it is active; how many events
    /// were delivered.
    pub async fn attend_stored(&self, player: &str, id: &HookId) -> Result<usize, NotifyError> {
        let hooks = self.service.active_hooks(player).await?;
        match hooks.into_iter().find(|hook| hook.id == *id) {
            Some(hook) => self.attend(hook).await,
            None => Ok(0),
        }
    }

    /// Attends the active hooks of each of `players`; how many events were delivered.
    pub async fn attend_players(&self, players: &[&str]) -> Result<usize, NotifyError> {
        let mut delivered = 0;
        for player in players {
            for hook in self.service.active_hooks(player).await? {
                delivered += self.attend(hook).await?;
            }
        }
        Ok(delivered)
    }

    /// Delivers the hook's next events in order until one fails or none is left, saving its
    /// progress after each; how many were delivered. Stops quietly when another attendance
    /// saved the hook meanwhile (it goes on from there).
    pub async fn attend(&self, mut hook: Hook) -> Result<usize, NotifyError> {
        if hook.failures > 0 && hook.due.is_some_and(|due| due > self.clock.now()) {
            return Ok(0);
        }
        let mut delivered = 0;
        loop {
            let events = self.service.hook_events(&hook, BATCH).await?;
            let full = events.len() == BATCH;
            for event in events {
                let attempt = self.attempt(&hook, &event).await;
                if hook.push.is_some() && attempt.status.is_some_and(push::gone) {
                    tracing::info!(hook = %hook.id, player = %hook.player, "push subscription gone");
                    self.service.remove_hook(&hook.player, &hook.id).await?;
                    return Ok(delivered);
                }
                let accepted = attempt.accepted();
                hook = match self.saved(hook, attempt, &event).await? {
                    Some(hook) => hook,
                    None => return Ok(delivered),
                };
                if !accepted {
                    missive_metrics::count(Metric::WebhookFailures, 1);
                    return Ok(delivered);
                }
                delivered += 1;
            }
            if !full {
                break;
            }
        }
        let checked = Hook {
            due: Some(self.clock.now() + CHECK_EVERY),
            ..hook
        };
        self.service.save_hook(&checked).await?;
        Ok(delivered)
    }

    /// One attempt to POST `event` to `hook`'s address: refused without a connection when
    /// the address is no longer one a hook may have (an IP host that is not public, where
    /// local hooks are not allowed), or when its name resolves to such an address.
    async fn attempt(&self, hook: &Hook, event: &HookEvent) -> DeliveryAttempt {
        let now = self.clock.now();
        let started = Instant::now();
        let (status, error) = match (hook_url(&hook.url, self.reach.local), &hook.push) {
            (Err(why), _) => (None, Some(format!("refused: the address {why}"))),
            (Ok(_), None) => self.post(hook, event, now.timestamp()).await,
            (Ok(_), Some(keys)) => self.push(hook, keys, event).await,
        };
        DeliveryAttempt {
            at: now,
            event: event.event.id.clone(),
            attempt: attempt_number(hook, &event.event.id),
            status,
            error,
            millis: started.elapsed().as_millis() as u64,
        }
    }

    /// POSTs `event` to `hook`'s address, signed at `t`: the answer's status, and what went
    /// wrong in words (without the address).
    async fn post(&self, hook: &Hook, event: &HookEvent, t: i64) -> (Option<u16>, Option<String>) {
        let body = serde_json::to_string(&event.event).unwrap_or_default();
        let sent = self
            .client
            .post(&hook.url)
            .header("content-type", "application/json")
            .header("missive-hook-id", &hook.id.0)
            .header("missive-event-id", &event.event.id)
            .header("missive-signature", signature(&hook.secret, t, &body))
            .body(body)
            .send()
            .await;
        answered(sent)
    }

    /// Sends the push message of `event` to subscription `hook` with `keys`: the answer's
    /// status, and what went wrong in words. Its VAPID token's expiry counts from the
    /// machine's clock, which the push service's is compared with (not the service's
    /// clock, which tests move).
    async fn push(
        &self,
        hook: &Hook,
        keys: &PushKeys,
        event: &HookEvent,
    ) -> (Option<u16>, Option<String>) {
        let t = chrono::Utc::now().timestamp();
        let Some(identity) = &self.push else {
            return (
                None,
                Some("not sent: the server has no VAPID key".to_string()),
            );
        };
        let message = match push::message(identity, &hook.url, keys, &event.event, t) {
            Ok(message) => message,
            Err(why) => return (None, Some(format!("not sent: {why}"))),
        };
        let (parts, body) = message.into_parts();
        let sent = self
            .client
            .post(&hook.url)
            .headers(parts.headers)
            .body(body)
            .send()
            .await;
        answered(sent)
    }

    /// Saves `hook` after `attempt` of `event`: on past the event when accepted, else with
    /// one more failure, a later retry and, past [`MAX_FAILURES`], disabled. `None` when the
    /// hook changed or went meanwhile.
    async fn saved(
        &self,
        hook: Hook,
        attempt: DeliveryAttempt,
        event: &HookEvent,
    ) -> Result<Option<Hook>, NotifyError> {
        let now = attempt.at;
        let accepted = attempt.accepted();
        let mut next = hook.logged(attempt);
        if accepted {
            next.position = Some(event.position.clone());
            next.failures = 0;
            next.due = None;
        } else {
            next.failures += 1;
            next.due = Some(now + backoff(next.failures));
            if next.failures >= MAX_FAILURES {
                next.state = HookState::Disabled { at: now };
                tracing::warn!(hook = %next.id, player = %next.player, "webhook disabled");
            }
        }
        if !self.service.save_hook(&next).await? {
            return Ok(None);
        }
        next.revision += 1;
        Ok(Some(next))
    }
}

/// The status of an attempt's answer, and what went wrong in words (without the address).
fn answered(sent: reqwest::Result<reqwest::Response>) -> (Option<u16>, Option<String>) {
    match sent {
        Ok(answer) if answer.status().is_success() => (Some(answer.status().as_u16()), None),
        Ok(answer) => (
            Some(answer.status().as_u16()),
            Some(format!("answered {}", answer.status())),
        ),
        Err(error) if error.is_timeout() => (None, Some("no answer in time".to_string())),
        Err(error) => match refusal(&error) {
            Some(refused) => (None, Some(format!("refused: {refused}"))),
            None => (None, Some(format!("not delivered: {}", without_url(error)))),
        },
    }
}

/// The number of this attempt for event `event`: one more than the attempts logged for it
/// since.
fn attempt_number(hook: &Hook, event: &str) -> u32 {
    let before = hook.log.iter().take_while(|d| d.event == event).count();
    before as u32 + 1
}

/// An HTTP client error in words, without the address (it may carry a token).
fn without_url(error: reqwest::Error) -> String {
    error.without_url().to_string()
}
