//! The counters of the store's work: every HTTP request the client transmits (retries
//! included), the reads with the items and bytes they returned (counted where they are
//! read), the writes with the items and bytes they sent, and the capacity billed for them.
//!
//! Every request asks for the capacity it consumed (`ReturnConsumedCapacity` of the table
//! and its indexes, free of charge), and the answer's figure is counted, but for
//! transactions: DynamoDB Local reports a transaction of eight items as two units, so a
//! transaction's capacity is counted from what it sends, by DynamoDB's published rule: two
//! write units per item and started kilobyte of it (a put's whole item; what a delete, an
//! update or a condition check sends), and for each item put with an index's key
//! attributes, that index's copy written at the standard rate, as a delete of its copy
//! under its previous key and a put under the new one (every item a move puts in an index
//! changes its key there: the player to move, the turn's deadline, the wake-up's time).

use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::config::interceptors::{
    AfterDeserializationInterceptorContextRef, BeforeSerializationInterceptorContextMut,
    BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::operation::batch_get_item::{BatchGetItemInput, BatchGetItemOutput};
use aws_sdk_dynamodb::operation::batch_write_item::{BatchWriteItemInput, BatchWriteItemOutput};
use aws_sdk_dynamodb::operation::delete_item::{DeleteItemInput, DeleteItemOutput};
use aws_sdk_dynamodb::operation::get_item::{GetItemInput, GetItemOutput};
use aws_sdk_dynamodb::operation::put_item::{PutItemInput, PutItemOutput};
use aws_sdk_dynamodb::operation::query::{QueryInput, QueryOutput};
use aws_sdk_dynamodb::operation::scan::{ScanInput, ScanOutput};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::operation::update_item::{UpdateItemInput, UpdateItemOutput};
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity, TransactWriteItem};

use super::items::{Item, item_size};
use super::keys;
use crate::Usage;

/// What the store has done since it was opened.
#[derive(Debug, Default)]
pub(super) struct Counters {
    requests: AtomicU64,
    reads: AtomicU64,
    writes: AtomicU64,
    items_read: AtomicU64,
    bytes_read: AtomicU64,
    items_written: AtomicU64,
    bytes_written: AtomicU64,
    read_milliunits: AtomicU64,
    write_milliunits: AtomicU64,
    index_write_milliunits: AtomicU64,
}

impl Counters {
    /// Counts a request that read `items`.
    pub(super) fn read<'a>(&self, items: impl IntoIterator<Item = &'a Item>) {
        add(&self.reads, 1);
        for item in items {
            add(&self.items_read, 1);
            add(&self.bytes_read, item_size(item));
        }
    }

    /// Counts a request that writes.
    pub(super) fn write(&self) {
        add(&self.writes, 1);
    }

    /// The counters as they stand.
    pub(super) fn usage(&self) -> Usage {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        Usage {
            round_trips: get(&self.requests),
            reads: get(&self.reads),
            writes: get(&self.writes),
            items_read: get(&self.items_read),
            bytes_read: get(&self.bytes_read),
            items_written: get(&self.items_written),
            bytes_written: get(&self.bytes_written),
            read_milliunits: get(&self.read_milliunits),
            write_milliunits: get(&self.write_milliunits),
            index_write_milliunits: get(&self.index_write_milliunits),
        }
    }

    /// Counts the items a request writes: each put with its whole item, each update and
    /// delete with the key and values it sends (what it leaves of the item is DynamoDB's to
    /// bill, which the capacity counts).
    fn written(&self, items: impl IntoIterator<Item = u64>) {
        for bytes in items {
            add(&self.items_written, 1);
            add(&self.bytes_written, bytes);
        }
    }

    /// Counts the capacity an answer reports, as read or write units.
    fn billed<'a>(&self, capacity: impl IntoIterator<Item = &'a ConsumedCapacity>, kind: Kind) {
        for consumed in capacity {
            let units = milliunits(consumed.capacity_units);
            match kind {
                Kind::Read => add(&self.read_milliunits, units),
                Kind::Write => {
                    add(&self.write_milliunits, units);
                    let indexes = consumed.global_secondary_indexes.iter().flatten();
                    for index in indexes.map(|(_, capacity)| capacity) {
                        add(
                            &self.index_write_milliunits,
                            milliunits(index.capacity_units),
                        );
                    }
                }
            }
        }
    }
}

impl Counters {
    /// Counts the capacity of `transaction` by DynamoDB's rule (see the module's
    /// documentation).
    fn transacted(&self, transaction: &TransactWriteItemsInput) {
        for item in transaction.transact_items.iter().flatten() {
            let size = transaction_item_size(item).unwrap_or_else(|| checked_size(item));
            add(&self.write_milliunits, 2 * kilobytes(size) * 1000);
            let put = item.put.as_ref().map(|put| &put.item);
            for _ in INDEXES
                .iter()
                .filter(|keys| put.is_some_and(|item| indexed(item, keys)))
            {
                let index = 2 * kilobytes(size) * 1000;
                add(&self.write_milliunits, index);
                add(&self.index_write_milliunits, index);
            }
        }
    }
}

