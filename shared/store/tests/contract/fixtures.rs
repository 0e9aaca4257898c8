//! What the checks of several ports build on: times, heads, commits, whole games.

use chrono::{DateTime, Duration, Utc};
use missive_domain::{
    Challenge, ChallengeId, ChallengeState, Commit, Cursor, EndRule, Ending, EventRecord, GameDoc,
    GameEvent, GameId, Head, MoveRecord, Reason, Seat, SeatDoc, SeatResult, Status, StoredGame,
    TimeControl, Waiting, WakeChange, rechain,
};
use missive_store::{GameStore, OperatorStore, StoreError, WakeStore};

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
}

pub fn head(id: &str) -> Head {
    Head {
        id: GameId(id.to_string()),
        revision: 0,
        ply: 0,
        to_move: Some(Seat(0)),
        position: "start".into(),
        last_hash: String::new(),
        events: 0,
        waiting: None,
        resume: None,
        doc: GameDoc {
            variant: "chess".into(),
            options: String::new(),
            edition: 1,
            start_position: None,
            seats: vec![
                SeatDoc::Taken {
                    player: "ann".into(),
                },
                SeatDoc::Taken {
                    player: "bob".into(),
                },
            ],
            time_control: TimeControl::DaysPerMove { days: 3 },
            rated: false,
            status: Status::Active,
            created_by: "ann".into(),
            created_at: at(0),
            started_at: Some(at(0)),
            ending: None,
            draw_offers: Vec::new(),
            conditional: Vec::new(),
            private: false,
            imported: false,
            archive_tags: Vec::new(),
            verified: false,
            tournament: None,
            pauses: Vec::new(),
        },
    }
}

/// Calls off `head` (as stored) at `minute`, by `reason` of `seat`: the commit that does.
pub fn called_off(head: &Head, reason: Reason, seat: u8, minute: i64) -> Commit {
    let mut commit = append(head, &[], None);
    commit.head.waiting = None;
    commit.head.to_move = None;
    commit.head.doc.status = Status::Cancelled;
    commit.head.doc.ending = Some(Ending {
        at: at(minute),
        rule: reason,
        results: Vec::new(),
        by: Some(Seat(seat)),
    });
    commit.cancels = true;
    commit
}

/// The commit appending `texts` to `stored` (a head as stored), by alternating seats.
pub fn append(stored: &Head, texts: &[&str], key: Option<&str>) -> Commit {
    let mut prev = stored.last_hash.clone();
    let moves: Vec<MoveRecord> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let ply = stored.ply + i as u32;
            let record = MoveRecord {
                ply,
                seat: Seat((ply % 2) as u8),
                long: text.to_string(),
                short: text.to_uppercase(),
                at: at(i64::from(ply) + 1),
                key: key.map(str::to_string),
                draw_offer: false,
                conditional: false,
                prev_hash: prev.clone(),
                hash: String::new(),
            }
            .sealed(&stored.id);
            prev = record.hash.clone();
            record
        })
        .collect();
    let mut head = stored.clone();
    head.revision += 1;
    head.ply += moves.len() as u32;
    head.last_hash = prev;
    head.to_move = Some(Seat((head.ply % 2) as u8));
    head.waiting = Some(Waiting {
        player: if head.ply.is_multiple_of(2) {
            "ann"
        } else {
            "bob"
        }
        .into(),
        since: at(i64::from(head.ply)),
        deadline: at(i64::from(head.ply) + 60),
    });
    Commit {
        head,
        expected_revision: stored.revision,
        expected_ply: stored.ply,
        expected_events: stored.events,
        moves,
        events: Vec::new(),
        finishes: false,
        cancels: false,
        wake: WakeChange::Keep,
        feed: Vec::new(),
    }
}

/// Every game id, page by page.
pub async fn all_ids(store: &(impl OperatorStore + ?Sized)) -> Vec<GameId> {
    let mut ids = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let page = store.game_ids(cursor.as_ref(), 2).await.unwrap();
        ids.extend(page.items);
        match page.next {
            Some(next) => cursor = Some(next),
            None => return ids,
        }
    }
}

pub async fn created(store: &(impl GameStore + ?Sized), id: &str) -> Head {
    let head = head(id);
    store.create(&head, &[]).await.unwrap();
    head
}

