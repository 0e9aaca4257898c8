//! Legal moves and attacks, shared by every rule set: pieces move as in chess seen from
//! above, to any existing square of the destination cell, along the route the rule set
//! allows; attack boards move as the rule set allows; no move may leave the mover's king
//! attacked.

use super::geometry::{BoardId, Cell, Square};
use super::layout::Piece;
use super::position::{Move, TriD, forward};
use super::rules::{BoardStep, RuleSet};
use crate::chess::{Color, KING_STEPS, KNIGHT_STEPS, Role};

const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The inward file step of a rook pawn (files a and f), if `file` is one.
fn inward(file: u8) -> Option<i8> {
    match file {
        0 => Some(1),
        5 => Some(-1),
        _ => None,
    }
}

impl<R: RuleSet> TriD<R> {
    /// Appends every legal move.
    pub fn generate(&self, out: &mut Vec<Move>) {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_legal(&mut pseudo);
        out.extend(pseudo.into_iter().filter(|mv| self.is_safe(*mv)));
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_legal(&mut pseudo);
        pseudo.into_iter().any(|mv| self.is_safe(mv))
    }

    /// True when the side to move's king is attacked.
    pub fn is_check(&self) -> bool {
        self.layout
            .king(self.turn)
            .is_some_and(|king| self.attacked(king, self.turn.other()))
    }

    /// True when `mv` leaves the mover's king unattacked.
    fn is_safe(&self, mv: Move) -> bool {
        let mut after = self.clone();
        after.play_move(mv);
        after
            .layout
            .king(self.turn)
            .is_none_or(|king| !after.attacked(king, self.turn.other()))
    }

    fn pseudo_legal(&self, out: &mut Vec<Move>) {
        let own: Vec<(Square, Piece)> = self
            .layout
            .occupied()
            .filter(|(_, p)| p.color == self.turn)
            .collect();
        for (from, piece) in own {
            match piece.role {
                Role::Knight => self.leaps(from, &KNIGHT_STEPS, false, out),
                Role::King => self.leaps(from, &KING_STEPS, true, out),
                Role::Rook => self.slides(from, &ORTHOGONAL, out),
                Role::Bishop => self.slides(from, &DIAGONAL, out),
                Role::Queen => {
                    self.slides(from, &ORTHOGONAL, out);
                    self.slides(from, &DIAGONAL, out);
                }
                Role::Pawn => self.pawn_moves(from, piece, out),
            }
        }
        self.castlings(out);
        self.board_moves(out);
    }

    /// True when `to` exists and holds no piece of the side to move.
    fn enterable(&self, to: Square) -> bool {
        self.layout.piece(to).is_none_or(|p| p.color != self.turn)
    }

    /// One-step moves (king: along a route, knight: a jump) to every square of each cell.
    fn leaps(&self, from: Square, deltas: &[(i8, i8)], routed: bool, out: &mut Vec<Move>) {
        for &(df, dr) in deltas {
            let Some(cell) = from.cell().offset(df, dr) else {
                continue;
            };
            for to in self.layout.column(cell) {
                if self.enterable(to)
                    && (!routed || self.rules.route(&self.layout, from, to, &[]).is_some())
                {
                    out.push(plain(from, to));
                }
            }
        }
    }

    /// Line moves: every square of every cell along each direction that a route reaches.
    /// A cell without any square ends the line.
    fn slides(&self, from: Square, directions: &[(i8, i8)], out: &mut Vec<Move>) {
        for &(df, dr) in directions {
            let mut between: Vec<Cell> = Vec::with_capacity(8);
            let mut cell = from.cell();
            while let Some(next) = cell.offset(df, dr) {
                if self.layout.levels(next) == 0 {
                    break;
                }
                for to in self.layout.column(next) {
                    if self.enterable(to)
                        && self.rules.route(&self.layout, from, to, &between).is_some()
                    {
                        out.push(plain(from, to));
                    }
                }
                between.push(next);
                cell = next;
            }
        }
    }