/// The key attributes of the table's indexes (`infra/table.json`): `waiting`'s and
/// `deadlines`'.
const INDEXES: [[&str; 2]; 2] = [
    [keys::WAIT_PLAYER, keys::LIST_TIME],
    [keys::LIST, keys::LIST_TIME],
];

/// Whether `item` has every one of an index's `keys`, and so a copy in that index.
fn indexed(item: &Item, keys: &[&str; 2]) -> bool {
    keys.iter().all(|key| item.contains_key(*key))
}

/// Started kilobytes of `size` bytes (at least one), what a write is billed by.
fn kilobytes(size: u64) -> u64 {
    size.div_ceil(1024).max(1)
}

/// What a condition check of a transaction sends: its key.
fn checked_size(item: &TransactWriteItem) -> u64 {
    item.condition_check
        .as_ref()
        .map_or(0, |check| item_size(&check.key))
}

fn add(counter: &AtomicU64, amount: u64) {
    counter.fetch_add(amount, Ordering::Relaxed);
}

/// Capacity units in thousandths.
fn milliunits(units: Option<f64>) -> u64 {
    (units.unwrap_or(0.0) * 1000.0).round() as u64
}

/// Whether a request's capacity is read or write capacity.
#[derive(Clone, Copy)]
enum Kind {
    Read,
    Write,
}

/// The interceptor that counts requests, the items written and the capacity billed.
#[derive(Debug)]
pub(super) struct CountWork(pub(super) std::sync::Arc<Counters>);

impl Intercept for CountWork {
    fn name(&self) -> &'static str {
        "CountWork"
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let input = context.input_mut();
        macro_rules! asked {
            ($($read:ty),* ; $($write:ty),*) => {
                $(if let Some(input) = input.downcast_mut::<$read>() {
                    input.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
                })*
                $(if let Some(input) = input.downcast_mut::<$write>() {
                    input.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
                    self.0.written(input.sizes());
                })*
            };
        }
        asked!(GetItemInput, QueryInput, ScanInput, BatchGetItemInput;
            PutItemInput, UpdateItemInput, DeleteItemInput, BatchWriteItemInput);
        if let Some(transaction) = input.downcast_ref::<TransactWriteItemsInput>() {
            self.0.written(transaction.sizes());
            self.0.transacted(transaction);
        }
        Ok(())
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        add(&self.0.requests, 1);
        Ok(())
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Ok(output) = context.output_or_error() else {
            return Ok(());
        };
        macro_rules! billed {
            ($kind:expr; $($one:ty),* ; $($many:ty),*) => {
                $(if let Some(output) = output.downcast_ref::<$one>() {
                    self.0.billed(output.consumed_capacity.iter(), $kind);
                })*
                $(if let Some(output) = output.downcast_ref::<$many>() {
                    self.0.billed(output.consumed_capacity.iter().flatten(), $kind);
                })*
            };
        }
        billed!(Kind::Read; GetItemOutput, QueryOutput, ScanOutput; BatchGetItemOutput);
        billed!(Kind::Write; PutItemOutput, UpdateItemOutput, DeleteItemOutput;
            BatchWriteItemOutput);
        Ok(())
    }
}

/// What a write request sends: the size of each item it writes.
trait Sent {
    fn sizes(&self) -> Vec<u64>;
}

/// The size of the maps of `maps` that are there, added.
fn sizes<'a>(maps: impl IntoIterator<Item = &'a Option<Item>>) -> u64 {
    maps.into_iter().flatten().map(item_size).sum()
}

impl Sent for PutItemInput {
    fn sizes(&self) -> Vec<u64> {
        vec![sizes([&self.item])]
    }
}

impl Sent for UpdateItemInput {
    fn sizes(&self) -> Vec<u64> {
        vec![sizes([&self.key, &self.expression_attribute_values])]
    }
}

impl Sent for DeleteItemInput {
    fn sizes(&self) -> Vec<u64> {
        vec![sizes([&self.key])]
    }
}

impl Sent for TransactWriteItemsInput {
    fn sizes(&self) -> Vec<u64> {
        self.transact_items
            .iter()
            .flatten()
            .filter_map(transaction_item_size)
            .collect()
    }
}

impl Sent for BatchWriteItemInput {
    fn sizes(&self) -> Vec<u64> {
        self.request_items
            .iter()
            .flatten()
            .flat_map(|(_, requests)| requests)
            .map(
                |request| match (&request.put_request, &request.delete_request) {
                    (Some(put), _) => item_size(&put.item),
                    (None, Some(delete)) => item_size(&delete.key),
                    (None, None) => 0,
                },
            )
            .collect()
    }
}

/// What an item of a transaction sends, if it writes (a condition check writes nothing).
fn transaction_item_size(item: &TransactWriteItem) -> Option<u64> {
    if let Some(put) = &item.put {
        return Some(item_size(&put.item));
    }
    if let Some(update) = &item.update {
        return Some(item_size(&update.key) + sizes([&update.expression_attribute_values]));
    }
    item.delete.as_ref().map(|delete| item_size(&delete.key))
}
