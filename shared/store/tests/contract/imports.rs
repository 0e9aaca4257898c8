//! GameStore's imports: whole games written at once, each whole or absent.

use missive_domain::StoredGame;
use missive_store::{GameListStore, GameStore, OperatorStore, StoreError, store_checks};

use crate::fixtures::{all_ids, created, every_page, whole_game};

async fn imported_games_are_written_whole_once(store: &(impl GameStore + GameListStore + ?Sized)) {
    let game = whole_game("imp", 3);
    store.import_game(&game).await.unwrap();
    assert_eq!(store.load(&game.head.id).await.unwrap(), Some(game.clone()));
    let finished = store.finished_by("ann", None, 10).await.unwrap().items;
    assert_eq!(finished, std::slice::from_ref(&game.head));
    let morphy = store.finished_by("Morphy", None, 10).await.unwrap();
    assert!(morphy.items.is_empty());
    assert!(matches!(
        store.import_game(&game).await,
        Err(StoreError::Conflict)
    ));
    let created = created(store, "taken").await;
    let mut clash = whole_game("taken", 2);
    clash.head.id = created.id.clone();
    assert!(store.import_game(&clash).await.is_err());
    assert_eq!(
        store.load(&created.id).await.unwrap().unwrap().head,
        created
    );
}

async fn long_imported_games_are_whole_or_absent(
    store: &(impl GameStore + OperatorStore + ?Sized),
) {
    let game = whole_game("long", 300);
    store.import_game(&game).await.unwrap();
    let loaded = store.load(&game.head.id).await.unwrap().unwrap();
    assert_eq!(loaded.moves.len(), 300);
    assert_eq!(loaded, game);
    let mut broken = whole_game("broken", 4);
    broken.moves[2].prev_hash = "x".into();
    assert!(matches!(
        store.import_game(&broken).await,
        Err(StoreError::Invalid(_))
    ));
    let mut unended = whole_game("unended", 4);
    unended.head.revision = 2;
    assert!(matches!(
        store.import_game(&unended).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(store.load(&broken.head.id).await.unwrap().is_none());
    assert_eq!(all_ids(store).await, [game.head.id]);
}

async fn games_imported_in_a_batch_are_each_whole_or_absent(
    store: &(impl GameStore + GameListStore + ?Sized),
) {
    let taken = created(store, "b-taken").await;
    let mut broken = whole_game("b-broken", 4);
    broken.moves[1].prev_hash = "x".into();
    let mut clash = whole_game("b-clash", 2);
    clash.head.id = taken.id.clone();
    let mut games: Vec<StoredGame> = (0..7).map(|n| whole_game(&format!("b{n}"), 30)).collect();
    games.insert(2, clash);
    games.insert(5, broken);
    games.push(whole_game("b-long", 150));
    let answers = store.import_games(games.clone()).await;
    assert_eq!(answers.len(), games.len());
    for (game, answer) in games.iter().zip(&answers) {
        let loaded = store.load(&game.head.id).await.unwrap();
        match game.head.id.0.as_str() {
            "b-taken" => {
                assert!(matches!(answer, Err(StoreError::Conflict)), "{answer:?}");
                assert_eq!(loaded.unwrap().head, taken);
            }
            "b-broken" => {
                assert!(matches!(answer, Err(StoreError::Invalid(_))), "{answer:?}");
                assert!(loaded.is_none());
            }
            _ => {
                assert!(answer.is_ok(), "{}: {answer:?}", game.head.id);
                assert_eq!(loaded.as_ref(), Some(game));
            }
        }
    }
    let finished = every_page(3, |cursor| async move {
        store.finished_by("ann", cursor.as_ref(), 3).await
    })
    .await;
    assert_eq!(finished.len(), 8, "each imported game once");
    let again = store.import_games(games[..2].to_vec()).await;
    assert!(again.iter().all(|a| matches!(a, Err(StoreError::Conflict))));
}

store_checks!(
    imported_games_are_written_whole_once,
    long_imported_games_are_whole_or_absent,
    games_imported_in_a_batch_are_each_whole_or_absent,
);
