//! The chess position: pieces, side to move, rights and counters; move generation and
//! making moves.

use super::types::{Bitboard, Color, Move, MoveKind, Role, Square, bit, file_of, rank_of, squares};
use super::{attacks, zobrist};

const RANK_1: Bitboard = 0xff;
const RANK_8: Bitboard = 0xff << 56;

/// A standard chess position, as a FEN describes it. A small `Copy`-cheap value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chess {
    pub(super) roles: [Bitboard; 6],
    pub(super) colors: [Bitboard; 2],
    pub(super) turn: Color,
    /// Rooks (by square) that still have their castling right.
    pub(super) castling: Bitboard,
    /// The square a pawn skipped with its last move, if it just made a double step.
    pub(super) ep: Option<Square>,
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
    /// The Zobrist key of the pieces, the side to move and the castling rights (see
    /// [`zobrist`]), kept up to date by every change of them.
    pub(super) zobrist: u64,
}

/// Which legal moves [`Chess::generate_in`] lists: those of the pieces on `from` to the
/// squares of `to`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scope {
    pub from: Bitboard,
    pub to: Bitboard,
}

impl Scope {
    /// Every legal move.
    pub const ALL: Scope = Scope { from: !0, to: !0 };
}

/// Where move generation puts the moves it finds.
pub(super) trait MoveSink {
    /// Takes one legal move.
    fn push(&mut self, mv: Move);
    /// True once the sink needs no more moves: generation may then stop early.
    fn satisfied(&self) -> bool;
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }

    fn satisfied(&self) -> bool {
        false
    }
}

/// A sink that only learns whether a legal move exists.
#[derive(Default)]
struct Exists(bool);

impl MoveSink for Exists {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }

    fn satisfied(&self) -> bool {
        self.0
    }
}

/// What two chess positions must share to be the same position for repetition:
/// pieces, side to move, castling rights and a *legal* en passant capture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChessKey {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
    turn: Color,
    castling: Bitboard,
    ep: Option<Square>,
}

impl Chess {
    /// An empty board, White to move, no rights, counters at 0 and 1.
    pub(super) fn empty() -> Chess {
        Chess {
            roles: [0; 6],
            colors: [0; 2],
            turn: Color::White,
            castling: 0,
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
            zobrist: 0,
        }
    }

    /// The Zobrist key of the pieces, the side to move and the castling rights: equal for
    /// positions that may be the same for repetition, different for any two that are not
    /// (but for the en passant right, which [`Chess::key`] tells apart).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Sets the side to move, keeping the Zobrist key.
    pub(super) fn set_turn(&mut self, turn: Color) {
        if turn != self.turn {
            self.zobrist ^= zobrist::BLACK_TO_MOVE;
        }
        self.turn = turn;
    }

    /// Sets the rooks that keep their castling right, keeping the Zobrist key.
    pub(super) fn set_castling(&mut self, rooks: Bitboard) {
        self.zobrist ^= zobrist::castling(self.castling ^ rooks);
        self.castling = rooks;
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number (starts at 1, grows after Black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.roles[role.index()] & self.colors[color.index()]
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<(Color, Role)> {
        let color = if self.colors[0] & bit(square) != 0 {
            Color::White
        } else if self.colors[1] & bit(square) != 0 {
            Color::Black
        } else {
            return None;
        };
        Role::ALL
            .into_iter()
            .find(|r| self.roles[r.index()] & bit(square) != 0)
            .map(|r| (color, r))
    }

    /// Puts a piece on an empty square.
    pub(super) fn put(&mut self, square: Square, color: Color, role: Role) {
        self.flip(color, role, square);
    }

    /// The king of `color` (the lowest one if a malformed set-up had several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        self.pieces(color, Role::King).trailing_zeros() as Square
    }

    /// `by`'s pieces attacking `square` when `occupied` is the board's occupancy.
    #[inline]
    pub fn attackers(&self, square: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let r = &self.roles;
        let theirs = self.colors[by.index()] & occupied;
        let queens = r[Role::Queen.index()];
        let mut attackers = (attacks::knight(square) & r[Role::Knight.index()]
            | attacks::king(square) & r[Role::King.index()]
            | attacks::pawn(by.other(), square) & r[Role::Pawn.index()])
            & theirs;
        let diagonal = (r[Role::Bishop.index()] | queens) & theirs;
        if attacks::bishop_empty(square) & diagonal != 0 {
            attackers |= attacks::bishop(square, occupied) & diagonal;
        }
        let straight = (r[Role::Rook.index()] | queens) & theirs;
        if attacks::rook_empty(square) & straight != 0 {
            attackers |= attacks::rook(square, occupied) & straight;
        }
        attackers
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let king = self.king_of(self.turn);
        self.attackers(king, self.turn.other(), self.occupied())
    }

    /// True when the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers() != 0
    }

