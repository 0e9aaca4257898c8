//! Which store to use: `sqlite:PATH` or `dynamodb:TABLE`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use crate::{Store, StoreError};

/// The environment variable that holds the store setting when `--store` is not given.
pub const ENV_VAR: &str = "MISSIVE_STORE";

/// A store setting as written on the command line or in [`ENV_VAR`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreSetting {
    /// `sqlite:PATH`: the SQLite file at PATH (created if missing).
    Sqlite(PathBuf),
    /// `dynamodb:TABLE`: the DynamoDB table TABLE, reached through the standard AWS
    /// configuration.
    DynamoDb(String),
}

impl StoreSetting {
    /// Opens the store; a setting error if this build has not the backend it names (see
    /// the crate's features).
    pub async fn open(&self) -> Result<Arc<dyn Store>, StoreError> {
        match self {
            #[cfg(feature = "sqlite")]
            StoreSetting::Sqlite(path) => Ok(Arc::new(crate::SqliteStore::open(path)?)),
            #[cfg(feature = "dynamodb")]
            StoreSetting::DynamoDb(table) => {
                Ok(Arc::new(crate::DynamoDbStore::connect(table).await))
            }
            #[allow(unreachable_patterns)]
            _ => Err(StoreError::Setting {
                setting: self.to_string(),
                reason: "this build has no such store".into(),
            }),
        }
    }
}

impl FromStr for StoreSetting {
    type Err = StoreError;

    fn from_str(text: &str) -> Result<StoreSetting, StoreError> {
        let error = |reason: &str| StoreError::Setting {
            setting: text.to_string(),
            reason: reason.to_string(),
        };
        let (kind, rest) = text
            .split_once(':')
            .ok_or_else(|| error("expected sqlite:PATH or dynamodb:TABLE"))?;
        if rest.is_empty() {
            return Err(error("the path or table name is empty"));
        }
        match kind {
            "sqlite" => Ok(StoreSetting::Sqlite(PathBuf::from(rest))),
            "dynamodb" => {
                let valid = rest.len() >= 3
                    && rest.len() <= 255
                    && rest
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
                if valid {
                    Ok(StoreSetting::DynamoDb(rest.to_string()))
                } else {
                    Err(error(
                        "a table name has 3 to 255 letters, digits, `_`, `-` or `.`",
                    ))
                }
            }
            _ => Err(error("the kind must be sqlite or dynamodb")),
        }
    }
}

impl fmt::Display for StoreSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreSetting::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            StoreSetting::DynamoDb(table) => write!(f, "dynamodb:{table}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_and_print_back() {
        for text in [
            "sqlite:/tmp/missive.db",
            "sqlite:games.db",
            "dynamodb:missive-prod",
        ] {
            let setting: StoreSetting = text.parse().unwrap();
            assert_eq!(setting.to_string(), text);
        }
    }

    #[test]
    fn bad_settings_say_why() {
        for text in [
            "missive.db",
            "sqlite:",
            "postgres:x",
            "dynamodb:a",
            "dynamodb:a b c",
        ] {
            assert!(
                matches!(
                    text.parse::<StoreSetting>(),
                    Err(StoreError::Setting { .. })
                ),
                "{text}"
            );
        }
    }
}
