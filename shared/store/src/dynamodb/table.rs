//! The table definition, read from `infra/table.json` (the same property names as
//! CloudFormation's `AWS::DynamoDB::Table`, so the template can carry the same text).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::create_table::CreateTableError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType,
};
use serde::Deserialize;

use super::sdk;
use crate::StoreError;

/// The definition shipped with the code.
const BUNDLED: &str = include_str!("../../../../infra/table.json");

/// A table definition: keys, attribute types, indexes, billing.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TableDefinition {
    attribute_definitions: Vec<Attribute>,
    key_schema: Vec<Key>,
    #[serde(default)]
    global_secondary_indexes: Vec<Index>,
    billing_mode: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Attribute {
    attribute_name: String,
    attribute_type: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Key {
    attribute_name: String,
    key_type: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Index {
    index_name: String,
    key_schema: Vec<Key>,
    projection: IndexProjection,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct IndexProjection {
    projection_type: String,
}

impl TableDefinition {
    /// The definition in `infra/table.json`.
    pub fn bundled() -> Result<TableDefinition, StoreError> {
        serde_json::from_str(BUNDLED)
            .map_err(|e| StoreError::Invalid(format!("infra/table.json: {e}")))
    }

    /// Creates table `name` with this definition; `false` if a table of that name exists.
    pub async fn create(&self, client: &Client, name: &str) -> Result<bool, StoreError> {
        let built = |e: aws_sdk_dynamodb::error::BuildError| StoreError::Invalid(e.to_string());
        let mut request = client
            .create_table()
            .table_name(name)
            .billing_mode(BillingMode::from(self.billing_mode.as_str()));
        for attribute in &self.attribute_definitions {
            request = request.attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(&attribute.attribute_name)
                    .attribute_type(ScalarAttributeType::from(attribute.attribute_type.as_str()))
                    .build()
                    .map_err(built)?,
            );
        }
        request = request.set_key_schema(Some(keys(&self.key_schema)?));
        for index in &self.global_secondary_indexes {
            request = request.global_secondary_indexes(
                GlobalSecondaryIndex::builder()
                    .index_name(&index.index_name)
                    .set_key_schema(Some(keys(&index.key_schema)?))
                    .projection(
                        Projection::builder()
                            .projection_type(ProjectionType::from(
                                index.projection.projection_type.as_str(),
                            ))
                            .build(),
                    )
                    .build()
                    .map_err(built)?,
            );
        }
        match request.send().await {
            Ok(_) => Ok(true),
            Err(error)
                if matches!(
                    error.as_service_error(),
                    Some(CreateTableError::ResourceInUseException(_))
                ) =>
            {
                Ok(false)
            }
            Err(error) => Err(sdk(error)),
        }
    }
}

fn keys(keys: &[Key]) -> Result<Vec<KeySchemaElement>, StoreError> {
    keys.iter()
        .map(|key| {
            KeySchemaElement::builder()
                .attribute_name(&key.attribute_name)
                .key_type(KeyType::from(key.key_type.as_str()))
                .build()
                .map_err(|e| StoreError::Invalid(e.to_string()))
        })
        .collect()
}