    /// True when `mv`, a plain move (no castling, en passant or promotion) of a piece of
    /// the side to move, whose king is on `king`, does not leave that king attacked.
    pub(super) fn keeps_king_safe(&self, mv: Move, king: Square) -> bool {
        let them = self.turn.other();
        if mv.from == king {
            return self.attackers(mv.to, them, self.occupied() ^ bit(king)) == 0;
        }
        let occupied = self.occupied() ^ bit(mv.from) | bit(mv.to);
        self.attackers(king, them, occupied) & !bit(mv.to) == 0
    }

    /// The side to move's pieces pinned to their king.
    fn pinned(&self, king: Square) -> Bitboard {
        let them = self.turn.other();
        let r = &self.roles;
        let queens = r[Role::Queen.index()];
        let snipers = (attacks::rook_empty(king) & (r[Role::Rook.index()] | queens)
            | attacks::bishop_empty(king) & (r[Role::Bishop.index()] | queens))
            & self.colors[them.index()];
        let occupied = self.occupied();
        let ours = self.colors[self.turn.index()];
        squares(snipers).fold(0, |pinned, sniper| {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.count_ones() == 1 && blockers & ours != 0 {
                pinned | blockers
            } else {
                pinned
            }
        })
    }

    /// Appends every legal move to `out`.
    pub fn generate(&self, out: &mut Vec<Move>) {
        self.generate_in(out, Scope::ALL);
    }

    /// Appends the legal moves `scope` asks for to `out`.
    pub(super) fn generate_in(&self, out: &mut impl MoveSink, scope: Scope) {
        let us = self.turn;
        let them = us.other();
        let ours = self.colors[us.index()];
        let occupied = self.occupied();
        let king = self.king_of(us);
        let checkers = self.attackers(king, them, occupied);

        if scope.from & bit(king) != 0 {
            for to in squares(attacks::king(king) & !ours & scope.to) {
                if self.attackers(to, them, occupied ^ bit(king)) == 0 {
                    out.push(Move {
                        from: king,
                        to,
                        kind: MoveKind::Normal,
                    });
                }
            }
        }
        if checkers.count_ones() > 1 || out.satisfied() {
            return;
        }
        let target = scope.to
            & match checkers {
                0 => !ours,
                c => c | attacks::between(king, c.trailing_zeros() as Square),
            };
        let pinned = self.pinned(king);
        let allowed = |from: Square| {
            if pinned & bit(from) != 0 {
                attacks::line(king, from)
            } else {
                !0
            }
        };

        for from in squares(self.pieces(us, Role::Knight) & !pinned & scope.from) {
            push_all(out, from, attacks::knight(from) & target);
        }
        if out.satisfied() {
            return;
        }
        let queens = self.pieces(us, Role::Queen);
        for from in squares((self.pieces(us, Role::Bishop) | queens) & scope.from) {
            push_all(
                out,
                from,
                attacks::bishop(from, occupied) & target & allowed(from),
            );
        }
        for from in squares((self.pieces(us, Role::Rook) | queens) & scope.from) {
            push_all(
                out,
                from,
                attacks::rook(from, occupied) & target & allowed(from),
            );
        }
        if out.satisfied() {
            return;
        }
        self.generate_pawns(out, target, &allowed, scope.from);
        if self.ep.is_some_and(|ep| scope.to & bit(ep) != 0) {
            self.generate_en_passant(out, king, scope.from);
        }
        if checkers == 0 && scope.from & bit(king) != 0 {
            self.generate_castling(out, king, scope.to);
        }
    }

