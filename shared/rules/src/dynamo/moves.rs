//! Dynamo moves: plain moves, pushes, pulls and station moves, castling, promotion
//! choices; which of them are legal, and what they do to the board.

use super::board::{
    ALL_DIRECTIONS, Board, DIAGONAL, KNIGHT_JUMPS, ORTHOGONAL, Piece, Place, Step, back, forward,
    last_rank, offset, start_rank,
};
use super::check::threatened;
use super::{Dynamo, Rules, castling};
use crate::chess::types::{Color, Role, Square, file_of, rank_of};

/// The roles a pawn may become.
pub(crate) const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// What a move is beyond the pieces it displaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or a dynamo move (push, pull, station move).
    Plain,
    /// Castling; `from` is the king's square and `to` its destination.
    Castle,
    /// The owner's choice of piece for their pawn standing on its last rank
    /// (`owner-promotes=on` only): `from` is the pawn's square.
    Choice,
}

/// A dynamo move, described by its effect: where the primary piece goes (its own square
/// for a station move, off the board when it leaves), and where the pushed or pulled
/// piece goes. Only meaningful in the position that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The primary piece's square.
    pub from: Square,
    /// Where the primary piece ends (`Place::On(from)` for a station move).
    pub to: Place,
    /// The pushed or pulled piece's square and where it ends; `None` for a plain move.
    pub pushed: Option<(Square, Place)>,
    /// The role a pawn reaching its last rank becomes (or is chosen for a `Choice`).
    pub promotion: Option<Role>,
    /// Plain, castling or promotion choice.
    pub kind: MoveKind,
}

impl Move {
    /// True for a push or pull (station moves included).
    pub fn is_dynamo(&self) -> bool {
        self.pushed.is_some()
    }

    fn plain(from: Square, to: Place, pushed: Option<(Square, Place)>) -> Move {
        Move {
            from,
            to,
            pushed,
            promotion: None,
            kind: MoveKind::Plain,
        }
    }
}

/// What legality needs to know about the position before the move.
struct Guard {
    us: Color,
    in_check: bool,
    /// The board before the opponent's last move, when a dynamo move could restore it.
    prior: Option<Board>,
}

impl Dynamo {
    /// Appends every legal move to `out`.
    pub fn generate(&self, out: &mut Vec<Move>) {
        self.generate_with(out, true);
    }

