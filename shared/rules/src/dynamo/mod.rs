//! Dynamo chess (seed 004, Klüver and Kahl, 1968): the variant `dynamo`.
//!
//! No captures: pieces push or pull other pieces (of either side) along their own moves,
//! and a piece that goes off the board leaves the game. The interpretation of every rule
//! is written down in `docs/rules/dynamo.md`. Position text is FEN with two additions
//! (a castling rook away from its corner, the last move); long notation is the seed's
//! (`Ra1a5/Ba5E`, `Nb1/Bc3d5`), short notation a SAN-like abbreviation of it.

mod board;
mod castling;
mod check;
mod fen;
mod moves;
mod notation;

pub use board::{Board, Piece, Place};
pub use fen::START_FEN;
pub use moves::{Move, MoveKind};

use crate::chess::diagram::board_diagram;
use crate::chess::types::{Color, Role, Square, rank_of, square_name};
use crate::classical::{self, Facts};
use crate::position::occurrences;
use crate::{
    Claim, Diagram, MoveEnds, MoveError, Notation, OptionSpec, Options, Outcome, Position,
    PositionError, Seat,
};
use castling::Rights;
use check::threatened;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "en-passant",
        values: &["off", "on"],
        default: "off",
        description: "a pawn that advanced two squares on the a- or h-file may be pushed off \
                      the board by a pawn that could have taken it en passant",
    },
    OptionSpec {
        key: "owner-promotes",
        values: &["off", "on"],
        default: "off",
        description: "a pushed or pulled pawn's new piece is chosen by its owner, not by the \
                      player making the move",
    },
    OptionSpec {
        key: "pawn-push",
        values: &["friendly", "any"],
        default: "friendly",
        description: "what a pawn pushes straight forward: `friendly`, a piece of its own side; \
                      `any`, a piece of either side (the reading of older games)",
    },
];

/// The rules in force for a game: the optional rules of seed 004's variants section, and
/// the older reading of pawn pushes kept for games recorded under it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `en-passant=on`.
    pub en_passant: bool,
    /// `owner-promotes=on`.
    pub owner_promotes: bool,
    /// `pawn-push=any`: a pawn pushes a piece of either side straight forward, not only one
    /// of its own.
    pub pawns_push_any: bool,
}

impl Rules {
    /// The rules chosen by `options`.
    pub fn from_options(options: &Options) -> Rules {
        Rules {
            en_passant: options.is_on("en-passant"),
            owner_promotes: options.is_on("owner-promotes"),
            pawns_push_any: options.get("pawn-push") == Some("any"),
        }
    }
}

/// What the last move displaced, each as (from, to), kept while a dynamo move could still
/// undo it: a move that put a piece off the board or promoted a pawn cannot be undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trace {
    /// The primary piece (from == to for a station move).
    pub primary: (Square, Square),
    /// The pushed or pulled piece, or the castling rook.
    pub secondary: Option<(Square, Square)>,
}

impl Trace {
    /// Both displacements, the primary first.
    pub fn displacements(&self) -> [Option<(Square, Square)>; 2] {
        [Some(self.primary), self.secondary]
    }
}

/// A dynamo chess position, as its FEN describes it. Two are equal when their FEN is: the
/// plies since the last change of material are the history's, not the position's.
#[derive(Clone, Debug, Eq)]
pub struct Dynamo {
    board: Board,
    turn: Color,
    castling: Rights,
    /// The square an edge-file pawn skipped with its last move (`en-passant=on` only).
    ep: Option<Square>,
    last: Option<Trace>,
    halfmoves: u32,
    fullmoves: u32,
    /// Plies since a piece last left the board or a pawn was promoted (0 in a position read
    /// from FEN, which does not say): pieces never come back and pawns never return from
    /// promotion, so no position before that can come again.
    since_material: u32,
    rules: Rules,
}

impl PartialEq for Dynamo {
    fn eq(&self, other: &Dynamo) -> bool {
        let Dynamo {
            board,
            turn,
            castling,
            ep,
            last,
            halfmoves,
            fullmoves,
            since_material: _,
            rules,
        } = self;
        (board, turn, castling, ep, last, halfmoves, fullmoves, rules)
            == (
                &other.board,
                &other.turn,
                &other.castling,
                &other.ep,
                &other.last,
                &other.halfmoves,
                &other.fullmoves,
                &other.rules,
            )
    }
}

/// What two dynamo positions must share to be the same position for repetition: pieces,
/// side to move, castling rights (with their rooks), and the en passant push and the ban
/// on undoing the last move where they change the legal moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DynamoKey {
    board: Board,
    turn: Color,
    castling: Rights,
    ep: Option<Square>,
    last: Option<Trace>,
}

impl Dynamo {
    /// What the end rules shared with chess need to know of this position, given whether
    /// the side to move has a legal move and is in check.
    fn facts(&self, has_moves: bool, in_check: bool) -> Facts {
        Facts {
            to_move: Dynamo::seat_of(self.turn),
            has_moves,
            in_check,
            dead: self.has_bare_king(Color::White) && self.has_bare_king(Color::Black),
            halfmoves: self.halfmoves,
        }
    }

