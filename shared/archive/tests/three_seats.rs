//! Three-seat games: a small three-seat race game, whose results are easy to steer, tests
//! seat tags, three-part results, shared wins, events by any seat and the digest end to end
//! (Three Kingdoms Xiangqi itself round-trips with every other registered variant in
//! `roundtrip.rs`). A game of a variant nobody registered is an error of that game only.

use chrono::{DateTime, Utc};
use missive_archive::{
    Entry, Event, EventKind, ExportOptions, GameRecord, GameResult, ImportError, KeyPair,
    MoveEntry, Reader, Reason, Registry, Rules, export, read, sign, verify,
};
use missive_rules::{
    Diagram, EndRule, Ink, MoveError, Notation, Options, Outcome, Position, PositionError, Seat,
    SeatResult, SetupError, Variant, registry,
};

/// Three nations add 1, 2 or 3 to a shared count in turn. Reaching 10 exactly wins alone;
/// passing it gives the other two a shared win.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Race {
    count: u8,
    turn: u8,
}

const TARGET: u8 = 10;

impl Position for Race {
    type Move = u8;
    type Key = (u8, u8);

    const ID: &'static str = "race3";
    const DESCRIPTION: &'static str = "A three-seat counting race (tests only)";
    const SEATS: &'static [&'static str] = &["shu", "wu", "wei"];

    fn start(_: &Options) -> Race {
        Race { count: 0, turn: 0 }
    }

    fn from_text(text: &str, _: &Options) -> Result<Race, PositionError> {
        let (count, turn) = text
            .split_once(' ')
            .ok_or_else(|| PositionError::new("position", "expected `count seat`"))?;
        Ok(Race {
            count: count
                .parse()
                .map_err(|_| PositionError::new("count", "not a number"))?,
            turn: Self::SEATS
                .iter()
                .position(|s| *s == turn)
                .ok_or_else(|| PositionError::new("seat", "unknown seat"))? as u8,
        })
    }

    fn to_text(&self) -> String {
        format!("{} {}", self.count, Self::SEATS[usize::from(self.turn)])
    }

    fn to_move(&self) -> Seat {
        Seat(self.turn)
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.count < TARGET {
            out.extend([1, 2, 3]);
        }
    }

    fn play(&mut self, mv: u8) {
        self.count += mv;
        self.turn = (self.turn + 1) % 3;
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = usize::from((self.turn + 2) % 3);
        let results = match self.count {
            c if c < TARGET => return None,
            TARGET => (0..3)
                .map(|i| {
                    if i == last {
                        SeatResult::Win
                    } else {
                        SeatResult::Loss
                    }
                })
                .collect(),
            _ => (0..3)
                .map(|i| {
                    if i == last {
                        SeatResult::Loss
                    } else {
                        SeatResult::SharedWin
                    }
                })
                .collect(),
        };
        Some(Outcome {
            rule: EndRule::Checkmate,
            results,
        })
    }

    fn key(&self) -> (u8, u8) {
        (self.count, self.turn)
    }

    fn write_move(&self, mv: u8, notation: Notation) -> String {
        match notation {
            Notation::Long => format!("add{mv}"),
            Notation::Short => format!("+{mv}"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let digit = text
            .strip_prefix("add")
            .or_else(|| text.strip_prefix('+'))
            .and_then(|d| d.parse().ok())
            .filter(|d| (1..=3).contains(d))
            .ok_or_else(|| MoveError::Unreadable {
                text: text.into(),
                reason: "expected +1, +2 or +3".into(),
            })?;
        if self.count >= TARGET {
            return Err(MoveError::Illegal {
                text: text.into(),
                reason: "the race is over".into(),
            });
        }
        Ok(digit)
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

static RACE: registry::Entry<Race> = registry::entry();

/// The registry plus the race.
struct WithRace;

impl Rules for WithRace {
    fn variant(&self, id: &str) -> Result<&dyn Variant, SetupError> {
        if id == Race::ID {
            Ok(&RACE)
        } else {
            registry::variant(id)
        }
    }
}

fn at(minutes: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(1_800_000_000 + minutes * 60, 0)
}

fn moves(adds: &[u8]) -> Vec<Entry> {
    adds.iter()
        .enumerate()
        .map(|(i, add)| Entry::Move(MoveEntry::new(format!("add{add}"), at(i as i64 * 90))))
        .collect()
}

fn event(kind: EventKind, seat: u8, minutes: i64) -> Entry {
    Entry::Event(Event {
        kind,
        seat: Seat(seat),
        at: at(minutes),
    })
}

fn record(entries: Vec<Entry>, result: Option<GameResult>) -> GameRecord {
    GameRecord {
        variant: Race::ID.into(),
        options: String::new(),
        players: vec!["Liu Bei".into(), "Sun Quan".into(), "Cao Cao".into()],
        start: None,
        tags: vec![
            ("Event".into(), "Red Cliffs".into()),
            ("Site".into(), "Jing".into()),
            ("Date".into(), "2026.03.01".into()),
            ("Round".into(), "1".into()),
            ("TimeControl".into(), "1/3".into()),
        ],
        entries,
        result,
        signature: None,
    }
}

fn result(rule: &str, results: [SeatResult; 3]) -> Option<GameResult> {
    Some(GameResult {
        rule: rule.into(),
        results: results.to_vec(),
    })
}

use SeatResult::{Draw, Loss, SharedWin, Win};

/// Hand-built games: one per kind of three-seat ending.
fn games() -> Vec<(GameRecord, &'static str)> {
    let mut shared = moves(&[3, 3, 3, 2]);
    shared.insert(1, event(EventKind::DrawOffered, 2, 50));
    shared.insert(2, event(EventKind::DrawDeclined, 0, 60));
    let mut resigned = moves(&[1, 2]);
    resigned.push(event(EventKind::Vacation { days: 14 }, 1, 300));
    resigned.push(event(EventKind::Resigned, 2, 400));
    let mut agreed = moves(&[2]);
    agreed.push(event(EventKind::DrawOffered, 1, 200));
    agreed.push(event(EventKind::DrawAccepted, 2, 210));
    agreed.push(event(EventKind::DrawAccepted, 0, 220));
    vec![
        (
            record(moves(&[3, 3, 3, 1]), result("checkmate", [Win, Loss, Loss])),
            "1-0-0",
        ),
        (
            record(shared, result("checkmate", [Loss, SharedWin, SharedWin])),
            "0-1/2-1/2",
        ),
        // The default resignation: the next seat after the one resigning wins.
        (
            record(resigned, result("resignation", [Win, Loss, Loss])),
            "1-0-0",
        ),
        (
            record(agreed, result("agreement", [Draw, Draw, Draw])),
            "1/3-1/3-1/3",
        ),
        // A variant's own rule the archive does not know is kept as recorded.
        (
            record(
                moves(&[1]),
                result("elimination", [SharedWin, SharedWin, Loss]),
            ),
            "1/2-1/2-0",
        ),
        (record(moves(&[1, 1]), None), "*"),
    ]
}

#[test]
fn three_seat_games_round_trip_with_their_results() {
    let key = KeyPair::from_seed([3; 32]);
    for (mut game, score) in games() {
        sign(&mut game, &key, &WithRace).expect("signs");
        let text = export(&game, ExportOptions::default(), &WithRace).expect("exports");
        assert!(text.contains("[Shu \"Liu Bei\"]\n[Wu \"Sun Quan\"]\n[Wei \"Cao Cao\"]\n"));
        assert!(text.contains(&format!("[Result \"{score}\"]")), "{text}");
        assert!(text.contains("[Variant \"race3\"]"));
        let back: Vec<_> = Reader::new(text.as_bytes(), &WithRace).collect();
        let [Ok(imported)] = back.as_slice() else {
            panic!("one game back: {back:?}\n{text}");
        };
        assert_eq!(imported.record, game, "{text}");
        assert!(verify(imported, Some(&key.public())).is_empty());
        let again = export(&imported.record, ExportOptions::default(), &WithRace).expect("again");
        assert_eq!(again, text);
    }
}

#[test]
fn three_seat_movetext_numbers_rounds() {
    let (game, _) = &games()[0];
    let text = export(game, ExportOptions::default(), &WithRace).expect("exports");
    let movetext = text.split("\n\n").nth(1).expect("movetext");
    assert!(
        movetext.starts_with("1. +3 {[%ccsnt 2027.01.15,08:00:00]} 1... +3"),
        "{movetext}"
    );
    assert!(movetext.contains("2. +1"), "{movetext}");
}

#[test]
fn a_result_the_moves_contradict_is_refused() {
    let game = record(moves(&[3, 3, 3, 1]), result("checkmate", [Loss, Win, Loss]));
    let error = export(&game, ExportOptions::default(), &WithRace).expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("the moves end the game by checkmate (1-0-0)"),
        "{error}"
    );
}

#[test]
fn an_unregistered_variant_is_an_error_of_its_game_only() {
    let shogi = "[Event \"?\"]\n[Sente \"a\"]\n[Gote \"b\"]\n[Result \"*\"]\n\
                 [Variant \"shogi\"]\n\n1. P7g7f *\n\n";
    let chess = "[Event \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let text = format!("{shogi}{chess}");
    let games: Vec<_> = read(text.as_bytes()).collect();
    assert_eq!(games.len(), 2);
    let Err(ImportError {
        game: 1,
        line: 5,
        column: 1,
        reason: Reason::Setup(SetupError::UnknownVariant { id, .. }),
    }) = &games[0]
    else {
        panic!("{:?}", games[0]);
    };
    assert_eq!(id, "shogi");
    let chess_game = games[1].as_ref().expect("the chess game imports");
    assert_eq!(chess_game.record.players, ["a", "b"]);
    let _ = Registry;
}
