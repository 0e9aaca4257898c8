//! How a game ends: each seat's result and the rule that decided it.

use std::fmt;

use crate::Seat;

/// One seat's result. Three-seat games can end in a win shared by two nations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum SeatResult {
    /// The seat won alone.
    Win,
    /// The seat shares the win with another seat.
    SharedWin,
    /// The game is drawn for this seat.
    Draw,
    /// The seat lost.
    Loss,
}

impl SeatResult {
    /// Every result, best first.
    pub const ALL: [SeatResult; 4] = [
        SeatResult::Win,
        SeatResult::SharedWin,
        SeatResult::Draw,
        SeatResult::Loss,
    ];

    /// The result [`SeatResult::as_str`] names `text`, if any.
    pub fn parse(text: &str) -> Option<SeatResult> {
        SeatResult::ALL.into_iter().find(|r| r.as_str() == text)
    }

    /// A short word for tags and JSON: `win`, `shared-win`, `draw`, `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatResult::Win => "win",
            SeatResult::SharedWin => "shared-win",
            SeatResult::Draw => "draw",
            SeatResult::Loss => "loss",
        }
    }
}

/// The rule that ended a game. Board rules are decided by the rules crate; the game-level
/// rules (agreement, resignation, timeout, abandonment) are decided by the game service,
/// which uses [`crate::AnyGame::timeout`] and [`crate::AnyGame::resign`] to compute results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum EndRule {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a draw in chess).
    Stalemate,
    /// The side to move is not in check and has no legal move, and loses (xiangqi).
    NoLegalMove,
    /// The same position occurred for the third time and one side had given check with
    /// every one of its moves since its first occurrence: that side loses (xiangqi).
    PerpetualCheck,
    /// Neither side can possibly mate.
    InsufficientMaterial,
    /// The same position occurred for the fifth time (automatic).
    FivefoldRepetition,
    /// 75 moves by each side without a capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The same position occurred three times: a draw claimed by a player (chess, dynamo)
    /// or applied by the rules (xiangqi, Three Kingdoms Xiangqi).
    ThreefoldRepetition,
    /// 50 moves by each side without a capture or pawn move, claimed by a player.
    FiftyMoves,
    /// The variant's limit of plies without a capture was reached: a draw (xiangqi: 60
    /// moves by each side).
    MoveLimit,
    /// The players agreed a draw.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// A player ran out of time but no opponent could ever win: a draw.
    TimeoutVsInsufficientMaterial,
    /// A player left the game.
    Abandonment,
    /// Only one nation still has its general on the board (Three Kingdoms Xiangqi).
    LastGeneralStanding,
    /// 180 plies in a row without a capture or an elimination (Three Kingdoms Xiangqi).
    NoCaptureLimit,
}

impl EndRule {
    /// Every rule.
    pub const ALL: [EndRule; 17] = [
        EndRule::Checkmate,
        EndRule::Stalemate,
        EndRule::NoLegalMove,
        EndRule::PerpetualCheck,
        EndRule::InsufficientMaterial,
        EndRule::FivefoldRepetition,
        EndRule::SeventyFiveMoves,
        EndRule::ThreefoldRepetition,
        EndRule::FiftyMoves,
        EndRule::MoveLimit,
        EndRule::Agreement,
        EndRule::Resignation,
        EndRule::Timeout,
        EndRule::TimeoutVsInsufficientMaterial,
        EndRule::Abandonment,
        EndRule::LastGeneralStanding,
        EndRule::NoCaptureLimit,
    ];

    /// The rule [`EndRule::as_str`] names `text`, if any.
    pub fn parse(text: &str) -> Option<EndRule> {
        EndRule::ALL.into_iter().find(|r| r.as_str() == text)
    }

