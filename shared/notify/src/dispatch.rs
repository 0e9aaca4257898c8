//! Webhook deliveries out of line: the notifier hands a hook to the [`HookDispatcher`] and
//! goes on at once; the hook is attended on a task of its own, so no receiver, however
//! slow, delays mail or other hooks.
//!
//! - **One at a time per hook.** A hook asked for while it is being attended is attended
//!   once more when that attendance ends (any number of asks fold into that one), from the
//!   hook as stored then: its events go in the feed's order, each after the one before.
//! - **A bound on all.** At most [`HOOKS_AT_ONCE`] hooks are attended at once; the others
//!   wait for a turn.
//! - **At least once.** An attendance that fails or is cut off (the process stops) leaves
//!   the hook where its saved position is; its wake-up in the sweep's index brings it back.
//! - **Waiting.** A process that must not stop with deliveries under way (a Lambda function
//!   before it returns, `missive serve` at shutdown) waits with [`HookDispatcher::settled`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use missive_domain::HookId;
use tokio::sync::{Notify, Semaphore};

use crate::{HookSender, NotifyError};

/// Hooks attended at once, by default.
pub const HOOKS_AT_ONCE: usize = 32;

/// Attends webhooks on tasks of their own: see the [module](self).
#[derive(Clone)]
pub struct HookDispatcher {
    inner: Arc<Inner>,
}

/// What the dispatcher's tasks share.
struct Inner {
    sender: HookSender,
    turns: Semaphore,
    /// The hooks being attended or waiting for a turn, each with whether it was asked for
    /// again meanwhile.
    attending: Mutex<HashMap<HookId, bool>>,
    /// Told whenever the last hook's attendance ends.
    idle: Notify,
}

impl HookDispatcher {
    /// A dispatcher attending hooks with `sender`, at most `at_once` at a time.
    pub fn new(sender: HookSender, at_once: usize) -> HookDispatcher {
        HookDispatcher {
            inner: Arc::new(Inner {
                sender,
                turns: Semaphore::new(at_once.max(1)),
                attending: Mutex::new(HashMap::new()),
                idle: Notify::new(),
            }),
        }
    }

    /// Has `player`'s hook `id` attended soon (at once if it is not being attended, else
    /// once more after that); returns at once.
    pub fn attend(&self, player: &str, id: &HookId) {
        {
            let mut attending = self.inner.lock();
            if let Some(again) = attending.get_mut(id) {
                *again = true;
                return;
            }
            attending.insert(id.clone(), false);
        }
        let inner = Arc::clone(&self.inner);
        let (player, id) = (player.to_string(), id.clone());
        tokio::spawn(async move { inner.run(&player, &id).await });
    }

    /// Has the active hooks of each of `players` attended ([`HookDispatcher::attend`]);
    /// how many were handed over.
    pub async fn attend_players(&self, players: &[&str]) -> Result<usize, NotifyError> {
        let mut handed = 0;
        for player in players {
            for hook in self.inner.sender.service().active_hooks(player).await? {
                self.attend(player, &hook.id);
                handed += 1;
            }
        }
        Ok(handed)
    }

    /// Waits until no hook is being attended or waiting, at most `within`; whether that
    /// came.
    pub async fn settled(&self, within: Duration) -> bool {
        let idle = async {
            loop {
                let told = self.inner.idle.notified();
                tokio::pin!(told);
                told.as_mut().enable();
                if self.inner.lock().is_empty() {
                    return;
                }
                told.await;
            }
        };
        tokio::time::timeout(within, idle).await.is_ok()
    }
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<HookId, bool>> {
        self.attending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Attends the hook, once more each time it was asked for meanwhile.
    async fn run(&self, player: &str, id: &HookId) {
        loop {
            {
                let _turn = self.turns.acquire().await;
                if let Err(error) = self.sender.attend_stored(player, id).await {
                    tracing::warn!(hook = %id, %error, "webhook not attended; the sweep retries");
                }
            }
            if !self.again(id) {
                return;
            }
        }
    }

    /// Whether hook `id` was asked for during its attendance (and is attended again); if
    /// not, it is done, and waiters hear when it was the last.
    fn again(&self, id: &HookId) -> bool {
        let mut attending = self.lock();
        if let Some(again) = attending.get_mut(id)
            && *again
        {
            *again = false;
            return true;
        }
        attending.remove(id);
        if attending.is_empty() {
            self.idle.notify_waiters();
        }
        false
    }
}
