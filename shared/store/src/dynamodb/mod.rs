//! The cloud store: one DynamoDB table, laid out as [`keys`] describes.
//!
//! A game is one partition. Its head is one item, so what a move needs is one strongly
//! consistent `GetItem` whatever the game's length; the whole log (events, head, moves) is
//! one range of the partition, read by one `Query`. A commit is one `TransactWriteItems`:
//! the head put on condition `revision = :read AND ply = :read`, each entry and each new
//! move's idempotency key put only if absent, the members' list items and the wake-up
//! kept, the finished entries when the game ends. Move and event items are never updated or
//! deleted. Lists follow DynamoDB's `LastEvaluatedKey`, handed out as the page's cursor.

mod batches;
mod challenges;
mod counters;
mod credentials;
mod feed;
mod game_lists;
mod games;
mod hooks;
mod items;
pub mod keys;
mod mail;
mod operator;
mod players;
mod ratings;
mod sockets;
mod table;
mod tournaments;
mod usage;
mod wakes;

use std::sync::Arc;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, KeysAndAttributes, Put, PutRequest, TransactWriteItem, WriteRequest,
};
use missive_domain::{Cursor, Page};

use self::items::{Item, cursor_key, key_cursor, n, s};
use self::usage::{CountWork, Counters};
use crate::StoreError;
use crate::cursor::page_size;

pub use table::TableDefinition;

/// Most items DynamoDB takes in one transaction.
const MAX_TRANSACTION: usize = 100;
/// Most keys one `BatchGetItem` takes.
const MAX_BATCH_GET: usize = 100;
/// Most items one `BatchWriteItem` takes.
const MAX_BATCH_WRITE: usize = 25;
/// How often a `BatchWriteItem` is sent for the items DynamoDB left unprocessed before.
const BATCH_WRITE_ATTEMPTS: usize = 3;

/// The DynamoDB store over one table.
pub struct DynamoDbStore {
    client: Client,
    table: String,
    counters: Arc<Counters>,
}

/// What a transaction item is, to tell which condition failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Head,
    Entry,
    Key,
    Other,
}

impl DynamoDbStore {
    /// A store over `table`, configured from the standard AWS settings (region,
    /// credentials, `AWS_ENDPOINT_URL_DYNAMODB` for DynamoDB Local), with the timeouts and
    /// retries every AWS client has ([`missive_aws::config`]).
    pub async fn connect(table: &str) -> DynamoDbStore {
        let shared = missive_aws::config().await;
        let counters = Arc::new(Counters::default());
        let config = aws_sdk_dynamodb::config::Builder::from(&shared)
            .interceptor(CountWork(Arc::clone(&counters)))
            .build();
        DynamoDbStore {
            client: Client::from_conf(config),
            table: table.to_string(),
            counters,
        }
    }

    /// Creates the table from `infra/table.json`; `false` if it exists already.
    pub async fn create_table(&self) -> Result<bool, StoreError> {
        TableDefinition::bundled()?
            .create(&self.client, &self.table)
            .await
    }

