//! The cloud store: one DynamoDB table.
//!
//! | item | PK | SK | attributes |
//! | --- | --- | --- | --- |
//! | head | `GAME#<id>` | `HEAD` | `revision`, `ply`, `body` (the head as JSON), `wait_player` + `wait_deadline` while someone is to move |
//! | move | `GAME#<id>` | `MOVE#<ply, 6 digits>` | `seat`, `long`, `short`, `at`, `key`, `draw_offer`, `prev_hash`, `hash` |
//! | finished | `PLAYER#<player>` | `FINISHED#<ms, 13 digits>#<id>` | `body` (the final head) |
//! | vacation | `PLAYER#<player>` | `VACATION` | `revision`, `body` |
//! | player | `PLAYER#<player>` | `PROFILE` | `body` |
//! | e-mail | `EMAIL#<lower-cased address>` | `EMAIL` | `handle` |
//! | mail preference | `PLAYER#<player>` | `MAIL` | `preference` |
//! | notice marker | `NOTICE#<scope>` | `<name>` (see [`Notice::key`]) | `at` |
//! | used token | `TOKEN#<token id>` | `USED` | `expires_at` (seconds; the table's TTL attribute) |
//!
//! A game is one partition, so loading it is one strongly consistent `Query` (head first,
//! since `HEAD` sorts before `MOVE#`), and a commit is one `TransactWriteItems`: the head
//! put on condition `revision = :read AND ply = :read`, each move put on condition
//! `attribute_not_exists(PK)`, plus the finished entries. Move items are never updated or
//! deleted. The sparse global index `waiting` (`wait_player`, `wait_deadline`) holds only the
//! heads of games someone is to move in; the sparse index `deadlines` (`wait_queue`, always
//! `turns`, and `wait_deadline`) holds the same heads in one partition ordered by deadline,
//! for the sweeper. The table definition lives in `infra/table.json`.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::{BoxError, ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use chrono::{DateTime, Utc};

use crate::{
    Commit, GameId, Head, MailPreference, MoveRecord, Notice, Player, Store, StoreError,
    StoredGame, VacationRecord,
};

mod table;

pub use table::TableDefinition;

type Item = HashMap<String, AttributeValue>;

/// The one value of `wait_queue`: the partition of the `deadlines` index.
const WAIT_QUEUE: &str = "turns";

/// The DynamoDB store over one table.
pub struct DynamoStore {
    client: Client,
    table: String,
    requests: Arc<AtomicU64>,
}

/// Counts every HTTP request the client transmits, retries included.
#[derive(Debug)]
struct CountRequests(Arc<AtomicU64>);

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
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

impl DynamoStore {
    /// A store over `table`, configured from the standard AWS settings (region,
    /// credentials, `AWS_ENDPOINT_URL_DYNAMODB` for DynamoDB Local).
    pub async fn connect(table: &str) -> DynamoStore {
        let shared = aws_config::load_from_env().await;
        let requests = Arc::new(AtomicU64::new(0));
        let config = aws_sdk_dynamodb::config::Builder::from(&shared)
            .interceptor(CountRequests(Arc::clone(&requests)))
            .build();
        DynamoStore {
            client: Client::from_conf(config),
            table: table.to_string(),
            requests,
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

    async fn query_all(&self, pk: &str, sk_prefix: Option<&str>) -> Result<Vec<Item>, StoreError> {
        let mut values = Item::from([(":pk".into(), s(pk))]);
        let condition = match sk_prefix {
            Some(prefix) => {
                values.insert(":sk".into(), s(prefix));
                "PK = :pk AND begins_with(SK, :sk)"
            }
            None => "PK = :pk",
        };
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .consistent_read(true)
            .key_condition_expression(condition)
            .set_expression_attribute_values(Some(values));
        self.every_page(query).await
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
            items.extend(page.items.unwrap_or_default());
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(items);
            }
        }
    }

