//! Sign-in records on DynamoDB: used tokens (expired by the table's TTL) and application
//! passwords in their player's partition.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use missive_domain::AppPassword;

use super::items::{Item, get_n, millis, n, read_body, s};
use super::{DynamoDbStore, applied, keys, sdk};
use crate::{CredentialStore, StoreError};

#[async_trait]
impl CredentialStore for DynamoDbStore {
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

    async fn create_app_password(&self, password: &AppPassword) -> Result<(), StoreError> {
        let stored = AppPassword {
            last_used: None,
            ..password.clone()
        };
        let mut item = app_password_key(&password.player, &password.id);
        item.insert("body".into(), s(&serde_json::to_string(&stored)?));
        if let Some(at) = password.last_used {
            item.insert("last_used".into(), n(at.timestamp_millis()));
        }
        self.put(item)
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk)?;
        Ok(())
    }

    async fn app_password(
        &self,
        player: &str,
        id: &str,
    ) -> Result<Option<AppPassword>, StoreError> {
        let sk = keys::app_password_sk(id);
        let found = self.get(&keys::player_pk(player), &sk).await?;
        found.as_ref().map(read_app_password).transpose()
    }

    async fn app_passwords_of(&self, player: &str) -> Result<Vec<AppPassword>, StoreError> {
        let query = self.partition_query(&keys::player_pk(player), Some(keys::APP_PASSWORDS));
        let mut passwords = self
            .every_page(query)
            .await?
            .iter()
            .map(read_app_password)
            .collect::<Result<Vec<_>, _>>()?;
        passwords.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(passwords)
    }

    async fn touch_app_password(
        &self,
        player: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.count_write();
        let touched = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(app_password_key(player, id)))
            .condition_expression("attribute_exists(PK)")
            .update_expression("SET last_used = :at")
            .expression_attribute_values(":at", n(at.timestamp_millis()))
            .send()
            .await;
        applied(touched.map(drop).map_err(sdk)).map(drop)
    }

    async fn revoke_app_password(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        self.count_write();
        let deleted = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(app_password_key(player, id)))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        applied(deleted.map(drop).map_err(sdk))
    }
}

/// The key of `player`'s application password `id`.
fn app_password_key(player: &str, id: &str) -> Item {
    Item::from([
        ("PK".into(), s(&keys::player_pk(player))),
        ("SK".into(), s(&keys::app_password_sk(id))),
    ])
}

/// An application password's item: its body, and when it was last used.
fn read_app_password(item: &Item) -> Result<AppPassword, StoreError> {
    let mut password: AppPassword = read_body(item)?;
    if item.contains_key("last_used") {
        password.last_used = Some(millis(get_n(item, "last_used")?)?);
    }
    Ok(password)
}
