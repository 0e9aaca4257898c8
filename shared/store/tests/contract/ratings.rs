//! RatingStore: ratings changed over their revision, ranked per variant.

use missive_domain::{Cursor, GameId, RatingChange, RatingRecord};
use missive_store::{RatingStore, StoreError, store_checks};

use crate::fixtures::at;

fn rating(player: &str, variant: &str, value: f64, revision: u64) -> RatingRecord {
    RatingRecord {
        player: player.into(),
        variant: variant.into(),
        revision,
        rating: value,
        deviation: 200.0,
        volatility: 0.06,
        games: revision as u32,
        history: Vec::new(),
    }
}

async fn ratings_change_over_their_revision_and_rank_by_variant(
    store: &(impl RatingStore + ?Sized),
) {
    store
        .put_rating(&rating("ann", "chess", 1600.5, 1))
        .await
        .unwrap();
    store
        .put_rating(&rating("bob", "chess", 1710.25, 1))
        .await
        .unwrap();
    store
        .put_rating(&rating("cy", "chess", 1450.0, 1))
        .await
        .unwrap();
    store
        .put_rating(&rating("ann", "xiangqi", 1800.0, 1))
        .await
        .unwrap();
    assert!(matches!(
        store.put_rating(&rating("ann", "chess", 1500.0, 1)).await,
        Err(StoreError::Conflict)
    ));
    let mut raised = rating("cy", "chess", 1900.0, 2);
    raised.history.push(RatingChange {
        game: GameId("g1".into()),
        at: at(3),
        before: 1450.0,
        after: 1900.0,
        deviation_before: 200.0,
        volatility_before: 0.06,
    });
    store.put_rating(&raised).await.unwrap();
    assert!(matches!(
        store.put_rating(&rating("cy", "chess", 1000.0, 2)).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.rating("cy", "chess").await.unwrap(),
        Some(raised.clone())
    );
    assert_eq!(store.rating("cy", "xiangqi").await.unwrap(), None);
    let board = store.leaderboard("chess", None, 10).await.unwrap();
    let players: Vec<&str> = board.items.iter().map(|r| r.player.as_str()).collect();
    assert_eq!((players, board.next), (vec!["cy", "bob", "ann"], None));
    let first = store.leaderboard("chess", None, 1).await.unwrap();
    assert_eq!(first.items, vec![raised]);
    let mut paged = Vec::new();
    let mut cursor = first.next;
    while let Some(at) = cursor {
        let page = store.leaderboard("chess", Some(&at), 1).await.unwrap();
        paged.extend(page.items.into_iter().map(|r| r.player));
        cursor = page.next;
        assert!(paged.len() < 5, "the cursor goes round: {paged:?}");
    }
    assert_eq!(paged, ["bob", "ann"], "page by page from the cursor");
    assert!(matches!(
        store
            .leaderboard("xiangqi", Some(&Cursor("not-a-cursor".into())), 1)
            .await,
        Err(StoreError::BadCursor)
    ));
    let variants: Vec<String> = store
        .ratings_of("ann")
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.variant)
        .collect();
    assert_eq!(variants, ["chess", "xiangqi"]);
}

store_checks!(ratings_change_over_their_revision_and_rank_by_variant,);
