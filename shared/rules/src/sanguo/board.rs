//! The position: pieces on the 135 points, the nation to move, the counters; legal move
//! generation, attacks, and playing a move with its eliminations and army transfers.

use super::graph::{GRAPH, Ray};
use super::types::{Move, Nation, POINTS, Piece, Point, Role};

/// Plies without a capture or an elimination after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u32 = 180;

/// A Three Kingdoms position. A nation is in the game while its general is on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sanguo {
    pub(super) board: [Option<Piece>; POINTS],
    pub(super) to_move: Nation,
    /// Plies since the last capture or elimination.
    pub(super) clock: u32,
    /// Plies played since the game's start.
    pub(super) ply: u32,
}

/// The repetition identity: every piece (role, original nation, controller, point) and
/// the nation to move. Eliminated nations follow from the pieces (no general).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanguoKey {
    board: [Option<Piece>; POINTS],
    to_move: Nation,
}

impl Sanguo {
    /// A board with no pieces, Shu to move, counters at zero.
    pub(super) fn empty() -> Sanguo {
        Sanguo {
            board: [None; POINTS],
            to_move: Nation::Shu,
            clock: 0,
            ply: 0,
        }
    }

    /// The piece on `point`, if any.
    pub fn piece_at(&self, point: Point) -> Option<Piece> {
        self.board[usize::from(point)]
    }

    /// The nation to move.
    pub fn turn(&self) -> Nation {
        self.to_move
    }

    /// Plies since the last capture or elimination.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// Plies played since the start.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Where `nation`'s general stands, `None` once the nation is out.
    pub fn general(&self, nation: Nation) -> Option<Point> {
        (0..POINTS as Point).find(|&p| {
            self.piece_at(p)
                .is_some_and(|pc| pc.role == Role::General && pc.origin == nation)
        })
    }

    /// True while `nation`'s general is on the board.
    pub fn is_in_game(&self, nation: Nation) -> bool {
        self.general(nation).is_some()
    }

    /// The nations still in the game, in turn order.
    pub fn nations_in_game(&self) -> Vec<Nation> {
        Nation::ALL
            .into_iter()
            .filter(|&n| self.is_in_game(n))
            .collect()
    }

    /// The repetition key.
    pub fn key(&self) -> SanguoKey {
        SanguoKey {
            board: self.board,
            to_move: self.to_move,
        }
    }

    /// Every legal move of the nation to move.
    pub fn generate(&self, out: &mut Vec<Move>) {
        out.extend(self.legal_moves_of(self.to_move));
    }

    /// True when `nation` has at least one legal move.
    pub fn has_legal_move(&self, nation: Nation) -> bool {
        self.legal_moves_of(nation).next().is_some()
    }

    /// The legal moves of `nation` (none once it is out), found lazily.
    fn legal_moves_of(&self, nation: Nation) -> impl Iterator<Item = Move> {
        let general = self.general(nation);
        let mut pseudo = Vec::with_capacity(96);
        if general.is_some() {
            self.pseudo_moves(nation, &mut pseudo);
        }
        let mut scratch = self.clone();
        pseudo.into_iter().filter(move |&mv| {
            general
                .is_some_and(|g| scratch.is_legal(nation, if mv.from == g { mv.to } else { g }, mv))
        })
    }

    /// True when `nation`'s general is attacked by a piece of another nation, or faces
    /// another nation's general on an open line.
    pub fn is_in_check(&self, nation: Nation) -> bool {
        self.general(nation)
            .is_some_and(|g| self.is_exposed(g, nation, None))
    }

    /// Plays a legal move of the nation to move, then settles eliminations: a captured
    /// general's nation is out; then each following nation with no legal move is out in
    /// turn. Armies of eliminated nations pass to the mover.
    pub fn play_move(&mut self, mv: Move) {
        let mover = self.to_move;
        let captured = self.board[usize::from(mv.to)];
        self.board[usize::from(mv.to)] = self.board[usize::from(mv.from)].take();
        self.ply += 1;
        self.clock += 1;
        if let Some(piece) = captured {
            self.clock = 0;
            if piece.role == Role::General {
                self.eliminate(piece.origin, mover);
            }
        }
        self.pass_turn(mover);
    }

    /// Gives the turn to the next nation in the game after `mover`, eliminating (to the
    /// mover's profit) every nation that has no legal move when its turn comes.
    fn pass_turn(&mut self, mover: Nation) {
        let mut next = mover;
        loop {
            next = self.next_in_game(next);
            if next == mover || self.has_legal_move(next) {
                self.to_move = next;
                return;
            }
            self.eliminate(next, mover);
            self.clock = 0;
        }
    }

    /// The next nation after `nation` in turn order whose general is on the board
    /// (`nation` itself when it is the last one).
    pub(super) fn next_in_game(&self, nation: Nation) -> Nation {
        let mut next = nation.right();
        while next != nation && !self.is_in_game(next) {
            next = next.right();
        }
        next
    }

    /// Removes `loser`'s general and hands every piece it controls to `heir`.
    fn eliminate(&mut self, loser: Nation, heir: Nation) {
        for square in self.board.iter_mut() {
            match square {
                Some(piece) if piece.role == Role::General && piece.origin == loser => {
                    *square = None;
                }
                Some(piece) if piece.controller == loser => piece.controller = heir,
                _ => {}
            }
        }
    }