    fn put(
        &self,
        item: Item,
    ) -> aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
    }

    /// Writes `items` in one transaction: all or nothing.
    async fn transact(&self, items: Vec<TransactWriteItem>) -> Result<(), StoreError> {
        self.client
            .transact_write_items()
            .set_transact_items(Some(items))
            .send()
            .await
            .map_err(transaction_error)?;
        Ok(())
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

    /// The puts of the commit's moves, each only if no move is at its ply.
    fn move_puts(&self, commit: &Commit) -> Result<Vec<TransactWriteItem>, StoreError> {
        commit
            .moves
            .iter()
            .map(|mv| {
                self.transact_put(
                    move_item(&commit.head.id, mv),
                    Some("attribute_not_exists(PK)"),
                    None,
                )
            })
            .collect()
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
                    ("PK".into(), s(&player_pk(player))),
                    ("SK".into(), s(&format!("FINISHED#{at:013}#{}", head.id))),
                    ("body".into(), body.clone()),
                ]);
                self.transact_put(item, None, None)
            })
            .collect()
    }
}

/// Most items DynamoDB takes in one transaction.
const MAX_TRANSACTION: usize = 100;

fn game_pk(id: &GameId) -> String {
    format!("GAME#{}", id.0)
}

fn player_pk(player: &str) -> String {
    format!("PLAYER#{player}")
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

fn head_item(head: &Head) -> Result<Item, StoreError> {
    let mut item = Item::from([
        ("PK".into(), s(&game_pk(&head.id))),
        ("SK".into(), s("HEAD")),
        ("revision".into(), n(head.revision)),
        ("ply".into(), n(head.ply)),
        ("body".into(), s(&serde_json::to_string(head)?)),
    ]);
    if let Some(waiting) = &head.waiting {
        item.insert("wait_player".into(), s(&waiting.player));
        item.insert("wait_queue".into(), s(WAIT_QUEUE));
        item.insert(
            "wait_deadline".into(),
            n(waiting.deadline.timestamp_millis()),
        );
    }
    Ok(item)
}

fn move_item(game: &GameId, mv: &MoveRecord) -> Item {
    let mut item = Item::from([
        ("PK".into(), s(&game_pk(game))),
        ("SK".into(), s(&format!("MOVE#{:06}", mv.ply))),
        ("ply".into(), n(mv.ply)),
        ("seat".into(), n(mv.seat)),
        ("long".into(), s(&mv.long)),
        ("short".into(), s(&mv.short)),
        ("at".into(), n(mv.at.timestamp_millis())),
        ("draw_offer".into(), AttributeValue::Bool(mv.draw_offer)),
        ("prev_hash".into(), s(&mv.prev_hash)),
        ("hash".into(), s(&mv.hash)),
    ]);
    if let Some(key) = &mv.key {
        item.insert("key".into(), s(key));
    }
    item
}

fn read_move(item: &Item) -> Result<MoveRecord, StoreError> {
    Ok(MoveRecord {
        ply: get_n(item, "ply")?,
        seat: get_n(item, "seat")?,
        long: get_s(item, "long")?,
        short: get_s(item, "short")?,
        at: millis(get_n(item, "at")?)?,
        key: get_s(item, "key").ok(),
        draw_offer: matches!(item.get("draw_offer"), Some(AttributeValue::Bool(true))),
        prev_hash: get_s(item, "prev_hash")?,
        hash: get_s(item, "hash")?,
    })
}

fn read_body<T: serde::de::DeserializeOwned>(item: &Item) -> Result<T, StoreError> {
    Ok(serde_json::from_str(&get_s(item, "body")?)?)
}

#[async_trait]
impl Store for DynamoStore {
    async fn create(&self, head: &Head) -> Result<(), StoreError> {
        self.put(head_item(head)?)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }

    async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let items = self.query_all(&game_pk(id), None).await?;
        let Some((first, rest)) = items.split_first() else {
            return Ok(None);
        };
        if get_s(first, "SK")? != "HEAD" {
            // Moves of an import whose head is not written (yet): no game.
            return Ok(None);
        }
        let head = read_body(first)?;
        let moves = rest.iter().map(read_move).collect::<Result<_, _>>()?;
        Ok(Some(StoredGame { head, moves }))
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
        items.extend(self.move_puts(commit)?);
        items.extend(self.finished_puts(commit)?);
        self.transact(items).await
    }

    async fn import_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let commit = game.as_first_commit()?;
        let mut last = vec![self.transact_put(
            head_item(&commit.head)?,
            Some("attribute_not_exists(PK)"),
            None,
        )?];
        last.extend(self.finished_puts(&commit)?);
        let moves = self.move_puts(&commit)?;
        if moves.len() + last.len() <= MAX_TRANSACTION {
            last.extend(moves);
            return self.transact(last).await;
        }
        // Too many for one transaction: the moves first, then the head, which makes the game
        // exist. Until then loads find no head and see nothing.
        let mut moves = moves.into_iter().peekable();
        while moves.peek().is_some() {
            self.transact(moves.by_ref().take(MAX_TRANSACTION).collect())
                .await?;
        }
        self.transact(last).await
    }

    async fn waiting_for(&self, player: &str, limit: usize) -> Result<Vec<Head>, StoreError> {
        let page = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("waiting")
            .key_condition_expression("wait_player = :player")
            .expression_attribute_values(":player", s(player))
            .limit(limit.clamp(1, 1000) as i32)
            .send()
            .await
            .map_err(sdk)?;
        page.items().iter().map(read_body).collect()
    }

    async fn finished_by(&self, player: &str, limit: usize) -> Result<Vec<Head>, StoreError> {
        let mut heads = Vec::new();
        let mut start = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
                .expression_attribute_values(":pk", s(&player_pk(player)))
                .expression_attribute_values(":sk", s("FINISHED#"))
                .scan_index_forward(false)
                .limit((limit - heads.len()).clamp(1, 1000) as i32)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk)?;
            for item in page.items() {
                heads.push(read_body(item)?);
            }
            start = page.last_evaluated_key;
            if start.is_none() || heads.len() >= limit {
                return Ok(heads);
            }
        }
    }

    async fn game_ids(&self) -> Result<Vec<GameId>, StoreError> {
        let mut ids = Vec::new();
        let mut start = None;
        loop {
            let page = self
                .client
                .scan()
                .table_name(&self.table)
                .filter_expression("SK = :head")
                .expression_attribute_values(":head", s("HEAD"))
                .projection_expression("PK")
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk)?;
            for item in page.items() {
                let pk = get_s(item, "PK")?;
                let id = pk
                    .strip_prefix("GAME#")
                    .ok_or_else(|| StoreError::Corrupt(format!("head with key {pk}")))?;
                ids.push(GameId(id.to_string()));
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                ids.sort();
                return Ok(ids);
            }
        }
    }

    async fn vacation(&self, player: &str) -> Result<VacationRecord, StoreError> {
        let items = self.query_all(&player_pk(player), Some("VACATION")).await?;
        match items.first() {
            Some(item) => read_body(item),
            None => Ok(VacationRecord::default()),
        }
    }

    async fn put_vacation(&self, player: &str, record: &VacationRecord) -> Result<(), StoreError> {
        let item = Item::from([
            ("PK".into(), s(&player_pk(player))),
            ("SK".into(), s("VACATION")),
            ("revision".into(), n(record.revision)),
            ("body".into(), s(&serde_json::to_string(record)?)),
        ]);
        let put = self.put(item);
        let put = if record.revision <= 1 {
            put.condition_expression("attribute_not_exists(PK)")
        } else {
            put.condition_expression("revision = :previous")
                .expression_attribute_values(":previous", n(record.revision - 1))
        };
        put.send().await.map_err(sdk)?;
        Ok(())
    }

    async fn create_player(&self, player: &Player) -> Result<(), StoreError> {
        let profile = Item::from([
            ("PK".into(), s(&player_pk(&player.handle))),
            ("SK".into(), s("PROFILE")),
            ("body".into(), s(&serde_json::to_string(player)?)),
        ]);
        let email = Item::from([
            ("PK".into(), s(&email_pk(&player.email))),
            ("SK".into(), s("EMAIL")),
            ("handle".into(), s(&player.handle)),
        ]);
        let items = vec![
            self.transact_put(profile, Some("attribute_not_exists(PK)"), None)?,
            self.transact_put(email, Some("attribute_not_exists(PK)"), None)?,
        ];
        self.transact(items).await
    }

    async fn player(&self, handle: &str) -> Result<Option<Player>, StoreError> {
        let items = self.query_all(&player_pk(handle), Some("PROFILE")).await?;
        items.first().map(read_body).transpose()
    }

    async fn player_by_email(&self, email: &str) -> Result<Option<Player>, StoreError> {
        let items = self.query_all(&email_pk(email), Some("EMAIL")).await?;
        match items.first() {
            Some(item) => self.player(&get_s(item, "handle")?).await,
            None => Ok(None),
        }
    }

    async fn mail_preference(&self, player: &str) -> Result<MailPreference, StoreError> {
        let items = self.query_all(&player_pk(player), Some("MAIL")).await?;
        let Some(item) = items.first() else {
            return Ok(MailPreference::default());
        };
        let text = get_s(item, "preference")?;
        MailPreference::parse(&text)
            .ok_or_else(|| StoreError::Corrupt(format!("mail preference `{text}`")))
    }

    async fn set_mail_preference(
        &self,
        player: &str,
        preference: MailPreference,
    ) -> Result<(), StoreError> {
        let item = Item::from([
            ("PK".into(), s(&player_pk(player))),
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

    async fn waiting_games(&self, until: DateTime<Utc>) -> Result<Vec<Head>, StoreError> {
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("deadlines")
            .key_condition_expression("wait_queue = :queue AND wait_deadline <= :until")
            .expression_attribute_values(":queue", s(WAIT_QUEUE))
            .expression_attribute_values(":until", n(until.timestamp_millis()));
        self.every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect()
    }

    fn round_trips(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_string())
}

fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

fn get_s(item: &Item, name: &str) -> Result<String, StoreError> {
    match item.get(name) {
        Some(AttributeValue::S(value)) => Ok(value.clone()),
        _ => Err(StoreError::Corrupt(format!(
            "missing text attribute `{name}`"
        ))),
    }
}

fn get_n<T: std::str::FromStr>(item: &Item, name: &str) -> Result<T, StoreError> {
    match item.get(name) {
        Some(AttributeValue::N(value)) => value
            .parse()
            .map_err(|_| StoreError::Corrupt(format!("attribute `{name}` is not a number"))),
        _ => Err(StoreError::Corrupt(format!(
            "missing number attribute `{name}`"
        ))),
    }
}

fn millis(value: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp_millis(value)
        .ok_or_else(|| StoreError::Corrupt(format!("time {value} out of range")))
}

/// Maps the error of a transaction: cancelled because a condition failed or another
/// transaction held an item, it is a [`StoreError::Conflict`]; anything else as [`sdk`].
fn transaction_error<R: std::fmt::Debug>(
    error: SdkError<TransactWriteItemsError, R>,
) -> StoreError {
    if let Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) =
        error.as_service_error()
    {
        let reasons: Vec<&str> = cancelled
            .cancellation_reasons()
            .iter()
            .filter_map(|reason| reason.code())
            .filter(|code| *code != "None")
            .collect();
        let conflict = reasons
            .iter()
            .all(|code| matches!(*code, "ConditionalCheckFailed" | "TransactionConflict"));
        return if conflict && !reasons.is_empty() {
            StoreError::Conflict
        } else {
            StoreError::Backend(format!("transaction cancelled: {}", reasons.join(", ")))
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
