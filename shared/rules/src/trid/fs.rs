//! The Federation Standard rule set (seed 000: Bartmess' FS 5.0 as clarified by Roth's
//! Federation Revised Standard 5.0, 2012): the variant `trid-fs`.
//!
//! Routes follow the highest-path rule (§4) with both paths of §5; attack boards move
//! along the pin graph of §7; castling is Roth's king-rook exchange (§9) on the start
//! layout of §3. Where the seed leaves room the default options read it as Roth's own
//! engine does; the other readings are options. Every interpretation is recorded in
//! `docs/rules/trid-fs.md`.

use super::geometry::{BoardId, Cell, LevelSet, MAIN_LEVELS, Pin, Square};
use super::layout::Layout;
use super::rules::{BoardCapture, BoardStep, Castling, Route, RuleSet};
use crate::chess::{Color, Role};
use crate::{OptionSpec, Options};

/// The Federation Standard rules, with the options of `docs/rules/trid-fs.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Federation {
    /// True when rook pawns may also step and capture inward (§11).
    pub rook_pawn: bool,
    /// How a line crosses the cells between its ends (§4, §5).
    pub paths: Paths,
    /// True when a board carrying its pawn may also arrive turned half round (§7-2's "180°"
    /// read as a turn in the board's plane).
    pub half_turns: bool,
    /// Which capture on a board hands it over (§8).
    pub board_capture: BoardCapture,
}

/// The two readings of the highest-path rule with Paths A and B (§4, §5) a game may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Paths {
    /// Roth's own engine (the default): Path A crosses each cell on its highest square at or
    /// below the higher end's level, Path B one level higher when that end is on a main
    /// board; a cell with no square there does not block.
    Roth,
    /// The project's first reading (option `paths=main-first`): Path A keeps to the main
    /// boards where one is below the higher end, Path B runs over the attack boards there;
    /// a cell with no square at or below the higher end has no path.
    MainFirst,
}

/// The rook-pawn option's key.
const ROOK_PAWN: &str = "rook-pawn";
/// The path-reading option's key.
const PATHS: &str = "paths";
/// The path-reading option's value for [`Paths::MainFirst`].
const MAIN_FIRST: &str = "main-first";
/// The half-turn option's key.
const HALF_TURNS: &str = "half-turns";
/// The board-capture option's key.
const BOARD_CAPTURE: &str = "board-capture";
/// The board-capture option's value for [`BoardCapture::OwnersLast`].
const OWNERS_LAST: &str = "owners-last";

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: ROOK_PAWN,
        values: &["off", "on"],
        default: "off",
        description: "pawns on files a and f may also move one or two squares inward and capture \
                      diagonally inward (seed 000 §11)",
    },
    OptionSpec {
        key: PATHS,
        values: &["roth", MAIN_FIRST],
        default: "roth",
        description: "roth: lines cross each cell on its highest square at or below the higher \
                      end (Path A) or one level higher from a main board (Path B), as Roth's \
                      engine; main-first: Path A keeps to the main boards and a cell with \
                      nothing below the path has no path (seed 000 §4-5)",
    },
    OptionSpec {
        key: HALF_TURNS,
        values: &["off", "on"],
        default: "off",
        description: "a board carrying its pawn may also arrive turned half round, the rider \
                      on the diagonally opposite place (seed 000 §7-2, §7-4)",
    },
    OptionSpec {
        key: BOARD_CAPTURE,
        values: &["only-piece", OWNERS_LAST],
        default: "only-piece",
        description: "only-piece: taking the only piece on an enemy board (the taking piece \
                      aside) takes the board, as Roth's engine; owners-last: taking the last \
                      piece of the board's owner on it does (seed 000 §8)",
    },
];

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

/// The levels of `cell` at or below `top`.
fn at_or_below(layout: &Layout, cell: Cell, top: u8) -> LevelSet {
    layout.levels(cell) & ((2u16 << top) - 1) as LevelSet
}

/// The route along one path over the cells `between`: `pick` gives the square the path
/// crosses in a cell, which must be empty, or `None` when it crosses none there; such a cell
/// stops the route when `blocks_without`, else it is passed over. The route's `via` is the
/// square crossed in the first cell.
fn path(
    layout: &Layout,
    between: &[Cell],
    blocks_without: bool,
    pick: impl Fn(Cell) -> Option<Square>,
) -> Option<Route> {
    let mut via = None;
    for (i, cell) in between.iter().enumerate() {
        let Some(square) = pick(*cell) else {
            if blocks_without {
                return None;
            }
            continue;
        };
        if layout.piece(square).is_some() {
            return None;
        }
        if i == 0 {
            via = Some(square);
        }
    }
    Some(Route { via })
}

impl Paths {
    /// The route from a square at level `from` to one at level `to` over `between`, Path A
    /// first, then Path B.
    fn route(self, layout: &Layout, from: u8, to: u8, between: &[Cell]) -> Option<Route> {
        let top = from.max(to);
        match self {
            Paths::Roth => {
                let under = |top: u8| {
                    path(layout, between, false, move |cell| {
                        let set = at_or_below(layout, cell, top);
                        (set != 0).then(|| highest(cell, set))
                    })
                };
                let from_main = MAIN_LEVELS & (1 << top) != 0;
                under(top).or_else(|| from_main.then(|| under(top + 1)).flatten())
            }
            Paths::MainFirst => {
                let over = |boards: bool| {
                    path(layout, between, true, move |cell| {
                        let set = at_or_below(layout, cell, top);
                        let main = set & MAIN_LEVELS;
                        match (set, main != 0 && !boards) {
                            (0, _) => None,
                            (_, true) => Some(highest(cell, main)),
                            (_, false) => Some(highest(cell, set)),
                        }
                    })
                };
                over(false).or_else(|| over(true))
            }
        }
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
    /// Games stored before the engine's readings were followed: the project's own paths,
    /// half turns, and a board passing when its owner has no piece left on it.
    const EDITION_ZERO: &'static str = "paths=main-first,half-turns=on,board-capture=owners-last";

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn from_options(options: &Options) -> Federation {
        Federation {
            rook_pawn: options.is_on(ROOK_PAWN),
            paths: match options.get(PATHS) {
                Some(MAIN_FIRST) => Paths::MainFirst,
                _ => Paths::Roth,
            },
            half_turns: options.is_on(HALF_TURNS),
            board_capture: match options.get(BOARD_CAPTURE) {
                Some(OWNERS_LAST) => BoardCapture::OwnersLast,
                _ => BoardCapture::OnlyPiece,
            },
        }
    }

    fn board_capture(&self) -> BoardCapture {
        self.board_capture
    }

    /// Highest-path rule (§4) with Paths A and B (§5) in the game's reading ([`Paths`]): a
    /// move is open when either path is; the route reports the square of the first path
    /// found open, Path A first.
    fn route(&self, layout: &Layout, from: Square, to: Square, between: &[Cell]) -> Option<Route> {
        self.paths.route(layout, from.level(), to.level(), between)
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
    /// within two ranks not held by the other board of its flank, its own corner's other
    /// elevation included (that is how a board inverts). With `half-turns=on` a board
    /// carrying its pawn may also arrive turned half round, or turn round on its own pin.
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
            if carries && self.half_turns {
                out.push(BoardStep {
                    pin,
                    inverted: true,
                });
            }
        }
    }
}
