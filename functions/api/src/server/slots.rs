//! The connection slots: open connections counted in all and per client address, what
//! each one is doing, and closing a stale one to make room.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use crate::{ApiError, TrustedProxies, lock};

/// Connections at most that wait, at once, for a connection closed to make room for them;
/// more are refused.
const MAX_WAITING: usize = 64;

/// How long a connection waits for the slot of the connection closed for it.
const ROOM_WAIT: Duration = Duration::from_secs(2);

/// Counts open connections, in all and per client address, and knows what each one is
/// doing so a stale one can be closed to make room.
pub(super) struct Slots {
    pub(super) max: usize,
    pub(super) total: Arc<Semaphore>,
    pub(super) per_client: Mutex<HashMap<IpAddr, usize>>,
    pub(super) per_client_max: usize,
    pub(super) exempt: TrustedProxies,
    pub(super) open: Mutex<HashMap<u64, Arc<Activity>>>,
    pub(super) next: AtomicU64,
    pub(super) waiting: AtomicUsize,
}

/// A connection's place among the open ones; given back when dropped.
pub(super) struct Slot {
    pub(super) _permit: OwnedSemaphorePermit,
    pub(super) _client: ClientHold,
    pub(super) id: u64,
    pub(super) activity: Arc<Activity>,
    pub(super) slots: Arc<Slots>,
}

/// One of a client address's connections counted; given back when dropped.
pub(super) struct ClientHold {
    pub(super) client: Option<IpAddr>,
    pub(super) slots: Arc<Slots>,
}

/// Why a connection was refused.
pub(super) enum Refusal {
    Full(usize),
    Client(usize),
}

impl Refusal {
    /// The answer to the refused connection.
    pub(super) fn error(&self) -> ApiError {
        let message = match self {
            Refusal::Full(max) => {
                format!("the server has {max} connections open, all busy: try again")
            }
            Refusal::Client(max) => {
                format!("this address has {max} connections open: close some or try again")
            }
        };
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too-many-connections",
            message,
        )
    }
}

impl Slots {
    /// Slots for `max` connections, `per_client_max` from one client address (but any
    /// number from the addresses `exempt`).
    pub(super) fn new(max: usize, per_client_max: usize, exempt: TrustedProxies) -> Slots {
        let max = max.max(1);
        Slots {
            max,
            total: Arc::new(Semaphore::new(max)),
            per_client: Mutex::new(HashMap::new()),
            per_client_max: per_client_max.max(1),
            exempt,
            open: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Connections open now.
    pub(super) fn open(&self) -> usize {
        self.max - self.total.available_permits()
    }

    /// A slot for a connection from `client`, unless its address is at its cap or every
    /// slot is taken by a connection running a handler; when the slots are full, the
    /// stalest connection running none is closed and its slot waited for.
    pub(super) async fn claim(self: &Arc<Self>, client: IpAddr) -> Result<Slot, Refusal> {
        let hold = self.hold(client)?;
        let permit = match Arc::clone(&self.total).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => self.make_room().await?,
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity::new());
        lock(&self.open).insert(id, Arc::clone(&activity));
        Ok(Slot {
            _permit: permit,
            _client: hold,
            id,
            activity,
            slots: Arc::clone(self),
        })
    }

    /// Counts a connection of `client`, unless the address is at its cap (trusted proxies
    /// are not counted).
    pub(super) fn hold(self: &Arc<Self>, client: IpAddr) -> Result<ClientHold, Refusal> {
        let client = (!self.exempt.trusts(client)).then_some(client);
        if let Some(address) = client {
            let mut counts = lock(&self.per_client);
            let count = counts.entry(address).or_insert(0);
            if *count >= self.per_client_max {
                return Err(Refusal::Client(self.per_client_max));
            }
            *count += 1;
        }
        Ok(ClientHold {
            client,
            slots: Arc::clone(self),
        })
    }

    /// Closes the stalest connection running no handler and waits (at most [`ROOM_WAIT`],
    /// and only [`MAX_WAITING`] connections at once) for its slot.
    pub(super) async fn make_room(&self) -> Result<OwnedSemaphorePermit, Refusal> {
        let full = Refusal::Full(self.max);
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(full);
        }
        let permit = match self.evict_stalest() {
            true => tokio::time::timeout(ROOM_WAIT, Arc::clone(&self.total).acquire_owned())
                .await
                .ok()
                .and_then(Result::ok),
            false => None,
        };
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        permit.ok_or(full)
    }

    /// Tells the connection running no handler that moved no byte for the longest time to
    /// close; whether there was one.
    pub(super) fn evict_stalest(&self) -> bool {
        let open = lock(&self.open);
        let stalest = open
            .values()
            .filter_map(|activity| activity.idle_since().map(|since| (since, activity)))
            .min_by_key(|(since, _)| *since);
        match stalest {
            Some((_, activity)) => {
                activity.close();
                true
            }
            None => false,
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        lock(&self.slots.open).remove(&self.id);
    }
}

impl Drop for ClientHold {
    fn drop(&mut self) {
        let Some(address) = self.client else {
            return;
        };
        let mut counts = lock(&self.slots.per_client);
        if let Some(count) = counts.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&address);
            }
        }
    }
}

/// What one open connection is doing: the handlers running for it, when a byte last moved
/// either way, and whether it has been told to close.
pub(super) struct Activity {
    pub(super) handlers: AtomicUsize,
    pub(super) moved: Mutex<Instant>,
    pub(super) closed: AtomicBool,
    pub(super) close: Notify,
}

impl Activity {
    pub(super) fn new() -> Activity {
        Activity {
            handlers: AtomicUsize::new(0),
            moved: Mutex::new(Instant::now()),
            closed: AtomicBool::new(false),
            close: Notify::new(),
        }
    }

    /// Notes that bytes were read or written just now.
    pub(super) fn moved(&self) {
        *lock(&self.moved) = Instant::now();
    }

    /// When a byte last moved, if the connection runs no handler and is not closing.
    pub(super) fn idle_since(&self) -> Option<Instant> {
        let idle =
            self.handlers.load(Ordering::Acquire) == 0 && !self.closed.load(Ordering::Acquire);
        idle.then(|| *lock(&self.moved))
    }

    /// Notes that the connection was handed over to a handler for the rest of its life (an
    /// upgrade: the feed's WebSocket), which therefore counts as running until it ends and
    /// is never closed to make room.
    pub(super) fn upgraded(&self) {
        self.handlers.fetch_add(1, Ordering::AcqRel);
    }

    /// Tells the connection's task to close it.
    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.close.notify_one();
    }

    /// Completes once the connection has been told to close.
    pub(super) async fn closing(&self) {
        self.close.notified().await;
    }
}

/// One handler running for a connection; counted until dropped.
pub(super) struct Running(Arc<Activity>);

impl Running {
    pub(super) fn start(activity: Arc<Activity>) -> Running {
        activity.handlers.fetch_add(1, Ordering::AcqRel);
        Running(activity)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.handlers.fetch_sub(1, Ordering::AcqRel);
    }
}
