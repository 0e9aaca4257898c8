//! The rules of the World Tri Dimensional Chess Federation (seed 003): the variant
//! `trid-wtdcf`.
//!
//! Pieces move as in chess seen from above and may step up or down to empty squares at any
//! point of their path; attack boards move to the other corner of their main board or to a
//! corner of the main board above or below when exactly one of the mover's pieces (not the
//! king) stands on them; castling has the two forms of the Laws; pawns promote on the far
//! back rank, or on an attack board that continues their file. Every decision is recorded
//! in `docs/rules/trid-wtdcf.md`.

use super::geometry::{BoardId, Cell, LevelSet, Pin, Square};
use super::layout::Layout;
use super::rules::{BoardStep, Castling, Route, RuleSet};
use crate::chess::{Color, Role};
use crate::{OptionSpec, Options};

/// Which reading of the Laws' attack-board moves a game follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardMoves {
    /// "Level" is one of the three main boards (W, N, B): the Laws as the project reads
    /// them (`board-moves=main-boards`, the default).
    #[default]
    MainBoards,
    /// "Level" is a pin's level (1, 3, 5 or 7), and no board move may leave a pawn other
    /// than its rider where it promotes: the reading games recorded before the main-board
    /// reading were played under (`board-moves=pins`).
    Pins,
}

/// The WTDCF Laws, with the reading of attack-board moves the game follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wtdcf {
    /// How attack boards move.
    pub board_moves: BoardMoves,
}

/// The board-moves option's key.
const BOARD_MOVES: &str = "board-moves";

const OPTIONS: &[OptionSpec] = &[OptionSpec {
    key: BOARD_MOVES,
    values: &["main-boards", "pins"],
    default: "main-boards",
    description: "how attack boards move: `main-boards` reads the Laws' \"level\" as a main \
                  board (W, N, B); `pins` as a pin's level (1, 3, 5, 7) and refuses any board \
                  move that leaves a pawn where it would promote, the reading of older games",
}];

const WHITE_CASTLINGS: &[Castling] = &[
    Castling {
        king_side: true,
        king_from: Square::new(3, 1, 2),
        king_to: Square::new(5, 0, 3),
        rook_from: Square::new(5, 0, 3),
        rook_to: Square::new(4, 1, 2),
        clear: &[Square::new(4, 1, 2), Square::new(4, 0, 3)],
        board: Some(BoardId::KL1),
    },
    Castling {
        king_side: false,
        king_from: Square::new(3, 1, 2),
        king_to: Square::new(1, 0, 3),
        rook_from: Square::new(0, 0, 3),
        rook_to: Square::new(2, 1, 2),
        clear: &[
            Square::new(2, 1, 2),
            Square::new(1, 1, 2),
            Square::new(1, 0, 3),
        ],
        board: Some(BoardId::QL1),
    },
];

const BLACK_CASTLINGS: &[Castling] = &[
    Castling {
        king_side: true,
        king_from: Square::new(3, 8, 6),
        king_to: Square::new(5, 9, 7),
        rook_from: Square::new(5, 9, 7),
        rook_to: Square::new(4, 8, 6),
        clear: &[Square::new(4, 8, 6), Square::new(4, 9, 7)],
        board: Some(BoardId::KL3),
    },
    Castling {
        king_side: false,
        king_from: Square::new(3, 8, 6),
        king_to: Square::new(1, 9, 7),
        rook_from: Square::new(0, 9, 7),
        rook_to: Square::new(2, 8, 6),
        clear: &[
            Square::new(2, 8, 6),
            Square::new(1, 8, 6),
            Square::new(1, 9, 7),
        ],
        board: Some(BoardId::QL3),
    },
];

/// The levels of `set`, lowest first.
fn levels(set: LevelSet) -> impl Iterator<Item = u8> {
    (1..=7u8).filter(move |l| set & (1 << l) != 0)
}

/// The levels above `level` (upward) or below it (downward), nearest first.
fn outward(level: u8, upward: bool) -> impl Iterator<Item = u8> {
    std::iter::successors(Some(level), move |l| {
        if upward {
            (*l < 7).then(|| l + 1)
        } else {
            (*l > 1).then(|| l - 1)
        }
    })
    .skip(1)
}

impl Wtdcf {
    /// Every level of `cell` a piece standing at one of `set` can reach by stepping
    /// straight up or down through empty squares (levels without a square are open air).
    fn spread(layout: &Layout, cell: Cell, set: LevelSet) -> LevelSet {
        let mut reach = set;
        for level in levels(set) {
            for upward in [true, false] {
                for next in outward(level, upward) {
                    let square = cell.at(next);
                    if !layout.exists(square) {
                        continue;
                    }
                    if layout.piece(square).is_some() {
                        break;
                    }
                    reach |= 1 << next;
                }
            }
        }
        reach
    }