    fn pawn_moves(&self, from: Square, pawn: Piece, out: &mut Vec<Move>) {
        let dr = forward(pawn.color);
        self.pawn_steps(from, pawn, (0, dr), out);
        for df in [-1, 1] {
            self.pawn_captures(from, (df, dr), out);
        }
        if self.rules.rook_pawns()
            && let Some(di) = inward(from.file())
        {
            self.pawn_steps(from, pawn, (di, 0), out);
            self.pawn_captures(from, (di, -dr), out);
        }
        if let Some(ep) = self.ep
            && [-1, 1]
                .into_iter()
                .any(|df| from.cell().offset(df, dr) == Some(ep.landing.cell()))
            && self
                .rules
                .route(&self.layout, from, ep.landing, &[])
                .is_some()
        {
            out.push(Move::Piece {
                from,
                to: ep.landing,
                promotion: None,
                en_passant: true,
            });
        }
    }

    /// A pawn's non-capturing steps in direction `(df, dr)`: one square, or two when unmoved.
    fn pawn_steps(&self, from: Square, pawn: Piece, (df, dr): (i8, i8), out: &mut Vec<Move>) {
        let Some(one) = from.cell().offset(df, dr) else {
            return;
        };
        self.pawn_arrivals(from, one, &[], false, out);
        if pawn.unmoved
            && let Some(two) = one.offset(df, dr)
        {
            self.pawn_arrivals(from, two, &[one], false, out);
        }
    }

    fn pawn_captures(&self, from: Square, (df, dr): (i8, i8), out: &mut Vec<Move>) {
        if let Some(cell) = from.cell().offset(df, dr) {
            self.pawn_arrivals(from, cell, &[], true, out);
        }
    }

    /// A pawn's moves onto the squares of `cell`: empty ones for steps, enemy ones for
    /// captures; with every promotion where the rule set promotes.
    fn pawn_arrivals(
        &self,
        from: Square,
        cell: Cell,
        between: &[Cell],
        capture: bool,
        out: &mut Vec<Move>,
    ) {
        for to in self.layout.column(cell) {
            let target = self.layout.piece(to);
            let fits = match target {
                None => !capture,
                Some(p) => capture && p.color != self.turn,
            };
            if fits && self.rules.route(&self.layout, from, to, between).is_some() {
                self.push_promotions(self.turn, to, out, |promotion| Move::Piece {
                    from,
                    to,
                    promotion,
                    en_passant: false,
                });
            }
        }
    }

    /// Pushes `make(None)`, or one move per promotion piece when a `color` pawn arriving on
    /// `to` promotes.
    fn push_promotions(
        &self,
        color: Color,
        to: Square,
        out: &mut Vec<Move>,
        make: impl Fn(Option<Role>) -> Move,
    ) {
        if self.rules.promotes(&self.layout, color, to) {
            out.extend(PROMOTIONS.into_iter().map(|r| make(Some(r))));
        } else {
            out.push(make(None));
        }
    }

    fn castlings(&self, out: &mut Vec<Move>) {
        let enemy = self.turn.other();
        for castling in self.rules.castlings(self.turn) {
            let unmoved = |square: Square, role: Role| {
                self.layout.exists(square)
                    && self.layout.piece(square) == Some(Piece::new(self.turn, role, true))
            };
            let possible = unmoved(castling.king_from, Role::King)
                && unmoved(castling.rook_from, Role::Rook)
                && self.layout.exists(castling.king_to)
                && castling
                    .clear
                    .iter()
                    .all(|s| self.layout.exists(*s) && self.layout.piece(*s).is_none())
                && castling.board.is_none_or(|b| self.layout.board(b).unmoved)
                && !self.attacked(castling.king_from, enemy);
            if possible {
                out.push(Move::Castle {
                    king_side: castling.king_side,
                });
            }
        }
    }

    fn board_moves(&self, out: &mut Vec<Move>) {
        let mut steps = Vec::new();
        for id in BoardId::ALL {
            steps.clear();
            self.rules
                .board_steps(&self.layout, self.turn, id, &mut steps);
            for step in &steps {
                self.push_board_move(id, *step, out);
            }
        }
    }