    /// Appends the legal moves, with or without the rule that a dynamo move may not
    /// undo the previous move.
    pub(super) fn generate_with(&self, out: &mut Vec<Move>, forbid_undo: bool) {
        if let Some(square) = self.pending_choice() {
            out.extend(PROMOTIONS.map(|role| Move {
                from: square,
                to: Place::On(square),
                pushed: None,
                promotion: Some(role),
                kind: MoveKind::Choice,
            }));
            return;
        }
        let us = self.turn;
        let Some(king) = self.board.king(us) else {
            return;
        };
        let guard = Guard {
            us,
            in_check: threatened(&self.board, king, us, self.rules),
            prior: forbid_undo.then(|| self.prior_board()).flatten(),
        };
        let start = out.len();
        self.pseudo_moves(us, out);
        if !guard.in_check {
            self.castling_moves(out);
        }
        let mut kept = start;
        for i in start..out.len() {
            if self.is_legal(&out[i], &guard) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut moves = Vec::with_capacity(128);
        self.generate(&mut moves);
        !moves.is_empty()
    }

    /// The square of a pawn of the side to move standing on its last rank, waiting for
    /// its owner to choose its new role (`owner-promotes=on` only).
    pub fn pending_choice(&self) -> Option<Square> {
        if !self.rules.owner_promotes {
            return None;
        }
        let rank = last_rank(self.turn);
        (rank * 8..rank * 8 + 8).find(|&sq| {
            self.board.get(sq)
                == Some(Piece {
                    color: self.turn,
                    role: Role::Pawn,
                })
        })
    }

    /// The board before the last move, if that move can be undone at all (it put no
    /// piece off the board and promoted no pawn).
    pub(super) fn prior_board(&self) -> Option<Board> {
        let trace = self.last?;
        let mut board = self.board;
        let lifted = trace
            .displacements()
            .map(|d| d.map(|(from, to)| (from, board.take(to))));
        for (from, piece) in lifted.into_iter().flatten() {
            board.put(from, piece?);
        }
        Some(board)
    }

    /// Every move of `us` by the rules of movement, before the rules about check and
    /// undoing. Castling is not included.
    pub(crate) fn pseudo_moves(&self, us: Color, out: &mut Vec<Move>) {
        for (from, piece) in self.board.pieces().filter(|(_, p)| p.color == us) {
            match piece.role {
                Role::Pawn => self.pawn_moves(us, from, out),
                Role::Knight => self.leaper_moves(us, from, &KNIGHT_JUMPS, false, out),
                Role::King => self.leaper_moves(us, from, &ALL_DIRECTIONS, true, out),
                Role::Bishop => self.slider_moves(us, from, &DIAGONAL, out),
                Role::Rook => self.slider_moves(us, from, &ORTHOGONAL, out),
                Role::Queen => self.slider_moves(us, from, &ALL_DIRECTIONS, out),
            }
        }
        if us == self.turn {
            self.en_passant_moves(us, out);
        }
    }

    /// Adds a move, once per promotion role when a pawn whose role the mover chooses
    /// reaches its last rank.
    fn emit(
        &self,
        us: Color,
        out: &mut Vec<Move>,
        from: Square,
        to: Place,
        pushed: Option<(Square, Place)>,
    ) {
        let mv = Move::plain(from, to, pushed);
        if self.mover_promotes(us, &mv) {
            out.extend(PROMOTIONS.map(|role| Move {
                promotion: Some(role),
                ..mv
            }));
        } else {
            out.push(mv);
        }
    }

    /// Adds a push both ways: the pusher following onto the vacated square, and the
    /// station move where it stays.
    fn emit_push(&self, us: Color, out: &mut Vec<Move>, from: Square, target: Square, dest: Place) {
        self.emit(us, out, from, Place::On(target), Some((target, dest)));
        self.emit(us, out, from, Place::On(from), Some((target, dest)));
    }

    /// True when `mv` brings a pawn to its last rank and the mover chooses its role.
    fn mover_promotes(&self, us: Color, mv: &Move) -> bool {
        let reaches_last = |piece: Option<Piece>, place: Place| match (piece, place) {
            (Some(p), Place::On(sq)) => p.role == Role::Pawn && rank_of(sq) == last_rank(p.color),
            _ => false,
        };
        if reaches_last(self.board.get(mv.from), mv.to) {
            return true;
        }
        mv.pushed.is_some_and(|(square, place)| {
            let piece = self.board.get(square);
            reaches_last(piece, place)
                && (!self.rules.owner_promotes || piece.is_some_and(|p| p.color == us))
        })
    }

    /// Queen, rook and bishop: plain moves, pushes along each direction, and the pull of
    /// the first piece behind.
    fn slider_moves(&self, us: Color, from: Square, steps: &[Step], out: &mut Vec<Move>) {
        for &step in steps {
            let mut distance = 0;
            let mut at = from;
            while let Some(target) = offset(at, step) {
                distance += 1;
                if self.board.is_empty(target) {
                    self.emit(us, out, from, Place::On(target), None);
                    at = target;
                    continue;
                }
                if let Some(dest) = self.board.travel(target, step, distance) {
                    self.emit_push(us, out, from, target, dest);
                }
                break;
            }
            if let Some((pulled, distance)) = self.board.first_piece(from, back(step)) {
                self.pull(us, out, from, pulled, step, distance, false);
            }
        }
    }

    /// Knight and king: plain moves, pushes and pulls one jump or step long.
    fn leaper_moves(
        &self,
        us: Color,
        from: Square,
        steps: &[Step],
        king: bool,
        out: &mut Vec<Move>,
    ) {
        for &step in steps {
            if let Some(target) = offset(from, step) {
                if self.board.is_empty(target) {
                    self.emit(us, out, from, Place::On(target), None);
                } else if let Some(dest) = self.board.travel(target, step, 1) {
                    self.emit_push(us, out, from, target, dest);
                }
            }
            if let Some(pulled) = offset(from, back(step)).filter(|&sq| !self.board.is_empty(sq)) {
                self.pull(us, out, from, pulled, step, 1, king);
            }
        }
    }

    /// A pull: the mover on `from` goes `distance` times `step` away from `pulled`, which
    /// lands on `from`. If the mover leaves the board both pieces leave the game (never
    /// for a king), or the mover stays where it is and only the pulled piece leaves.
    #[allow(clippy::too_many_arguments)]
    fn pull(
        &self,
        us: Color,
        out: &mut Vec<Move>,
        from: Square,
        pulled: Square,
        step: Step,
        distance: u8,
        king: bool,
    ) {
        match self.board.travel(from, step, distance) {
            None => {}
            Some(Place::On(dest)) => {
                self.emit(
                    us,
                    out,
                    from,
                    Place::On(dest),
                    Some((pulled, Place::On(from))),
                );
            }
            Some(Place::Off) => {
                if !king {
                    self.emit(us, out, from, Place::Off, Some((pulled, Place::Off)));
                }
                // The same station move may already exist as a push off the board.
                if self.board.travel(pulled, back(step), distance) != Some(Place::Off) {
                    self.emit(us, out, from, Place::On(from), Some((pulled, Place::Off)));
                }
            }
        }
    }

    /// Pawns: one step (two from the start rank), the same as a push of a piece of its own
    /// side there (of either side under `pawn-push=any`), and the diagonal push of an enemy
    /// piece it could capture in orthodox chess.
    fn pawn_moves(&self, us: Color, from: Square, out: &mut Vec<Move>) {
        let step = forward(us);
        if let Some(one) = offset(from, step) {
            if self.board.is_empty(one) {
                self.emit(us, out, from, Place::On(one), None);
                if rank_of(from) == start_rank(us) {
                    self.pawn_double(us, from, one, step, out);
                }
            } else if self.pushes_forward(us, one)
                && let Some(dest) = self.board.travel(one, step, 1)
            {
                self.emit_push(us, out, from, one, dest);
            }
        }
        for df in [-1, 1] {
            let diagonal = (df, step.1);
            let Some(target) = offset(from, diagonal) else {
                continue;
            };
            if self.board.get(target).is_some_and(|p| p.color != us)
                && let Some(dest) = self.board.travel(target, diagonal, 1)
            {
                self.emit_push(us, out, from, target, dest);
            }
        }
    }

    fn pawn_double(&self, us: Color, from: Square, one: Square, step: Step, out: &mut Vec<Move>) {
        let Some(two) = offset(one, step) else {
            return;
        };
        if self.board.is_empty(two) {
            self.emit(us, out, from, Place::On(two), None);
        } else if self.pushes_forward(us, two)
            && let Some(dest) = self.board.travel(two, step, 2)
        {
            self.emit_push(us, out, from, two, dest);
        }
    }

    /// True when a pawn of `us` may push the piece on `target` straight forward: a piece of
    /// its own side, or any piece under `pawn-push=any`.
    fn pushes_forward(&self, us: Color, target: Square) -> bool {
        self.rules.pawns_push_any || self.board.get(target).is_some_and(|p| p.color == us)
    }

    /// `en-passant=on`: a pawn that could take the edge-file pawn which just advanced two
    /// squares pushes it diagonally on from the square it skipped, off the board.
    fn en_passant_moves(&self, us: Color, out: &mut Vec<Move>) {
        let Some(skipped) = self.ep else {
            return;
        };
        let step = forward(us);
        let Some(victim) = offset(skipped, back(step)) else {
            return;
        };
        for df in [-1, 1] {
            let Some(from) = offset(skipped, back((df, step.1))) else {
                continue;
            };
            if self.board.get(from)
                == Some(Piece {
                    color: us,
                    role: Role::Pawn,
                })
            {
                let pushed = Some((victim, Place::Off));
                self.emit(us, out, from, Place::On(skipped), pushed);
                self.emit(us, out, from, Place::On(from), pushed);
            }
        }
    }

    /// Castling as in orthodox chess, for each right whose rook is back on its corner
    /// with the king on its start square. The squares the king crosses and the one it lands
    /// on are judged here on the board before the move, the rook still on its corner, as
    /// the orthodox rule names them; the destination is judged again on the board after
    /// the move, with every other move.
    fn castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.turn;
        let home = castling::king_home(us);
        if self.board.king(us) != Some(home) {
            return;
        }
        for side in castling::Side::BOTH {
            let rook = castling::rook_home(us, side);
            if self.castling[castling::index(us, side)] != Some(rook) {
                continue;
            }
            let (king_to, _) = castling::destinations(us, side);
            let (low, high) = (home.min(rook), home.max(rook));
            if (low + 1..high).any(|sq| !self.board.is_empty(sq)) {
                continue;
            }
            let mut path = castling::king_path(us, side);
            if path.any(|sq| self.threatened_on(home, sq, us)) {
                continue;
            }
            out.push(Move {
                from: home,
                to: Place::On(king_to),
                pushed: None,
                promotion: None,
                kind: MoveKind::Castle,
            });
        }
    }

