//! What the service tests share: a service over a fresh store with a hand-driven clock, and
//! a small three-seat variant to show the service knows no variant by name.

#![allow(dead_code)] // each test file uses its own part of this module

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use missive_domain::{GameId, TimeControl};
use missive_game::{GameService, ManualClock, MoveAccepted, MoveRequest, NewGame, SeatRequest};
use missive_rules::{
    Diagram, EndRule, Ink, MoveError, Notation, Options, Outcome, Position, PositionError, Seat,
    SetupError, Variant, registry,
};
use missive_store::testing::{Kind, TestStore};

/// A service over a fresh store of `kind`, its clock standing at [`start`].
pub struct Setup {
    pub service: GameService,
    pub clock: Arc<ManualClock>,
    pub test: TestStore,
}

/// 2030-01-01 00:00 UTC.
pub fn start() -> DateTime<Utc> {
    DateTime::from_timestamp(1_893_456_000, 0).unwrap()
}

pub async fn setup(kind: Kind) -> Setup {
    let test = TestStore::new(kind).await;
    let clock = Arc::new(ManualClock::new(start()));
    let service = GameService::new(test.store.clone(), clock.clone()).with_catalog(catalog);
    Setup {
        service,
        clock,
        test,
    }
}

impl Setup {
    /// A chess game of ann (white) and bob (black) that has started.
    pub async fn chess(&self, time_control: TimeControl) -> GameId {
        self.started("chess", &["ann", "bob"], time_control).await
    }

    /// A game of `variant` created by the first player, the others invited and joined
    /// (each signed up first, as an invitation needs).
    pub async fn started(
        &self,
        variant: &str,
        players: &[&str],
        time_control: TimeControl,
    ) -> GameId {
        self.sign_up(&players[1..]).await;
        let mut seats = vec![SeatRequest::Creator];
        seats.extend(players[1..].iter().map(|p| invite(p)));
        let id = self
            .service
            .create_game(NewGame {
                creator: players[0].into(),
                variant: variant.into(),
                time_control,
                ..chess_game(seats)
            })
            .await
            .unwrap();
        for player in &players[1..] {
            self.service.join(&id, player, None).await.unwrap();
        }
        id
    }

    /// Signs up each of `players` (with an address made of the handle) unless signed up.
    pub async fn sign_up(&self, players: &[&str]) {
        for player in players {
            let email = format!("{player}@example.org");
            self.service.confirm_sign_up(player, &email).await.unwrap();
        }
    }

    /// Plays `text` for `player` at the current ply with a fresh key.
    pub async fn play(&self, game: &GameId, player: &str, text: &str) -> MoveAccepted {
        self.try_play(game, player, text).await.unwrap()
    }

    pub async fn try_play(
        &self,
        game: &GameId,
        player: &str,
        text: &str,
    ) -> Result<MoveAccepted, missive_game::ServiceError> {
        // The ply as the player sees the game; 0 for one they cannot see.
        let ply = self
            .service
            .game_view(game, Some(player))
            .await
            .map_or(0, |view| view.ply);
        self.service
            .submit_move(game, &request(player, ply, text))
            .await
    }

    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
    }

    /// The service's clock now.
    pub fn clock_now(&self) -> DateTime<Utc> {
        missive_game::Clock::now(self.clock.as_ref())
    }

    /// Every game in the store replays to its head.
    pub async fn assert_consistent(&self) {
        let report = self.service.check_all().await.unwrap();
        assert!(report.problems.is_empty(), "{:?}", report.problems);
    }
}

/// A chess game created by ann with `seats`, three days per move, unrated.
pub fn chess_game(seats: Vec<SeatRequest>) -> NewGame {
    NewGame {
        creator: "ann".into(),
        variant: "chess".into(),
        options: String::new(),
        start_position: None,
        seats,
        time_control: THREE_DAYS,
        rated: false,
        private: false,
    }
}

