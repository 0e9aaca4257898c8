//! Players: who is registered, found by handle or e-mail address, and their vacations.

use async_trait::async_trait;
use missive_domain::{Player, VacationRecord};

use crate::StoreError;

/// Players: their registration, found by handle (as given or without regard to case) or by
/// e-mail address, and their vacation records.
#[async_trait]
pub trait PlayerStore: Send + Sync {
    /// Registers a player; a conflict if the handle (without regard to case, see
    /// [`Player::handle_key`]) or the e-mail address (lower-cased) is taken.
    async fn create_player(&self, player: &Player) -> Result<(), StoreError>;

    /// The player with this handle, if any.
    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError>;

    /// The player whose handle is `handle` without regard to case, if any.
    async fn player_by_handle_key(&self, handle: &str) -> Result<Option<Player>, StoreError>;

    /// The player with this e-mail address (compared lower-cased), if any.
    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError>;

    /// The player's vacation record (a default one, revision 0, if there is none).
    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError>;

    /// Stores the player's vacation record: revision 1 only if there is none, revision `n`
    /// only over revision `n - 1`; a conflict otherwise. Revision 0 is invalid.
    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError>;
}
