//! Webhooks, as players manage them (register, list, read the delivery log, remove) and as
//! the notifier works them (the events due to a hook, its progress saved).

use chrono::{DateTime, Utc};
use missive_domain::{DeliveryAttempt, FEED_RETENTION, Hook, HookId, HookState};
use rand::RngCore;
use serde::Serialize;

use crate::feed::{EventView, view};
use crate::{GameService, ServiceError};

/// Most hooks one player may have.
pub const MAX_HOOKS: usize = 5;
/// Longest address a hook may have.
const MAX_URL: usize = 2048;

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
    /// `https://` with a host that is not a loopback or private address (plain `http://`
    /// and such hosts only where the service allows them, for tests and local use), at
    /// most [`MAX_HOOKS`] per player.
    pub async fn register_hook(
        &self,
        player: &str,
        url: &str,
    ) -> Result<HookCreated, ServiceError> {
        check_hook_url(url, self.config.local_hooks)?;
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

/// Checks `url` may be a hook's address: `https://` naming a host without credentials that
/// is not a loopback or private address; with `allow_local`, also `http://` and such hosts.
pub fn check_hook_url(url: &str, allow_local: bool) -> Result<(), ServiceError> {
    let refuse = |why: &str| Err(ServiceError::refused(format!("hook address: {why}")));
    if url.len() > MAX_URL {
        return refuse("too long");
    }
    let (secure, rest) = match url.split_once("://") {
        Some(("https", rest)) => (true, rest),
        Some(("http", rest)) => (false, rest),
        _ => return refuse("must start with https://"),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host_of(authority);
    if host.is_empty() || authority.contains('@') || url.chars().any(char::is_whitespace) {
        return refuse("must name a host (without credentials)");
    }
    match (secure, is_local(host), allow_local) {
        (_, _, true) | (true, false, false) => Ok(()),
        (false, _, false) => refuse("must start with https://"),
        (true, true, false) => refuse("must not be a loopback or private address"),
    }
}

/// The host of an URL's authority (`host`, `host:port`, `[v6]:port`).
fn host_of(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    authority.split(':').next().unwrap_or_default()
}

/// Whether `host` names this machine or a private network: `localhost`, or a loopback,
/// private, link-local or unspecified address.
fn is_local(host: &str) -> bool {
    use std::net::IpAddr;
    if host.eq_ignore_ascii_case("localhost") || host.to_ascii_lowercase().ends_with(".localhost") {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => {
            ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
        }
        Ok(IpAddr::V6(ip)) => {
            ip.is_loopback()
                || ip.is_unspecified()
                || (ip.segments()[0] & 0xfe00) == 0xfc00
                || (ip.segments()[0] & 0xffc0) == 0xfe80
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{check_hook_url, host_of, is_local};

    #[test]
    fn hook_addresses_are_https_to_public_hosts_unless_local_ones_are_allowed() {
        assert!(check_hook_url("https://hooks.example.org/missive?k=1", false).is_ok());
        for refused in [
            "http://hooks.example.org/",
            "https://127.0.0.1:9000/",
            "https://localhost/",
            "https://169.254.169.254/latest/meta-data",
            "https://[::1]/",
            "https://user:pw@example.org/",
            "ftp://example.org/",
            "https:///nohost",
            "https://exa mple.org/",
        ] {
            assert!(check_hook_url(refused, false).is_err(), "{refused}");
        }
        assert!(check_hook_url("http://127.0.0.1:9000/hook", true).is_ok());
        assert!(
            check_hook_url(&format!("https://example.org/{}", "a".repeat(2100)), true).is_err()
        );
    }

    #[test]
    fn local_hosts_are_told_from_public_ones() {
        for host in [
            "localhost",
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.9",
            "169.254.169.254",
            "::1",
            "fd00::1",
            "0.0.0.0",
            "a.localhost",
        ] {
            assert!(is_local(host), "{host}");
        }
        for host in ["example.org", "8.8.8.8", "2001:db8::1"] {
            assert!(!is_local(host), "{host}");
        }
        assert_eq!(host_of("[::1]:8080"), "::1");
        assert_eq!(host_of("example.org:443"), "example.org");
    }
}
