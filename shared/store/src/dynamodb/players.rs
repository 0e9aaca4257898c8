//! Players on DynamoDB: the profile in the player's partition, with claims of the e-mail
//! address and the handle's key written in the same transaction; vacation records beside it.

use async_trait::async_trait;
use missive_domain::{Player, VacationRecord};

use super::items::{Item, get_s, n, read_body, s};
use super::{DynamoDbStore, Part, keys};
use crate::{PlayerStore, StoreError};

#[async_trait]
impl PlayerStore for DynamoDbStore {
    async fn create_player(&self, player: &Player) -> Result<(), StoreError> {
        let profile = Item::from([
            ("PK".into(), s(&keys::player_pk(&player.handle))),
            ("SK".into(), s("PROFILE")),
            ("body".into(), s(&serde_json::to_string(player)?)),
        ]);
        let email = Item::from([
            ("PK".into(), s(&email_pk(&player.email))),
            ("SK".into(), s("EMAIL")),
            ("handle".into(), s(&player.handle)),
        ]);
        let claim = Item::from([
            ("PK".into(), s(&keys::handle_pk(&player.handle))),
            ("SK".into(), s("HANDLE")),
            ("handle".into(), s(&player.handle)),
        ]);
        let absent = Some("attribute_not_exists(PK)");
        let mut items = vec![
            self.transact_put(profile, absent, None)?,
            self.transact_put(email, absent, None)?,
            self.transact_put(claim, absent, None)?,
        ];
        let key = Player::handle_key(&player.handle);
        if key != player.handle {
            items.push(self.transact_absent(&keys::player_pk(&key), "PROFILE")?);
        }
        let parts = vec![Part::Other; items.len()];
        self.transact(items, &parts).await
    }

    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        self.get(&keys::player_pk(handle), "PROFILE")
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    /// Players stored before handle claims were written have none; a handle that is its own
    /// key (lower-case already) is found by its profile then.
    async fn player_by_handle_key(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        match self.get(&keys::handle_pk(handle), "HANDLE").await? {
            Some(item) => self.player(&get_s(&item, "handle")?).await,
            None => self.player(&Player::handle_key(handle)).await,
        }
    }

    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError> {
        match self.get(&email_pk(email), "EMAIL").await? {
            Some(item) => self.player(&get_s(&item, "handle")?).await,
            None => Ok(None),
        }
    }

    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError> {
        match self.get(&keys::player_pk(player), "VACATION").await? {
            Some(item) => read_body(&item),
            None => Ok(VacationRecord::default()),
        }
    }

    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError> {
        let item = Item::from([
            ("PK".into(), s(&keys::player_pk(player))),
            ("SK".into(), s("VACATION")),
            ("revision".into(), n(record.revision)),
            ("body".into(), s(&serde_json::to_string(record)?)),
        ]);
        self.versioned_put(item, record.revision, "a vacation record")
            .await
    }
}

fn email_pk(email: &str) -> String {
    format!("EMAIL#{}", Player::email_key(email))
}
