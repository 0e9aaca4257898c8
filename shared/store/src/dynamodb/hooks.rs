//! Players' webhooks on DynamoDB: one item each in the player's partition, a wake-up in the
//! sweep's queue (the shard of its id, at its due time) while active and due.

use async_trait::async_trait;
use missive_domain::{Hook, HookId, HookState};

use super::items::{Item, n, read_body, s};
use super::{DynamoDbStore, keys, sdk};
use crate::{HookStore, StoreError};

/// The item of `hook`.
fn hook_item(hook: &Hook) -> Result<Item, StoreError> {
    let mut item = Item::from([
        ("PK".into(), s(&keys::player_pk(&hook.player))),
        ("SK".into(), s(&keys::hook_sk(&hook.id))),
        ("revision".into(), n(hook.revision)),
        ("body".into(), s(&serde_json::to_string(hook)?)),
    ]);
    if let (HookState::Active, Some(due)) = (&hook.state, hook.due) {
        item.insert(
            keys::LIST.into(),
            s(&keys::wake_list(keys::wake_shard(&hook.id.0))),
        );
        item.insert(keys::LIST_TIME.into(), n(due.timestamp_millis()));
    }
    Ok(item)
}

#[async_trait]
impl HookStore for DynamoDbStore {
    async fn put_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.versioned_put(hook_item(hook)?, hook.revision, "a hook")
            .await
    }

    async fn hooks_of(&self, player: &str) -> Result<Vec<Hook>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::HOOK_FROM));
        self.every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect()
    }

    async fn delete_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError> {
        self.count_write();
        self.client
            .delete_item()
            .table_name(&self.table)
            .key("PK", s(&keys::player_pk(player)))
            .key("SK", s(&keys::hook_sk(id)))
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }
}
