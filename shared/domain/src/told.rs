//! Who is told what of a change to a game: the feed items written with the change itself
//! (its moves and notes to the other players, an elimination and an organiser's acts, the
//! start and the end to all, the turn to the player now to move), those of a new game's
//! invitations and of a challenge's last seat taken, and those of a tournament's start and
//! end.

use chrono::{DateTime, Utc};

use crate::{
    ChallengeId, EventRecord, FeedEvent, FeedItem, GameDoc, GameEvent, GameId, Head, LogEntry,
    MoveRecord, Seat, SeatDoc, Status, Tournament, TournamentState, merged,
};

/// What the players of the game are told of the change from `before` to `after` that
/// appended `moves` and `events` at `now`: each move and note (draw offers and answers,
/// messages) to the game's other players (a move the service played from a conditional
/// line to its own player too), an elimination and each act of the tournament's organiser
/// (a pause, a resumption, an extension, an adjudication) to all, the start to all, the end
/// to every member, and the turn to the player now to move; in that order.
pub fn told_of_change(
    before: &Head,
    after: &Head,
    moves: &[MoveRecord],
    events: &[EventRecord],
    now: DateTime<Utc>,
) -> Vec<FeedItem> {
    let doc = &after.doc;
    let mut feed = Feed::new(after, now);
    for entry in merged(moves, events) {
        match entry {
            LogEntry::Move(mv) => feed.moved(mv),
            LogEntry::Event(event) => match organiser_event(&event.event, after) {
                Some(told) => feed.tell(doc.players(), told),
                None => feed.event(event),
            },
        }
    }
    let started = before.doc.status == Status::Forming && doc.status == Status::Active;
    if started {
        feed.tell(doc.players(), FeedEvent::GameStarted);
    }
    let ended = matches!(doc.status, Status::Finished | Status::Cancelled)
        && before.doc.status != doc.status;
    if let (true, Some(ending)) = (ended, &doc.ending) {
        let event = FeedEvent::GameOver {
            status: doc.status,
            rule: ending.rule.clone(),
            results: ending.results.clone(),
        };
        feed.tell(doc.members(), event);
    }
    if let Some(waiting) = &after.waiting {
        let turn_moved_on = before.waiting.as_ref().map(|w| w.player.as_str())
            != Some(waiting.player.as_str())
            || before.ply != after.ply;
        if started || turn_moved_on {
            let event = FeedEvent::YourTurn {
                ply: after.ply,
                deadline: waiting.deadline,
            };
            feed.tell([waiting.player.as_str()], event);
        }
    }
    feed.items
}

/// What every player of a game is told of an act of its tournament's organiser, with the
/// turn at `after` (its seat and deadline); `None` for an event of another kind.
fn organiser_event(event: &GameEvent, after: &Head) -> Option<FeedEvent> {
    let deadline = after.waiting.as_ref().map(|waiting| waiting.deadline);
    Some(match event {
        GameEvent::Paused => FeedEvent::GamePaused,
        GameEvent::Resumed => FeedEvent::GameResumed { deadline },
        GameEvent::DeadlineExtended { by, days } => FeedEvent::DeadlineExtended {
            by: by.clone(),
            days: *days,
            seat: after.to_move.filter(|_| deadline.is_some()),
            deadline,
        },
        GameEvent::Adjudicated { by, reason } => FeedEvent::Adjudicated {
            by: by.clone(),
            reason: reason.clone(),
        },
        _ => return None,
    })
}