    /// Counts a request that read `items`.
    fn count_read<'a>(&self, items: impl IntoIterator<Item = &'a Item>) {
        self.counters.read(items);
    }

    /// Counts a request that writes.
    fn count_write(&self) {
        self.counters.write();
    }

    /// A strongly consistent query of one partition's items whose sort key begins with
    /// `prefix` (every item of the partition when `None`).
    fn partition_query(&self, pk: &str, prefix: Option<&str>) -> QueryFluentBuilder {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .expression_attribute_values(":pk", s(pk));
        match prefix {
            Some(prefix) => query
                .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
                .expression_attribute_values(":sk", s(prefix)),
            None => query.key_condition_expression("PK = :pk"),
        }
    }

    /// A strongly consistent query of one partition's items whose sort keys are from `from`
    /// to `to`.
    fn range_query(&self, pk: &str, from: &str, to: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .key_condition_expression("PK = :pk AND SK BETWEEN :from AND :to")
            .expression_attribute_values(":pk", s(pk))
            .expression_attribute_values(":from", s(from))
            .expression_attribute_values(":to", s(to))
    }

    /// A query of index `index` on `condition` (its values still to give).
    fn index_query(&self, index: &str, condition: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .index_name(index)
            .key_condition_expression(condition)
    }

    /// Every item `query` finds, page after page.
    async fn every_page(&self, query: QueryFluentBuilder) -> Result<Vec<Item>, StoreError> {
        let mut items = Vec::new();
        let mut start = None;
        loop {
            let page = query
                .clone()
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk)?;
            let found = page.items.unwrap_or_default();
            self.count_read(&found);
            items.extend(found);
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(items);
            }
        }
    }

    /// One page of `query` from `cursor` (of list `list`), up to `limit` items.
    async fn one_page(
        &self,
        list: &str,
        query: QueryFluentBuilder,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Item>, StoreError> {
        let page = query
            .limit(page_size(limit) as i32)
            .set_exclusive_start_key(cursor_key(list, cursor)?)
            .send()
            .await
            .map_err(sdk)?;
        let items = page.items.unwrap_or_default();
        self.count_read(&items);
        Ok(Page {
            items,
            next: key_cursor(list, page.last_evaluated_key)?,
        })
    }

    /// The first item with this key, if any (a strongly consistent `GetItem`).
    async fn get(&self, pk: &str, sk: &str) -> Result<Option<Item>, StoreError> {
        let found = self
            .client
            .get_item()
            .table_name(&self.table)
            .consistent_read(true)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .send()
            .await
            .map_err(sdk)?;
        self.count_read(found.item.iter());
        Ok(found.item)
    }

    /// The items of `keys` that exist (at most [`MAX_BATCH_GET`] keys), in any order: one
    /// strongly consistent `BatchGetItem`, sent again for the keys DynamoDB left
    /// unprocessed.
    async fn batch_get(&self, keys: Vec<Item>) -> Result<Vec<Item>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut wanted = Some(
            KeysAndAttributes::builder()
                .set_keys(Some(keys))
                .consistent_read(true)
                .build()
                .map_err(|e| StoreError::Invalid(e.to_string()))?,
        );
        let mut items = Vec::new();
        while let Some(request) = wanted.take() {
            let answer = self
                .client
                .batch_get_item()
                .request_items(&self.table, request)
                .send()
                .await
                .map_err(sdk)?;
            let found = answer
                .responses
                .and_then(|mut tables| tables.remove(&self.table))
                .unwrap_or_default();
            self.count_read(&found);
            items.extend(found);
            wanted = answer
                .unprocessed_keys
                .and_then(|mut tables| tables.remove(&self.table))
                .filter(|left| !left.keys.is_empty());
        }
        Ok(items)
    }

    /// Puts every item of `items`, unconditionally, [`MAX_BATCH_WRITE`] to a
    /// `BatchWriteItem` (standard writes, not transactional), sending what DynamoDB left
    /// unprocessed again, [`BATCH_WRITE_ATTEMPTS`] requests at most per batch; an error if
    /// some are still left.
    async fn put_all(&self, items: Vec<Item>) -> Result<(), StoreError> {
        for batch in items.chunks(MAX_BATCH_WRITE) {
            let mut requests = batch
                .iter()
                .map(|item| {
                    let put = PutRequest::builder()
                        .set_item(Some(item.clone()))
                        .build()
                        .map_err(|e| StoreError::Invalid(e.to_string()))?;
                    Ok(WriteRequest::builder().put_request(put).build())
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            for _ in 0..BATCH_WRITE_ATTEMPTS {
                if requests.is_empty() {
                    break;
                }
                self.count_write();
                requests = self
                    .client
                    .batch_write_item()
                    .request_items(&self.table, requests)
                    .send()
                    .await
                    .map_err(sdk)?
                    .unprocessed_items
                    .and_then(|mut tables| tables.remove(&self.table))
                    .unwrap_or_default();
            }
            if !requests.is_empty() {
                let left = requests.len();
                return Err(StoreError::Backend(format!("{left} items left unwritten")));
            }
        }
        Ok(())
    }

    fn put(
        &self,
        item: Item,
    ) -> aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder {
        self.count_write();
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
    }

    /// Puts `item` guarded by its `revision`: revision 1 only if the item does not exist,
    /// revision `n` only over revision `n - 1`; a conflict otherwise. Revision 0 (of
    /// `what`) is invalid.
    async fn versioned_put(&self, item: Item, revision: u64, what: &str) -> Result<(), StoreError> {
        let put = self.put(item);
        let put = match revision {
            0 => return Err(StoreError::Invalid(format!("{what} starts at revision 1"))),
            1 => put.condition_expression("attribute_not_exists(PK)"),
            revision => put
                .condition_expression("revision = :previous")
                .expression_attribute_values(":previous", n(revision - 1)),
        };
        put.send().await.map_err(sdk)?;
        Ok(())
    }

    /// Writes `items` in one transaction: all or nothing. `parts` says what each item is,
    /// so that a failed condition on an idempotency key is told from a stale head.
    async fn transact(
        &self,
        items: Vec<TransactWriteItem>,
        parts: &[Part],
    ) -> Result<(), StoreError> {
        self.count_write();
        self.client
            .transact_write_items()
            .set_transact_items(Some(items))
            .send()
            .await
            .map_err(|error| transaction_error(error, parts))?;
        Ok(())
    }

    /// The transaction item that puts `item` guarded by its `revision`, as
    /// [`DynamoDbStore::versioned_put`] does.
    fn versioned_transact_put(
        &self,
        item: Item,
        revision: u64,
        what: &str,
    ) -> Result<TransactWriteItem, StoreError> {
        match revision {
            0 => Err(StoreError::Invalid(format!("{what} starts at revision 1"))),
            1 => self.transact_put(item, Some("attribute_not_exists(PK)"), None),
            revision => self.transact_put(
                item,
                Some("revision = :previous"),
                Some(Item::from([(":previous".into(), n(revision - 1))])),
            ),
        }
    }

    fn transact_put(
        &self,
        item: Item,
        condition: Option<&str>,
        values: Option<Item>,
    ) -> Result<TransactWriteItem, StoreError> {
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(item))
            .set_condition_expression(condition.map(str::to_string))
            .set_expression_attribute_values(values)
            .build()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        Ok(TransactWriteItem::builder().put(put).build())
    }

    fn transact_delete(&self, pk: &str, sk: &str) -> Result<TransactWriteItem, StoreError> {
        let delete = Delete::builder()
            .table_name(&self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .build()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        Ok(TransactWriteItem::builder().delete(delete).build())
    }

    /// A transaction item that holds only if the item `pk`, `sk` does not exist.
    fn transact_absent(&self, pk: &str, sk: &str) -> Result<TransactWriteItem, StoreError> {
        let check = ConditionCheck::builder()
            .table_name(&self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        Ok(TransactWriteItem::builder().condition_check(check).build())
    }
}

/// Maps the error of a transaction: cancelled because a condition failed or another
/// transaction held an item, it is a [`StoreError::Conflict`], or [`StoreError::KeyUsed`]
/// when only an idempotency key's condition failed; anything else as [`sdk`].
fn transaction_error<R: std::fmt::Debug>(
    error: SdkError<TransactWriteItemsError, R>,
    parts: &[Part],
) -> StoreError {
    if let Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) =
        error.as_service_error()
    {
        let reasons: Vec<(Part, &str)> = cancelled
            .cancellation_reasons()
            .iter()
            .enumerate()
            .filter_map(|(index, reason)| {
                let part = parts.get(index).copied().unwrap_or(Part::Other);
                reason.code().map(|code| (part, code))
            })
            .filter(|(_, code)| *code != "None")
            .collect();
        let conflict = !reasons.is_empty()
            && reasons
                .iter()
                .all(|(_, code)| matches!(*code, "ConditionalCheckFailed" | "TransactionConflict"));
        if !conflict {
            let codes: Vec<&str> = reasons.iter().map(|(_, code)| *code).collect();
            return StoreError::Backend(format!("transaction cancelled: {}", codes.join(", ")));
        }
        let only_keys = reasons
            .iter()
            .all(|(part, code)| *part == Part::Key && *code == "ConditionalCheckFailed");
        return if only_keys {
            StoreError::KeyUsed
        } else {
            StoreError::Conflict
        };
    }
    sdk(error)
}

/// Whether a conditional write was applied: `false` when its condition failed.
fn applied(write: Result<(), StoreError>) -> Result<bool, StoreError> {
    match write {
        Ok(()) => Ok(true),
        Err(StoreError::Conflict) => Ok(false),
        Err(error) => Err(error),
    }
}

/// Maps an SDK error: a failed condition or a transaction conflict is a
/// [`StoreError::Conflict`], anything else a backend error.
fn sdk<E, R>(error: SdkError<E, R>) -> StoreError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug,
{
    let conflict = error.as_service_error().is_some_and(|service| {
        matches!(
            service.code(),
            Some("ConditionalCheckFailedException" | "TransactionConflictException")
        )
    });
    if conflict {
        return StoreError::Conflict;
    }
    let detail = error
        .as_service_error()
        .map(|service| {
            format!(
                "{}: {}",
                service.code().unwrap_or("error"),
                service.message().unwrap_or("")
            )
        })
        .unwrap_or_else(|| format!("{error:?}"));
    StoreError::Backend(detail)
}

#[cfg(feature = "testing")]
impl DynamoDbStore {
    /// Writes items given in DynamoDB's JSON form (`{"PK": {"S": "..."}, ...}`) as they
    /// are, bypassing every rule of the store: how a test sets up a table as an older
    /// version wrote it.
    pub async fn put_raw_items(&self, items: &[serde_json::Value]) -> Result<(), StoreError> {
        for value in items {
            let item = items::item_from_json(value)?;
            self.put(item).send().await.map_err(sdk)?;
        }
        Ok(())
    }
}