    /// Plays `mv` on this scratch copy, tests the mover's general (standing on `general`
    /// after the move), and takes the move back.
    fn is_legal(&mut self, mover: Nation, general: Point, mv: Move) -> bool {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let captured = self.board[to];
        self.board[to] = self.board[from].take();
        let fallen = captured
            .filter(|p| p.role == Role::General)
            .map(|p| p.origin);
        let safe = !self.is_exposed(general, mover, fallen);
        self.board[from] = self.board[to];
        self.board[to] = captured;
        safe
    }

    /// True when a piece of a nation other than `own` and `fallen` attacks `general`, or
    /// another general faces it on an open line.
    fn is_exposed(&self, general: Point, own: Nation, fallen: Option<Nation>) -> bool {
        let hostile = |p: Piece| p.controller != own && Some(p.controller) != fallen;
        let holds = |point: Point, role: Role| {
            self.piece_at(point)
                .is_some_and(|p| p.role == role && hostile(p))
        };
        let graph = &*GRAPH;
        let g = usize::from(general);
        graph.rays[g]
            .iter()
            .any(|ray| self.line_exposes(ray, own, &hostile, 0))
            || graph.horse_into[g]
                .iter()
                .any(|&(from, leg)| holds(from, Role::Horse) && self.is_empty(leg))
            || graph.flag_into[g].iter().any(|&(from, path)| {
                holds(from, Role::Flag) && path.iter().all(|&p| self.is_empty(p))
            })
            || graph.orth[g].iter().flatten().any(|&(from, _)| {
                self.piece_at(from).is_some_and(|p| {
                    p.role == Role::Soldier
                        && hostile(p)
                        && graph.soldier[p.origin.index()][usize::from(from)].contains(&general)
                })
            })
    }

    /// Walks a line out from a general: the first piece met attacks it if it is a hostile
    /// chariot or faces it if it is another general; the second if it is a hostile cannon.
    /// `screens` counts the pieces already met before this stretch of line.
    fn line_exposes(
        &self,
        ray: &Ray,
        own: Nation,
        hostile: &impl Fn(Piece) -> bool,
        mut screens: u8,
    ) -> bool {
        for &point in &ray.line {
            let Some(piece) = self.piece_at(point) else {
                continue;
            };
            if screens == 0 {
                let facing = piece.role == Role::General && piece.origin != own;
                if facing || (piece.role == Role::Chariot && hostile(piece)) {
                    return true;
                }
                screens = 1;
            } else {
                return piece.role == Role::Cannon && hostile(piece);
            }
        }
        ray.forks
            .iter()
            .any(|fork| self.line_exposes(fork, own, hostile, screens))
    }

    fn is_empty(&self, point: Point) -> bool {
        self.piece_at(point).is_none()
    }

    /// True when `point` is empty or holds a piece `nation` may capture.
    fn can_land(&self, nation: Nation, point: Point) -> bool {
        self.piece_at(point).is_none_or(|p| p.controller != nation)
    }

    /// Every move of `nation`'s pieces by their geometry, ignoring its general's safety.
    fn pseudo_moves(&self, nation: Nation, out: &mut Vec<Move>) {
        let graph = &*GRAPH;
        for from in 0..POINTS as Point {
            let Some(piece) = self.piece_at(from).filter(|p| p.controller == nation) else {
                continue;
            };
            let f = usize::from(from);
            // The graph never gives a piece two paths to one point (a test pins it), so
            // no move is pushed twice.
            let mut add = |to: Point| {
                if self.can_land(nation, to) {
                    out.push(Move { from, to });
                }
            };
            match piece.role {
                Role::General => graph.general[f].iter().for_each(|&to| add(to)),
                Role::Advisor => graph.advisor[f].iter().for_each(|&to| add(to)),
                Role::Soldier => graph.soldier[piece.origin.index()][f]
                    .iter()
                    .for_each(|&to| add(to)),
                Role::Elephant => graph.elephant[f]
                    .iter()
                    .filter(|(eye, _)| self.is_empty(*eye))
                    .for_each(|&(_, to)| add(to)),
                Role::Horse => graph.horse[f]
                    .iter()
                    .filter(|(leg, _)| self.is_empty(*leg))
                    .for_each(|&(_, to)| add(to)),
                Role::Flag => graph.flag[f]
                    .iter()
                    .filter(|(path, _)| path.iter().all(|&p| self.is_empty(p)))
                    .for_each(|&(_, to)| add(to)),
                Role::Chariot | Role::Cannon => {
                    let cannon = piece.role == Role::Cannon;
                    for ray in &graph.rays[f] {
                        self.slide(ray, cannon, false, &mut add);
                    }
                }
            }
        }
    }

    /// The destinations of a chariot (or cannon) along a line: empty points until the
    /// first piece, which a chariot may capture; a cannon captures the first piece after
    /// exactly one screen. `screened` tells whether the screen was already passed.
    fn slide(&self, ray: &Ray, cannon: bool, mut screened: bool, add: &mut impl FnMut(Point)) {
        for &point in &ray.line {
            match (self.piece_at(point), screened) {
                (None, false) => add(point),
                (None, true) => {}
                (Some(_), false) if cannon => screened = true,
                (Some(_), _) => {
                    add(point);
                    return;
                }
            }
        }
        for fork in &ray.forks {
            self.slide(fork, cannon, screened, add);
        }
    }
}
