//! The operator's view of a DynamoDB store: a scan of every head, and the counters of its
//! work.

use async_trait::async_trait;
use missive_domain::{Cursor, GameId, Page};

use super::items::{cursor_key, game_of, key_cursor, s};
use super::{DynamoDbStore, keys, sdk};
use crate::cursor::page_size;
use crate::{OperatorStore, StoreError, Usage};

#[async_trait]
impl OperatorStore for DynamoDbStore {
    async fn game_ids(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError> {
        let page = self
            .client
            .scan()
            .table_name(&self.table)
            .filter_expression("SK = :head")
            .expression_attribute_values(":head", s(keys::HEAD))
            .projection_expression("PK")
            .limit(page_size(limit) as i32)
            .set_exclusive_start_key(cursor_key("ids", cursor)?)
            .send()
            .await
            .map_err(sdk)?;
        let items = page.items.unwrap_or_default();
        self.count_read(&items);
        Ok(Page {
            items: items.iter().map(game_of).collect::<Result<_, _>>()?,
            next: key_cursor("ids", page.last_evaluated_key)?,
        })
    }

    fn usage(&self) -> Usage {
        self.counters.usage()
    }
}