    /// The levels of `cell` a piece at one of `set` in the previous cell arrives on: the
    /// same level where that square exists, else the nearest square directly above or
    /// below (running off the edge of its board). Arrival squares must be empty, except
    /// `target`, which the caller has checked may be entered.
    fn arrive(layout: &Layout, cell: Cell, set: LevelSet, target: Option<Square>) -> LevelSet {
        let open = |square: Square| layout.piece(square).is_none() || Some(square) == target;
        let mut arrived = 0;
        for level in levels(set) {
            if layout.exists(cell.at(level)) {
                arrived |= u8::from(open(cell.at(level))) << level;
                continue;
            }
            for upward in [true, false] {
                if let Some(next) = outward(level, upward).find(|l| layout.exists(cell.at(*l)))
                    && open(cell.at(next))
                {
                    arrived |= 1 << next;
                }
            }
        }
        arrived
    }

    /// True when a piece arriving at one of `set` in the target's cell can step straight to
    /// `target` through empty squares.
    fn climbs_to(layout: &Layout, set: LevelSet, target: Square) -> bool {
        let cell = target.cell();
        levels(set).any(|level| {
            let (low, high) = (level.min(target.level()), level.max(target.level()));
            (low + 1..high)
                .all(|l| !layout.exists(cell.at(l)) || layout.piece(cell.at(l)).is_none())
        })
    }

    /// The square of `set` in `cell` nearest to `level` (the higher one on a tie).
    fn nearest(cell: Cell, set: LevelSet, level: u8) -> Square {
        let best = levels(set)
            .min_by_key(|l| (l.abs_diff(level), u8::MAX - l))
            .expect("a non-empty level set");
        cell.at(best)
    }

    /// The mover's own back corner pins: W-S for White, B-N for Black.
    fn is_back_corner(pin: Pin, mover: Color) -> bool {
        match mover {
            Color::White => pin.main().level() == 2 && !pin.is_north(),
            Color::Black => pin.main().level() == 6 && pin.is_north(),
        }
    }

    /// The main-board square at the corner a board on `pin` of board `id`'s flank hangs over.
    fn corner_square(id: BoardId, pin: Pin) -> Square {
        let cell = pin
            .cells(id.flank())
            .into_iter()
            .find(|c| pin.main().covers(*c))
            .expect("every pin overlaps its main board in one cell");
        cell.at(pin.main().level())
    }

    /// True when a board on `from` may move to `to`, as the game's reading has it.
    fn neighbours(self, from: Pin, to: Pin) -> bool {
        match self.board_moves {
            BoardMoves::MainBoards => Wtdcf::corner_neighbours(from, to),
            BoardMoves::Pins => Wtdcf::pin_neighbours(from, to),
        }
    }

    /// The Laws read by main board: `to` is the other corner of `from`'s main board, or a
    /// corner of the main board directly above or below within two ranks, at the same
    /// elevation (a board over its main board arrives over the next one, a board under it
    /// arrives under). A board never stays at its corner.
    fn corner_neighbours(from: Pin, to: Pin) -> bool {
        let near = match from.main().level().abs_diff(to.main().level()) {
            0 => from.is_north() != to.is_north(),
            2 => from.rank_distance(to) <= 2,
            _ => false,
        };
        near && from.is_up() == to.is_up()
    }

    /// The reading by pin level (`board-moves=pins`): `to` is the next pin at the same
    /// level, or a pin two levels up or down within two ranks.
    fn pin_neighbours(from: Pin, to: Pin) -> bool {
        if from == to {
            return false;
        }
        if from.level() == to.level() {
            let (low, high) = (
                from.low_rank().min(to.low_rank()),
                from.low_rank().max(to.low_rank()),
            );
            return !Pin::all()
                .any(|p| p.level() == from.level() && p.low_rank() > low && p.low_rank() < high);
        }
        from.level().abs_diff(to.level()) == 2 && from.rank_distance(to) <= 2
    }

    /// True when moving board `id` as `step` would leave a pawn other than its rider standing
    /// where it promotes without having moved there (refused under `board-moves=pins`).
    fn strands_a_pawn(&self, layout: &Layout, id: BoardId, step: BoardStep) -> bool {
        let mut after = layout.clone();
        let landed = after.move_board(id, step.pin, step.inverted);
        after.occupied().any(|(square, piece)| {
            piece.role == Role::Pawn
                && !landed.contains(&square)
                && self.promotes(&after, piece.color, square)
        })
    }
}

