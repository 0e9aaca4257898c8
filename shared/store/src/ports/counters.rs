//! Named counters within limits: quotas of fixed windows, and leases.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::StoreError;

/// Named counters that count only within their limit and expire: the quotas of fixed
/// windows, and leases.
#[async_trait]
pub trait CounterStore: Send + Sync {
    /// Adds `amount` to the counter `name` unless that would take it past `limit`: `true` if
    /// it was added, `false` (and nothing written) if not. Of concurrent additions exactly
    /// those that fit succeed. The write that starts a counter sets when it expires,
    /// `expires_at` (kept in whole seconds); once that has passed at `at`, the counter counts
    /// from zero again with the new `expires_at`. Counters of fixed windows put the window in
    /// their name; a lease is a counter of limit 1 that its holder drops.
    async fn count_up(
        &self,
        name: &str,
        amount: u64,
        limit: u64,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, StoreError>;

    /// Removes the counter `name` if it still expires at `expires_at` (the second it was
    /// started with), so a counter started again since is kept. Nothing happens otherwise.
    async fn drop_counter(&self, name: &str, expires_at: DateTime<Utc>) -> Result<(), StoreError>;
}
