//! OperatorStore: every game listed, page by page.

use missive_store::{GameStore, OperatorStore, store_checks};

use crate::fixtures::{all_ids, append, created};

async fn game_ids_lists_every_game(store: &(impl GameStore + OperatorStore + ?Sized)) {
    for id in ["b", "a", "c"] {
        let head = created(store, id).await;
        store
            .commit(&append(&head, &["e2e4", "e7e5"], None))
            .await
            .unwrap();
    }
    let mut ids: Vec<String> = all_ids(store).await.into_iter().map(|id| id.0).collect();
    ids.sort();
    assert_eq!(ids, ["a", "b", "c"]);
}

store_checks!(game_ids_lists_every_game,);