    /// A stable kebab-case name used in archives, JSON and the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            EndRule::Checkmate => "checkmate",
            EndRule::Stalemate => "stalemate",
            EndRule::NoLegalMove => "no-legal-move",
            EndRule::PerpetualCheck => "perpetual-check",
            EndRule::InsufficientMaterial => "insufficient-material",
            EndRule::FivefoldRepetition => "fivefold-repetition",
            EndRule::SeventyFiveMoves => "seventy-five-moves",
            EndRule::ThreefoldRepetition => "threefold-repetition",
            EndRule::FiftyMoves => "fifty-moves",
            EndRule::MoveLimit => "move-limit",
            EndRule::Agreement => "agreement",
            EndRule::Resignation => "resignation",
            EndRule::Timeout => "timeout",
            EndRule::TimeoutVsInsufficientMaterial => "timeout-vs-insufficient-material",
            EndRule::Abandonment => "abandonment",
            EndRule::LastGeneralStanding => "last-general-standing",
            EndRule::NoCaptureLimit => "no-capture-limit",
        }
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finished game: the rule that ended it and one result per seat, in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The rule that ended the game.
    pub rule: EndRule,
    /// Each seat's result, indexed by [`Seat::index`].
    pub results: Vec<SeatResult>,
}

impl Outcome {
    /// `winner` wins alone, every other seat of `seats` loses.
    pub fn win(rule: EndRule, winner: Seat, seats: usize) -> Outcome {
        let results = (0..seats)
            .map(|i| {
                if i == winner.index() {
                    SeatResult::Win
                } else {
                    SeatResult::Loss
                }
            })
            .collect();
        Outcome { rule, results }
    }

    /// Every one of `seats` draws.
    pub fn draw(rule: EndRule, seats: usize) -> Outcome {
        Outcome {
            rule,
            results: vec![SeatResult::Draw; seats],
        }
    }

    /// The seat that won alone, if any.
    pub fn winner(&self) -> Option<Seat> {
        let mut winners = self
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == SeatResult::Win);
        match (winners.next(), winners.next()) {
            (Some((i, _)), None) => Some(Seat(i as u8)),
            _ => None,
        }
    }

    /// True when every seat drew.
    pub fn is_draw(&self) -> bool {
        self.results.iter().all(|r| *r == SeatResult::Draw)
    }

    /// The result in PGN form for two seats (`1-0`, `0-1`, `1/2-1/2`); for three seats each
    /// nation's score separated by dashes (`1-0-0`, `1/2-1/2-0`, `1/3-1/3-1/3`). A shared
    /// win or a draw splits the point among the seats that share it.
    pub fn score_text(&self) -> String {
        let sharing = |result: SeatResult| self.results.iter().filter(|r| **r == result).count();
        let share = |r: SeatResult| match (r, sharing(r)) {
            (SeatResult::Loss, _) => "0".to_string(),
            (_, 1) => "1".to_string(),
            (_, n) => format!("1/{n}"),
        };
        self.results
            .iter()
            .map(|r| share(*r))
            .collect::<Vec<_>>()
            .join("-")
    }
}

/// A draw a player may claim, as opposed to one the rules apply by themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The current position has occurred at least three times.
    ThreefoldRepetition,
    /// At least 50 moves by each side without a capture or pawn move.
    FiftyMoves,
}

impl Claim {
    /// Every claim.
    pub const ALL: [Claim; 2] = [Claim::ThreefoldRepetition, Claim::FiftyMoves];

    /// The rule that ends the game when this claim is upheld.
    pub fn rule(self) -> EndRule {
        match self {
            Claim::ThreefoldRepetition => EndRule::ThreefoldRepetition,
            Claim::FiftyMoves => EndRule::FiftyMoves,
        }
    }

    /// Parses `threefold-repetition` or `fifty-moves` (also `threefold`, `fifty`).
    pub fn parse(text: &str) -> Option<Claim> {
        match text {
            "threefold-repetition" | "threefold" => Some(Claim::ThreefoldRepetition),
            "fifty-moves" | "fifty" | "50-moves" => Some(Claim::FiftyMoves),
            _ => None,
        }
    }
}
