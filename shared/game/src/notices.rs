//! What the notifier asks of the service: the games due for a mail or a deadline, their
//! state, the players and their preferences, and the markers of mails sent once. The
//! notifier reaches the store only through these.

use chrono::{DateTime, Utc};
use missive_domain::{
    Cursor, GameId, Head, Notice, Page, Player, StoredGame, TournamentEdge, TournamentId,
};
use missive_rules::AnyGame;
use missive_store::Wake;

use crate::rules::{replay, resumed};
use crate::timing::Turn;
use crate::{GameService, ServiceError};

impl GameService {
    /// The head of `game` and the rules game it is at, whoever may see it (the notifier
    /// writes only to the game's players); `None` if there is no such game.
    pub async fn notice_state(
        &self,
        game: &GameId,
    ) -> Result<Option<(Head, Box<dyn AnyGame>)>, ServiceError> {
        let Some(head) = self.store.head(game).await? else {
            return Ok(None);
        };
        if let Some(replayed) = resumed(self.catalog, &head)? {
            return Ok(Some((head, replayed)));
        }
        let stored = self.stored(game).await?;
        let replayed = replay(self.catalog, &stored)?;
        Ok(Some((stored.head, replayed)))
    }

    /// The head and the whole log of `game`, whoever may see it (the notifier writes only
    /// to the game's players); `None` if there is no such game.
    pub async fn notice_log(&self, game: &GameId) -> Result<Option<StoredGame>, ServiceError> {
        Ok(self.store.load(game).await?)
    }

    /// The registered player with this handle, if any.
    pub async fn registered(&self, handle: &str) -> Result<Option<Player>, ServiceError> {
        Ok(self.store.player(handle).await?)
    }

    /// Claims the mail `notice` names: `true` if this call claimed it (and must send it),
    /// `false` if it was claimed before.
    pub async fn claim_notice(&self, notice: &Notice) -> Result<bool, ServiceError> {
        Ok(self.store.claim_notice(notice, self.now()).await?)
    }

    /// Gives up the claim of `notice` (its mail could not be sent) so it is claimed again.
    pub async fn release_notice(&self, notice: &Notice) -> Result<(), ServiceError> {
        Ok(self.store.release_notice(notice).await?)
    }

    /// Records on tournament `id` that every player has been sent the mail of `edge`
    /// (written over its revision; nothing when it was recorded before).
    pub async fn tournament_told(
        &self,
        id: &TournamentId,
        edge: TournamentEdge,
    ) -> Result<(), ServiceError> {
        self.change_tournament(id, |tournament| {
            if !tournament.told.contains(&edge) {
                tournament.told.push(edge);
            }
            Ok(())
        })
        .await
        .map(drop)
    }

    /// How many shards the sweep's index has.
    pub fn wake_shards(&self) -> u32 {
        self.store.wake_shards()
    }

    /// A page of the games of `shard` due at or before `until`, earliest first.
    pub async fn due(
        &self,
        shard: u32,
        until: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Wake>, ServiceError> {
        Ok(self.store.due(shard, until, cursor, limit).await?)
    }

    /// Moves the wake-up of `game` from `from` to `to` (`None`: nothing more to do), unless
    /// a change of the game moved it meanwhile (`false`).
    pub async fn move_wake(
        &self,
        game: &GameId,
        from: DateTime<Utc>,
        to: Option<DateTime<Utc>>,
    ) -> Result<bool, ServiceError> {
        Ok(self.store.move_wake(game, from, to).await?)
    }

    /// A page of the heads of the games where `player` is to move, earliest deadline first.
    pub async fn heads_waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, ServiceError> {
        Ok(self.store.waiting_for(player, cursor, limit).await?)
    }

    /// The deadline of the turn in `head`, counting the vacations of the player to move in
    /// this turn.
    pub async fn turn_deadline(&self, head: &Head) -> Result<Option<DateTime<Utc>>, ServiceError> {
        let Some(waiting) = &head.waiting else {
            return Ok(None);
        };
        let vacations = self.store.vacation(&waiting.player).await?.periods;
        Ok(Some(Turn::waiting(waiting).deadline(&vacations)))
    }
}
