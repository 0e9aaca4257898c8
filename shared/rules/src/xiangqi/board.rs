//! The xiangqi position: pieces, side to move and counters; move generation and making
//! moves.

use super::types::{
    FILES, Move, Piece, RANKS, Role, SQUARES, Side, Square, file_of, in_palace, offset,
    on_own_half, rank_of, square_at,
};

/// The board: what stands on each point.
pub(super) type Board = [Option<Piece>; SQUARES];

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Every point's four rays, in [`ORTHOGONAL`] order: the points from it (excluded) to the
/// edge, nearest first.
struct Rays {
    points: [[[Square; FILES as usize]; 4]; SQUARES],
    lengths: [[u8; 4]; SQUARES],
}

static RAYS: Rays = Rays::build();

impl Rays {
    const fn build() -> Rays {
        let mut rays = Rays {
            points: [[[0; FILES as usize]; 4]; SQUARES],
            lengths: [[0; 4]; SQUARES],
        };
        let mut square = 0;
        while square < SQUARES {
            let mut direction = 0;
            while direction < 4 {
                let (df, dr) = ORTHOGONAL[direction];
                let mut file = file_of(square as Square) as i8 + df;
                let mut rank = rank_of(square as Square) as i8 + dr;
                let mut length = 0;
                while file >= 0 && file < FILES as i8 && rank >= 0 && rank < RANKS as i8 {
                    rays.points[square][direction][length] = square_at(file as u8, rank as u8);
                    length += 1;
                    file += df;
                    rank += dr;
                }
                rays.lengths[square][direction] = length as u8;
                direction += 1;
            }
            square += 1;
        }
        rays
    }
}

/// The points from `from` (excluded) to the edge in the `direction`-th orthogonal
/// direction.
fn ray(from: Square, direction: usize) -> &'static [Square] {
    let from = usize::from(from);
    &RAYS.points[from][direction][..usize::from(RAYS.lengths[from][direction])]
}

/// A xiangqi position, as a Fairy-Stockfish FEN describes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Xiangqi {
    pub(super) board: Board,
    /// Each side's general, by [`Side::index`].
    pub(super) generals: [Square; 2],
    pub(super) turn: Side,
    /// Plies since the last capture.
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
}

/// What two positions must share to be the same position for repetition: the pieces and
/// the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct XiangqiKey {
    board: Board,
    turn: Side,
}

