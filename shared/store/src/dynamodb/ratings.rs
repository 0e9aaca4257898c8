//! Ratings on DynamoDB: an item of its player's partition, listed in the list index of its
//! variant by rating.

use async_trait::async_trait;
use missive_domain::{Cursor, Page, RatingRecord};

use super::items::{Item, n, read_body, s};
use super::{DynamoDbStore, keys};
use crate::{RatingStore, StoreError};

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

#[async_trait]
impl RatingStore for DynamoDbStore {
    async fn put_rating(&self, rating: &RatingRecord) -> Result<(), StoreError> {
        self.versioned_put(rating_item(rating)?, rating.revision, "a rating")
            .await
    }

    async fn rating(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Option<RatingRecord>, StoreError> {
        self.get(&keys::player_pk(player), &keys::rating_sk(variant))
            .await?
            .map(|item| read_body(&item))
            .transpose()
    }

    async fn ratings_of(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::RATING_FROM));
        self.every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect()
    }

    async fn leaderboard(
        &self,
        variant: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<RatingRecord>, StoreError> {
        let list = keys::rating_list(variant);
        let query = self
            .index_query(keys::LIST_INDEX, "wait_queue = :list")
            .expression_attribute_values(":list", s(&list))
            .scan_index_forward(false);
        let page = self.one_page(&list, query, cursor, limit).await?;
        Ok(Page {
            items: page.items.iter().map(read_body).collect::<Result<_, _>>()?,
            next: page.next,
        })
    }
}
