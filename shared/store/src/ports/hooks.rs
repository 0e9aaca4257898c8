//! Players' webhooks.

use async_trait::async_trait;
use missive_domain::{Hook, HookId};

use crate::StoreError;

/// Players' webhooks, each versioned.
#[async_trait]
pub trait HookStore: Send + Sync {
    /// Stores `hook`: revision 1 only if no hook has its id, revision `n` only over revision
    /// `n - 1`; a conflict otherwise (a hook removed meanwhile included), and nothing
    /// written. An active hook with a `due` time is a wake-up in the sweep's index from then
    /// ([`crate::WakeStore::due`]).
    async fn put_hook(&self, hook: &Hook) -> Result<(), StoreError>;

    /// The hooks of `player`, oldest first.
    async fn hooks_of(&self, player: &str) -> Result<Vec<Hook>, StoreError>;

    /// Removes `player`'s hook `id`, if there is one.
    async fn delete_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError>;
}