    /// The standard start position under `rules`.
    pub fn start(rules: Rules) -> Dynamo {
        Dynamo::from_fen(START_FEN, rules).expect("the start FEN is valid")
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last pawn move, removal from the board or promotion.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// True when the side to move's king could be pushed or pulled off the board.
    pub fn is_check(&self) -> bool {
        self.board
            .king(self.turn)
            .is_some_and(|king| threatened(&self.board, king, self.turn, self.rules))
    }

    /// True when `color` has nothing but its king: a lone king can never give check, since
    /// every push or pull of a king by a king works both ways.
    pub fn has_bare_king(&self, color: Color) -> bool {
        self.board
            .pieces()
            .all(|(_, p)| p.color != color || p.role == Role::King)
    }

    /// Plays a legal move.
    pub fn play_move(&mut self, mv: Move) {
        let us = self.turn;
        if mv.kind == MoveKind::Choice {
            moves::apply(&mut self.board, &mv);
            return;
        }
        let role = self.board.get(mv.from).map_or(Role::Pawn, |p| p.role);
        let removal = mv.to == Place::Off || matches!(mv.pushed, Some((_, Place::Off)));
        let promotion = mv.promotion.is_some() || self.leaves_choice(&mv);
        self.halfmoves = if role == Role::Pawn || removal || promotion {
            0
        } else {
            self.halfmoves + 1
        };
        self.since_material = if removal || promotion {
            0
        } else {
            self.since_material + 1
        };
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.ep = self.skipped_square(&mv, role);
        self.castling = castling::after_move(self.castling, &mv, us, role);
        self.last = (!removal && !promotion).then(|| self.trace(&mv));
        moves::apply(&mut self.board, &mv);
        self.turn = us.other();
    }

    /// True when `mv` leaves an opponent's pawn on its last rank for its owner to choose.
    fn leaves_choice(&self, mv: &Move) -> bool {
        matches!(mv.pushed, Some((from, Place::On(to)))
            if rank_of(to) == board::last_rank(self.turn.other())
            && self.board.get(from) == Some(Piece { color: self.turn.other(), role: Role::Pawn }))
    }

    /// The square skipped by an edge-file pawn advancing two squares (`en-passant=on`).
    fn skipped_square(&self, mv: &Move, role: Role) -> Option<Square> {
        let Place::On(to) = mv.to else {
            return None;
        };
        let edge = matches!(crate::chess::types::file_of(to), 0 | 7);
        (self.rules.en_passant && role == Role::Pawn && edge && to.abs_diff(mv.from) == 16)
            .then(|| (to + mv.from) / 2)
    }

    fn trace(&self, mv: &Move) -> Trace {
        let target = |place: Place, from: Square| match place {
            Place::On(sq) => sq,
            Place::Off => from,
        };
        match mv.kind {
            MoveKind::Castle => {
                let side = castling::Side::of_destination(mv.to);
                let (king_to, rook_to) = castling::destinations(self.turn, side);
                Trace {
                    primary: (mv.from, king_to),
                    secondary: Some((castling::rook_home(self.turn, side), rook_to)),
                }
            }
            _ => Trace {
                primary: (mv.from, target(mv.to, mv.from)),
                secondary: mv.pushed.map(|(from, place)| (from, target(place, from))),
            },
        }
    }

    /// True when the ban on undoing the last move takes away a move that is otherwise legal.
    fn undo_is_barred(&self) -> bool {
        let Some(prior) = self.prior_board() else {
            return false;
        };
        let mut unbarred = Vec::new();
        self.generate_with(&mut unbarred, false);
        unbarred.iter().any(|mv| {
            let mut after = self.board;
            moves::apply(&mut after, mv);
            mv.is_dynamo() && after == prior
        })
    }

    /// The en passant square if an en passant push is legal now: a pawn beside the pawn
    /// that skipped it pushes that pawn off the board (no other move pushes sideways).
    fn legal_ep(&self) -> Option<Square> {
        let skipped = self.ep?;
        let victim = board::offset(skipped, board::back(board::forward(self.turn)))?;
        let mut legal = Vec::new();
        self.generate(&mut legal);
        legal
            .iter()
            .any(|mv| {
                mv.pushed == Some((victim, Place::Off))
                    && rank_of(mv.from) == rank_of(victim)
                    && self
                        .board
                        .get(mv.from)
                        .is_some_and(|p| p.role == Role::Pawn)
            })
            .then_some(skipped)
    }

    fn seat_of(color: Color) -> Seat {
        Seat(color.index() as u8)
    }
}

/// How many times the last position of `history` occurred in it (itself included).
fn repetitions(history: &[Dynamo]) -> usize {
    occurrences(history, |p, current| {
        p.turn == current.turn && p.board == current.board
    })
}

impl Position for Dynamo {
    type Move = Move;
    type Key = DynamoKey;

