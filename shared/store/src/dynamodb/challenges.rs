//! Challenges on DynamoDB: one record item each, and listing items in the list index
//! (one per filter) while open.

use async_trait::async_trait;
use aws_sdk_dynamodb::types::TransactWriteItem;
use chrono::{DateTime, Utc};
use missive_domain::{
    Challenge, ChallengeFilter, ChallengeId, ChallengeState, Commit, Cursor, Page,
};

use super::items::{Item, n, read_body, s};
use super::{DynamoDbStore, Part, keys};
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
}
