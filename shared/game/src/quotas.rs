//! Quotas on what a request can make the service do for whoever sends it: mails asked for
//! (per recipient, whoever asks, and per sender: a client address or a signed-in player),
//! archive imports (per player: bytes and games a day, imports at once, games and working
//! time per request) and the games one start of a tournament creates (a batch at a time,
//! for a working time).
//!
//! Every count is the store's ([`missive_store::CounterStore::count_up`]), so a limit holds
//! across processes, Lambda instances and restarts. Mail counts live in fixed windows of
//! [`Quotas::mail_window`] seconds (a counter per window, named by its start); import counts
//! per UTC day. An import at once is a lease: a counter of limit one per slot, dropped when
//! the import ends and expiring by itself should its process die first.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeDelta, Utc};
use missive_domain::{MailPreference, Player, hex_sha256};
use serde::Serialize;

use crate::{GameService, ServiceError};

/// Seconds an import slot is held beyond the import's working time (time enough for its
/// text to arrive within a request's timeout too), so a process that dies mid-import frees
/// it by then.
const SLOT_MARGIN: i64 = 300;

/// Seconds in a UTC day, the window of import counts.
const DAY: u64 = 24 * 3600;

/// How much the service does for one sender. A value of 0 turns that limit off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quotas {
    /// Mails a request asks for (sign-in and sign-up links, game and tournament
    /// invitations) to one address per mail window, whoever asks.
    pub mails_per_address: u64,
    /// Sign-in and sign-up mails one client address (an IPv6 address by its /64 network)
    /// may ask for per mail window.
    pub mails_per_client: u64,
    /// Invitation mails (games and tournaments) one player may have sent per mail window.
    pub mails_per_player: u64,
    /// The mail window, in seconds.
    pub mail_window: u64,
    /// Bytes of archive text one player may post for import per UTC day.
    pub import_bytes_per_day: u64,
    /// Games one player may post for import per UTC day.
    pub import_games_per_day: u64,
    /// Games one import request may carry.
    pub import_games_per_request: u64,
    /// Imports one player may run at once.
    pub imports_at_once: u64,
    /// How long one import request may work, reading and storing: games not stored by then
    /// are answered as not imported. Zero turns it off.
    pub import_time: Duration,
    /// Games a tournament's start creates per store call: the step after which it looks at
    /// the time it has left. Zero counts as one.
    pub start_batch: u64,
    /// How long one start of a tournament (a request's, or one sweep's) creates games:
    /// once a batch ends past it, the games left are created by the sweep. Zero: one batch.
    pub start_time: Duration,
    /// Challenges one player may have open at once (not withdrawn, accepted or expired).
    pub open_challenges: u64,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            mails_per_address: 5,
            mails_per_client: 30,
            mails_per_player: 60,
            mail_window: 3600,
            import_bytes_per_day: 32 * 1024 * 1024,
            import_games_per_day: 2000,
            import_games_per_request: 500,
            imports_at_once: 1,
            import_time: Duration::from_secs(8),
            start_batch: 100,
            start_time: Duration::from_secs(10),
            open_challenges: 10,
        }
    }
}

/// A limit as a refusal names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Limit {
    /// Which limit: `mails-per-address`, `mails-per-client`, `mails-per-player`,
    /// `import-bytes-per-day`, `import-games-per-day`, `import-games-per-request`,
    /// `imports-at-once` or `open-challenges`.
    pub name: &'static str,
    /// How much it allows.
    pub value: u64,
    /// The window it counts in, in seconds (absent for a limit of one request or of what
    /// is held at once: imports, open challenges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_seconds: Option<u64>,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.name, self.value)?;
        match self.per_seconds {
            Some(seconds) => write!(f, " per {seconds} s"),
            None => Ok(()),
        }
    }
}

/// An import under way: its player, the slot it holds, and when its working time is up.
/// Give it back with [`GameService::end_import`].
#[derive(Debug)]
pub struct ImportPermit {
    player: String,
    slot: Option<(String, DateTime<Utc>)>,
    time: WorkTime,
    games_per_request: u64,
}

/// When an import's working time is up (measured on the machine's monotonic clock, not the
/// service's: it bounds the work, not a game's time).
#[derive(Clone, Copy, Debug)]
pub struct WorkTime(Option<Instant>);

impl WorkTime {
    /// No working time: never up.
    pub const UNLIMITED: WorkTime = WorkTime(None);

    /// A working time of `length` from now (none when `length` is zero).
    fn from_now(length: Duration) -> WorkTime {
        WorkTime((!length.is_zero()).then(|| Instant::now() + length))
    }

    /// Whether the working time is up.
    pub fn is_up(self) -> bool {
        self.0.is_some_and(|deadline| Instant::now() >= deadline)
    }
}

impl ImportPermit {
    /// The player importing.
    pub fn player(&self) -> &str {
        &self.player
    }

