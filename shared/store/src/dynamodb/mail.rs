//! Mail on DynamoDB: players' choices in their partition, and notice markers, each put
//! only if absent.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::{MailPreference, MessageMail, Notice};

use super::items::{Item, get_s, n, s};
use super::{DynamoDbStore, applied, keys, sdk};
use crate::{MailStore, StoreError};

#[async_trait]
impl MailStore for DynamoDbStore {
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

    async fn message_mail(&self, player: &str) -> Result<MessageMail, StoreError> {
        let Some(item) = self.get(&keys::player_pk(player), "MESSAGES").await? else {
            return Ok(MessageMail::default());
        };
        let text = get_s(&item, "choice")?;
        MessageMail::parse(&text)
            .ok_or_else(|| StoreError::Corrupt(format!("message mail choice `{text}`")))
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

    async fn claim_notice(&self, notice: &Notice, at: DateTime<Utc>) -> Result<bool, StoreError> {
        let mut item = notice_key(notice);
        item.insert("at".into(), n(at.timestamp_millis()));
        let put = self
            .put(item)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        applied(put.map(drop).map_err(sdk))
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
}

fn notice_key(notice: &Notice) -> Item {
    let (scope, name) = notice.key();
    Item::from([
        ("PK".into(), s(&format!("NOTICE#{scope}"))),
        ("SK".into(), s(&name)),
    ])
}
