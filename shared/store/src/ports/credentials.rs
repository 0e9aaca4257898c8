//! What signing in spends and checks: single-use tokens and application passwords.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::AppPassword;

use crate::StoreError;

/// What signing in spends and checks: the markers of single-use tokens already used and each
/// player's application passwords.
#[async_trait]
pub trait CredentialStore: Send + Sync {
    /// Marks the single-use token `id` used at `at`, until `expires_at` (when the token
    /// itself expires; markers expired by `at` may be forgotten). A conflict if it was used
    /// already: of concurrent uses exactly one succeeds.
    async fn use_token(
        &self,
        id: &str,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// Stores a new application password; a conflict if its player has one with its id.
    async fn create_app_password(&self, password: &AppPassword) -> Result<(), StoreError>;

    /// The application password `id` of `player`, if any.
    async fn app_password(&self, player: &str, id: &str)
    -> Result<Option<AppPassword>, StoreError>;

    /// Every application password of `player`, oldest first.
    async fn app_passwords_of(&self, player: &str) -> Result<Vec<AppPassword>, StoreError>;

    /// Records that `player`'s application password `id` was last used at `at`; nothing
    /// happens if there is none (a revoked one stays revoked).
    async fn touch_app_password(
        &self,
        player: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// Removes `player`'s application password `id`: `true` if there was one.
    async fn revoke_app_password(&self, player: &str, id: &str) -> Result<bool, StoreError>;
}
