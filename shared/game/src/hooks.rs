//! Webhooks, as players manage them (register, list, read the delivery log, remove) and as
//! the notifier works them (the events due to a hook, its progress saved).

use chrono::{DateTime, Utc};
use missive_domain::{DeliveryAttempt, Hook, HookId, HookState, PushKeys};
use rand::RngCore;
use serde::Serialize;

use crate::feed::EventView;
use crate::hook_address::hook_url;
use crate::{GameService, ServiceError};

/// Most webhooks one player may have.
pub const MAX_HOOKS: usize = 5;
/// Most Web Push subscriptions one player may have (one per browser or phone).
pub const MAX_PUSH: usize = 10;

/// A hook as its player sees it (never its secret, which is shown once, at registration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HookView {
    /// Its id.
    pub id: String,
    /// The address events are POSTed to.
    pub url: String,
    /// When it was registered.
    pub created_at: DateTime<Utc>,
    /// `active`, or `disabled` after too many failures in a row.
    #[cfg_attr(feature = "openapi", schema(pattern = "^(active|disabled)$"))]
    pub state: String,
    /// Failed attempts in a row.
    pub failures: u32,
    /// When the next attempt is due after a failure, while active.
    pub retry_at: Option<DateTime<Utc>>,
}

impl From<&Hook> for HookView {
    fn from(hook: &Hook) -> HookView {
        let (state, retry_at) = match hook.state {
            HookState::Active => ("active", hook.due.filter(|_| hook.failures > 0)),
            HookState::Disabled { .. } => ("disabled", None),
        };
        HookView {
            id: hook.id.0.clone(),
            url: hook.url.clone(),
            created_at: hook.created_at,
            state: state.into(),
            failures: hook.failures,
            retry_at,
        }
    }
}

/// A Web Push subscription as its player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushView {
    /// Its id.
    pub id: String,
    /// The push service's endpoint.
    pub endpoint: String,
    /// When it was registered.
    pub created_at: DateTime<Utc>,
    /// Failed attempts in a row (the push service not answering, or answering an error
    /// other than 404 and 410, which remove the subscription).
    pub failures: u32,
    /// When the next attempt is due after a failure.
    pub retry_at: Option<DateTime<Utc>>,
}

impl From<&Hook> for PushView {
    fn from(hook: &Hook) -> PushView {
        PushView {
            id: hook.id.0.clone(),
            endpoint: hook.url.clone(),
            created_at: hook.created_at,
            failures: hook.failures,
            retry_at: hook.due.filter(|_| hook.failures > 0),
        }
    }
}

/// A hook just registered, with the secret its signatures are made with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HookCreated {
    /// The hook.
    #[serde(flatten)]
    pub hook: HookView,
    /// The key of the hook's signatures (HMAC-SHA256): shown this once.
    pub secret: String,
}

/// An event due to a hook or a connection, and where its feed goes on once it is
/// delivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookEvent {
    /// The event, as the feed gives it.
    pub event: EventView,
    /// The hook's position after it.
    pub position: String,
}

impl GameService {
    /// Registers a hook for `player` that is sent their events from now on: `url` must be
    /// an address [`hook_url`] accepts (`https://`, no credentials, no host that is an IP
    /// address other than a public one; plain `http://` and any host only where the
    /// service allows local hooks, for tests and local use), at most [`MAX_HOOKS`] per
    /// player.
    pub async fn register_hook(
        &self,
        player: &str,
        url: &str,
    ) -> Result<HookCreated, ServiceError> {
        hook_url(url, self.config.local_hooks)
            .map_err(|why| ServiceError::refused(format!("hook address: {why}")))?;
        if self.hooks_of_kind(player, false).await?.len() >= MAX_HOOKS {
            return Err(ServiceError::refused(format!(
                "a player may have {MAX_HOOKS} hooks at most"
            )));
        }
        let mut key = [0_u8; 32];
        rand::rng().fill_bytes(&mut key);
        let hook = self.new_hook(player, url, missive_domain::hex(&key), None);
        self.store.put_hook(&hook).await?;
        Ok(HookCreated {
            hook: HookView::from(&hook),
            secret: hook.secret,
        })
    }

