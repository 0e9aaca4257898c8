//! What only the SQLite adapter keeps: its own rows.

use missive_domain::{Reason, SeatDoc, Status};
use missive_store::testing::TestStore;
use missive_store::{ChallengeStore, GameStore, SqliteStore};

use crate::fixtures::{called_off, challenge, head, whole_game, with_events};

/// On SQLite, the moves and events of an imported game that is over take one row of
/// `closed_logs` (none of `moves` or `events`), which can be neither changed nor deleted;
/// the game loads whole, its hashes computed again, so a move or an event changed behind
/// the triggers' back no longer ends the chain at the head's last hash.
#[tokio::test]
async fn a_finished_import_is_one_append_only_row_on_sqlite() {
    let file = missive_store::testing::temp_db_path();
    let test = TestStore::sqlite_at(file.clone());
    let game = with_events(whole_game("one-row", 40), &[0, 7, 7, 40]);
    test.store.import_game(&game).await.unwrap();
    assert_eq!(
        test.store.load(&game.head.id).await.unwrap(),
        Some(game.clone())
    );
    let conn = rusqlite::Connection::open(&file).unwrap();
    let count = |table: &str| -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
        .unwrap()
    };
    assert_eq!(
        (count("moves"), count("events"), count("closed_logs")),
        (0, 0, 1)
    );
    for change in [
        "UPDATE closed_logs SET moves = '[]'",
        "DELETE FROM closed_logs",
    ] {
        let refused = conn.execute(change, []).unwrap_err().to_string();
        assert!(refused.contains("append-only"), "{change}: {refused}");
    }
    let (moves, events): (String, String) = conn
        .query_row("SELECT moves, events FROM closed_logs", [], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .unwrap();
    for hash in [&game.moves[0].hash, &game.events[0].hash] {
        assert!(
            !moves.contains(hash) && !events.contains(hash),
            "the row keeps no hash: {moves} {events}"
        );
    }
    conn.execute_batch("DROP TRIGGER closed_logs_no_update")
        .unwrap();
    let altered_move = moves.replacen(&format!("\"{}\"", game.moves[3].long), "\"a1a2\"", 1);
    let altered_event = events.replacen("draw-offered", "draw-withdrawn", 1);
    for (column, row) in [
        ("moves", [&altered_move, &events]),
        ("events", [&moves, &altered_event]),
    ] {
        conn.execute("UPDATE closed_logs SET moves = ?1, events = ?2", row)
            .unwrap();
        let loaded = test.store.load(&game.head.id).await.unwrap().unwrap();
        assert_ne!((&loaded.moves, &loaded.events), (&game.moves, &game.events));
        let entries = loaded.entries();
        let chained = entries
            .windows(2)
            .all(|pair| pair[1].prev_hash() == pair[0].hash());
        let ends_at_head = entries.last().map(|entry| entry.hash()) == Some(&loaded.head.last_hash);
        assert!(
            !(chained && ends_at_head),
            "a changed entry in {column} breaks the chain"
        );
    }
}

/// A `closed_logs` row written before the rows kept events (schema version 18) loads its
/// events from the `events` table, its moves chained through them.
#[tokio::test]
async fn a_finished_import_with_its_events_in_the_table_still_loads() {
    let file = missive_store::testing::temp_db_path();
    let test = TestStore::sqlite_at(file.clone());
    let game = with_events(whole_game("events-apart", 12), &[3, 12]);
    test.store.import_game(&game).await.unwrap();
    let conn = rusqlite::Connection::open(&file).unwrap();
    conn.execute_batch("DROP TRIGGER closed_logs_no_update; UPDATE closed_logs SET events = NULL")
        .unwrap();
    let mut insert = conn
        .prepare(
            "INSERT INTO events (game, seq, ply, seat, at, event, prev_hash, hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .unwrap();
    for event in &game.events {
        insert
            .execute(rusqlite::params![
                game.head.id.0,
                event.seq,
                event.ply,
                event.seat.map(|seat| seat.0),
                event.at.timestamp_millis(),
                serde_json::to_string(&event.event).unwrap(),
                event.prev_hash,
                event.hash,
            ])
            .unwrap();
    }
    assert_eq!(test.store.load(&game.head.id).await.unwrap(), Some(game));
}

/// A SQLite file written before the cancelled list and the creators of challenges were
/// kept: once opened (so migrated), it lists its games called off for their players and
/// invitees, and a publication counts the open challenges it held.
#[tokio::test]
async fn an_older_file_lists_its_games_called_off_and_counts_its_open_challenges() {
    let file = missive_store::testing::temp_db_path();
    let store = SqliteStore::open(&file).unwrap();
    let mut invitation = head("declined");
    invitation.doc.status = Status::Forming;
    invitation.doc.seats[1] = SeatDoc::Invited {
        player: "cid".into(),
    };
    store.create(&invitation, &[]).await.unwrap();
    let declined = called_off(&invitation, Reason::Declined, 1, 10);
    store.commit(&declined).await.unwrap();
    store
        .put_challenge(&challenge("c1", "chess", 3, 1), None)
        .await
        .unwrap();
    drop(store);
    rusqlite::Connection::open(&file)
        .unwrap()
        .execute_batch(
            "DROP TABLE cancelled;
             DROP TABLE sockets;
             DROP INDEX challenges_creator;
             ALTER TABLE challenges DROP COLUMN creator;
             ALTER TABLE closed_logs DROP COLUMN events;
             PRAGMA user_version = 15;",
        )
        .unwrap();
    let test = TestStore::sqlite_at(file);
    for player in ["ann", "cid"] {
        let listed = test.store.cancelled_for(player, None, 10).await.unwrap();
        assert_eq!(
            listed.items,
            std::slice::from_ref(&declined.head),
            "{player}"
        );
    }
    let second = challenge("c2", "chess", 3, 2);
    assert!(!test.store.publish_challenge(&second, 1).await.unwrap());
    assert!(test.store.publish_challenge(&second, 2).await.unwrap());
}

/// The writer never checkpoints the write-ahead log itself: the checkpointer thread copies
/// what was committed into the database file soon after, so the file grows while the log
/// is not kept forever. Polled, without a deadline a correct store could miss.
#[tokio::test]
async fn committed_games_reach_the_database_file_through_the_checkpointer() {
    let file = missive_store::testing::temp_db_path();
    let test = TestStore::sqlite_at(file.clone());
    let before = std::fs::metadata(&file).unwrap().len();
    for index in 0..20 {
        let game = whole_game(&format!("checkpointed-{index}"), 60);
        test.store.import_game(&game).await.unwrap();
    }
    let mut waited = std::time::Duration::ZERO;
    while std::fs::metadata(&file).unwrap().len() == before {
        assert!(
            waited < std::time::Duration::from_secs(60),
            "the database file stayed at {before} bytes: nothing was checkpointed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        waited += std::time::Duration::from_millis(50);
    }
}