    /// When the import's working time is up.
    pub fn time(&self) -> WorkTime {
        self.time
    }

    /// The most games the import's request may carry (`None`: no limit).
    pub fn games_per_request(&self) -> Option<u64> {
        (self.games_per_request > 0).then_some(self.games_per_request)
    }
}

/// A counter of the current window: its name and when the window ends.
struct Window {
    name: String,
    ends: DateTime<Utc>,
}

impl Window {
    /// The window of `seconds` (aligned on the epoch) holding `now`, for counter `scope`.
    fn of(scope: &str, seconds: u64, now: DateTime<Utc>) -> Window {
        let length = i64::try_from(seconds.max(1)).unwrap_or(i64::MAX);
        let start = now.timestamp().div_euclid(length) * length;
        let ends = DateTime::from_timestamp(start.saturating_add(length), 0)
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
        Window {
            name: format!("{scope}:{start}"),
            ends,
        }
    }

    /// Whole seconds from `now` until the window ends (at least one).
    fn retry_after(&self, now: DateTime<Utc>) -> u64 {
        u64::try_from((self.ends - now).num_seconds()).map_or(1, |s| s.max(1))
    }
}

impl GameService {
    /// The quotas this service keeps.
    pub fn quotas(&self) -> Quotas {
        self.config.quotas
    }

    /// Counts a mail to `recipient` (sign-in or sign-up) asked for from the client address
    /// `client`: refused as [`ServiceError::Limited`], counting nothing more, once the client
    /// or the recipient had their fill in the current window. Every address counts alike,
    /// registered or not, so the answer tells nobody which addresses play here.
    pub async fn count_mail(&self, recipient: &str, client: &str) -> Result<(), ServiceError> {
        let limits = self.config.quotas;
        let client = format!("mail-from:{}", client_key(client));
        self.count_in_window(&client, "mails-per-client", limits.mails_per_client)
            .await?;
        self.count_recipient(recipient).await
    }

    /// Counts an invitation mail to `recipient` that the signed-in player `sender` has sent:
    /// refused as [`ServiceError::Limited`], counting nothing more, once the sender had their
    /// fill in the current window, or the recipient (by the same count as
    /// [`GameService::count_mail`]'s, so one address gets no more mail a window from all
    /// requests together).
    pub async fn count_player_mail(
        &self,
        recipient: &str,
        sender: &str,
    ) -> Result<(), ServiceError> {
        let limits = self.config.quotas;
        let sender = format!("mail-from-player:{}", sender.to_ascii_lowercase());
        self.count_in_window(&sender, "mails-per-player", limits.mails_per_player)
            .await?;
        self.count_recipient(recipient).await
    }

    /// Counts the invitation mails `sender` is about to send: one to each of `handles`
    /// who is registered and wants mail, one to each of `addresses`
    /// ([`GameService::count_player_mail`] each, refused at the first over a limit).
    pub(crate) async fn count_invitations(
        &self,
        sender: &str,
        handles: &[&str],
        addresses: &[&str],
    ) -> Result<(), ServiceError> {
        for handle in handles {
            if self.mail_preference(handle).await? == MailPreference::None {
                continue;
            }
            if let Some(player) = self.registered(handle).await? {
                self.count_player_mail(&player.email, sender).await?;
            }
        }
        for address in addresses {
            self.count_player_mail(address, sender).await?;
        }
        Ok(())
    }

    /// Counts one mail to the address `recipient` (without regard to case).
    async fn count_recipient(&self, recipient: &str) -> Result<(), ServiceError> {
        let recipient = format!("mail-to:{}", hex_sha256(&Player::email_key(recipient)));
        let limit = self.config.quotas.mails_per_address;
        self.count_in_window(&recipient, "mails-per-address", limit)
            .await
    }

    /// Counts one use of `scope` in the current mail window against `limit` (named `name`).
    async fn count_in_window(
        &self,
        scope: &str,
        name: &'static str,
        limit: u64,
    ) -> Result<(), ServiceError> {
        let window = self.config.quotas.mail_window;
        let limit = Limit {
            name,
            value: limit,
            per_seconds: Some(window),
        };
        self.count(Window::of(scope, window, self.now()), 1, limit)
            .await
    }

    /// Adds `amount` to `window`'s counter unless that passes `limit` (off at 0).
    async fn count(&self, window: Window, amount: u64, limit: Limit) -> Result<(), ServiceError> {
        if limit.value == 0 {
            return Ok(());
        }
        let now = self.now();
        let counted = self
            .store
            .count_up(&window.name, amount, limit.value, now, window.ends)
            .await?;
        if counted {
            return Ok(());
        }
        Err(ServiceError::Limited {
            retry_after: window.retry_after(now),
            limit,
        })
    }

