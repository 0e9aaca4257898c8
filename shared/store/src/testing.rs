//! Fresh, empty stores of every kind for tests (feature `testing`).
//!
//! DynamoDB stores need DynamoDB Local: `infra/test.sh` starts it and sets
//! `AWS_ENDPOINT_URL_DYNAMODB`, `AWS_REGION` and dummy credentials. Each store gets a table of
//! its own, so tests run in parallel without seeing each other's games.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, Utc};
use missive_domain::{
    Player, TimeControl, Tournament, TournamentId, TournamentStart, TournamentState,
    WithdrawalScoring,
};

use crate::{DynamoDbStore, SqliteStore, Store};

/// The kinds of store the contract suite runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A SQLite file in the temporary folder.
    Sqlite,
    /// A table in DynamoDB Local.
    DynamoDb,
}

/// A fresh store; its file is removed when this is dropped.
pub struct TestStore {
    /// The store.
    pub store: Arc<dyn Store>,
    file: Option<PathBuf>,
    dynamo: Option<Arc<DynamoDbStore>>,
}

impl Drop for TestStore {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
            }
        }
    }
}

/// A unique name for a test's file or table.
pub fn unique_name(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{prefix}-{}-{nanos}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A path in the temporary folder for a SQLite file no one uses.
pub fn temp_db_path() -> PathBuf {
    std::env::temp_dir().join(format!("{}.db", unique_name("missive-test")))
}

impl TestStore {
    /// A fresh store of `kind`. Panics with directions when DynamoDB Local is not set up.
    pub async fn new(kind: Kind) -> TestStore {
        match kind {
            Kind::Sqlite => TestStore::sqlite_at(temp_db_path()),
            Kind::DynamoDb => {
                let store = Arc::new(dynamo_table().await);
                TestStore {
                    store: store.clone(),
                    file: None,
                    dynamo: Some(store),
                }
            }
        }
    }

    /// A store over the SQLite file at `file` (opened, so migrated), removed when dropped.
    pub fn sqlite_at(file: PathBuf) -> TestStore {
        let store = SqliteStore::open(&file).expect("open a SQLite file");
        TestStore {
            store: Arc::new(store),
            file: Some(file),
            dynamo: None,
        }
    }

    /// A store of `kind` holding what an older version wrote: for SQLite a copy of the
    /// database file `sqlite` (opened, so migrated), for DynamoDB a fresh table holding the
    /// items of `dynamo_items` (DynamoDB's JSON form, a list of items).
    pub async fn written_before(kind: Kind, sqlite: &Path, dynamo_items: &Path) -> TestStore {
        match kind {
            Kind::Sqlite => {
                let file = temp_db_path();
                std::fs::copy(sqlite, &file).expect("copy the old database");
                TestStore::sqlite_at(file)
            }
            Kind::DynamoDb => {
                let text = std::fs::read_to_string(dynamo_items).expect("read the old items");
                let items: Vec<serde_json::Value> =
                    serde_json::from_str(&text).expect("the old items are JSON");
                let test = TestStore::new(Kind::DynamoDb).await;
                let dynamo = test.dynamo.as_ref().expect("a DynamoDB store");
                dynamo
                    .put_raw_items(&items)
                    .await
                    .expect("write the old items");
                test
            }
        }
    }

    /// A store of `kind` holding `players` as a version before handle keys wrote them:
    /// SQLite at schema version 5 (migrated when opened), DynamoDB without handle claims.
    pub async fn with_players_before_handle_keys(kind: Kind, players: &[Player]) -> TestStore {
        match kind {
            Kind::Sqlite => {
                let file = temp_db_path();
                drop(SqliteStore::open(&file).expect("create the file"));
                let conn = rusqlite::Connection::open(&file).expect("open the file");
                conn.execute_batch(
                    "DROP INDEX players_handle_key;
                     ALTER TABLE players DROP COLUMN handle_key;
                     DROP TABLE counters;
                     DROP TABLE challenges;
                     DROP TABLE message_mail;
                     DROP TABLE closed_logs;
                     DROP TABLE app_passwords;
                     DROP TABLE feed;
                     DROP TABLE hooks;
                     DROP TABLE tournaments;
                     DROP TABLE ratings;
                     DROP TABLE rating_periods;
                     DROP TABLE rated_games;
                     DROP TABLE cancelled;
                     DROP TABLE sockets;
                     ALTER TABLE moves DROP COLUMN conditional;
                     PRAGMA user_version = 5;",
                )
                .expect("go back to schema version 5");
                for player in players {
                    conn.execute(
                        "INSERT INTO players (handle, email, body) VALUES (?1, ?2, ?3)",
                        rusqlite::params![
                            player.handle,
                            Player::email_key(&player.email),
                            serde_json::to_string(player).unwrap()
                        ],
                    )
                    .expect("insert the player");
                }
                drop(conn);
                TestStore::sqlite_at(file)
            }
            Kind::DynamoDb => {
                let items: Vec<serde_json::Value> = players
                    .iter()
                    .flat_map(|player| {
                        let body = serde_json::to_string(player).unwrap();
                        [
                            serde_json::json!({
                                "PK": {"S": format!("PLAYER#{}", player.handle)},
                                "SK": {"S": "PROFILE"}, "body": {"S": body},
                            }),
                            serde_json::json!({
                                "PK": {"S": format!("EMAIL#{}", Player::email_key(&player.email))},
                                "SK": {"S": "EMAIL"}, "handle": {"S": player.handle},
                            }),
                        ]
                    })
                    .collect();
                let test = TestStore::new(Kind::DynamoDb).await;
                let dynamo = test.dynamo.as_ref().expect("a DynamoDB store");
                dynamo
                    .put_raw_items(&items)
                    .await
                    .expect("write the players");
                test
            }
        }
    }

    /// Appends a move record to game `game` behind the store's back, at `ply` by seat 0,
    /// with the time `at_ms` written as it is (to test what the store makes of a time it
    /// cannot read).
    pub async fn write_raw_move(&self, game: &str, ply: u32, at_ms: &str) {
        if let Some(file) = &self.file {
            let conn = rusqlite::Connection::open(file).expect("open the file");
            conn.execute(
                &format!(
                    "INSERT INTO moves (game, ply, seat, long, short, at, key, draw_offer, \
                     prev_hash, hash) VALUES (?1, ?2, 0, 'x', 'x', {at_ms}, NULL, 0, '', '')"
                ),
                rusqlite::params![game, ply],
            )
            .expect("insert the move");
            return;
        }
        let item = serde_json::json!({
            "PK": {"S": format!("GAME#{game}")}, "SK": {"S": format!("MOVE#{ply:06}")},
            "ply": {"N": ply.to_string()}, "seat": {"N": "0"}, "long": {"S": "x"},
            "short": {"S": "x"}, "at": {"N": at_ms}, "draw_offer": {"BOOL": false},
            "prev_hash": {"S": ""}, "hash": {"S": ""},
        });
        let dynamo = self.dynamo.as_ref().expect("a DynamoDB store");
        dynamo.put_raw_items(&[item]).await.expect("write the move");
    }
}

impl TestStore {
    /// Puts the start of tournament `id` (at `at_ms`) in the list of starts a DynamoDB
    /// table kept before starts were wake-ups, as that version wrote it; nothing on SQLite,
    /// which kept them where it still does.
    pub async fn write_old_tournament_start(&self, id: &str, at_ms: i64) {
        let Some(dynamo) = &self.dynamo else {
            return;
        };
        let item = serde_json::json!({
            "PK": {"S": format!("TOURNAMENT#{id}")}, "SK": {"S": "START"},
            "wait_queue": {"S": "tournament-starts"}, "wait_deadline": {"N": at_ms.to_string()},
        });
        dynamo
            .put_raw_items(&[item])
            .await
            .expect("write the start");
    }
}

/// An open four-player chess round robin `id` at `revision`, created at `created_at` by
/// ann, its only player so far, starting when full: the tournament tests start from.
pub fn open_tournament(id: &str, created_at: DateTime<Utc>, revision: u64) -> Tournament {
    Tournament {
        id: TournamentId(id.to_string()),
        revision,
        name: format!("Cup {id}"),
        organiser: "ann".into(),
        variant: "chess".into(),
        options: String::new(),
        time_control: TimeControl::DaysPerMove { days: 3 },
        rated: true,
        size: 4,
        double: false,
        start: TournamentStart::WhenFull,
        withdrawal: WithdrawalScoring::Forfeit,
        timeouts_to_withdraw: None,
        invited: Vec::new(),
        players: vec!["ann".into()],
        withdrawn: Vec::new(),
        games: Vec::new(),
        start_job: None,
        state: TournamentState::Open,
        created_at,
        started_at: None,
        paused_at: None,
        finished_at: None,
        told: Vec::new(),
    }
}

/// A store over a fresh table in DynamoDB Local.
pub async fn dynamo_table() -> DynamoDbStore {
    dynamo_table_named(&unique_name("missive")).await
}

/// A store over a fresh table named `name` in DynamoDB Local (for a test that hands the
/// name to another process).
pub async fn dynamo_table_named(name: &str) -> DynamoDbStore {
    assert!(
        std::env::var_os("AWS_ENDPOINT_URL_DYNAMODB").is_some(),
        "DynamoDB tests need DynamoDB Local: run them through infra/test.sh \
         (or set AWS_ENDPOINT_URL_DYNAMODB to `infra/dynamodb-local.sh start`'s endpoint)"
    );
    let store = DynamoDbStore::connect(name).await;
    store.create_table().await.expect("create a test table");
    store
}

/// Runs each listed check of the store contract once per store kind, as
/// `on_sqlite::<check>` and `on_dynamodb::<check>`. The checks before `; by kind:` take the
/// store under test (`&S`, any store with the ports the check uses), fresh and empty; those
/// after it take a [`Kind`] and set up a store of that kind themselves (as an older version
/// wrote it, or shared by several tasks).
#[macro_export]
macro_rules! store_checks {
    (@on $module:ident, $kind:ident; [$($check:ident),*]; [$($by_kind:ident),*]) => {
        mod $module {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $check() {
                    let kind = $crate::testing::Kind::$kind;
                    let test = $crate::testing::TestStore::new(kind).await;
                    super::$check(test.store.as_ref()).await;
                }
            )*
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $by_kind() {
                    super::$by_kind($crate::testing::Kind::$kind).await;
                }
            )*
        }
    };
    ($($check:ident),* $(,)? $(; by kind: $($by_kind:ident),* $(,)?)?) => {
        $crate::store_checks!(@on on_sqlite, Sqlite; [$($check),*]; [$($($by_kind),*)?]);
        $crate::store_checks!(@on on_dynamodb, DynamoDb; [$($check),*]; [$($($by_kind),*)?]);
    };
}

/// Runs each listed async test function (taking a [`Kind`]) once per store kind, as
/// `on_sqlite::<name>` and `on_dynamodb::<name>`: [`store_checks!`] with checks by kind only.
#[macro_export]
macro_rules! contract_tests {
    ($($name:ident),* $(,)?) => {
        $crate::store_checks!(; by kind: $($name),*);
    };
}