/// A finished game of `plies` moves as an import writes it: head at revision 1, the moves,
/// an ending, and a seat named only by the archive.
pub fn whole_game(id: &str, plies: u32) -> StoredGame {
    let texts: Vec<String> = (0..plies).map(|ply| format!("m{ply}")).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut commit = append(&head(id), &texts, None);
    commit.head.waiting = None;
    commit.head.to_move = None;
    commit.head.doc.seats[1] = SeatDoc::Named {
        name: "Morphy".into(),
    };
    commit.head.doc.imported = true;
    commit.head.doc.archive_tags = vec![("Event".into(), "Paris".into())];
    commit.head.doc.status = Status::Finished;
    commit.head.doc.ending = Some(Ending {
        at: at(500),
        rule: Reason::Rule(EndRule::Checkmate),
        results: vec![SeatResult::Win, SeatResult::Loss],
        by: None,
    });
    StoredGame {
        head: commit.head,
        moves: commit.moves,
        events: Vec::new(),
    }
}

/// `game` with a draw offer by seat 0 before each move of `plies` (a ply past the last move
/// puts it after the last), its log chained again and its head ending at the last hash.
pub fn with_events(mut game: StoredGame, plies: &[u32]) -> StoredGame {
    game.events = (0..)
        .zip(plies)
        .map(|(seq, ply)| EventRecord {
            seq,
            ply: *ply,
            seat: Some(Seat(0)),
            at: at(400 + i64::from(seq)),
            event: GameEvent::DrawOffered,
            prev_hash: String::new(),
            hash: String::new(),
        })
        .collect();
    for mv in &mut game.moves {
        mv.prev_hash.clear();
        mv.hash.clear();
    }
    rechain(&game.head.id, &mut game.moves, &mut game.events);
    game.head.events = game.events.len() as u32;
    game.head.last_hash = game
        .entries()
        .last()
        .map_or(String::new(), |entry| entry.hash().to_string());
    game
}

/// Every item of a list, page by page of `size`, checking no page is larger.
pub async fn every_page<T, F, Fut>(size: usize, mut page: F) -> Vec<T>
where
    F: FnMut(Option<Cursor>) -> Fut,
    Fut: std::future::Future<Output = Result<missive_domain::Page<T>, StoreError>>,
{
    let mut items = Vec::new();
    let mut cursor = None;
    loop {
        let found = page(cursor).await.unwrap();
        assert!(found.items.len() <= size);
        items.extend(found.items);
        match found.next {
            Some(next) => cursor = Some(next),
            None => return items,
        }
    }
}

/// Every wake-up due by `until`, over every shard.
pub async fn due(
    store: &(impl WakeStore + ?Sized),
    until: DateTime<Utc>,
) -> Vec<missive_store::Wake> {
    let mut wakes = Vec::new();
    for shard in 0..store.wake_shards() {
        wakes.extend(
            every_page(2, |cursor| async move {
                store.due(shard, until, cursor.as_ref(), 2).await
            })
            .await,
        );
    }
    wakes.sort_by_key(|wake| (wake.at, wake.subject.to_string()));
    wakes
}

/// An open challenge of `variant` published at minute `minute` by ann, for two seats.
pub fn challenge(id: &str, variant: &str, days: u16, minute: i64) -> Challenge {
    Challenge {
        id: ChallengeId(id.to_string()),
        revision: 1,
        creator: "ann".into(),
        variant: variant.into(),
        options: String::new(),
        time_control: TimeControl::DaysPerMove { days },
        rated: false,
        min_rating: None,
        max_rating: None,
        seats: vec![Some("ann".into()), None],
        created_at: at(minute),
        expires_at: at(minute + 100),
        state: ChallengeState::Open,
    }
}

/// The commit that starts a game of ann and bob from nothing, bob to move first.
pub fn start_of(id: &str) -> Commit {
    let mut head = head(id);
    head.revision = 1;
    head.waiting = Some(Waiting {
        player: "ann".into(),
        since: at(5),
        deadline: at(65),
    });
    Commit {
        head,
        expected_revision: 0,
        expected_ply: 0,
        expected_events: 0,
        moves: Vec::new(),
        events: Vec::new(),
        finishes: false,
        cancels: false,
        wake: WakeChange::At(at(5)),
        feed: Vec::new(),
    }
}