/// What the players of a tournament are told of its change from `before` to `after` at
/// `now`: each of them, once, that it started (when it became running from starting) or
/// that it finished.
pub fn told_of_tournament(
    before: &Tournament,
    after: &Tournament,
    now: DateTime<Utc>,
) -> Vec<FeedItem> {
    let (from, to) = (before.state, after.state);
    let event = if from == TournamentState::Starting && to == TournamentState::Running {
        FeedEvent::TournamentStarted {
            tournament: after.id.clone(),
            name: after.name.clone(),
        }
    } else if from != TournamentState::Finished && to == TournamentState::Finished {
        FeedEvent::TournamentFinished {
            tournament: after.id.clone(),
            name: after.name.clone(),
        }
    } else {
        return Vec::new();
    };
    after
        .players
        .iter()
        .map(|player| FeedItem {
            recipient: player.clone(),
            at: now,
            game: None,
            event: event.clone(),
        })
        .collect()
}

/// What the invited players of a new game are told: that they were invited.
pub fn told_of_invitations(head: &Head, now: DateTime<Utc>) -> Vec<FeedItem> {
    let invited = head.doc.seats.iter().filter_map(|seat| match seat {
        SeatDoc::Invited { player } => Some(player.as_str()),
        _ => None,
    });
    let mut feed = Feed::new(head, now);
    let by = head.doc.created_by.clone();
    feed.tell(invited, FeedEvent::Invited { by });
    feed.items
}

/// What the other players of a challenge's game are told when `by` took its last seat.
pub fn told_of_challenge_accepted(
    head: &Head,
    challenge: &ChallengeId,
    by: &str,
    now: DateTime<Utc>,
) -> Vec<FeedItem> {
    let mut feed = Feed::new(head, now);
    let others = head
        .doc
        .players()
        .into_iter()
        .filter(|player| *player != by);
    let event = FeedEvent::ChallengeAccepted {
        challenge: challenge.clone(),
        by: by.to_string(),
    };
    feed.tell(others, event);
    feed.items
}

/// Feed items being gathered for one change of a game.
struct Feed<'a> {
    game: &'a GameId,
    doc: &'a GameDoc,
    now: DateTime<Utc>,
    items: Vec<FeedItem>,
}

impl<'a> Feed<'a> {
    fn new(head: &'a Head, now: DateTime<Utc>) -> Feed<'a> {
        Feed {
            game: &head.id,
            doc: &head.doc,
            now,
            items: Vec::new(),
        }
    }

    fn tell<'p>(&mut self, players: impl IntoIterator<Item = &'p str>, event: FeedEvent) {
        for player in players {
            self.items.push(FeedItem {
                recipient: player.to_string(),
                at: self.now,
                game: Some(self.game.clone()),
                event: event.clone(),
            });
        }
    }

