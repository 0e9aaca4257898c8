//! Ratings on DynamoDB: an item of its player's partition, listed in the list index of its
//! variant by rating. Rating periods: how far each variant's have closed, one item each in
//! one partition, and each rated game kept as an item of its game's partition, listed in
//! the list index under its period.

use async_trait::async_trait;
use chrono::NaiveDate;
use missive_domain::{Cursor, Page, PeriodsClosed, RatedGame, RatingRecord};

use super::items::{Item, get_s, n, read_body, s};
use super::{DynamoDbStore, applied, keys, sdk};
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

/// The item of how far a variant's rating periods have closed.
fn periods_item(closed: &PeriodsClosed) -> Item {
    Item::from([
        ("PK".into(), s(keys::RATING_PERIODS)),
        ("SK".into(), s(&keys::rating_periods_sk(&closed.variant))),
        ("variant".into(), s(&closed.variant)),
        ("through".into(), s(&closed.through.to_string())),
    ])
}

/// How far a variant's rating periods have closed, from its item.
fn read_periods(item: &Item) -> Result<PeriodsClosed, StoreError> {
    let through = get_s(item, "through")?;
    Ok(PeriodsClosed {
        variant: get_s(item, "variant")?,
        through: through
            .parse()
            .map_err(|_| StoreError::Backend(format!("not a day: {through}")))?,
    })
}

/// The item of a rated game kept with its period.
fn rated_item(game: &RatedGame) -> Result<Item, StoreError> {
    Ok(Item::from([
        ("PK".into(), s(&keys::game_pk(&game.game))),
        ("SK".into(), s(keys::RATED)),
        ("body".into(), s(&serde_json::to_string(game)?)),
        (
            keys::LIST.into(),
            s(&keys::rated_list(&game.variant, game.period)),
        ),
        (keys::LIST_TIME.into(), n(game.ended.timestamp_millis())),
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

    async fn open_rating_periods(&self, closed: &PeriodsClosed) -> Result<bool, StoreError> {
        let put = self
            .put(periods_item(closed))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        applied(put.map(drop).map_err(sdk))
    }

    async fn rating_periods(&self) -> Result<Vec<PeriodsClosed>, StoreError> {
        let query = self.partition_query(keys::RATING_PERIODS, None);
        self.every_page(query)
            .await?
            .iter()
            .map(read_periods)
            .collect()
    }

    async fn move_rating_periods(
        &self,
        variant: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<bool, StoreError> {
        let closed = PeriodsClosed {
            variant: variant.to_string(),
            through: to,
        };
        let put = self
            .put(periods_item(&closed))
            .condition_expression("through = :from")
            .expression_attribute_values(":from", s(&from.to_string()))
            .send()
            .await;
        applied(put.map(drop).map_err(sdk))
    }

    async fn keep_rated_game(&self, game: &RatedGame) -> Result<(), StoreError> {
        let put = self
            .put(rated_item(game)?)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        applied(put.map(drop).map_err(sdk)).map(drop)
    }

    async fn rated_games(
        &self,
        variant: &str,
        period: NaiveDate,
    ) -> Result<Vec<RatedGame>, StoreError> {
        let query = self
            .index_query(keys::LIST_INDEX, "wait_queue = :list")
            .expression_attribute_values(":list", s(&keys::rated_list(variant, period)));
        let mut games: Vec<RatedGame> = self
            .every_page(query)
            .await?
            .iter()
            .map(read_body)
            .collect::<Result<_, _>>()?;
        games.sort_by(|a, b| a.game.0.cmp(&b.game.0));
        Ok(games)
    }
}