    /// True when `us`'s king, moved from `king` to `square` on the current board, would be
    /// in check there.
    fn threatened_on(&self, king: Square, square: Square, us: Color) -> bool {
        let mut board = self.board;
        if let Some(piece) = board.take(king) {
            board.put(square, piece);
        }
        threatened(&board, square, us, self.rules)
    }

    fn is_legal(&self, mv: &Move, guard: &Guard) -> bool {
        // Seed: dynamo moves cannot be used to escape check.
        if mv.is_dynamo() && guard.in_check {
            return false;
        }
        let mut after = self.board;
        apply(&mut after, mv);
        let Some(king) = after.king(guard.us) else {
            return false;
        };
        if threatened(&after, king, guard.us, self.rules) {
            return false;
        }
        if !mv.is_dynamo() {
            return true;
        }
        if guard.prior == Some(after) {
            return false;
        }
        match mv.pushed {
            Some((from, Place::On(to))) if to == king && from != mv.from => {
                !passes_through_check(&after, from, to, guard.us, self.rules)
            }
            _ => true,
        }
    }
}

/// True when the king of `us`, pushed or pulled in a straight line from `from` to `to`,
/// would be in check on a square it crossed (under `rules`).
fn passes_through_check(after: &Board, from: Square, to: Square, us: Color, rules: Rules) -> bool {
    let df = file_of(to) as i8 - file_of(from) as i8;
    let dr = rank_of(to) as i8 - rank_of(from) as i8;
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return false;
    }
    let step = (df.signum(), dr.signum());
    let mut at = from;
    while let Some(next) = offset(at, step).filter(|&sq| sq != to) {
        let mut board = *after;
        if let Some(king) = board.take(to) {
            board.put(next, king);
        }
        if threatened(&board, next, us, rules) {
            return true;
        }
        at = next;
    }
    false
}

