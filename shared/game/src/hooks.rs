//! Webhooks, as players manage them (register, list, read the delivery log, remove) and as
//! the notifier works them (the events due to a hook, its progress saved).

use chrono::{DateTime, Utc};
use missive_domain::{DeliveryAttempt, FEED_RETENTION, Hook, HookId, HookState};
use rand::RngCore;
use serde::Serialize;

use crate::feed::{EventView, view};
use crate::hook_address::hook_url;
use crate::{GameService, ServiceError};

/// Most hooks one player may have.
pub const MAX_HOOKS: usize = 5;

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

/// An event due to a hook, and where the hook's feed goes on once it is delivered.
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
        if self.store.hooks_of(player).await?.len() >= MAX_HOOKS {
            return Err(ServiceError::refused(format!(
                "a player may have {MAX_HOOKS} hooks at most"
            )));
        }
        let mut key = [0_u8; 32];
        rand::rng().fill_bytes(&mut key);
        let hook = Hook {
            id: HookId(ulid::Ulid::new().to_string()),
            player: player.to_string(),
            url: url.to_string(),
            secret: missive_domain::hex(&key),
            created_at: self.now(),
            revision: 1,
            position: None,
            state: HookState::Active,
            failures: 0,
            due: None,
            log: Vec::new(),
        };
        self.store.put_hook(&hook).await?;
        Ok(HookCreated {
            hook: HookView::from(&hook),
            secret: hook.secret,
        })
    }

    /// The hooks of `player`, oldest first.
    pub async fn hooks(&self, player: &str) -> Result<Vec<HookView>, ServiceError> {
        let hooks = self.store.hooks_of(player).await?;
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

    /// Removes `player`'s hook `id`: nothing is sent to it any more.
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
        let now = self.now();
        let since = hook.created_at.max(now - FEED_RETENTION);
        let page = self
            .store
            .feed(&hook.player, hook.position.as_deref(), since, limit)
            .await?;
        Ok(page
            .entries
            .into_iter()
            .map(|entry| HookEvent {
                position: entry.position.clone(),
                event: view(entry, now),
            })
            .collect())
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