    /// Every player of the game but the one in `seat`.
    fn others(&self, seat: Seat) -> Vec<&'a str> {
        let doc: &'a GameDoc = self.doc;
        let actor = doc.player_in(seat);
        doc.players()
            .into_iter()
            .filter(|player| Some(*player) != actor)
            .collect()
    }

    fn moved(&mut self, mv: &MoveRecord) {
        let Some(player) = self.doc.player_in(mv.seat) else {
            return;
        };
        let event = FeedEvent::Moved {
            ply: mv.ply,
            seat: mv.seat,
            player: player.to_string(),
            long: mv.long.clone(),
            short: mv.short.clone(),
            draw_offer: mv.draw_offer,
            conditional: mv.conditional,
        };
        // A move played from its seat's conditional line was not made by its player just
        // now: they are told of it too.
        let told = match mv.conditional {
            true => self.doc.players(),
            false => self.others(mv.seat),
        };
        self.tell(told, event);
    }

    fn event(&mut self, record: &EventRecord) {
        let Some(seat) = record.seat else {
            return;
        };
        let Some(player) = self.doc.player_in(seat).map(str::to_string) else {
            return;
        };
        let event = match &record.event {
            GameEvent::DrawOffered => FeedEvent::DrawOffered { seat, player },
            GameEvent::DrawWithdrawn => FeedEvent::DrawWithdrawn { seat, player },
            GameEvent::DrawAccepted => FeedEvent::DrawAccepted { seat, player },
            GameEvent::DrawDeclined => FeedEvent::DrawDeclined { seat, player },
            GameEvent::Message { text } => FeedEvent::Message {
                seat,
                player,
                text: text.clone(),
            },
            GameEvent::Eliminated { heir } => {
                let doc: &'a GameDoc = self.doc;
                let everyone = doc.players();
                return self.tell(everyone, FeedEvent::Eliminated { seat, heir: *heir });
            }
            _ => return,
        };
        let others = self.others(seat);
        self.tell(others, event);
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::{TimeControl, TournamentId, TournamentStart, WithdrawalScoring};

    fn cup(state: TournamentState) -> Tournament {
        Tournament {
            id: TournamentId("01J00000000000000000000T01".into()),
            revision: 3,
            name: "Cup".into(),
            organiser: "tess".into(),
            variant: "chess".into(),
            options: String::new(),
            time_control: TimeControl::DaysPerMove { days: 3 },
            rated: false,
            size: 2,
            double: false,
            start: TournamentStart::WhenFull,
            withdrawal: WithdrawalScoring::Forfeit,
            timeouts_to_withdraw: None,
            invited: Vec::new(),
            players: vec!["ann".into(), "bob".into()],
            withdrawn: Vec::new(),
            games: Vec::new(),
            start_job: None,
            state,
            created_at: Utc.timestamp_opt(1_800_000_000, 0).unwrap(),
            started_at: None,
            paused_at: None,
            finished_at: None,
            told: Vec::new(),
        }
    }

    /// Each player is told of the start when the tournament becomes running from starting
    /// (not when a pause ends) and of the end when it becomes finished; of nothing else.
    #[test]
    fn a_tournament_tells_its_players_of_its_start_and_its_end_once() {
        use TournamentState::{Finished, Open, Paused, Running, Starting};
        let now = Utc.timestamp_opt(1_800_000_600, 0).unwrap();
        let told = |from, to| {
            let items = told_of_tournament(&cup(from), &cup(to), now);
            let recipients: Vec<String> = items.iter().map(|i| i.recipient.clone()).collect();
            assert!(items.iter().all(|i| i.game.is_none() && i.at == now));
            items.first().map(|item| (item.event.clone(), recipients))
        };
        let players = vec!["ann".to_string(), "bob".to_string()];
        let (id, name) = (cup(Open).id, "Cup".to_string());
        let started = FeedEvent::TournamentStarted {
            tournament: id.clone(),
            name: name.clone(),
        };
        let finished = FeedEvent::TournamentFinished {
            tournament: id,
            name,
        };
        assert_eq!(told(Starting, Running), Some((started, players.clone())));
        assert_eq!(
            told(Running, Finished),
            Some((finished.clone(), players.clone()))
        );
        assert_eq!(told(Paused, Finished), Some((finished, players)));
        for (from, to) in [
            (Open, Starting),
            (Running, Running),
            (Running, Paused),
            (Paused, Running),
            (Finished, Finished),
        ] {
            assert_eq!(told(from, to), None, "{from:?} to {to:?}");
        }
    }

    /// An item about a whole tournament is written without a `game`; one about a game
    /// keeps it, and items written before `game` could be absent read as they were.
    #[test]
    fn an_item_about_no_game_has_no_game_field() {
        let at = Utc.timestamp_opt(1_800_000_000, 0).unwrap();
        let item = FeedItem {
            recipient: "ann".into(),
            at,
            game: None,
            event: FeedEvent::GamePaused,
        };
        let text = serde_json::to_string(&item).unwrap();
        assert_eq!(
            text,
            r#"{"recipient":"ann","at":"2027-01-15T08:00:00Z","type":"game-paused"}"#
        );
        let stored =
            r#"{"recipient":"ann","at":"2027-01-15T08:00:00Z","game":"g1","type":"game-started"}"#;
        let read: FeedItem = serde_json::from_str(stored).unwrap();
        assert_eq!(read.game, Some(GameId("g1".into())));
        assert_eq!(serde_json::to_string(&read).unwrap(), stored);
    }
}