    /// Begins an import by `player`, before its text is read: takes one of the player's
    /// import slots (refused as [`ServiceError::Limited`] while every one is held), so a
    /// second import waits for nothing, not even for its text to arrive.
    pub async fn begin_import(&self, player: &str) -> Result<ImportPermit, ServiceError> {
        let limits = self.config.quotas;
        Ok(ImportPermit {
            player: player.to_string(),
            slot: self.take_import_slot(player).await?,
            time: WorkTime::from_now(limits.import_time),
            games_per_request: limits.import_games_per_request,
        })
    }

    /// Counts the `bytes` of archive text an import's request carries, once they have
    /// arrived, against the player's day: the permit back with its working time starting
    /// now, or refused as [`ServiceError::Limited`] once the day's allowance would be
    /// passed (the slot then given back).
    pub async fn count_import_bytes(
        &self,
        mut permit: ImportPermit,
        bytes: u64,
    ) -> Result<ImportPermit, ServiceError> {
        let limits = self.config.quotas;
        let limit = Limit {
            name: "import-bytes-per-day",
            value: limits.import_bytes_per_day,
            per_seconds: Some(DAY),
        };
        let day = Window::of(&format!("import-bytes:{}", permit.player), DAY, self.now());
        if let Err(refused) = self.count(day, bytes, limit).await {
            self.end_import(permit).await?;
            return Err(refused);
        }
        permit.time = WorkTime::from_now(limits.import_time);
        Ok(permit)
    }

    /// Counts the `games` an import's request carries: refused as [`ServiceError::TooMuch`]
    /// beyond the games one request may carry, as [`ServiceError::Limited`] beyond the
    /// player's day.
    pub async fn count_import_games(
        &self,
        permit: &ImportPermit,
        games: u64,
    ) -> Result<(), ServiceError> {
        let limits = self.config.quotas;
        if permit.games_per_request().is_some_and(|most| games > most) {
            return Err(ServiceError::TooMuch(Limit {
                name: "import-games-per-request",
                value: limits.import_games_per_request,
                per_seconds: None,
            }));
        }
        let limit = Limit {
            name: "import-games-per-day",
            value: limits.import_games_per_day,
            per_seconds: Some(DAY),
        };
        let day = Window::of(&format!("import-games:{}", permit.player), DAY, self.now());
        self.count(day, games, limit).await
    }

    /// Ends an import: gives its slot back.
    pub async fn end_import(&self, permit: ImportPermit) -> Result<(), ServiceError> {
        if let Some((slot, expires_at)) = permit.slot {
            self.store.drop_counter(&slot, expires_at).await?;
        }
        Ok(())
    }

    /// Takes the first free import slot of `player` (`None` when imports at once are not
    /// limited), held until the import's working time and a margin have passed.
    async fn take_import_slot(
        &self,
        player: &str,
    ) -> Result<Option<(String, DateTime<Utc>)>, ServiceError> {
        let limits = self.config.quotas;
        if limits.imports_at_once == 0 {
            return Ok(None);
        }
        let now = self.now();
        let held = TimeDelta::from_std(limits.import_time).unwrap_or(TimeDelta::MAX);
        let expires_at = now
            .checked_add_signed(held + TimeDelta::seconds(SLOT_MARGIN))
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
        for slot in 0..limits.imports_at_once {
            let name = format!("import-slot:{player}:{slot}");
            if self.store.count_up(&name, 1, 1, now, expires_at).await? {
                return Ok(Some((name, expires_at)));
            }
        }
        Err(ServiceError::Limited {
            limit: Limit {
                name: "imports-at-once",
                value: limits.imports_at_once,
                per_seconds: None,
            },
            retry_after: limits.import_time.as_secs().max(1),
        })
    }
}

/// The client address as its mails are counted: an IPv6 address by its /64 network (what
/// one subscriber is usually given), any other text as it is.
fn client_key(client: &str) -> String {
    match client.parse::<IpAddr>().map(|ip| ip.to_canonical()) {
        Ok(IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        Ok(IpAddr::V4(v4)) => v4.to_string(),
        Err(_) => client.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_by_network_and_ipv4_ones_by_address() {
        assert_eq!(
            client_key("2001:db8:1:2:aaaa::1"),
            client_key("2001:db8:1:2:bbbb::9")
        );
        assert_ne!(client_key("2001:db8:1:2::1"), client_key("2001:db8:1:3::1"));
        assert_eq!(client_key("::ffff:192.0.2.7"), "192.0.2.7");
        assert_ne!(client_key("192.0.2.7"), client_key("192.0.2.8"));
        assert_eq!(client_key("unknown"), "unknown");
    }

    #[test]
    fn windows_are_aligned_and_say_how_long_is_left() {
        let now = DateTime::from_timestamp(7200 + 1800, 0).unwrap();
        let window = Window::of("w", 3600, now);
        assert_eq!(window.name, "w:7200");
        assert_eq!(window.ends.timestamp(), 10_800);
        assert_eq!(window.retry_after(now), 1800);
        assert_eq!(window.retry_after(window.ends), 1);
    }
}