    /// Registers a Web Push subscription for `player`, sent a notice of each of their
    /// events from now on: `endpoint` is an address as [`hook_url`] accepts it, `keys` the
    /// subscription's P-256 key (65 bytes, uncompressed) and authentication secret (16
    /// bytes), base64url. The same endpoint registered again replaces the one before; at
    /// most [`MAX_PUSH`] per player.
    pub async fn register_push(
        &self,
        player: &str,
        endpoint: &str,
        keys: PushKeys,
    ) -> Result<PushView, ServiceError> {
        hook_url(endpoint, self.config.local_hooks)
            .map_err(|why| ServiceError::refused(format!("push endpoint: {why}")))?;
        check_key("p256dh", &keys.p256dh, 65)?;
        check_key("auth", &keys.auth, 16)?;
        let subscriptions = self.hooks_of_kind(player, true).await?;
        let replaced = subscriptions.iter().find(|hook| hook.url == endpoint);
        if replaced.is_none() && subscriptions.len() >= MAX_PUSH {
            return Err(ServiceError::refused(format!(
                "a player may have {MAX_PUSH} push subscriptions at most"
            )));
        }
        if let Some(old) = replaced {
            self.store.delete_hook(player, &old.id).await?;
        }
        let hook = self.new_hook(player, endpoint, String::new(), Some(keys));
        self.store.put_hook(&hook).await?;
        Ok(PushView::from(&hook))
    }

    /// The Web Push subscriptions of `player`, oldest first.
    pub async fn push_subscriptions(&self, player: &str) -> Result<Vec<PushView>, ServiceError> {
        let hooks = self.hooks_of_kind(player, true).await?;
        Ok(hooks.iter().map(PushView::from).collect())
    }

    /// The push subscriptions of `player` (`push`), or their webhooks, oldest first.
    async fn hooks_of_kind(&self, player: &str, push: bool) -> Result<Vec<Hook>, ServiceError> {
        let hooks = self.store.hooks_of(player).await?;
        Ok(hooks
            .into_iter()
            .filter(|hook| hook.push.is_some() == push)
            .collect())
    }

    /// A new active hook of `player` at `url`, registered now.
    fn new_hook(&self, player: &str, url: &str, secret: String, push: Option<PushKeys>) -> Hook {
        Hook {
            id: HookId(ulid::Ulid::new().to_string()),
            player: player.to_string(),
            url: url.to_string(),
            secret,
            created_at: self.now(),
            revision: 1,
            position: None,
            state: HookState::Active,
            failures: 0,
            due: None,
            log: Vec::new(),
            push,
        }
    }

    /// The webhooks of `player`, oldest first.
    pub async fn hooks(&self, player: &str) -> Result<Vec<HookView>, ServiceError> {
        let hooks = self.hooks_of_kind(player, false).await?;
        Ok(hooks.iter().map(HookView::from).collect())
    }

    /// The latest delivery attempts of `player`'s hook `id`, newest first.
    pub async fn hook_deliveries(
        &self,
        player: &str,
        id: &HookId,
    ) -> Result<Vec<DeliveryAttempt>, ServiceError> {
        Ok(self.player_hook(player, id).await?.log)
    }

    /// Removes `player`'s hook `id` (a webhook or a push subscription): nothing is sent to
    /// it any more.
    pub async fn remove_hook(&self, player: &str, id: &HookId) -> Result<(), ServiceError> {
        self.player_hook(player, id).await?;
        Ok(self.store.delete_hook(player, id).await?)
    }

    /// The active hooks of `player` (what a change of their games wakes).
    pub async fn active_hooks(&self, player: &str) -> Result<Vec<Hook>, ServiceError> {
        let hooks = self.store.hooks_of(player).await?;
        Ok(hooks
            .into_iter()
            .filter(|hook| hook.state == HookState::Active)
            .collect())
    }

    /// The next events due to `hook` (those of its player's feed after its position and
    /// since it was registered), oldest first, at most `limit`.
    pub async fn hook_events(
        &self,
        hook: &Hook,
        limit: usize,
    ) -> Result<Vec<HookEvent>, ServiceError> {
        self.feed_after(
            &hook.player,
            hook.position.as_deref(),
            hook.created_at,
            limit,
        )
        .await
    }

    /// Saves `hook` as its next revision; `false` if it changed or went meanwhile (another
    /// delivery got there first, or its player removed it), and nothing was written.
    pub async fn save_hook(&self, hook: &Hook) -> Result<bool, ServiceError> {
        let next = Hook {
            revision: hook.revision + 1,
            ..hook.clone()
        };
        match self.store.put_hook(&next).await {
            Ok(()) => Ok(true),
            Err(missive_store::StoreError::Conflict) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    async fn player_hook(&self, player: &str, id: &HookId) -> Result<Hook, ServiceError> {
        let hooks = self.store.hooks_of(player).await?;
        hooks
            .into_iter()
            .find(|hook| hook.id == *id)
            .ok_or_else(|| ServiceError::NoHook(id.clone()))
    }
}

/// Refuses a push subscription's key `name` unless it is `bytes` bytes in base64url.
fn check_key(name: &str, text: &str, bytes: usize) -> Result<(), ServiceError> {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let decoded = URL_SAFE_NO_PAD.decode(text.trim_end_matches('='));
    match decoded {
        Ok(key) if key.len() == bytes => Ok(()),
        _ => Err(ServiceError::refused(format!(
            "keys.{name} must be {bytes} bytes in base64url"
        ))),
    }
}
