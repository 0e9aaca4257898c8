//! The cloud store: one DynamoDB table, laid out as [`keys`] describes.
//!
//! A game is one partition. Its head is one item, so what a move needs is one strongly
//! consistent `GetItem` whatever the game's length; the whole log (events, head, moves) is
//! one range of the partition, read by one `Query`. A commit is one `TransactWriteItems`:
//! the head put on condition `revision = :read AND ply = :read`, each entry and each new
//! move's idempotency key put only if absent, the members' list items and the wake-up
//! kept, the finished entries when the game ends. Move and event items are never updated or
//! deleted. Lists follow DynamoDB's `LastEvaluatedKey`, handed out as the page's cursor.

mod feed;
mod hooks;
mod items;
pub mod keys;
mod table;
mod tournaments;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::{BoxError, ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, KeysAndAttributes, Put, ReturnValuesOnConditionCheckFailure,
    TransactWriteItem,
};
use chrono::{DateTime, Utc};
use missive_domain::{
    AppPassword, Challenge, ChallengeFilter, ChallengeId, ChallengeState, Commit, Cursor, FeedItem,
    FeedPage, GameId, Head, Hook, HookId, MailPreference, MessageMail, Notice, Page, Player,
    RatingRecord, Status, StoredGame, Tournament, TournamentId, VacationRecord, WakeChange,
};

use self::items::{
    Item, cursor_key, event_item, game_of, get_n, get_s, head_item, item_size, key_cursor, millis,
    move_item, n, read_body, read_event, read_move, s, wake_subject,
};
use crate::cursor::page_size;
use crate::{Membership, Store, StoreError, Usage, Wake};

pub use table::TableDefinition;

/// Most items DynamoDB takes in one transaction.
const MAX_TRANSACTION: usize = 100;
/// Most keys one `BatchGetItem` takes.
const MAX_BATCH_GET: usize = 100;

/// The DynamoDB store over one table.
pub struct DynamoStore {
    client: Client,
    table: String,
    counters: Arc<Counters>,
}

#[derive(Debug, Default)]
struct Counters {
    requests: AtomicU64,
    reads: AtomicU64,
    writes: AtomicU64,
    items: AtomicU64,
    bytes: AtomicU64,
}

/// Counts every HTTP request the client transmits, retries included.
#[derive(Debug)]
struct CountRequests(Arc<Counters>);

impl Intercept for CountRequests {
    fn name(&self) -> &'static str {
        "CountRequests"
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.0.requests.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// What a transaction item is, to tell which condition failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Head,
    Entry,
    Key,
    Other,
}