    /// The board move `step` of board `id`, with every promotion when it promotes a pawn of
    /// the mover (see [`TriD::board_move_promotions`]).
    fn push_board_move(&self, id: BoardId, step: BoardStep, out: &mut Vec<Move>) {
        let make = |promotion| Move::Board {
            id,
            pin: step.pin,
            inverted: step.inverted,
            promotion,
        };
        let (_, promoted) = self.board_move_promotions(id, step.pin, step.inverted);
        if promoted.is_empty() {
            out.push(make(None));
        } else {
            out.extend(PROMOTIONS.into_iter().map(|r| make(Some(r))));
        }
    }

    /// True when a piece of `by` could capture on `target` (whatever stands there).
    pub fn attacked(&self, target: Square, by: Color) -> bool {
        self.layout
            .occupied()
            .any(|(from, piece)| piece.color == by && self.reaches(from, piece, target))
    }

    /// True when `piece` on `from` attacks `target`.
    fn reaches(&self, from: Square, piece: Piece, target: Square) -> bool {
        let df = target.file() as i8 - from.file() as i8;
        let dr = target.rank() as i8 - from.rank() as i8;
        let (adf, adr) = (df.abs(), dr.abs());
        let step = || self.rules.route(&self.layout, from, target, &[]).is_some();
        match piece.role {
            Role::Knight => (adf, adr) == (1, 2) || (adf, adr) == (2, 1),
            Role::King => adf.max(adr) == 1 && step(),
            Role::Pawn => {
                let fwd = forward(piece.color);
                let rook_pawn =
                    self.rules.rook_pawns() && inward(from.file()) == Some(df) && dr == -fwd;
                ((adf == 1 && dr == fwd) || rook_pawn) && step()
            }
            Role::Rook => (adf == 0) != (adr == 0) && self.line_open(from, target),
            Role::Bishop => adf == adr && adf != 0 && self.line_open(from, target),
            Role::Queen => {
                ((adf == 0) != (adr == 0) || (adf == adr && adf != 0))
                    && self.line_open(from, target)
            }
        }
    }

    /// True when a line piece on `from` has a route to `to` (on a common line).
    fn line_open(&self, from: Square, to: Square) -> bool {
        from.cell().between(to.cell()).is_some_and(|cells| {
            cells.as_slice().iter().all(|c| self.layout.levels(*c) != 0)
                && self
                    .rules
                    .route(&self.layout, from, to, cells.as_slice())
                    .is_some()
        })
    }
}

fn plain(from: Square, to: Square) -> Move {
    Move::Piece {
        from,
        to,
        promotion: None,
        en_passant: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trid::{Federation, Wtdcf};
    use crate::{Options, Position};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// In every position of some random games, the squares `attacked` reports for each side
    /// are exactly those the move generator of that side captures on.
    fn attacks_match_captures<R: RuleSet>(options: &str) {
        let options = Options::parse(options, R::option_specs()).unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..6 {
            let mut position = TriD::<R>::start(&options);
            for _ in 0..120 {
                for side in [Color::White, Color::Black] {
                    assert_attacks_match(&position, side);
                }
                let mut moves = Vec::new();
                position.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position.play_move(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    fn assert_attacks_match<R: RuleSet>(position: &TriD<R>, side: Color) {
        let mut turned = position.clone();
        turned.turn = side;
        turned.ep = None;
        let mut moves = Vec::new();
        turned.pseudo_legal(&mut moves);
        let mut captured: Vec<Square> = moves
            .into_iter()
            .filter_map(|m| match m {
                Move::Piece { to, .. } if position.layout.piece(to).is_some() => Some(to),
                _ => None,
            })
            .collect();
        captured.sort();
        captured.dedup();
        let attacked: Vec<Square> = position
            .layout
            .occupied()
            .filter(|(s, p)| p.color != side && position.attacked(*s, side))
            .map(|(s, _)| s)
            .collect();
        assert_eq!(captured, attacked, "{side:?} in {}", position.to_text());
    }

    #[test]
    fn federation_attacks_match_captures() {
        attacks_match_captures::<Federation>("");
        attacks_match_captures::<Federation>("rook-pawn=on");
    }

    #[test]
    fn wtdcf_attacks_match_captures() {
        attacks_match_captures::<Wtdcf>("");
    }
}