/// Plays `mv` on `board`: both pieces are lifted before either lands, so a pulled piece
/// can land where its puller stood.
pub(crate) fn apply(board: &mut Board, mv: &Move) {
    match mv.kind {
        MoveKind::Choice => {
            if let (Some(pawn), Some(role)) = (board.get(mv.from), mv.promotion) {
                board.put(mv.from, Piece { role, ..pawn });
            }
        }
        MoveKind::Castle => {
            let Some(king) = board.get(mv.from) else {
                return;
            };
            let side = castling::Side::of_destination(mv.to);
            let rook_from = castling::rook_home(king.color, side);
            let (king_to, rook_to) = castling::destinations(king.color, side);
            let rook = board.take(rook_from);
            board.take(mv.from);
            board.put(king_to, king);
            if let Some(rook) = rook {
                board.put(rook_to, rook);
            }
        }
        MoveKind::Plain => {
            let primary = board.take(mv.from);
            let pushed = mv.pushed.map(|(square, place)| (board.take(square), place));
            land(board, primary, mv.to, mv.promotion);
            if let Some((piece, place)) = pushed {
                land(board, piece, place, mv.promotion);
            }
        }
    }
}

/// Puts a displaced piece down, promoting a pawn that reached its last rank when a role
/// was chosen (without one it waits there for its owner's choice).
fn land(board: &mut Board, piece: Option<Piece>, place: Place, promotion: Option<Role>) {
    let (Some(mut piece), Place::On(square)) = (piece, place) else {
        return;
    };
    if piece.role == Role::Pawn
        && rank_of(square) == last_rank(piece.color)
        && let Some(role) = promotion
    {
        piece.role = role;
    }
    board.put(square, piece);
}
