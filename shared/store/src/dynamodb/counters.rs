//! Counters on DynamoDB: one item each, added to by a conditional `UpdateItem` and expired
//! by the table's TTL.

use async_trait::async_trait;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::ReturnValuesOnConditionCheckFailure;
use chrono::{DateTime, Utc};

use super::items::{Item, get_n, n, s};
use super::{DynamoDbStore, applied, keys, sdk};
use crate::{CounterStore, StoreError};

#[async_trait]
impl CounterStore for DynamoDbStore {
    /// The counter's `expires_at` is the table's TTL attribute: DynamoDB deletes it some time
    /// after it expired, and until then an expired counter is started again in place.
    async fn count_up(
        &self,
        name: &str,
        amount: u64,
        limit: u64,
        at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        if amount > limit {
            return Ok(false);
        }
        let (at, expires_at) = (at.timestamp(), expires_at.timestamp());
        // An expired counter restarted by someone else meanwhile is added to again.
        for _ in 0..2 {
            match self
                .add_to_counter(name, amount, limit - amount, at, expires_at)
                .await?
            {
                Counted::Added => return Ok(true),
                Counted::Full => return Ok(false),
                Counted::Expired => {
                    if self.restart_counter(name, amount, at, expires_at).await? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    async fn drop_counter(&self, name: &str, expires_at: DateTime<Utc>) -> Result<(), StoreError> {
        self.count_write();
        let deleted = self
            .client
            .delete_item()
            .table_name(&self.table)
            .key("PK", s(&keys::counter_pk(name)))
            .key("SK", s("COUNT"))
            .condition_expression("expires_at = :expires")
            .expression_attribute_values(":expires", n(expires_at.timestamp()))
            .send()
            .await;
        applied(deleted.map(drop).map_err(sdk)).map(drop)
    }
}

/// What an addition to a counter found.
enum Counted {
    /// The amount was added.
    Added,
    /// The counter is live and the amount does not fit.
    Full,
    /// The counter has expired: it must be started again.
    Expired,
}

impl DynamoDbStore {
    /// Adds `amount` to counter `name` if it has `room` for it (a missing counter is started,
    /// expiring at `expires_at`); on refusal, whether it was full or expired at `at`.
    async fn add_to_counter(
        &self,
        name: &str,
        amount: u64,
        room: u64,
        at: i64,
        expires_at: i64,
    ) -> Result<Counted, StoreError> {
        self.count_write();
        let updated = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(&keys::counter_pk(name)))
            .key("SK", s("COUNT"))
            .update_expression(
                "ADD used :amount SET expires_at = if_not_exists(expires_at, :expires)",
            )
            .condition_expression(
                "attribute_not_exists(PK) OR (expires_at > :now AND used <= :room)",
            )
            .expression_attribute_values(":amount", n(amount))
            .expression_attribute_values(":expires", n(expires_at))
            .expression_attribute_values(":now", n(at))
            .expression_attribute_values(":room", n(room))
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await;
        let error = match updated {
            Ok(_) => return Ok(Counted::Added),
            Err(error) => error,
        };
        if let Some(UpdateItemError::ConditionalCheckFailedException(failed)) =
            error.as_service_error()
        {
            let expired = failed
                .item()
                .and_then(|old| get_n::<i64>(old, "expires_at").ok())
                .is_some_and(|old| old <= at);
            return Ok(if expired {
                Counted::Expired
            } else {
                Counted::Full
            });
        }
        Err(sdk(error))
    }

    /// Starts the expired counter `name` again at `amount`: `false` if it is not expired (or
    /// gone) any more.
    async fn restart_counter(
        &self,
        name: &str,
        amount: u64,
        at: i64,
        expires_at: i64,
    ) -> Result<bool, StoreError> {
        let item = Item::from([
            ("PK".into(), s(&keys::counter_pk(name))),
            ("SK".into(), s("COUNT")),
            ("used".into(), n(amount)),
            ("expires_at".into(), n(expires_at)),
        ]);
        let put = self
            .put(item)
            .condition_expression("expires_at <= :now")
            .expression_attribute_values(":now", n(at))
            .send()
            .await;
        applied(put.map(drop).map_err(sdk))
    }
}
