//! Games on DynamoDB: a game is one partition, its head one item and its log one range;
//! a commit is one transaction.

use std::ops::Range;

use async_trait::async_trait;
use aws_sdk_dynamodb::types::TransactWriteItem;
use missive_domain::{
    Commit, EventRecord, FeedItem, GameId, Head, MoveRecord, Status, StoredGame, WakeChange,
};

use super::items::{
    Item, event_item, get_s, head_item, move_item, n, read_body, read_event, read_move, s,
};
use super::wakes::wake_item;
use super::{DynamoDbStore, MAX_BATCH_GET, MAX_TRANSACTION, Part, keys};
use crate::{GameStore, Membership, StoreError};

#[async_trait]
impl GameStore for DynamoDbStore {
    async fn create(&self, head: &Head, feed: &[FeedItem]) -> Result<(), StoreError> {
        let mut items =
            vec![self.transact_put(head_item(head)?, Some("attribute_not_exists(PK)"), None)?];
        items.extend(self.member_writes(head)?);
        items.extend(self.feed_puts(feed, &head.id.0, head.revision)?);
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

    async fn entries(
        &self,
        id: &GameId,
        plies: Range<u32>,
        events: Range<u32>,
    ) -> Result<(Vec<MoveRecord>, Vec<EventRecord>), StoreError> {
        let moves = self.log_range(id, plies, keys::move_sk).await?;
        let logged = self.log_range(id, events, keys::event_sk).await?;
        Ok((
            moves.iter().map(read_move).collect::<Result<_, _>>()?,
            logged.iter().map(read_event).collect::<Result<_, _>>()?,
        ))
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
        items.extend(self.ended_puts(commit)?);
        items.extend(self.feed_puts(&commit.feed, &head.id.0, head.revision)?);
        parts.resize(items.len(), Part::Other);
        self.transact(items, &parts).await
    }

    async fn keep_cancelled(&self, head: &Head) -> Result<(), StoreError> {
        let items = self.cancelled_puts(head)?;
        if items.is_empty() {
            return Ok(());
        }
        let parts = vec![Part::Other; items.len()];
        self.transact(items, &parts).await
    }

    async fn heads(&self, ids: &[GameId]) -> Result<Vec<Head>, StoreError> {
        let mut found = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(MAX_BATCH_GET) {
            found.extend(self.batch_heads(chunk).await?);
        }
        found.sort_by_key(|head| ids.iter().position(|id| *id == head.id));
        Ok(found)
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
}

impl DynamoDbStore {
    /// The log items of game `id` numbered `numbers`, whose sort keys `sk` writes (one
    /// strongly consistent query; none for no numbers).
    async fn log_range(
        &self,
        id: &GameId,
        numbers: Range<u32>,
        sk: fn(u32) -> String,
    ) -> Result<Vec<Item>, StoreError> {
        if numbers.is_empty() {
            return Ok(Vec::new());
        }
        let query = self.range_query(&keys::game_pk(id), &sk(numbers.start), &sk(numbers.end - 1));
        self.every_page(query).await
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

    /// The players' finished entries, if the commit finishes the game; its players' and
    /// invitees' cancelled entries, if it calls the game off.
    fn ended_puts(&self, commit: &Commit) -> Result<Vec<TransactWriteItem>, StoreError> {
        match (commit.finishes, commit.cancels) {
            (true, _) => self.ended_items(&commit.head, keys::FINISHED, commit.head.doc.players()),
            (false, true) => self.cancelled_puts(&commit.head),
            (false, false) => Ok(Vec::new()),
        }
    }

    /// The cancelled entries of the game at `head` for its players and invitees, if it was
    /// called off.
    fn cancelled_puts(&self, head: &Head) -> Result<Vec<TransactWriteItem>, StoreError> {
        match head.doc.status {
            Status::Cancelled => self.ended_items(head, keys::CANCELLED, head.doc.members()),
            _ => Ok(Vec::new()),
        }
    }

    /// The puts of the entries of `players` in their lists of games over whose sort keys
    /// start with `prefix`, each carrying `head`, at the time the game ended.
    fn ended_items(
        &self,
        head: &Head,
        prefix: &str,
        players: Vec<&str>,
    ) -> Result<Vec<TransactWriteItem>, StoreError> {
        let at = head
            .doc
            .ending
            .as_ref()
            .ok_or_else(|| StoreError::Invalid("a game over needs an ending".into()))?
            .at
            .timestamp_millis();
        let body = s(&serde_json::to_string(head)?);
        players
            .into_iter()
            .map(|player| {
                let item = Item::from([
                    ("PK".into(), s(&keys::player_pk(player))),
                    ("SK".into(), s(&keys::ended_sk(prefix, at, &head.id))),
                    ("body".into(), body.clone()),
                ]);
                self.transact_put(item, None, None)
            })
            .collect()
    }

    /// The writes that create the game `start` begins: its head only if the id is new,
    /// its members' list items and its wake-up.
    pub(super) fn start_writes(
        &self,
        start: &Commit,
    ) -> Result<Vec<TransactWriteItem>, StoreError> {
        start.check_start()?;
        let head = &start.head;
        let mut writes =
            vec![self.transact_put(head_item(head)?, Some("attribute_not_exists(PK)"), None)?];
        writes.extend(self.member_writes(head)?);
        writes.extend(self.wake_write(&head.id, start.wake)?);
        writes.extend(self.feed_puts(&start.feed, &head.id.0, head.revision)?);
        Ok(writes)
    }

    /// The items of a whole game written at once: its entries, and the head with the
    /// finished or cancelled entries (written last when the game needs more than one transaction).
    fn import_items(&self, game: &StoredGame) -> Result<ImportItems, StoreError> {
        let commit = game.as_first_commit()?;
        let mut last = vec![self.transact_put(
            head_item(&commit.head)?,
            Some("attribute_not_exists(PK)"),
            None,
        )?];
        last.extend(self.ended_puts(&commit)?);
        let entries = self
            .log_puts(&commit)?
            .into_iter()
            .map(|(item, _)| item)
            .collect();
        Ok(ImportItems { entries, last })
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
        self.batch_get(keys).await?.iter().map(read_body).collect()
    }
}

/// The items of a whole game to import.
struct ImportItems {
    /// Its moves and events (and their keys).
    entries: Vec<TransactWriteItem>,
    /// Its head and the players' finished or cancelled entries.
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