    const ID: &'static str = "dynamo";
    const DESCRIPTION: &'static str =
        "Dynamo chess: no captures, pieces push and pull others off the board (FEN, Ra1a5/Ba5E)";
    const SEATS: &'static [&'static str] = &["white", "black"];
    /// Games stored before pawns pushed only their own side straight forward.
    const EDITION_ZERO: &'static str = "pawn-push=any";

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn start(options: &Options) -> Dynamo {
        Dynamo::start(Rules::from_options(options))
    }

    fn from_text(text: &str, options: &Options) -> Result<Dynamo, PositionError> {
        Dynamo::from_fen(text, Rules::from_options(options))
    }

    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn to_move(&self) -> Seat {
        Dynamo::seat_of(self.turn)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    /// Back to the last removal or promotion: pawns can be pushed backwards, so a pawn move
    /// does not end what a repetition can reach, but a change of material does.
    fn reversible_plies(&self) -> usize {
        self.since_material as usize
    }

    fn outcome(&self) -> Option<Outcome> {
        classical::outcome(self.facts(self.has_legal_moves(), self.is_check()))
    }

    /// Bare kings and the move counter: checkmate and stalemate need no legal move.
    fn outcome_with_a_move(&self) -> Option<Option<Outcome>> {
        Some(classical::outcome(self.facts(true, false)))
    }

    fn key(&self) -> DynamoKey {
        DynamoKey {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep: self.legal_ep(),
            last: self.last.filter(|_| self.undo_is_barred()),
        }
    }

    fn history_outcome(history: &[Dynamo]) -> Option<Outcome> {
        classical::history_outcome(repetitions(history))
    }

    fn claimable(history: &[Dynamo]) -> Vec<Claim> {
        let halfmoves = history.last().map_or(0, |p| p.halfmoves);
        classical::claims(repetitions(history), halfmoves)
    }

    fn timeout(&self, seat: Seat) -> Outcome {
        classical::timeout(seat, !self.has_bare_king(Color::of_seat(seat).other()))
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Long => self.long(mv),
            Notation::Short => self.short(mv),
        }
    }

    fn diagram(&self) -> Diagram {
        let piece_at = |sq| self.board.get(sq).map(|p| (p.color, p.role));
        board_diagram(Self::ID, Self::SEATS, piece_at, self.turn)
    }

    /// The primary piece's squares, then the pushed or pulled piece's (or the castling
    /// rook's); a piece put off the board shows only where it stood.
    fn move_spots(&self, mv: Move) -> Vec<String> {
        let mut squares: Vec<Square> = Vec::with_capacity(4);
        for (from, to) in self.trace(&mv).displacements().into_iter().flatten() {
            for square in [from, to] {
                if !squares.contains(&square) {
                    squares.push(square);
                }
            }
        }
        squares.into_iter().map(square_name).collect()
    }

    /// The primary piece's square and where it ends; for a station move or a primary
    /// piece leaving the board, where the pushed or pulled piece ends (its own square when
    /// it leaves too); for an owner's promotion choice, the pawn's square twice.
    fn move_ends(&self, mv: Move) -> MoveEnds {
        let to = match (mv.to, mv.pushed) {
            (Place::On(to), _) if to != mv.from => to,
            (_, Some((_, Place::On(to)))) => to,
            (_, Some((pushed, Place::Off))) => pushed,
            _ => mv.from,
        };
        MoveEnds {
            from: vec![square_name(mv.from)],
            to: square_name(to),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// The check test, written as "some move by the rules of movement puts the king off the
    /// board", over the generator itself.
    fn removable(position: &Dynamo, owner: Color) -> bool {
        let Some(king) = position.board.king(owner) else {
            return false;
        };
        let mut moves = Vec::new();
        position.pseudo_moves(owner.other(), &mut moves);
        moves.iter().any(|mv| mv.pushed == Some((king, Place::Off)))
    }

    #[test]
    fn check_detection_agrees_with_the_move_generator() {
        let any = Rules {
            pawns_push_any: true,
            ..Rules::default()
        };
        for rules in [Rules::default(), any] {
            let mut rng = StdRng::seed_from_u64(4);
            let mut checks = 0;
            for _ in 0..200 {
                let mut position = Dynamo::start(rules);
                for _ in 0..80 {
                    for color in [Color::White, Color::Black] {
                        let king = position.board.king(color).expect("kings stay");
                        let fast = threatened(&position.board, king, color, rules);
                        assert_eq!(fast, removable(&position, color), "{}", position.to_fen());
                        checks += usize::from(fast);
                    }
                    let mut moves = Vec::new();
                    position.generate(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    position.play_move(moves[rng.random_range(0..moves.len())]);
                }
            }
            assert!(checks > 100, "only {checks} checks seen under {rules:?}");
        }
    }

    #[test]
    fn prior_board_is_the_board_before_the_last_move() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut position = Dynamo::start(Rules::default());
        for _ in 0..200 {
            let mut moves = Vec::new();
            position.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let before = position.board;
            position.play_move(moves[rng.random_range(0..moves.len())]);
            if let Some(prior) = position.prior_board() {
                assert_eq!(prior, before);
            }
        }
    }
}
