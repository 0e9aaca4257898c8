//! A player's lists of games on DynamoDB: waiting (the `waiting` index), finished and
//! cancelled (their partition's finished and cancelled entries) and current (member items
//! in the list index).

use async_trait::async_trait;
use missive_domain::{Cursor, GameId, Head, Page};

use super::items::{Item, game_of, read_body, s};
use super::{DynamoDbStore, keys};
use crate::{GameListStore, Membership, StoreError};

#[async_trait]
impl GameListStore for DynamoDbStore {
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
        self.ended_page("finished", keys::FINISHED, player, cursor, limit)
            .await
    }

    async fn cancelled_for(
        &self,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        self.ended_page("cancelled", keys::CANCELLED, player, cursor, limit)
            .await
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
}

impl DynamoDbStore {
    /// A page of `player`'s entries in the list of games over whose sort keys start with
    /// `prefix`, most recent end first.
    async fn ended_page(
        &self,
        list: &str,
        prefix: &str,
        player: &str,
        cursor: Option<&Cursor>,
        limit: usize,
    ) -> Result<Page<Head>, StoreError> {
        let query = self
            .partition_query(&keys::player_pk(player), Some(prefix))
            .scan_index_forward(false);
        let page = self.one_page(list, query, cursor, limit).await?;
        heads_of(page)
    }
}

/// The heads in a page of head, finished or cancelled items.
fn heads_of(page: Page<Item>) -> Result<Page<Head>, StoreError> {
    Ok(Page {
        items: page.items.iter().map(read_body).collect::<Result<_, _>>()?,
        next: page.next,
    })
}
