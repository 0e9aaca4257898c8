//! Tournaments on DynamoDB: a tournament is one item of its own partition, listed in the
//! list index by creation, its start a wake-up while it has one. A tournament's games are
//! created like imported games: each game's writes whole, several games to a transaction.

use async_trait::async_trait;
use missive_domain::{Commit, Cursor, FeedItem, Page, Tournament, TournamentId};

use super::items::{Item, n, read_body, s};
use super::{DynamoDbStore, MAX_TRANSACTION, Part, keys};
use crate::{StoreError, TournamentStore};

/// The item of `tournament`.
fn tournament_item(tournament: &Tournament) -> Result<Item, StoreError> {
    Ok(Item::from([
        ("PK".into(), s(&keys::tournament_pk(&tournament.id))),
        ("SK".into(), s(keys::TOURNAMENT)),
        ("revision".into(), n(tournament.revision)),
        ("body".into(), s(&serde_json::to_string(tournament)?)),
        (keys::LIST.into(), s(keys::TOURNAMENT_LIST)),
        (
            keys::LIST_TIME.into(),
            n(tournament.created_at.timestamp_millis()),
        ),
    ]))
}

#[async_trait]
impl TournamentStore for DynamoDbStore {
    /// The tournament's item, its wake-up in the sweep's queue while it has one (removed
    /// otherwise) and the feed items, in one transaction.
    async fn put_tournament_telling(
        &self,
        tournament: &Tournament,
        feed: &[FeedItem],
    ) -> Result<(), StoreError> {
        let item = tournament_item(tournament)?;
        let pk = keys::tournament_pk(&tournament.id);
        let mut writes =
            vec![self.versioned_transact_put(item, tournament.revision, "a tournament")?];
        writes.push(match tournament.wakes_at() {
            Some(at) => self.transact_put(
                Item::from([
                    ("PK".into(), s(&pk)),
                    ("SK".into(), s(keys::TOURNAMENT_START)),
                    (
                        keys::LIST.into(),
                        s(&keys::wake_list(keys::wake_shard(&tournament.id.0))),
                    ),
                    (keys::LIST_TIME.into(), n(at.timestamp_millis())),
                ]),
                None,
                None,
            )?,
            None => self.transact_delete(&pk, keys::TOURNAMENT_START)?,
        });
        writes.extend(self.feed_puts(feed, &tournament.id.0, tournament.revision)?);
        self.transact(writes, &[Part::Head, Part::Other]).await
    }

    async fn tournament(&self, id: &TournamentId) -> Result<Option<Tournament>, StoreError> {
        self.get(&keys::tournament_pk(id), keys::TOURNAMENT)
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    async fn tournaments(
        &self,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Tournament>, StoreError> {
        let query = self
            .index_query(keys::LIST_INDEX, "wait_queue = :list")
            .expression_attribute_values(":list", s(keys::TOURNAMENT_LIST))
            .scan_index_forward(false);
        let page = self
            .one_page(keys::TOURNAMENT_LIST, query, cursor, limit)
            .await?;
        Ok(Page {
            items: page.items.iter().map(read_body).collect::<Result<_, _>>()?,
            next: page.next,
        })
    }

    async fn create_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>> {
        let mut answers: Vec<Option<Result<(), StoreError>>> = Vec::with_capacity(starts.len());
        let mut pending = Vec::new();
        for (index, start) in starts.iter().enumerate() {
            match self.start_writes(start) {
                Ok(items) if items.len() <= MAX_TRANSACTION => {
                    pending.push((index, items));
                    answers.push(None);
                }
                Ok(_) => answers.push(Some(Err(StoreError::Invalid(
                    "a game's start needs more than one transaction".into(),
                )))),
                Err(error) => answers.push(Some(Err(error))),
            }
        }
        self.transact_small_games(pending, answers).await
    }
}