impl RuleSet for Wtdcf {
    const ID: &'static str = "trid-wtdcf";
    const DESCRIPTION: &'static str = "Tri-Dimensional chess under the WTDCF Laws: level \
        changes anywhere along a path, attack boards piloted by a single piece";
    const START: &'static str = "QL1@W-S-up:w*,KL1@W-S-up:w*,QL3@B-N-up:b*,KL3@B-N-up:b* \
        Bb1(2),Qc1(2),Kd1(2)*,Be1(2),Pb2(2)*,Pc2(2)*,Pd2(2)*,Pe2(2)*,\
        Ra0(3)*,Nb0(3),Ne0(3),Rf0(3)*,Pa1(3)*,Pb1(3)*,Pe1(3)*,Pf1(3)*,\
        pb7(6)*,pc7(6)*,pd7(6)*,pe7(6)*,bb8(6),qc8(6),kd8(6)*,be8(6),\
        pa8(7)*,pb8(7)*,pe8(7)*,pf8(7)*,ra9(7)*,nb9(7),ne9(7),rf9(7)* w - 0 1";
    const BOARD_FLAGS: bool = true;
    const BOARD_CAPTURE: bool = false;
    /// Games stored before attack-board moves were read by main board.
    const EDITION_ZERO: &'static str = "board-moves=pins";

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn from_options(options: &Options) -> Wtdcf {
        let board_moves = match options.get(BOARD_MOVES) {
            Some("pins") => BoardMoves::Pins,
            _ => BoardMoves::MainBoards,
        };
        Wtdcf { board_moves }
    }

    /// §3 "Changing level": the piece crosses the cells in order; in each (the start and
    /// the end included) it may step up or down through empty squares; from one cell to the
    /// next it keeps its level where a square is there, or runs off the edge to the nearest
    /// square directly above or below. Every square it stops on or passes must be empty.
    /// The route reports the square it crossed in the first cell between, nearest to its
    /// starting level.
    fn route(&self, layout: &Layout, from: Square, to: Square, between: &[Cell]) -> Option<Route> {
        let mut reach = Wtdcf::spread(layout, from.cell(), 1 << from.level());
        let mut via = None;
        for cell in between {
            reach = Wtdcf::spread(layout, *cell, Wtdcf::arrive(layout, *cell, reach, None));
            if reach == 0 {
                return None;
            }
            via = via.or(Some(Wtdcf::nearest(*cell, reach, from.level())));
        }
        let arrived = Wtdcf::arrive(layout, to.cell(), reach, Some(to));
        Wtdcf::climbs_to(layout, arrived, to).then_some(Route { via })
    }

    fn castlings(&self, color: Color) -> &'static [Castling] {
        match color {
            Color::White => WHITE_CASTLINGS,
            Color::Black => BLACK_CASTLINGS,
        }
    }

    /// §4: the back rank at the far end (rank 8 for White, 1 for Black), or, where an attack
    /// board there continues the pawn's file, that board's back rank (9 or 0).
    fn promotes(&self, layout: &Layout, color: Color, square: Square) -> bool {
        let (last, board_last) = match color {
            Color::White => (8, 9),
            Color::Black => (1, 0),
        };
        let continued =
            Cell::new(square.file() as i8, board_last as i8).is_some_and(|c| layout.levels(c) != 0);
        square.rank() == board_last || (square.rank() == last && !continued)
    }

    /// §3 "Moving an attack board": a board on which exactly one square is occupied, by a
    /// piece of the mover's other than the king, moves to a neighbouring corner (see
    /// `neighbours`) not held by the other board of its flank, turned round or not; never
    /// carrying a pawn backwards, never off the mover's back corner while an enemy pawn
    /// stands on that corner; under `board-moves=pins` never leaving another pawn where it
    /// would promote.
    fn board_steps(&self, layout: &Layout, mover: Color, id: BoardId, out: &mut Vec<BoardStep>) {
        let riders: Vec<_> = layout.riders(id).collect();
        let [(square, piece)] = riders.as_slice() else {
            return;
        };
        let here = layout.board(id).pin;
        let corner = layout.piece(Wtdcf::corner_square(id, here));
        if piece.color != mover
            || piece.role == Role::King
            || (Wtdcf::is_back_corner(here, mover)
                && corner.is_some_and(|p| p.color != mover && p.role == Role::Pawn))
        {
            return;
        }
        for pin in Pin::all().filter(|p| self.neighbours(here, *p) && !layout.rival_on(id, *p)) {
            for inverted in [false, true] {
                let landing = layout.landing(id, *square, pin, inverted);
                let backwards = match mover {
                    Color::White => landing.rank() < square.rank(),
                    Color::Black => landing.rank() > square.rank(),
                };
                let step = BoardStep { pin, inverted };
                let carried_back = piece.role == Role::Pawn && backwards;
                let strands =
                    self.board_moves == BoardMoves::Pins && self.strands_a_pawn(layout, id, step);
                if !(carried_back || strands) {
                    out.push(step);
                }
            }
        }
    }
}