impl Xiangqi {
    /// An empty board, Red to move, counters at 0 and 1. Not a valid position until both
    /// generals are placed.
    pub(super) fn empty() -> Xiangqi {
        Xiangqi {
            board: [None; SQUARES],
            generals: [0; 2],
            turn: Side::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Plies since the last capture (Fairy-Stockfish's halfmove clock).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number (starts at 1, grows after Black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[usize::from(square)]
    }

    /// The point of `side`'s general.
    pub fn general_of(&self, side: Side) -> Square {
        self.generals[side.index()]
    }

    /// The repetition identity of the position.
    pub fn key(&self) -> XiangqiKey {
        XiangqiKey {
            board: self.board,
            turn: self.turn,
        }
    }

    pub(super) fn put(&mut self, square: Square, piece: Piece) {
        self.board[usize::from(square)] = Some(piece);
        if piece.role == Role::General {
            self.generals[piece.side.index()] = square;
        }
    }

    /// True when the side to move's general is attacked.
    pub fn is_check(&self) -> bool {
        let us = self.turn;
        attacked(&self.board, self.general_of(us), us.other())
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut moves = Vec::with_capacity(64);
        self.generate(&mut moves);
        !moves.is_empty()
    }

    /// Appends every legal move of the side to move to `out`.
    pub fn generate(&self, out: &mut Vec<Move>) {
        let start = out.len();
        let us = self.turn;
        for from in 0..SQUARES as Square {
            if let Some(piece) = self.piece_at(from).filter(|p| p.side == us) {
                self.piece_moves(from, piece, out);
            }
        }
        let general = self.general_of(us);
        let in_check = attacked(&self.board, general, us.other());
        let mut scratch = self.board;
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            if self.is_legal(&mut scratch, mv, general, in_check) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general safe. Moves that cannot
    /// change any line or horse leg around the general skip the full test, which makes the
    /// move on `scratch` (a copy of the board) and takes it back.
    fn is_legal(&self, scratch: &mut Board, mv: Move, general: Square, in_check: bool) -> bool {
        let may_expose = in_check
            || mv.from == general
            || shares_line(mv.from, general)
            || shares_line(mv.to, general)
            || is_diagonal_neighbour(mv.from, general);
        if !may_expose {
            return true;
        }
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let moving = scratch[from].take();
        let captured = std::mem::replace(&mut scratch[to], moving);
        let general = if mv.from == general { mv.to } else { general };
        let safe = !attacked(scratch, general, self.turn.other());
        scratch[from] = moving;
        scratch[to] = captured;
        safe
    }

    /// Appends the pseudo-legal moves of `piece` standing on `from`.
    fn piece_moves(&self, from: Square, piece: Piece, out: &mut Vec<Move>) {
        let side = piece.side;
        let mut push = |to: Square| {
            if self.piece_at(to).is_none_or(|p| p.side != side) {
                out.push(Move { from, to });
            }
        };
        match piece.role {
            Role::General => steps(from, &ORTHOGONAL)
                .filter(|to| in_palace(side, *to))
                .for_each(&mut push),
            Role::Advisor => steps(from, &DIAGONAL)
                .filter(|to| in_palace(side, *to))
                .for_each(&mut push),
            Role::Elephant => DIAGONAL
                .iter()
                .filter(|(df, dr)| self.is_empty_at(offset(from, *df, *dr)))
                .filter_map(|(df, dr)| offset(from, 2 * df, 2 * dr))
                .filter(|to| on_own_half(side, *to))
                .for_each(&mut push),
            Role::Horse => ORTHOGONAL
                .iter()
                .filter(|(df, dr)| self.is_empty_at(offset(from, *df, *dr)))
                .flat_map(|&(df, dr)| horse_targets(from, df, dr))
                .for_each(&mut push),
            Role::Chariot => self.slide(from, false, &mut push),
            Role::Cannon => self.slide(from, true, &mut push),
            Role::Soldier => soldier_steps(side, from).for_each(&mut push),
        }
    }

    fn is_empty_at(&self, square: Option<Square>) -> bool {
        square.is_some_and(|s| self.piece_at(s).is_none())
    }

    /// The chariot's (or the cannon's, with `jump`) targets along the four lines: empty
    /// points up to the first piece, then that piece (chariot) or the piece after the
    /// screen (cannon); `push` drops own pieces.
    fn slide(&self, from: Square, jump: bool, push: &mut impl FnMut(Square)) {
        for direction in 0..ORTHOGONAL.len() {
            let mut line = ray(from, direction).iter().copied();
            for to in line.by_ref() {
                if self.piece_at(to).is_none() {
                    push(to);
                    continue;
                }
                if !jump {
                    push(to);
                }
                break;
            }
            if jump && let Some(target) = line.find(|s| self.piece_at(*s).is_some()) {
                push(target);
            }
        }
    }

    /// Plays a move produced by [`Xiangqi::generate`] of this position.
    pub fn play_move(&mut self, mv: Move) {
        let piece = self.board[usize::from(mv.from)]
            .take()
            .expect("a move starts on a piece");
        let captured = self.board[usize::from(mv.to)].replace(piece);
        if piece.role == Role::General {
            self.generals[piece.side.index()] = mv.to;
        }
        self.halfmoves = if captured.is_some() {
            0
        } else {
            self.halfmoves + 1
        };
        if self.turn == Side::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.other();
    }
}

/// The points one step from `from` in each of `directions`.
fn steps(from: Square, directions: &[(i8, i8)]) -> impl Iterator<Item = Square> + '_ {
    directions
        .iter()
        .filter_map(move |(df, dr)| offset(from, *df, *dr))
}

/// The two horse targets past the leg one step in direction (`df`, `dr`).
fn horse_targets(from: Square, df: i8, dr: i8) -> impl Iterator<Item = Square> {
    let (side_f, side_r) = (dr, df);
    [
        offset(from, 2 * df + side_f, 2 * dr + side_r),
        offset(from, 2 * df - side_f, 2 * dr - side_r),
    ]
    .into_iter()
    .flatten()
}

/// A soldier's steps: forward, and sideways once across the river.
fn soldier_steps(side: Side, from: Square) -> impl Iterator<Item = Square> {
    let crossed = !on_own_half(side, from);
    let sideways = [(-1, 0), (1, 0)].map(|(df, dr)| offset(from, df, dr).filter(|_| crossed));
    [offset(from, 0, side.forward())]
        .into_iter()
        .chain(sideways)
        .flatten()
}

fn shares_line(a: Square, b: Square) -> bool {
    file_of(a) == file_of(b) || rank_of(a) == rank_of(b)
}

fn is_diagonal_neighbour(a: Square, b: Square) -> bool {
    file_of(a).abs_diff(file_of(b)) == 1 && rank_of(a).abs_diff(rank_of(b)) == 1
}

/// True when a piece of `by` attacks `target` on `board`. Generals count as attacking
/// along an open file (the flying general), which makes facing generals illegal. Advisors
/// and elephants never reach the other half, so they are not looked at: `target` must be a
/// general's point.
pub(super) fn attacked(board: &Board, target: Square, by: Side) -> bool {
    let is = |square: Option<Square>, role: Role| {
        square
            .and_then(|s| board[usize::from(s)])
            .is_some_and(|p| p.side == by && p.role == role)
    };
    let empty = |square: Option<Square>| square.is_some_and(|s| board[usize::from(s)].is_none());
    let lines = (0..ORTHOGONAL.len()).any(|direction| {
        let mut pieces = ray(target, direction)
            .iter()
            .filter_map(|s| board[usize::from(*s)]);
        let mine = |piece: Option<Piece>, roles: &[Role]| {
            piece.is_some_and(|p| p.side == by && roles.contains(&p.role))
        };
        mine(pieces.next(), &[Role::Chariot, Role::General]) || mine(pieces.next(), &[Role::Cannon])
    });
    let horses = DIAGONAL.iter().any(|&(df, dr)| {
        empty(offset(target, df, dr))
            && (is(offset(target, 2 * df, dr), Role::Horse)
                || is(offset(target, df, 2 * dr), Role::Horse))
    });
    let behind = offset(target, 0, -by.forward());
    let soldiers = is(behind, Role::Soldier)
        || [-1, 1].into_iter().any(|df| {
            let beside = offset(target, df, 0);
            is(beside, Role::Soldier) && !on_own_half(by, target)
        });
    lines || horses || soldiers
}
