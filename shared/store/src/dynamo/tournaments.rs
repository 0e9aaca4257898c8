//! Tournaments and ratings on DynamoDB: a tournament is one item of its own partition,
//! listed in the list index by creation; a rating is an item of its player's partition,
//! listed in the list index of its variant by rating. A tournament's games are created
//! like imported games: each game's writes whole, several games to a transaction.

use missive_domain::{Commit, Cursor, Page, RatingRecord, Tournament, TournamentId};

use super::items::{Item, n, read_body, s};
use super::{DynamoStore, MAX_TRANSACTION, Part, keys};
use crate::StoreError;

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

/// The item of `rating`.
fn rating_item(rating: &RatingRecord) -> Result<Item, StoreError> {
    Ok(Item::from([
        ("PK".into(), s(&keys::player_pk(&rating.player))),
        ("SK".into(), s(&keys::rating_sk(&rating.variant))),
        ("revision".into(), n(rating.revision)),
        ("body".into(), s(&serde_json::to_string(rating)?)),
        (keys::LIST.into(), s(&keys::rating_list(&rating.variant))),
        (
            keys::LIST_TIME.into(),
            n((rating.rating * 1000.0).round() as i64),
        ),
    ]))
}

impl DynamoStore {
    /// [`crate::Store::put_tournament`] on DynamoDB: the tournament's item and, while it
    /// is open with a start date, its start in the sweep's queue (removed otherwise), in
    /// one transaction.
    pub(super) async fn write_tournament(&self, tournament: &Tournament) -> Result<(), StoreError> {
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
        self.transact(writes, &[Part::Head, Part::Other]).await
    }

    /// [`crate::Store::tournament`] on DynamoDB.
    pub(super) async fn read_tournament(
        &self,
        id: &TournamentId,
    ) -> Result<Option<Tournament>, StoreError> {
        self.get(&keys::tournament_pk(id), keys::TOURNAMENT)
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    /// [`crate::Store::tournaments`] on DynamoDB.
    pub(super) async fn read_tournaments(
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

    /// [`crate::Store::create_started`] on DynamoDB.
    pub(super) async fn write_started(&self, starts: &[Commit]) -> Vec<Result<(), StoreError>> {
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

    /// [`crate::Store::put_rating`] on DynamoDB.
    pub(super) async fn write_rating(&self, rating: &RatingRecord) -> Result<(), StoreError> {
        self.versioned_put(rating_item(rating)?, rating.revision, "a rating")
            .await
    }

    /// [`crate::Store::rating`] on DynamoDB.
    pub(super) async fn read_rating(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Option<RatingRecord>, StoreError> {
        self.get(&keys::player_pk(player), &keys::rating_sk(variant))
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    /// [`crate::Store::ratings_of`] on DynamoDB.
    pub(super) async fn read_ratings_of(
        &self,
        player: &str,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::RATING_FROM));
        self.every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect()
    }

    /// [`crate::Store::leaderboard`] on DynamoDB.
    pub(super) async fn read_leaderboard(
        &self,
        variant: &str,
        limit: usize,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let list = keys::rating_list(variant);
        let query = self
            .index_query(keys::LIST_INDEX, "wait_queue = :list")
            .expression_attribute_values(":list", s(&list))
            .scan_index_forward(false);
        let page = self.one_page(&list, query, None, limit).await?;
        page.items.iter().map(read_body).collect()
    }
}
