//! RatingStore: ratings changed over their revision, ranked per variant; rating periods
//! set up once, moved from where they are, and rated games kept once with their period.

use chrono::NaiveDate;
use missive_domain::{
    Cursor, GameId, PeriodsClosed, RatedGame, RatingChange, RatingRecord, SeatResult,
};
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
        in_periods: true,
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

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn rated(game: &str, variant: &str, period: &str, minutes: i64) -> RatedGame {
    RatedGame {
        variant: variant.into(),
        period: day(period),
        game: GameId(game.into()),
        players: vec!["ann".into(), "bob".into()],
        results: vec![SeatResult::Win, SeatResult::Loss],
        ended: at(minutes),
    }
}

async fn rating_periods_are_set_up_once_and_move_from_where_they_are(
    store: &(impl RatingStore + ?Sized),
) {
    assert_eq!(store.rating_periods().await.unwrap(), []);
    let chess = PeriodsClosed {
        variant: "chess".into(),
        through: day("2026-11-23"),
    };
    assert!(store.open_rating_periods(&chess).await.unwrap());
    let again = PeriodsClosed {
        through: day("2026-11-30"),
        ..chess.clone()
    };
    assert!(
        !store.open_rating_periods(&again).await.unwrap(),
        "set up once"
    );
    let sanguo = PeriodsClosed {
        variant: "sanguo".into(),
        through: day("2026-11-16"),
    };
    assert!(store.open_rating_periods(&sanguo).await.unwrap());
    assert_eq!(
        store.rating_periods().await.unwrap(),
        [chess.clone(), sanguo.clone()]
    );
    let (from, to) = (day("2026-11-23"), day("2026-11-30"));
    assert!(store.move_rating_periods("chess", from, to).await.unwrap());
    assert!(
        !store.move_rating_periods("chess", from, to).await.unwrap(),
        "no longer where it was"
    );
    assert!(
        !store
            .move_rating_periods("xiangqi", from, to)
            .await
            .unwrap()
    );
    assert_eq!(store.rating_periods().await.unwrap(), [again, sanguo]);
}

async fn rated_games_are_kept_once_with_their_period(store: &(impl RatingStore + ?Sized)) {
    let (first, second) = (
        rated("g2", "chess", "2026-11-30", 10),
        rated("g1", "chess", "2026-11-30", 20),
    );
    store.keep_rated_game(&first).await.unwrap();
    store.keep_rated_game(&second).await.unwrap();
    store
        .keep_rated_game(&rated("g3", "chess", "2026-12-07", 30))
        .await
        .unwrap();
    store
        .keep_rated_game(&rated("g4", "xiangqi", "2026-11-30", 40))
        .await
        .unwrap();
    let moved = rated("g1", "chess", "2026-12-07", 50);
    store.keep_rated_game(&moved).await.unwrap();
    assert_eq!(
        store.rated_games("chess", day("2026-11-30")).await.unwrap(),
        [second, first],
        "by game id, each kept as first given"
    );
    let later = store.rated_games("chess", day("2026-12-07")).await.unwrap();
    let ids: Vec<&str> = later.iter().map(|g| g.game.0.as_str()).collect();
    assert_eq!(ids, ["g3"]);
    assert_eq!(
        store.rated_games("chess", day("2026-11-23")).await.unwrap(),
        []
    );
}

store_checks!(
    ratings_change_over_their_revision_and_rank_by_variant,
    rating_periods_are_set_up_once_and_move_from_where_they_are,
    rated_games_are_kept_once_with_their_period,
);
