//! Players' webhooks on DynamoDB: one item each in the player's partition, listed in the
//! list index (list `hooks`, by due time) while active and due.

use chrono::{DateTime, Utc};
use missive_domain::{Hook, HookId, HookState};

use super::items::{Item, n, read_body, s};
use super::{DynamoStore, keys, sdk};
use crate::StoreError;

/// The item of `hook`.
fn hook_item(hook: &Hook) -> Result<Item, StoreError> {
    let mut item = Item::from([
        ("PK".into(), s(&keys::player_pk(&hook.player))),
        ("SK".into(), s(&keys::hook_sk(&hook.id))),
        ("revision".into(), n(hook.revision)),
        ("body".into(), s(&serde_json::to_string(hook)?)),
    ]);
    if let (HookState::Active, Some(due)) = (&hook.state, hook.due) {
        item.insert(keys::LIST.into(), s(keys::HOOK_LIST));
        item.insert(keys::LIST_TIME.into(), n(due.timestamp_millis()));
    }
    Ok(item)
}

impl DynamoStore {
    /// [`crate::Store::put_hook`] on DynamoDB.
    pub(super) async fn write_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.versioned_put(hook_item(hook)?, hook.revision, "a hook")
            .await
    }

    /// [`crate::Store::hooks_of`] on DynamoDB.
    pub(super) async fn read_hooks(&self, player: &str) -> Result<Vec<Hook>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::HOOK_FROM));
        self.every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect()
    }

    /// [`crate::Store::delete_hook`] on DynamoDB.
    pub(super) async fn remove_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError> {
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

    /// [`crate::Store::due_hooks`] on DynamoDB.
    pub(super) async fn read_due_hooks(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Hook>, StoreError> {
        let query = self
            .index_query(
                keys::LIST_INDEX,
                "wait_queue = :list AND wait_deadline <= :now",
            )
            .expression_attribute_values(":list", s(keys::HOOK_LIST))
            .expression_attribute_values(":now", n(now.timestamp_millis()));
        let page = self.one_page(keys::HOOK_LIST, query, None, limit).await?;
        page.items.iter().map(read_body).collect()
    }
}
