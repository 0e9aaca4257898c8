//! The sweep's index on DynamoDB: wake-up items in the list index, spread over
//! [`keys::WAKE_SHARDS`] shards by a hash of their subject's id.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{Cursor, GameId, Page};

use super::items::{Item, get_n, millis, n, s, wake_subject};
use super::{DynamoDbStore, applied, keys, sdk};
use crate::{StoreError, Wake, WakeStore};

#[async_trait]
impl WakeStore for DynamoDbStore {
    fn wake_shards(&self) -> u32 {
        keys::WAKE_SHARDS
    }

    async fn due(
        &self,
        shard: u32,
        until: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Wake>, StoreError> {
        let list = keys::wake_list(shard);
        let query = self
            .index_query(
                keys::LIST_INDEX,
                "wait_queue = :list AND wait_deadline <= :until",
            )
            .expression_attribute_values(":list", s(&list))
            .expression_attribute_values(":until", n(until.timestamp_millis()));
        let page = self.one_page(&list, query, cursor, limit).await?;
        let wakes = page
            .items
            .iter()
            .map(|item| {
                Ok(Wake {
                    subject: wake_subject(item)?,
                    at: millis(get_n(item, keys::LIST_TIME)?)?,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(Page {
            items: wakes,
            next: page.next,
        })
    }

    async fn move_wake(
        &self,
        game: &GameId,
        from: DateTime<Utc>,
        to: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError> {
        let condition = "wait_deadline = :from";
        let from = n(from.timestamp_millis());
        self.count_write();
        let moved = match to {
            Some(at) => self
                .client
                .put_item()
                .table_name(&self.table)
                .set_item(Some(wake_item(game, at)))
                .condition_expression(condition)
                .expression_attribute_values(":from", from)
                .send()
                .await
                .map(drop)
                .map_err(sdk),
            None => self
                .client
                .delete_item()
                .table_name(&self.table)
                .key("PK", s(&keys::game_pk(game)))
                .key("SK", s(keys::WAKE))
                .condition_expression(condition)
                .expression_attribute_values(":from", from)
                .send()
                .await
                .map(drop)
                .map_err(sdk),
        };
        applied(moved)
    }

    async fn hasten_wake(&self, game: &GameId, at: DateTime<Utc>) -> Result<bool, StoreError> {
        self.count_write();
        let hastened = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(wake_item(game, at)))
            .condition_expression("wait_deadline > :at")
            .expression_attribute_values(":at", n(at.timestamp_millis()))
            .send()
            .await
            .map(drop)
            .map_err(sdk);
        applied(hastened)
    }
}

/// The wake-up item of game `id`, due at `at`.
pub(super) fn wake_item(id: &GameId, at: DateTime<Utc>) -> Item {
    Item::from([
        ("PK".into(), s(&keys::game_pk(id))),
        ("SK".into(), s(keys::WAKE)),
        (
            keys::LIST.into(),
            s(&keys::wake_list(keys::wake_shard(&id.0))),
        ),
        (keys::LIST_TIME.into(), n(at.timestamp_millis())),
    ])
}