/// An invitation for `player`.
pub fn invite(player: &str) -> SeatRequest {
    SeatRequest::Invite {
        player: player.into(),
    }
}

/// A move request with a key of its own.
pub fn request(player: &str, expected_ply: u32, text: &str) -> MoveRequest {
    MoveRequest {
        player: player.into(),
        expected_ply,
        key: missive_store::testing::unique_name(player),
        text: text.into(),
        offer_draw: false,
        message: None,
    }
}

pub const THREE_DAYS: TimeControl = TimeControl::DaysPerMove { days: 3 };

/// The rules registry plus `trio`.
pub fn catalog(id: &str) -> Result<&'static dyn Variant, SetupError> {
    if id == Trio::ID {
        return Ok(&TRIO);
    }
    registry::variant(id)
}

/// Three seats take turns adding 1 or 2 to their own count (`a1`, `a2`); after nine moves
/// the highest count wins alone, a tie for the top is a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trio {
    counts: [u8; 3],
    plies: u8,
}

impl Position for Trio {
    type Move = u8;
    type Key = ([u8; 3], u8);

    const ID: &'static str = "trio";
    const DESCRIPTION: &'static str = "A three-seat counting game for tests.";
    const SEATS: &'static [&'static str] = &["red", "green", "blue"];

    fn start(_: &Options) -> Trio {
        Trio {
            counts: [0; 3],
            plies: 0,
        }
    }

    fn from_text(text: &str, _: &Options) -> Result<Trio, PositionError> {
        let numbers: Vec<u8> = text
            .split(',')
            .map(|n| {
                n.parse()
                    .map_err(|_| PositionError::new("counts", "not a number"))
            })
            .collect::<Result<_, _>>()?;
        match numbers[..] {
            [r, g, b, plies] => Ok(Trio {
                counts: [r, g, b],
                plies,
            }),
            _ => Err(PositionError::new("counts", "expected r,g,b,plies")),
        }
    }

    fn to_text(&self) -> String {
        let [r, g, b] = self.counts;
        format!("{r},{g},{b},{}", self.plies)
    }

    fn to_move(&self) -> Seat {
        Seat(self.plies % 3)
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.plies < 9 {
            out.extend([1, 2]);
        }
    }

    fn play(&mut self, mv: u8) {
        self.counts[usize::from(self.plies % 3)] += mv;
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.plies < 9 {
            return None;
        }
        let top = *self.counts.iter().max().unwrap();
        let leaders: Vec<usize> = (0..3).filter(|i| self.counts[*i] == top).collect();
        Some(match leaders[..] {
            [winner] => Outcome::win(EndRule::Checkmate, Seat(winner as u8), 3),
            _ => Outcome::draw(EndRule::Stalemate, 3),
        })
    }

    fn key(&self) -> ([u8; 3], u8) {
        (self.counts, self.plies)
    }

    fn write_move(&self, mv: u8, _: Notation) -> String {
        format!("a{mv}")
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        match text {
            "a1" => Ok(1),
            "a2" => Ok(2),
            _ => Err(MoveError::Unreadable {
                text: text.into(),
                reason: "expected a1 or a2".into(),
            }),
        }
    }

    /// No board: the seats and who is to move.
    fn diagram(&self) -> Diagram {
        Diagram::without_board(
            Self::ID,
            Self::SEATS,
            &[Ink::Red, Ink::Green, Ink::Blue],
            Some(self.to_move()),
        )
    }

    fn move_spots(&self, _: u8) -> Vec<String> {
        Vec::new()
    }
}

static TRIO: registry::Entry<Trio> = registry::entry();

/// The kinds of the events of `game`'s log, with their seats.
pub async fn logged_events(s: &Setup, game: &GameId) -> Vec<(String, u8)> {
    let stored = s.test.store.load(game).await.unwrap().unwrap();
    stored
        .events
        .iter()
        .map(|record| {
            let kind = serde_json::to_value(&record.event).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string();
            (kind, record.seat.map_or(99, |seat| seat.0))
        })
        .collect()
}