    fn generate_pawns(
        &self,
        out: &mut impl MoveSink,
        target: Bitboard,
        allowed: &impl Fn(Square) -> Bitboard,
        from_mask: Bitboard,
    ) {
        let us = self.turn;
        let occupied = self.occupied();
        let theirs = self.colors[us.other().index()];
        let (forward, start_rank): (i8, u8) = match us {
            Color::White => (8, 1),
            Color::Black => (-8, 6),
        };
        for from in squares(self.pieces(us, Role::Pawn) & from_mask) {
            let allowed = allowed(from);
            let mut targets = attacks::pawn(us, from) & theirs;
            let one = (from as i8 + forward) as Square;
            if occupied & bit(one) == 0 {
                targets |= bit(one);
                let two = (one as i8 + forward) as Square;
                if rank_of(from) == start_rank && occupied & bit(two) == 0 {
                    targets |= bit(two);
                }
            }
            for to in squares(targets & target & allowed) {
                if bit(to) & (RANK_1 | RANK_8) != 0 {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        out.push(Move {
                            from,
                            to,
                            kind: MoveKind::Promotion(role),
                        });
                    }
                } else {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::Normal,
                    });
                }
            }
        }
    }

    /// En passant captures by the pawns of `from_mask`, each checked by removing both pawns
    /// from the board and asking whether the king is then attacked (this covers the rank pin
    /// through two pawns).
    fn generate_en_passant(&self, out: &mut impl MoveSink, king: Square, from_mask: Bitboard) {
        let Some(ep) = self.ep else { return };
        let us = self.turn;
        let them = us.other();
        let captured = self.ep_victim(ep);
        for from in squares(attacks::pawn(them, ep) & self.pieces(us, Role::Pawn) & from_mask) {
            let occupied = self.occupied() ^ bit(from) ^ bit(captured) | bit(ep);
            if self.attackers(king, them, occupied) == 0 {
                out.push(Move {
                    from,
                    to: ep,
                    kind: MoveKind::EnPassant,
                });
            }
        }
    }

    /// The square of the pawn an en passant capture on `ep` removes.
    fn ep_victim(&self, ep: Square) -> Square {
        match self.turn {
            Color::White => ep - 8,
            Color::Black => ep + 8,
        }
    }

    /// Castling moves whose king lands on a square of `to_mask`.
    fn generate_castling(&self, out: &mut impl MoveSink, king: Square, to_mask: Bitboard) {
        let us = self.turn;
        let back = match us {
            Color::White => RANK_1,
            Color::Black => RANK_8,
        };
        let occupied = self.occupied();
        for rook in squares(self.castling & back & self.pieces(us, Role::Rook)) {
            let (king_to, rook_to) = castling_squares(king, rook);
            if to_mask & bit(king_to) == 0 {
                continue;
            }
            let must_be_empty = (attacks::between(king, rook) | bit(king_to) | bit(rook_to))
                & !bit(king)
                & !bit(rook);
            if occupied & must_be_empty != 0 {
                continue;
            }
            let passed = attacks::between(king, king_to) | bit(king_to);
            let without_king = occupied ^ bit(king);
            if squares(passed).all(|sq| self.attackers(sq, us.other(), without_king) == 0) {
                out.push(Move {
                    from: king,
                    to: king_to,
                    kind: MoveKind::Castle,
                });
            }
        }
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut exists = Exists::default();
        self.generate_in(&mut exists, Scope::ALL);
        exists.0
    }

    /// The en passant target square if a legal en passant capture exists.
    pub fn legal_ep(&self) -> Option<Square> {
        let mut moves = Vec::new();
        self.generate_en_passant(&mut moves, self.king_of(self.turn), !0);
        moves.first().map(|m| m.to)
    }

    /// The repetition identity of the position.
    pub fn key(&self) -> ChessKey {
        ChessKey {
            roles: self.roles,
            colors: self.colors,
            turn: self.turn,
            castling: self.castling,
            ep: self.legal_ep(),
        }
    }

    /// The role of the piece on `square`, which must be occupied.
    #[inline]
    fn role_on(&self, square: Square) -> Role {
        let mask = bit(square);
        Role::ALL
            .into_iter()
            .find(|r| self.roles[r.index()] & mask != 0)
            .expect("an occupied square")
    }

    /// Puts a piece of `color` and `role` on `square`, or takes it off.
    #[inline]
    fn flip(&mut self, color: Color, role: Role, square: Square) {
        self.roles[role.index()] ^= bit(square);
        self.colors[color.index()] ^= bit(square);
        self.zobrist ^= zobrist::piece(color, role, square);
    }

    /// Moves a piece of `color` and `role` from `from` to another square, `to`.
    #[inline]
    fn shift(&mut self, color: Color, role: Role, from: Square, to: Square) {
        let squares = bit(from) | bit(to);
        self.roles[role.index()] ^= squares;
        self.colors[color.index()] ^= squares;
        self.zobrist ^= zobrist::piece(color, role, from) ^ zobrist::piece(color, role, to);
    }

    /// Plays a legal move.
    #[inline]
    pub fn play_move(&mut self, mv: Move) {
        let us = self.turn;
        let them = us.other();
        let role = self.role_on(mv.from);
        let capture = mv.kind != MoveKind::Castle && self.colors[them.index()] & bit(mv.to) != 0;
        if capture {
            let captured = self.role_on(mv.to);
            self.flip(them, captured, mv.to);
        }
        self.halfmoves = if role == Role::Pawn || capture {
            0
        } else {
            self.halfmoves + 1
        };
        self.fullmoves += us.index() as u32;
        let ep = self.ep.take();
        if mv.kind == MoveKind::Normal {
            self.shift(us, role, mv.from, mv.to);
            if role == Role::Pawn && mv.to.abs_diff(mv.from) == 16 {
                self.ep = Some((mv.from + mv.to) / 2);
            }
        } else {
            self.play_special(mv, ep);
        }
        let mut touched = bit(mv.from) | bit(mv.to);
        if role == Role::King {
            touched |= if us == Color::White { RANK_1 } else { RANK_8 };
        }
        if self.castling & touched != 0 {
            self.set_castling(self.castling & !touched);
        }
        self.turn = them;
        self.zobrist ^= zobrist::BLACK_TO_MOVE;
    }

    /// Moves the pieces of a promotion, an en passant capture (`ep` the square the pawn
    /// skipped) or a castling move: kept apart from the plain moves, which are most.
    #[inline(never)]
    fn play_special(&mut self, mv: Move, ep: Option<Square>) {
        let us = self.turn;
        match mv.kind {
            MoveKind::Normal => self.shift(us, self.role_on(mv.from), mv.from, mv.to),
            MoveKind::Promotion(promoted) => {
                self.flip(us, Role::Pawn, mv.from);
                self.flip(us, promoted, mv.to);
            }
            MoveKind::EnPassant => {
                let victim = self.ep_victim(ep.expect("en passant needs a target"));
                self.flip(us.other(), Role::Pawn, victim);
                self.shift(us, Role::Pawn, mv.from, mv.to);
            }
            MoveKind::Castle => {
                let rook = self.castling_rook(mv);
                let (king_to, rook_to) = castling_squares(mv.from, rook);
                self.shift(us, Role::King, mv.from, king_to);
                self.shift(us, Role::Rook, rook, rook_to);
            }
        }
    }

    /// The rook a castling move moves: the one on the side of the king's destination.
    pub(super) fn castling_rook(&self, mv: Move) -> Square {
        let rank = rank_of(mv.from);
        if file_of(mv.to) > file_of(mv.from) {
            rank * 8 + 7
        } else {
            rank * 8
        }
    }

    /// True when `color` cannot possibly checkmate with its material, whatever the other
    /// side does (as python-chess and FIDE's dead position for these material cases):
    /// a lone king; king and one knight against a king with no pieces but queens; king
    /// and bishops all on one colour with no knights or pawns on the board.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let own = self.colors[color.index()];
        let r = &self.roles;
        if own & (r[Role::Pawn.index()] | r[Role::Rook.index()] | r[Role::Queen.index()]) != 0 {
            return false;
        }
        if own & r[Role::Knight.index()] != 0 {
            let theirs = self.colors[color.other().index()];
            return own.count_ones() <= 2
                && theirs & !r[Role::King.index()] & !r[Role::Queen.index()] == 0;
        }
        if own & r[Role::Bishop.index()] != 0 {
            const DARK: Bitboard = 0xaa55_aa55_aa55_aa55;
            let bishops = r[Role::Bishop.index()];
            let one_colour = bishops & DARK == 0 || bishops & !DARK == 0;
            return one_colour && r[Role::Pawn.index()] == 0 && r[Role::Knight.index()] == 0;
        }
        true
    }

    /// True when neither side can possibly checkmate.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }
}

/// Where king and rook land when castling with the rook on `rook`.
pub(super) fn castling_squares(king: Square, rook: Square) -> (Square, Square) {
    let rank = rank_of(king) * 8;
    if file_of(rook) > file_of(king) {
        (rank + 6, rank + 5)
    } else {
        (rank + 2, rank + 3)
    }
}

#[inline]
fn push_all(out: &mut impl MoveSink, from: Square, targets: Bitboard) {
    for to in squares(targets) {
        out.push(Move {
            from,
            to,
            kind: MoveKind::Normal,
        });
    }
}
