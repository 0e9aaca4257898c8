//! A player's lists of games: waiting for them, finished, called off, current.

use async_trait::async_trait;
use missive_domain::{Cursor, GameId, Head, Page};

use crate::StoreError;

/// Which of a player's current games a list shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Membership {
    /// Games still forming where the player sits or is invited, oldest first.
    Forming,
    /// Games being played where the player sits, earliest deadline (of whoever is to move)
    /// first.
    Active,
}

/// A player's lists of games, read a page at a time: the games waiting for them, the games
/// they finished, the games called off and their current games.
#[async_trait]
pub trait GameListStore: Send + Sync {
    /// Heads of the active games where `player` is to move, earliest stored deadline first.
    async fn waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError>;

    /// Heads of the games `player` finished, most recent first.
    async fn finished_by(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError>;

    /// Heads of the games called off (declined, aborted: [`Status::Cancelled`]) where
    /// `player` sat or was invited, most recent end first.
    ///
    /// [`Status::Cancelled`]: missive_domain::Status::Cancelled
    async fn cancelled_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError>;

    /// Heads of `player`'s current games of one kind (see [`Membership`]).
    async fn games_of(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError>;
}
