//! Where the attack boards stand and what stands on every square: the part of a position
//! both rule sets describe the same way.

use super::geometry::{BoardId, CELLS, Cell, LevelSet, Pin, SQUARES, Square, main_levels};
use crate::chess::{Color, Role};

/// A piece, with the one fact about its past the rules need: whether it has never moved
/// (pawns: may still step twice; kings and rooks: may still castle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// What it is.
    pub role: Role,
    /// True while it has never moved (kept only for pawns, kings and rooks).
    pub unmoved: bool,
}

impl Piece {
    /// A piece of `color` and `role`, unmoved when `unmoved` and the role keeps the flag.
    pub fn new(color: Color, role: Role, unmoved: bool) -> Piece {
        Piece {
            color,
            role,
            unmoved: unmoved && Piece::keeps_flag(role),
        }
    }

    /// True for the roles whose first move matters (pawn, rook, king).
    pub fn keeps_flag(role: Role) -> bool {
        matches!(role, Role::Pawn | Role::Rook | Role::King)
    }

    /// The same piece, having moved.
    pub fn moved(self) -> Piece {
        Piece {
            unmoved: false,
            ..self
        }
    }
}

/// An attack board: where it stands, who owns it, and whether it has ever moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackBoard {
    /// The pin it stands on.
    pub pin: Pin,
    /// The side that may move it.
    pub owner: Color,
    /// True while it has never moved (kept only by rule sets that need it).
    pub unmoved: bool,
}

/// The four attack boards and every piece. The squares that exist are the main boards'
/// plus those of the attack boards where they stand; pieces stand only on existing squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pieces: [Option<Piece>; SQUARES],
    /// The occupied squares, bit `i` of word `i / 64` for square index `i` (derived).
    occupancy: [u64; SQUARES.div_ceil(64)],
    /// Each side's king, White's first (derived).
    kings: [Option<Square>; 2],
    boards: [AttackBoard; 4],
    /// The existing levels of each cell (derived from the boards).
    levels: [LevelSet; CELLS],
}

impl Layout {
    /// The boards as given, no pieces.
    pub fn new(boards: [AttackBoard; 4]) -> Layout {
        let mut layout = Layout {
            pieces: [None; SQUARES],
            occupancy: [0; SQUARES.div_ceil(64)],
            kings: [None; 2],
            boards,
            levels: [0; CELLS],
        };
        layout.survey();
        layout
    }

    /// The levels at which `cell` has a square.
    #[inline]
    pub fn levels(&self, cell: Cell) -> LevelSet {
        self.levels[cell.index()]
    }

    /// The existing squares of `cell`, lowest first.
    pub fn column(&self, cell: Cell) -> impl Iterator<Item = Square> + use<> {
        let set = self.levels(cell);
        (1..=7u8)
            .filter(move |l| set & (1 << l) != 0)
            .map(move |l| cell.at(l))
    }

    /// True when `square` exists now.
    #[inline]
    pub fn exists(&self, square: Square) -> bool {
        self.levels(square.cell()) & (1 << square.level()) != 0
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece(&self, square: Square) -> Option<Piece> {
        self.pieces[square.index()]
    }

    /// Every occupied square with its piece, in square order.
    pub fn occupied(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupancy
            .iter()
            .enumerate()
            .flat_map(|(word, bits)| {
                let mut bits = *bits;
                std::iter::from_fn(move || {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits.wrapping_sub(1);
                    (bit < 64).then_some(word * 64 + bit)
                })
            })
            .map(|index| {
                let square = Square::from_index(index);
                (
                    square,
                    self.pieces[index].expect("occupancy matches the pieces"),
                )
            })
    }

    /// Puts `piece` on `square` (which must exist), or empties it.
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        let index = square.index();
        if let Some(old) = self.pieces[index]
            && old.role == Role::King
        {
            self.kings[old.color.index()] = None;
        }
        self.pieces[index] = piece;
        let bit = 1u64 << (index % 64);
        match piece {
            Some(p) => {
                self.occupancy[index / 64] |= bit;
                if p.role == Role::King {
                    self.kings[p.color.index()] = Some(square);
                }
            }
            None => self.occupancy[index / 64] &= !bit,
        }
    }

    /// The attack board `id`.
    pub fn board(&self, id: BoardId) -> AttackBoard {
        self.boards[id.index()]
    }

    /// Hands board `id` to `owner`.
    pub fn set_owner(&mut self, id: BoardId, owner: Color) {
        self.boards[id.index()].owner = owner;
    }

    /// The four squares of board `id` where it stands, in [`Pin::cells`] order.
    pub fn board_squares(&self, id: BoardId) -> [Square; 4] {
        let pin = self.board(id).pin;
        pin.cells(id.flank()).map(|c| c.at(pin.level()))
    }

    /// The attack board `square` lies on, if any.
    pub fn board_at(&self, square: Square) -> Option<BoardId> {
        BoardId::ALL
            .into_iter()
            .find(|id| self.board_squares(*id).contains(&square))
    }

    /// True when the other board of `id`'s flank stands on `pin`.
    pub fn rival_on(&self, id: BoardId, pin: Pin) -> bool {
        self.board(id.neighbour()).pin == pin
    }

    /// The pieces on board `id`, with their squares.
    pub fn riders(&self, id: BoardId) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board_squares(id)
            .into_iter()
            .filter_map(|s| self.piece(s).map(|p| (s, p)))
    }

    /// Where the piece on `square` of board `id` lands when the board goes to `pin`, turned
    /// half round when `inverted`: the same place on the board, or the diagonally opposite
    /// one.
    pub fn landing(&self, id: BoardId, square: Square, pin: Pin, inverted: bool) -> Square {
        let place = self
            .board_squares(id)
            .iter()
            .position(|s| *s == square)
            .expect("the square lies on the board");
        let place = if inverted { 3 - place } else { place };
        pin.cells(id.flank())[place].at(pin.level())
    }

    /// Moves board `id` to `pin`, turned half round when `inverted`; its pieces ride along
    /// (see [`Layout::landing`]) and lose their unmoved flag. Returns where they landed.
    pub fn move_board(&mut self, id: BoardId, pin: Pin, inverted: bool) -> Vec<Square> {
        let cargo: Vec<(Square, Piece)> = self.riders(id).collect();
        let landed: Vec<Square> = cargo
            .iter()
            .map(|(s, _)| self.landing(id, *s, pin, inverted))
            .collect();
        for (square, _) in &cargo {
            self.set(*square, None);
        }
        self.boards[id.index()].pin = pin;
        self.boards[id.index()].unmoved = false;
        self.survey();
        for ((_, piece), square) in cargo.iter().zip(&landed) {
            self.set(*square, Some(piece.moved()));
        }
        landed
    }

    /// The square of `color`'s king (the last one placed, if a text gave several).
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Recomputes which squares exist from the main boards and the attack boards' pins.
    fn survey(&mut self) {
        for cell in Cell::all() {
            self.levels[cell.index()] = main_levels(cell);
        }
        for id in BoardId::ALL {
            let pin = self.boards[id.index()].pin;
            for cell in pin.cells(id.flank()) {
                self.levels[cell.index()] |= 1 << pin.level();
            }
        }
    }
}
