//! Challenges on DynamoDB: one record item each, and while open listing items in the list
//! index (one per filter) and an item in the creator's partition, which a publication
//! counts (raising the creator's publications record, so two cannot count the same).

use async_trait::async_trait;
use aws_sdk_dynamodb::types::TransactWriteItem;
use chrono::{DateTime, Utc};
use missive_domain::{
    Challenge, ChallengeFilter, ChallengeId, ChallengeState, Commit, Cursor, Page,
};

use super::items::{Item, get_n, n, read_body, s};
use super::{DynamoDbStore, Part, keys};
use crate::error::check_publishable;
use crate::{ChallengeStore, StoreError};

#[async_trait]
impl ChallengeStore for DynamoDbStore {
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

    async fn publish_challenge(
        &self,
        challenge: &Challenge,
        most: u64,
    ) -> Result<bool, StoreError> {
        check_publishable(challenge)?;
        let creator = keys::player_pk(&challenge.creator);
        let revision = match self.get(&creator, keys::PUBLICATIONS).await? {
            Some(item) => get_n(&item, "revision")?,
            None => 0,
        };
        if self.open_of_creator(challenge).await? >= most {
            return Ok(false);
        }
        let publications = Item::from([
            ("PK".into(), s(&creator)),
            ("SK".into(), s(keys::PUBLICATIONS)),
            ("revision".into(), n(revision + 1)),
        ]);
        let mut items = self.challenge_writes(challenge)?;
        items.push(self.versioned_transact_put(
            publications,
            revision + 1,
            "a creator's publications",
        )?);
        let parts = vec![Part::Head; items.len()];
        match self.transact(items, &parts).await {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict) if self.challenge(&challenge.id).await?.is_some() => Err(
                StoreError::Invalid(format!("a challenge {} exists already", challenge.id)),
            ),
            Err(error) => Err(error),
        }
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
}

impl DynamoDbStore {
    /// How many challenges of `challenge`'s creator are open and not expired at its
    /// publication: their items in the creator's partition, read consistently.
    async fn open_of_creator(&self, challenge: &Challenge) -> Result<u64, StoreError> {
        let query = self.partition_query(
            &keys::player_pk(&challenge.creator),
            Some(keys::OPEN_CHALLENGES),
        );
        let published = challenge.created_at.timestamp_millis();
        let mut open = 0;
        for item in self.every_page(query).await? {
            if get_n::<i64>(&item, "expires_ms")? > published {
                open += 1;
            }
        }
        Ok(open)
    }

    /// The writes of `challenge`: its record, on condition that it replaces the revision
    /// before (or is new at revision 1), and its listing items and its item in its
    /// creator's partition: put while it is open, removed otherwise.
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
        let creator = keys::player_pk(&challenge.creator);
        let sk = keys::open_challenge_sk(&challenge.id);
        writes.push(if open {
            let item = Item::from([
                ("PK".into(), s(&creator)),
                ("SK".into(), s(&sk)),
                (
                    "expires_ms".into(),
                    n(challenge.expires_at.timestamp_millis()),
                ),
                ("expires_at".into(), n(challenge.expires_at.timestamp())),
            ]);
            self.transact_put(item, None, None)?
        } else {
            self.transact_delete(&creator, &sk)?
        });
        Ok(writes)
    }
}