impl DynamoStore {
    /// A store over `table`, configured from the standard AWS settings (region,
    /// credentials, `AWS_ENDPOINT_URL_DYNAMODB` for DynamoDB Local).
    pub async fn connect(table: &str) -> DynamoStore {
        let shared = aws_config::load_from_env().await;
        let counters = Arc::new(Counters::default());
        let config = aws_sdk_dynamodb::config::Builder::from(&shared)
            .interceptor(CountRequests(Arc::clone(&counters)))
            .build();
        DynamoStore {
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

    /// Deletes the table and everything in it.
    pub async fn delete_table(&self) -> Result<(), StoreError> {
        self.client
            .delete_table()
            .table_name(&self.table)
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }

    /// Counts a request that read `items`.
    fn count_read<'a>(&self, items: impl IntoIterator<Item = &'a Item>) {
        self.counters.reads.fetch_add(1, Ordering::Relaxed);
        for item in items {
            self.counters.items.fetch_add(1, Ordering::Relaxed);
            self.counters
                .bytes
                .fetch_add(item_size(item), Ordering::Relaxed);
        }
    }

    fn count_write(&self) {
        self.counters.writes.fetch_add(1, Ordering::Relaxed);
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
    /// [`DynamoStore::versioned_put`] does.
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

    /// The puts of the commit's moves, events and idempotency keys, each only if absent.
    fn log_puts(&self, commit: &Commit) -> Result<Vec<(TransactWriteItem, Part)>, StoreError> {
        let game = &commit.head.id;
        let absent = Some("attribute_not_exists(PK)");
        let mut puts = Vec::new();
        for mv in &commit.moves {
            puts.push((
                self.transact_put(move_item(game, mv), absent, None)?,
                Part::Entry,
            ));
            if let Some(key) = &mv.key {
                let item = Item::from([
                    ("PK".into(), s(&keys::game_pk(game))),
                    ("SK".into(), s(&keys::retry_sk(mv.seat.0, key))),
                    ("ply".into(), n(mv.ply)),
                ]);
                puts.push((self.transact_put(item, absent, None)?, Part::Key));
            }
        }
        for event in &commit.events {
            puts.push((
                self.transact_put(event_item(game, event)?, absent, None)?,
                Part::Entry,
            ));
        }
        Ok(puts)
    }

    /// The member items of the head's players and invitees: listed under their current
    /// games while the game is forming or active, removed once it is over.
    fn member_writes(&self, head: &Head) -> Result<Vec<TransactWriteItem>, StoreError> {
        let pk = keys::game_pk(&head.id);
        let membership = match head.doc.status {
            Status::Forming => Some(Membership::Forming),
            Status::Active => Some(Membership::Active),
            Status::Finished | Status::Cancelled => None,
        };
        let time = match (&head.waiting, membership) {
            (Some(waiting), Some(Membership::Active)) => waiting.deadline,
            _ => head.doc.created_at,
        };
        head.doc
            .members()
            .into_iter()
            .map(|player| match membership {
                Some(membership) => self.transact_put(
                    Item::from([
                        ("PK".into(), s(&pk)),
                        ("SK".into(), s(&keys::member_sk(player))),
                        (keys::LIST.into(), s(&keys::games_list(membership, player))),
                        (keys::LIST_TIME.into(), n(time.timestamp_millis())),
                    ]),
                    None,
                    None,
                ),
                None => self.transact_delete(&pk, &keys::member_sk(player)),
            })
            .collect()
    }

    /// The write of the game's wake-up, if the commit changes it.
    fn wake_write(
        &self,
        id: &GameId,
        wake: WakeChange,
    ) -> Result<Option<TransactWriteItem>, StoreError> {
        match wake {
            WakeChange::Keep => Ok(None),
            WakeChange::At(at) => self.transact_put(wake_item(id, at), None, None).map(Some),
            WakeChange::Clear => self
                .transact_delete(&keys::game_pk(id), keys::WAKE)
                .map(Some),
        }
    }

    /// The players' finished entries, if the commit finishes the game.
    fn finished_puts(&self, commit: &Commit) -> Result<Vec<TransactWriteItem>, StoreError> {
        if !commit.finishes {
            return Ok(Vec::new());
        }
        let head = &commit.head;
        let at = commit.finished_at()?.timestamp_millis();
        let body = s(&serde_json::to_string(head)?);
        head.doc
            .players()
            .into_iter()
            .map(|player| {
                let item = Item::from([
                    ("PK".into(), s(&keys::player_pk(player))),
                    ("SK".into(), s(&keys::finished_sk(at, &head.id))),
                    ("body".into(), body.clone()),
                ]);
                self.transact_put(item, None, None)
            })
            .collect()
    }

    /// The writes of `challenge`: its record, on condition that it replaces the revision
    /// before (or is new at revision 1), and its listing items: put while it is open,
    /// removed otherwise.
    fn challenge_writes(
        &self,
        challenge: &Challenge,
    ) -> Result<Vec<TransactWriteItem>, StoreError> {
        let pk = keys::challenge_pk(&challenge.id);
        let body = s(&serde_json::to_string(challenge)?);
        let record = Item::from([
            ("PK".into(), s(&pk)),
            ("SK".into(), s(keys::CHALLENGE)),
            ("revision".into(), n(challenge.revision)),
            ("body".into(), body.clone()),
        ]);
        let mut writes =
            vec![self.versioned_transact_put(record, challenge.revision, "a challenge")?];
        let open = challenge.state == ChallengeState::Open;
        for (sk, list) in keys::challenge_listings(challenge) {
            writes.push(if open {
                let listing = Item::from([
                    ("PK".into(), s(&pk)),
                    ("SK".into(), s(sk)),
                    (keys::LIST.into(), s(&list)),
                    (
                        keys::LIST_TIME.into(),
                        n(challenge.created_at.timestamp_millis()),
                    ),
                    (
                        "expires_ms".into(),
                        n(challenge.expires_at.timestamp_millis()),
                    ),
                    ("expires_at".into(), n(challenge.expires_at.timestamp())),
                    ("body".into(), body.clone()),
                ]);
                self.transact_put(listing, None, None)?
            } else {
                self.transact_delete(&pk, sk)?
            });
        }
        Ok(writes)
    }

    /// The writes that create the game `start` begins: its head only if the id is new,
    /// its members' list items and its wake-up.
    fn start_writes(&self, start: &Commit) -> Result<Vec<TransactWriteItem>, StoreError> {
        start.check_start()?;
        let head = &start.head;
        let mut writes =
            vec![self.transact_put(head_item(head)?, Some("attribute_not_exists(PK)"), None)?];
        writes.extend(self.member_writes(head)?);
        writes.extend(self.wake_write(&head.id, start.wake)?);
        writes.extend(self.feed_puts(&start.feed, &head.id, head.revision)?);
        Ok(writes)
    }

    /// The items of a whole game written at once: its entries, and the head with the
    /// finished entries (written last when the game needs more than one transaction).
    fn import_items(&self, game: &StoredGame) -> Result<ImportItems, StoreError> {
        let commit = game.as_first_commit()?;
        let mut last = vec![self.transact_put(
            head_item(&commit.head)?,
            Some("attribute_not_exists(PK)"),
            None,
        )?];
        last.extend(self.finished_puts(&commit)?);
        let entries = self
            .log_puts(&commit)?
            .into_iter()
            .map(|(item, _)| item)
            .collect();
        Ok(ImportItems { entries, last })
    }

    /// Writes the items of several small games in one transaction. Gives each game back
    /// with its answer, or with none when it is to be tried again: a game whose condition
    /// failed (its id is taken) is a conflict; the others of a cancelled transaction, which
    /// took no part in its failure, go again without it.
    async fn transact_games(
        &self,
        games: Vec<(usize, Vec<TransactWriteItem>)>,
    ) -> Vec<(
        usize,
        Vec<TransactWriteItem>,
        Option<Result<(), StoreError>>,
    )> {
        let all: Vec<TransactWriteItem> = games
            .iter()
            .flat_map(|(_, items)| items.iter().cloned())
            .collect();
        self.count_write();
        let sent = self
            .client
            .transact_write_items()
            .set_transact_items(Some(all))
            .send()
            .await;
        let verdicts: Vec<Option<Result<(), StoreError>>> = match sent {
            Ok(_) => games.iter().map(|_| Some(Ok(()))).collect(),
            Err(error) => match cancellation_codes(&error) {
                Some(codes) => {
                    let mut codes = codes.into_iter();
                    games
                        .iter()
                        .map(|(_, items)| {
                            let game_codes: Vec<String> =
                                codes.by_ref().take(items.len()).collect();
                            verdict_of(&game_codes)
                        })
                        .collect()
                }
                None => {
                    let message = sdk(error).to_string();
                    games
                        .iter()
                        .map(|_| Some(Err(StoreError::Backend(message.clone()))))
                        .collect()
                }
            },
        };
        games
            .into_iter()
            .zip(verdicts)
            .map(|((index, items), verdict)| (index, items, verdict))
            .collect()
    }

    /// Writes games each small enough for one transaction (`small`: each game's index in
    /// `answers` and its writes), several to a transaction, trying again those whose
    /// transaction other games' failures cancelled; fills their `answers` (a game never
    /// settled is a conflict) and gives every answer.
    async fn transact_small_games(
        &self,
        mut small: Vec<(usize, Vec<TransactWriteItem>)>,
        mut answers: Vec<Option<Result<(), StoreError>>>,
    ) -> Vec<Result<(), StoreError>> {
        for _ in 0..IMPORT_ATTEMPTS {
            if small.is_empty() {
                break;
            }
            let mut again = Vec::new();
            for batch in packed(std::mem::take(&mut small)) {
                for (index, items, answer) in self.transact_games(batch).await {
                    match answer {
                        Some(answer) => answers[index] = Some(answer),
                        None => again.push((index, items)),
                    }
                }
            }
            small = again;
        }
        answers
            .into_iter()
            .map(|answer| answer.unwrap_or(Err(StoreError::Conflict)))
            .collect()
    }

    /// The heads of the games `ids` names (at most [`MAX_BATCH_GET`]), in any order.
    async fn batch_heads(&self, ids: &[GameId]) -> Result<Vec<Head>, StoreError> {
        let keys: Vec<Item> = ids
            .iter()
            .map(|id| {
                Item::from([
                    ("PK".into(), s(&keys::game_pk(id))),
                    ("SK".into(), s(keys::HEAD)),
                ])
            })
            .collect();
        let mut wanted = Some(
            KeysAndAttributes::builder()
                .set_keys(Some(keys))
                .consistent_read(true)
                .build()
                .map_err(|e| StoreError::Invalid(e.to_string()))?,
        );
        let mut heads = Vec::with_capacity(ids.len());
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
            for item in &found {
                heads.push(read_body(item)?);
            }
            wanted = answer
                .unprocessed_keys
                .and_then(|mut tables| tables.remove(&self.table))
                .filter(|left| !left.keys.is_empty());
        }
        Ok(heads)
    }
}

/// How often the games of a batched import that lost only to a concurrent transaction or
/// to another game of their transaction are tried again.
const IMPORT_ATTEMPTS: usize = 8;

/// The items of a whole game to import.
struct ImportItems {
    /// Its moves and events (and their keys).
    entries: Vec<TransactWriteItem>,
    /// Its head and the players' finished entries.
    last: Vec<TransactWriteItem>,
}

impl ImportItems {
    /// Every item, for a game that fits one transaction.
    fn together(self) -> Vec<TransactWriteItem> {
        let mut all = self.last;
        all.extend(self.entries);
        all
    }
}

/// Small games packed into transactions of at most [`MAX_TRANSACTION`] items, in order.
fn packed(
    games: Vec<(usize, Vec<TransactWriteItem>)>,
) -> Vec<Vec<(usize, Vec<TransactWriteItem>)>> {
    let mut batches: Vec<Vec<(usize, Vec<TransactWriteItem>)>> = Vec::new();
    let mut size = 0;
    for game in games {
        if batches.is_empty() || size + game.1.len() > MAX_TRANSACTION {
            batches.push(Vec::new());
            size = 0;
        }
        size += game.1.len();
        if let Some(batch) = batches.last_mut() {
            batch.push(game);
        }
    }
    batches
}

/// The cancellation reason code of every item of a cancelled transaction, in order
/// (`None` for items that did not fail); `None` when the transaction failed otherwise.
fn cancellation_codes<R>(error: &SdkError<TransactWriteItemsError, R>) -> Option<Vec<String>> {
    match error.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => Some(
            cancelled
                .cancellation_reasons()
                .iter()
                .map(|reason| reason.code().unwrap_or("None").to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// What a game of a cancelled transaction gets from its items' reason codes: a conflict if
/// a condition failed (its id is taken), another try if it only lost a race or was held up
/// by another game, the failure otherwise.
fn verdict_of(codes: &[String]) -> Option<Result<(), StoreError>> {
    let failed: Vec<&str> = codes
        .iter()
        .map(String::as_str)
        .filter(|code| !matches!(*code, "None" | "TransactionConflict"))
        .collect();
    match failed.as_slice() {
        [] => None,
        codes if codes.iter().all(|code| *code == "ConditionalCheckFailed") => {
            Some(Err(StoreError::Conflict))
        }
        codes => Some(Err(StoreError::Backend(format!(
            "transaction cancelled: {}",
            codes.join(", ")
        )))),
    }
}

/// The wake-up item of game `id`, due at `at`.
fn wake_item(id: &GameId, at: DateTime<Utc>) -> Item {
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

#[async_trait]
impl Store for DynamoStore {
    async fn create(&self, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError> {
        let mut items =
            vec![self.transact_put(head_item(head)?, Some("attribute_not_exists(PK)"), None)?];
        items.extend(self.member_writes(head)?);
        items.extend(self.feed_puts(feed, &head.id, head.revision)?);
        let parts = vec![Part::Head; items.len()];
        self.transact(items, &parts).await
    }

    async fn head(&self, id: &GameId) -> Result<Option<Head>, StoreError> {
        self.get(&keys::game_pk(id), keys::HEAD)
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let query = self.range_query(&keys::game_pk(id), keys::LOG_FROM, keys::LOG_TO);
        let items = self.every_page(query).await?;
        let (mut head, mut moves, mut events) = (None, Vec::new(), Vec::new());
        for item in &items {
            match get_s(item, "SK")?.as_str() {
                keys::HEAD => head = Some(read_body(item)?),
                sk if sk.starts_with("MOVE#") => moves.push(read_move(item)?),
                _ => events.push(read_event(item)?),
            }
        }
        // Entries of an import whose head is not written (yet): no game.
        Ok(head.map(|head| StoredGame {
            head,
            moves,
            events,
        }))
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        commit.check()?;
        let head = &commit.head;
        let mut items = vec![self.transact_put(
            head_item(head)?,
            Some("revision = :revision AND ply = :ply"),
            Some(Item::from([
                (":revision".into(), n(commit.expected_revision)),
                (":ply".into(), n(commit.expected_ply)),
            ])),
        )?];
        let mut parts = vec![Part::Head];
        for (item, part) in self.log_puts(commit)? {
            items.push(item);
            parts.push(part);
        }
        items.extend(self.member_writes(head)?);
        items.extend(self.wake_write(&head.id, commit.wake)?);
        items.extend(self.finished_puts(commit)?);
        items.extend(self.feed_puts(&commit.feed, &head.id, head.revision)?);
        parts.resize(items.len(), Part::Other);
        self.transact(items, &parts).await
    }

    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let items = self.import_items(game)?;
        if items.entries.len() + items.last.len() <= MAX_TRANSACTION {
            let all = items.together();
            let parts = vec![Part::Other; all.len()];
            return self.transact(all, &parts).await;
        }
        // Too many for one transaction: the entries first, then the head, which makes the
        // game exist. Until then loads find no head and see nothing.
        let mut entries = items.entries.into_iter().peekable();
        while entries.peek().is_some() {
            let chunk: Vec<_> = entries.by_ref().take(MAX_TRANSACTION).collect();
            let parts = vec![Part::Other; chunk.len()];
            self.transact(chunk, &parts).await?;
        }
        let parts = vec![Part::Other; items.last.len()];
        self.transact(items.last, &parts).await
    }

    async fn import_games(&self, games: Vec<StoredGame>) -> Vec<Result<(), StoreError>> {
        let mut answers: Vec<Option<Result<(), StoreError>>> = Vec::with_capacity(games.len());
        let mut small = Vec::new();
        for (index, game) in games.iter().enumerate() {
            match self.import_items(game) {
                Ok(items) if items.entries.len() + items.last.len() <= MAX_TRANSACTION => {
                    small.push((index, items.together()));
                    answers.push(None);
                }
                Ok(_) => answers.push(Some(self.import_game(game).await)),
                Err(error) => answers.push(Some(Err(error))),
            }
        }
        self.transact_small_games(small, answers).await
    }

    async fn waiting_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let query = self
            .index_query(keys::WAITING_INDEX, "wait_player = :player")
            .expression_attribute_values(":player", s(player));
        let page = self.one_page("waiting", query, cursor, limit).await?;
        heads_of(page)
    }

    async fn finished_by(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let query = self
            .partition_query(&keys::player_pk(player), Some("FINISHED#"))
            .scan_index_forward(false);
        let page = self.one_page("finished", query, cursor, limit).await?;
        heads_of(page)
    }

    async fn games_of(
        &self,
        player: &str,
        membership: Membership,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<GameId>, StoreError> {
        let list = keys::games_list(membership, player);
        let query = self
            .index_query(keys::LIST_INDEX, "wait_queue = :list")
            .expression_attribute_values(":list", s(&list));
        let page = self.one_page(&list, query, cursor, limit).await?;
        let ids = page.items.iter().map(game_of).collect::<Result<_, _>>()?;
        Ok(Page {
            items: ids,
            next: page.next,
        })
    }

    async fn heads(&self, ids: &[GameId]) -> Result<Vec<Head>, StoreError> {
        let mut found = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(MAX_BATCH_GET) {
            found.extend(self.batch_heads(chunk).await?);
        }
        found.sort_by_key(|head| ids.iter().position(|id| *id == head.id));
        Ok(found)
    }

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
        match moved {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
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
        match hastened {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
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

    async fn put_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.write_hook(hook).await
    }

    async fn hooks_of(&self, player: &str) -> Result<Vec<Hook>, StoreError> {
        self.read_hooks(player).await
    }

    async fn delete_hook(&self, player: &str, id: &HookId) -> Result<(), StoreError> {
        self.remove_hook(player, id).await
    }

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

    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError> {
        match self.get(&email_pk(email), "EMAIL").await? {
            Some(item) => self.player(&get_s(&item, "handle")?).await,
            None => Ok(None),
        }
    }

    /// Players stored before handle claims were written have none; a handle that is its own
    /// key (lower-case already) is found by its profile then.
    async fn player_by_handle_key(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        match self.get(&keys::handle_pk(handle), "HANDLE").await? {
            Some(item) => self.player(&get_s(&item, "handle")?).await,
            None => self.player(&Player::handle_key(handle)).await,
        }
    }

    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError> {
        let Some(item) = self.get(&keys::player_pk(player), "MAIL").await? else {
            return Ok(MailPreference::default());
        };
        crate::error::stored_preference(&get_s(&item, "preference")?)
    }

    async fn set_mail_preference(
        &self,
        player: &str,
        preference: MailPreference,
    ) -> Result<(), StoreError> {
        let item = Item::from([
            ("PK".into(), s(&keys::player_pk(player))),
            ("SK".into(), s("MAIL")),
            ("preference".into(), s(preference.as_str())),
        ]);
        self.put(item).send().await.map_err(sdk)?;
        Ok(())
    }

    async fn claim_notice(&self, notice: &Notice, at: DateTime<Utc>) -> Result<bool, StoreError> {
        let mut item = notice_key(notice);
        item.insert("at".into(), n(at.timestamp_millis()));
        let put = self
            .put(item)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        match put.map_err(sdk) {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn release_notice(&self, notice: &Notice) -> Result<(), StoreError> {
        self.count_write();
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(notice_key(notice)))
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }

    /// The marker's `expires_at` is the table's TTL attribute: DynamoDB deletes it some
    /// time after the token expired.
    async fn use_token(
        &self,
        id: &str,
        _at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let item = Item::from([
            ("PK".into(), s(&format!("TOKEN#{id}"))),
            ("SK".into(), s("USED")),
            ("expires_at".into(), n(expires_at.timestamp())),
        ]);
        self.put(item)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }

    async fn put_challenge(
        &self,
        challenge: &Challenge,
        start: Option<&Commit>,
    ) -> Result<(), StoreError> {
        let mut items = self.challenge_writes(challenge)?;
        if let Some(start) = start {
            items.extend(self.start_writes(start)?);
        }
        let parts = vec![Part::Head; items.len()];
        self.transact(items, &parts).await
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<Challenge>, StoreError> {
        self.get(&keys::challenge_pk(id), keys::CHALLENGE)
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    async fn open_challenges(
        &self,
        filter: &ChallengeFilter,
        now: DateTime<Utc>,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Challenge>, StoreError> {
        let list = keys::challenge_list(filter.variant.as_deref(), filter.time_control.as_ref());
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(keys::LIST_INDEX)
            .key_condition_expression("wait_queue = :list")
            .filter_expression("expires_ms > :now")
            .expression_attribute_values(":list", s(&list))
            .expression_attribute_values(":now", n(now.timestamp_millis()))
            .scan_index_forward(false);
        let page = self.one_page(&list, query, cursor, limit).await?;
        Ok(Page {
            items: page.items.iter().map(read_body).collect::<Result<_, _>>()?,
            next: page.next,
        })
    }

    async fn message_mail(&self, player: &str) -> Result<MessageMail, StoreError> {
        let Some(item) = self.get(&keys::player_pk(player), "MESSAGES").await? else {
            return Ok(MessageMail::default());
        };
        let text = get_s(&item, "choice")?;
        MessageMail::parse(&text)
            .ok_or_else(|| StoreError::Corrupt(format!("message mail choice `{text}`")))
    }

    async fn feed(
        &self,
        player: &str,
        after: Option<&str>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<FeedPage, StoreError> {
        self.read_feed(player, after, since.timestamp_millis(), page_size(limit))
            .await
    }

    async fn set_message_mail(&self, player: &str, choice: MessageMail) -> Result<(), StoreError> {
        let item = Item::from([
            ("PK".into(), s(&keys::player_pk(player))),
            ("SK".into(), s("MESSAGES")),
            ("choice".into(), s(choice.as_str())),
        ]);
        self.put(item).send().await.map_err(sdk)?;
        Ok(())
    }

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
        match deleted.map_err(sdk) {
            Ok(_) | Err(StoreError::Conflict) => Ok(()),
            Err(error) => Err(error),
        }
    }

    fn usage(&self) -> Usage {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        Usage {
            round_trips: get(&self.counters.requests),
            reads: get(&self.counters.reads),
            writes: get(&self.counters.writes),
            items_read: get(&self.counters.items),
            bytes_read: get(&self.counters.bytes),
        }
    }

    async fn create_app_password(&self, password: &AppPassword) -> Result<(), StoreError> {
        let stored = AppPassword {
            last_used: None,
            ..password.clone()
        };
        let mut item = app_password_key(&password.player, &password.id);
        item.insert("body".into(), s(&serde_json::to_string(&stored)?));
        if let Some(at) = password.last_used {
            item.insert("last_used".into(), n(at.timestamp_millis()));
        }
        self.put(item)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }

    async fn app_password(
        &self,
        player: &str,
        id: &str,
    ) -> Result<Option<AppPassword>, StoreError> {
        let sk = keys::app_password_sk(id);
        let found = self.get(&keys::player_pk(player), &sk).await?;
        found.as_ref().map(read_app_password).transpose()
    }

    async fn app_passwords_of(&self, player: &str) -> Result<Vec<AppPassword>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::APP_PASSWORDS));
        let mut passwords = self
            .every_page(query)
            .await?
            .iter()
            .map(read_app_password)
            .collect::<Result<Vec<_>, _>>()?;
        passwords.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(passwords)
    }

    async fn touch_app_password(
        &self,
        player: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.count_write();
        let touched = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(app_password_key(player, id)))
            .condition_expression("attribute_exists(PK)")
            .update_expression("SET last_used = :at")
            .expression_attribute_values(":at", n(at.timestamp_millis()))
            .send()
            .await;
        match touched.map_err(sdk) {
            Ok(_) | Err(StoreError::Conflict) => Ok(()),
            Err(error) => Err(error),
        }
    }

    async fn revoke_app_password(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        self.count_write();
        let deleted = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(app_password_key(player, id)))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        match deleted.map_err(sdk) {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }

    async fn put_tournament(&self, tournament: &Tournament) -> Result<(), StoreError> {
        self.write_tournament(tournament).await
    }

    async fn tournament(&self, id: &TournamentId) -> Result<Option<Tournament>, StoreError> {
        self.read_tournament(id).await
    }

    async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, StoreError> {
        self.read_tournaments(cursor, limit).await
    }

    async fn create_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>> {
        self.write_started(starts).await
    }

    async fn put_rating(&self, rating: &RatingRecord) -> Result<(), StoreError> {
        self.write_rating(rating).await
    }

    async fn rating(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Option<RatingRecord>, StoreError> {
        self.read_rating(player, variant).await
    }

    async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError> {
        self.read_ratings_of(player).await
    }

    async fn leaderboard(
        &self,
        variant: &str,
        limit: usize,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        self.read_leaderboard(variant, limit).await
    }
}

/// The key of `player`'s application password `id`.
fn app_password_key(player: &str, id: &str) -> Item {
    Item::from([
        ("PK".into(), s(&keys::player_pk(player))),
        ("SK".into(), s(&keys::app_password_sk(id))),
    ])
}

/// An application password's item: its body, and when it was last used.
fn read_app_password(item: &Item) -> Result<AppPassword, StoreError> {
    let mut password: AppPassword = read_body(item)?;
    if item.contains_key("last_used") {
        password.last_used = Some(millis(get_n(item, "last_used")?)?);
    }
    Ok(password)
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

impl DynamoStore {
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
        match put.map_err(sdk) {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
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

/// The heads in a page of head or finished items.
fn heads_of(page: Page<Item>) -> Result<Page<Head>, StoreError> {
    Ok(Page {
        items: page.items.iter().map(read_body).collect::<Result<_, _>>()?,
        next: page.next,
    })
}

fn notice_key(notice: &Notice) -> Item {
    let (scope, name) = notice.key();
    Item::from([
        ("PK".into(), s(&format!("NOTICE#{scope}"))),
        ("SK".into(), s(&name)),
    ])
}

fn email_pk(email: &str) -> String {
    format!("EMAIL#{}", Player::email_key(email))
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
impl DynamoStore {
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
