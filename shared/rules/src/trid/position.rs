//! A Tri-D position under a rule set: the layout, the side to move, en passant and the
//! move counters; and how a move changes it.

use super::geometry::{BoardId, Pin, Square};
use super::layout::{Layout, Piece};
use super::rules::{BoardCapture, Castling, RuleSet};
use crate::chess::{Color, Role};

/// A move of Tri-D chess. Only meaningful in the position that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece goes from one square to another, capturing what stands there (or, en passant,
    /// the pawn that just stepped twice), promoting when a pawn reaches its last ranks.
    Piece {
        /// The start square.
        from: Square,
        /// The destination.
        to: Square,
        /// The piece a pawn becomes.
        promotion: Option<Role>,
        /// True for an en passant capture: `to` is the landing square.
        en_passant: bool,
    },
    /// King and rook castle.
    Castle {
        /// True for `O-O`.
        king_side: bool,
    },
    /// An attack board moves, carrying its riders.
    Board {
        /// The board.
        id: BoardId,
        /// Its destination.
        pin: Pin,
        /// True when it is turned half round.
        inverted: bool,
        /// The piece a riding pawn becomes when the board brings it to its last ranks.
        promotion: Option<Role>,
    },
}

/// A pawn that just stepped twice: where it may be taken and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The square it crossed, where a capturing pawn lands.
    pub landing: Square,
    /// The square it stands on.
    pub pawn: Square,
}

/// A Tri-Dimensional chess position under rule set `R`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TriD<R: RuleSet> {
    pub(super) rules: R,
    pub(super) layout: Layout,
    pub(super) turn: Color,
    pub(super) ep: Option<EnPassant>,
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
}

/// The rank step of a `color` pawn's forward move.
pub fn forward(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

impl<R: RuleSet> TriD<R> {
    /// The rule set and its options.
    pub fn rules(&self) -> R {
        self.rules
    }

    /// The boards and pieces.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The pawn that may be taken en passant now, if any.
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.ep
    }

    /// Plies since the last capture, pawn move or promotion.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number (starts at 1, grows after Black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Plays `mv`, a move produced by this position's legal move generation.
    pub fn play_move(&mut self, mv: Move) {
        let mover = self.turn;
        let mut ep = None;
        let irreversible = match mv {
            Move::Piece {
                from,
                to,
                promotion,
                en_passant,
            } => {
                ep = self.double_step(from, to);
                self.move_piece(from, to, promotion, en_passant)
            }
            Move::Castle { king_side } => {
                self.castle(king_side);
                false
            }
            Move::Board {
                id,
                pin,
                inverted,
                promotion,
            } => {
                self.move_board(id, pin, inverted, promotion);
                promotion.is_some()
            }
        };
        self.ep = ep;
        self.halfmoves = if irreversible { 0 } else { self.halfmoves + 1 };
        if mover == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = mover.other();
    }

    /// The en passant chance a pawn's double step from `from` to `to` creates.
    fn double_step(&self, from: Square, to: Square) -> Option<EnPassant> {
        let piece = self.layout.piece(from)?;
        let dr = to.rank() as i8 - from.rank() as i8;
        if piece.role != Role::Pawn || to.file() != from.file() || dr != 2 * forward(piece.color) {
            return None;
        }
        let middle = from.cell().offset(0, forward(piece.color))?;
        let route = self.rules.route(&self.layout, from, to, &[middle])?;
        Some(EnPassant {
            landing: route.via?,
            pawn: to,
        })
    }

    /// Moves a piece and takes what it captures; true when a pawn moved or a piece was taken.
    fn move_piece(
        &mut self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        en_passant: bool,
    ) -> bool {
        let piece = self.layout.piece(from).expect("a move starts on a piece");
        let taken_on = match (en_passant, self.ep) {
            (true, Some(ep)) => ep.pawn,
            _ => to,
        };
        let taken = self.layout.piece(taken_on);
        let board = taken.and_then(|_| self.layout.board_at(taken_on));
        let alone = board.is_some_and(|id| {
            self.layout
                .riders(id)
                .all(|(square, _)| square == taken_on || square == from)
        });
        self.layout.set(taken_on, None);
        self.layout.set(from, None);
        let arrived = match promotion {
            Some(role) => Piece::new(piece.color, role, false),
            None => piece.moved(),
        };
        self.layout.set(to, Some(arrived));
        if let (Some(taken), Some(board), true) = (taken, board, R::BOARD_CAPTURE) {
            self.capture_board(board, taken.color, alone);
        }
        piece.role == Role::Pawn || taken.is_some()
    }

    /// Board capture, just after a piece of `loser` was taken on board `id` (`alone`: it was
    /// the only piece there, the taking piece aside): a board of the loser's passes to the
    /// side that took when the rule set's [`BoardCapture`] says so. An empty board is never
    /// captured.
    fn capture_board(&mut self, id: BoardId, loser: Color, alone: bool) {
        let passes = match self.rules.board_capture() {
            BoardCapture::OnlyPiece => alone,
            BoardCapture::OwnersLast => self.layout.riders(id).all(|(_, p)| p.color != loser),
        };
        if self.layout.board(id).owner == loser && passes {
            self.layout.set_owner(id, loser.other());
        }
    }

    /// The castling of the side to move on the king or queen side, as a castling move
    /// names it.
    pub(super) fn castling(&self, king_side: bool) -> Castling {
        *self
            .rules
            .castlings(self.turn)
            .iter()
            .find(|c| c.king_side == king_side)
            .expect("a castling move names a castling of the rule set")
    }

    fn castle(&mut self, king_side: bool) {
        let castling = self.castling(king_side);
        let king = self
            .layout
            .piece(castling.king_from)
            .expect("the king stands");
        let rook = self
            .layout
            .piece(castling.rook_from)
            .expect("the rook stands");
        self.layout.set(castling.king_from, None);
        self.layout.set(castling.rook_from, None);
        self.layout.set(castling.king_to, Some(king.moved()));
        self.layout.set(castling.rook_to, Some(rook.moved()));
    }

    fn move_board(&mut self, id: BoardId, pin: Pin, inverted: bool, promotion: Option<Role>) {
        let (mut after, promoted) = self.board_move_promotions(id, pin, inverted);
        if let Some(role) = promotion {
            for square in promoted {
                after.set(square, Some(Piece::new(self.turn, role, false)));
            }
        }
        self.layout = after;
    }

    /// The layout after the side to move moves board `id` to `pin` (turned half round when
    /// `inverted`), and the squares of that side's pawns the move promotes: a rider brought
    /// where it promotes, or a pawn left standing where it now promotes (the board took
    /// away the square ahead of it).
    pub(super) fn board_move_promotions(
        &self,
        id: BoardId,
        pin: Pin,
        inverted: bool,
    ) -> (Layout, Vec<Square>) {
        let mut after = self.layout.clone();
        let landed = after.move_board(id, pin, inverted);
        let promoted = after
            .occupied()
            .filter(|(square, piece)| {
                piece.role == Role::Pawn
                    && piece.color == self.turn
                    && self.rules.promotes(&after, piece.color, *square)
                    && (landed.contains(square)
                        || !self.rules.promotes(&self.layout, piece.color, *square))
            })
            .map(|(square, _)| square)
            .collect();
        (after, promoted)
    }
}
