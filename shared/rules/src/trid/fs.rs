//! The Federation Standard rule set (seed 000: Bartmess' FS 5.0 as clarified by Roth's
//! Federation Revised Standard 5.0, 2012): the variant `trid-fs`.
//!
//! Routes follow the highest-path rule (§4) with both paths of §5; attack boards move
//! along the pin graph of §7; castling is Roth's king-rook exchange (§9) on the start
//! layout of §3. Every interpretation is recorded in `docs/rules/trid-fs.md`.

use super::geometry::{BoardId, Cell, LevelSet, MAIN_LEVELS, Pin, Square};
use super::layout::Layout;
use super::rules::{BoardStep, Castling, Route, RuleSet};
use crate::chess::{Color, Role};
use crate::{OptionSpec, Options};

/// The Federation Standard rules, with the rook-pawn option of §11.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Federation {
    /// True when rook pawns may also step and capture inward (§11).
    pub rook_pawn: bool,
}

/// The rook-pawn option's key.
const ROOK_PAWN: &str = "rook-pawn";

const OPTIONS: &[OptionSpec] = &[OptionSpec {
    key: ROOK_PAWN,
    values: &["off", "on"],
    default: "off",
    description: "pawns on files a and f may also move one or two squares inward and capture \
                  diagonally inward (seed 000 §11)",
}];

const WHITE_CASTLINGS: &[Castling] = &[
    Castling {
        king_side: true,
        king_from: Square::new(4, 0, 3),
        king_to: Square::new(5, 0, 3),
        rook_from: Square::new(5, 0, 3),
        rook_to: Square::new(4, 0, 3),
        clear: &[],
        board: None,
    },
    Castling {
        king_side: false,
        king_from: Square::new(4, 0, 3),
        king_to: Square::new(1, 0, 3),
        rook_from: Square::new(0, 0, 3),
        rook_to: Square::new(4, 0, 3),
        clear: &[Square::new(1, 0, 3)],
        board: None,
    },
];

const BLACK_CASTLINGS: &[Castling] = &[
    Castling {
        king_side: true,
        king_from: Square::new(4, 9, 7),
        king_to: Square::new(5, 9, 7),
        rook_from: Square::new(5, 9, 7),
        rook_to: Square::new(4, 9, 7),
        clear: &[],
        board: None,
    },
    Castling {
        king_side: false,
        king_from: Square::new(4, 9, 7),
        king_to: Square::new(1, 9, 7),
        rook_from: Square::new(0, 9, 7),
        rook_to: Square::new(4, 9, 7),
        clear: &[Square::new(1, 9, 7)],
        board: None,
    },
];

/// The highest square of `set` (a non-empty level set) in `cell`.
fn highest(cell: Cell, set: LevelSet) -> Square {
    cell.at(7 - set.leading_zeros() as u8)
}

impl Federation {
    /// The square a path crosses in `cell` when the higher end of the move is at level
    /// `top`: Path A (`over_boards` false) keeps to the main boards where one is there and
    /// uses an attack board only where no main board is; Path B (`over_boards` true) counts
    /// the attack boards as boards, so it runs over an attack board that stands above a
    /// main board. Boards above `top` are ignored; a cell with no square left has no path.
    fn path_square(layout: &Layout, cell: Cell, top: u8, over_boards: bool) -> Option<Square> {
        let set = layout.levels(cell) & ((2u16 << top) - 1) as LevelSet;
        if set == 0 {
            return None;
        }
        let main = set & MAIN_LEVELS;
        Some(if main != 0 && !over_boards {
            highest(cell, main)
        } else {
            highest(cell, set)
        })
    }

    /// The route along one path (A or B), if every square it crosses is empty.
    fn path(layout: &Layout, top: u8, between: &[Cell], over_boards: bool) -> Option<Route> {
        let mut via = None;
        for (i, cell) in between.iter().enumerate() {
            let square = Federation::path_square(layout, *cell, top, over_boards)?;
            if layout.piece(square).is_some() {
                return None;
            }
            if i == 0 {
                via = Some(square);
            }
        }
        Some(Route { via })
    }
}

impl RuleSet for Federation {
    const ID: &'static str = "trid-fs";
    const DESCRIPTION: &'static str = "Star Trek Tri-Dimensional chess, Federation Standard \
        rules (Roth 2012): highest path with Paths A and B, movable attack boards";
    const START: &'static str = "QL1@W-S-up:w,KL1@W-S-up:w,QL3@B-N-up:b,KL3@B-N-up:b \
        Nb1(2),Bc1(2),Bd1(2),Ne1(2),Pb2(2)*,Pc2(2)*,Pd2(2)*,Pe2(2)*,\
        Ra0(3)*,Qb0(3),Ke0(3)*,Rf0(3)*,Pa1(3)*,Pb1(3)*,Pe1(3)*,Pf1(3)*,\
        pb7(6)*,pc7(6)*,pd7(6)*,pe7(6)*,nb8(6),bc8(6),bd8(6),ne8(6),\
        pa8(7)*,pb8(7)*,pe8(7)*,pf8(7)*,ra9(7)*,qb9(7),ke9(7)*,rf9(7)* w - 0 1";
    const BOARD_FLAGS: bool = false;
    const BOARD_CAPTURE: bool = true;

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn from_options(options: &Options) -> Federation {
        Federation {
            rook_pawn: options.is_on(ROOK_PAWN),
        }
    }

    /// Highest-path rule (§4) with Paths A and B (§5): a move is open when either path is
    /// empty; the route reports the square of the first path found open, Path A first.
    fn route(&self, layout: &Layout, from: Square, to: Square, between: &[Cell]) -> Option<Route> {
        let top = from.level().max(to.level());
        Federation::path(layout, top, between, false)
            .or_else(|| Federation::path(layout, top, between, true))
    }

    fn rook_pawns(&self) -> bool {
        self.rook_pawn
    }

    fn castlings(&self, color: Color) -> &'static [Castling] {
        match color {
            Color::White => WHITE_CASTLINGS,
            Color::Black => BLACK_CASTLINGS,
        }
    }

    /// White promotes on ranks 8 and 9, Black on ranks 1 and 0 (§6).
    fn promotes(&self, _: &Layout, color: Color, square: Square) -> bool {
        match color {
            Color::White => square.rank() >= 8,
            Color::Black => square.rank() <= 1,
        }
    }

    /// §7: a board the mover owns that is empty or carries exactly one pawn of the mover's
    /// (and nothing else) may move while the mover still has a pawn anywhere, to any pin
    /// within two ranks (its own corner's other elevation included) not held by the other
    /// board of its flank; a board carrying its pawn may also arrive turned half round, or
    /// turn round on its own pin.
    fn board_steps(&self, layout: &Layout, mover: Color, id: BoardId, out: &mut Vec<BoardStep>) {
        if layout.board(id).owner != mover {
            return;
        }
        let riders: Vec<_> = layout.riders(id).map(|(_, p)| p).collect();
        let carries = match riders.as_slice() {
            [] => false,
            [p] if p.color == mover && p.role == Role::Pawn => true,
            _ => return,
        };
        let has_pawn = layout
            .occupied()
            .any(|(_, p)| p.color == mover && p.role == Role::Pawn);
        if !has_pawn {
            return;
        }
        let here = layout.board(id).pin;
        for pin in Pin::all() {
            if here.rank_distance(pin) > 2 || layout.rival_on(id, pin) {
                continue;
            }
            if pin != here {
                out.push(BoardStep {
                    pin,
                    inverted: false,
                });
            }
            if carries {
                out.push(BoardStep {
                    pin,
                    inverted: true,
                });
            }
        }
    }
}
