//! Three Kingdoms Xiangqi (San Guo Qi, seed 002): the variant `sanguo`, three seats.
//!
//! Three 9x5 half boards (135 points) joined across a three-armed river and at a central
//! triangle of the three e5 points, as `docs/rules/sanguo.md` describes. Nations move in
//! the order Shu, Wu, Wei; a nation is out when its general is captured or when it has no
//! legal move at its turn, and the nation that made the last move takes over its army.
//! Eliminations are settled inside [`Position::play`]: after every move the turn passes to
//! the next nation still in the game, and if that nation has no legal move it is
//! eliminated on the spot (its army passing to the nation that just moved) and the turn
//! passes on. A position therefore never has a nation to move without a legal move while
//! two nations are in the game.

mod board;
mod diagram;
mod graph;
mod notation;
mod text;
mod types;

pub use board::{NO_CAPTURE_LIMIT, Sanguo, SanguoKey};
pub use text::START_TEXT;
pub use types::{Move, Nation, Piece, Point, Role, parse_point, point_name};

use crate::position::occurrences;
use crate::{
    Diagram, EndRule, MoveError, Notation, OptionSpec, Options, Outcome, Position, PositionError,
    Seat, SeatResult,
};

/// The options of the variant.
static OPTIONS: [OptionSpec; 1] = [OptionSpec {
    key: "flags",
    values: &["on", "off"],
    default: "on",
    description: "two flags per nation on d3 and f3 (two points straight, one diagonally onward)",
}];

/// True unless `options` turn the flags off (options without the key keep the default).
fn flags(options: &Options) -> bool {
    options.get("flags") != Some("off")
}

impl Sanguo {
    /// How many times the last position of `history` occurred in it (itself included).
    pub fn repetitions(history: &[Sanguo]) -> usize {
        occurrences(history, |_, _| true)
    }

    /// The result when `leaver` leaves the game by `rule` (resignation, timeout,
    /// abandonment), or `None` when that ends nothing: a nation already out may leave
    /// freely. A nation still in the game loses and the game ends at once: the one nation
    /// left wins, two left share the win; nations already out have lost.
    pub fn departure(&self, seat: Seat, rule: EndRule) -> Option<Outcome> {
        self.is_playing(seat).then(|| {
            let leaver = Nation::from_index(seat.index());
            let stay: Vec<Nation> = self
                .nations_in_game()
                .into_iter()
                .filter(|&n| n != leaver)
                .collect();
            self.standing(
                rule,
                &stay,
                if stay.len() == 1 {
                    SeatResult::Win
                } else {
                    SeatResult::SharedWin
                },
            )
        })
    }

    /// An outcome where the nations of `kept` get `result` and every other nation loses.
    fn standing(&self, rule: EndRule, kept: &[Nation], result: SeatResult) -> Outcome {
        Outcome {
            rule,
            results: Nation::ALL
                .iter()
                .map(|n| {
                    if kept.contains(n) {
                        result
                    } else {
                        SeatResult::Loss
                    }
                })
                .collect(),
        }
    }

    /// The departure of a seat through the trait's `resign` and `timeout`, which must give
    /// an outcome: for a nation already out (where [`Sanguo::departure`] ends nothing)
    /// this is the result the game would have if it ended now with the nations in it
    /// sharing the win. The game service asks [`Position::is_playing`] first.
    fn departure_or_standing(&self, seat: Seat, rule: EndRule) -> Outcome {
        self.departure(seat, rule).unwrap_or_else(|| {
            let stay = self.nations_in_game();
            let result = if stay.len() == 1 {
                SeatResult::Win
            } else {
                SeatResult::SharedWin
            };
            self.standing(rule, &stay, result)
        })
    }
}

impl Position for Sanguo {
    type Move = Move;
    type Key = SanguoKey;

    const ID: &'static str = "sanguo";
    const DESCRIPTION: &'static str = "Three Kingdoms Xiangqi: three nations on three joined half boards, armies pass to the victor";
    const SEATS: &'static [&'static str] = &["shu", "wu", "wei"];

    fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    fn start(options: &Options) -> Sanguo {
        Sanguo::start_position(flags(options))
    }

    fn from_text(text: &str, options: &Options) -> Result<Sanguo, PositionError> {
        Sanguo::from_position_text(text, flags(options))
    }

    fn to_text(&self) -> String {
        self.to_position_text()
    }

    fn to_move(&self) -> Seat {
        Seat(self.turn().index() as u8)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let in_game = self.nations_in_game();
        if let [winner] = in_game.as_slice() {
            return Some(self.standing(EndRule::LastGeneralStanding, &[*winner], SeatResult::Win));
        }
        (self.clock() >= NO_CAPTURE_LIMIT).then(|| self.draw(EndRule::NoCaptureLimit))
    }

    fn key(&self) -> SanguoKey {
        Sanguo::key(self)
    }

    fn reversible_plies(&self) -> usize {
        self.clock() as usize
    }

    fn history_outcome(history: &[Sanguo]) -> Option<Outcome> {
        let current = history.last()?;
        (Sanguo::repetitions(history) >= 3).then(|| current.draw(EndRule::ThreefoldRepetition))
    }

    /// A draw among the nations still in the game; nations already out have lost.
    fn draw(&self, rule: EndRule) -> Outcome {
        self.standing(rule, &self.nations_in_game(), SeatResult::Draw)
    }

    fn is_playing(&self, seat: Seat) -> bool {
        seat.index() < Nation::ALL.len() && self.is_in_game(Nation::from_index(seat.index()))
    }

    fn timeout(&self, seat: Seat) -> Outcome {
        self.departure_or_standing(seat, EndRule::Timeout)
    }

    fn resign(&self, seat: Seat) -> Outcome {
        self.departure_or_standing(seat, EndRule::Resignation)
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Long => self.long_notation(mv),
            Notation::Short => self.short_notation(mv),
        }
    }

    fn diagram(&self) -> Diagram {
        self.board_diagram()
    }

    fn move_spots(&self, mv: Move) -> Vec<String> {
        vec![point_name(mv.from), point_name(mv.to)]
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_text(text)
    }
}
