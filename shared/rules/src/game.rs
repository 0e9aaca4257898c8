//! A game under way: the start, every position since, and the moves that led there.

use std::fmt::Debug;
use std::sync::OnceLock;

use crate::{
    Claim, ClaimError, Diagram, EndRule, LegalMove, MoveError, Notation, Options, Outcome,
    Position, Seat, position::perft,
};

/// A move as it was played, in both notations, with the seat that played it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// The seat that made the move.
    pub seat: Seat,
    /// Canonical long notation.
    pub long: String,
    /// Friendly short notation.
    pub short: String,
}

/// Where a game can be taken up again without replaying it from its start: the position
/// from which the history rules can still look back (every position since the last
/// irreversible move, and at least the last move, which the diagram marks), the moves played
/// since, and how many plies came before that position.
///
/// A game resumed from its window ([`crate::Variant::resume`]) decides everything the whole
/// game would: legal moves, outcomes, claims, repetitions, the diagram of the last move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Window {
    /// The ply of `position`: moves played before it.
    pub ply: usize,
    /// The position text where the window starts.
    pub position: String,
    /// The moves played from there, in long notation.
    pub moves: Vec<String>,
}

/// A game of one variant: the start position, the moves played and every position reached.
/// Replaying the same moves from the same start always gives the same game.
///
/// A game taken up from a [`Window`] starts at the window's position instead: it knows the
/// plies before it only by number.
///
/// The end of the game is decided when it is first asked for (by [`Game::outcome`], the
/// legal moves, the seat to move, a claim): a replay of many moves decides it once, after
/// the last, where the variant can tell a game over from a move it reads (see
/// [`Position::outcome_with_a_move`]).
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    options: Options,
    /// Plies played before `history[0]`: 0 unless the game was resumed from a window.
    first_ply: usize,
    history: Vec<P>,
    moves: Vec<P::Move>,
    /// The legal moves of the current position (whether or not the game is over), listed
    /// when first needed unless deciding the outcome listed them already.
    legal: OnceLock<Vec<P::Move>>,
    /// The end the rules decided for the current position, once asked for.
    outcome: OnceLock<Option<Outcome>>,
    /// The list of an earlier position's legal moves, kept to hold the next one's.
    spare: Vec<P::Move>,
}

impl<P: Position> Game<P> {
    /// A game from `start` under `options`.
    pub fn new(start: P, options: Options) -> Game<P> {
        Game::resumed(start, options, 0)
    }

    /// A game taken up at `position`, reached after `first_ply` plies, under `options`: the
    /// positions before it are not known, so it must be a window's start (see [`Window`]).
    pub fn resumed(position: P, options: Options, first_ply: usize) -> Game<P> {
        Game {
            options,
            first_ply,
            history: vec![position],
            moves: Vec::new(),
            legal: OnceLock::new(),
            outcome: OnceLock::new(),
            spare: Vec::new(),
        }
    }

    /// A game taken up at `position`, reached after `first_ply` plies, through `moves` (any
    /// notation) played from there: each move read and checked legal, the end of the game
    /// decided once, after the last. For a window ([`Window`]) of a game that went on, where
    /// no position before the last ended the game; the error names the move (from 0) the
    /// position refused.
    pub fn resumed_through(
        position: P,
        options: Options,
        first_ply: usize,
        moves: &[String],
    ) -> Result<Game<P>, (usize, MoveError)> {
        let mut game = Game::resumed(position, options, first_ply);
        game.reserve_plies(moves.len());
        for (index, text) in moves.iter().enumerate() {
            let mv = game
                .position()
                .parse_move(text)
                .map_err(|error| (index, error))?;
            game.play_move(mv);
        }
        Ok(game)
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.history.last().expect("a game always has a position")
    }

    /// Every position from the start to the current one.
    pub fn history(&self) -> &[P] {
        &self.history
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// The end of the game, if the rules have ended it: by the position alone or by the
    /// history (e.g. fivefold repetition). Claims are not included.
    pub fn outcome(&self) -> Option<Outcome> {
        self.settled().cloned()
    }

    /// The end of the game, decided now if it was not yet.
    fn settled(&self) -> Option<&Outcome> {
        self.outcome
            .get_or_init(|| self.decide(Vec::new()))
            .as_ref()
    }

    /// The end of the game, decided now if it was not yet, listing the legal moves (if
    /// deciding lists them) into the list kept from an earlier position.
    fn settle(&mut self) -> Option<&Outcome> {
        if self.outcome.get().is_none() {
            let spare = std::mem::take(&mut self.spare);
            let _ = self.outcome.set(self.decide(spare));
        }
        self.settled()
    }

    /// Decides the end of the current position: an end the position decides (listing its
    /// legal moves into `legal` on the way if that is how the variant decides, and keeping
    /// them), else one the history decides.
    fn decide(&self, mut legal: Vec<P::Move>) -> Option<Outcome> {
        legal.clear();
        let outcome = self
            .position()
            .outcome_listing(&mut legal)
            .or_else(|| P::history_outcome(self.relevant_history()));
        if !legal.is_empty() {
            let _ = self.legal.set(legal);
        }
        outcome
    }

    /// The current position's legal moves, whether or not the game is over.
    fn all_legal(&self) -> &[P::Move] {
        self.legal.get_or_init(|| {
            let mut legal = Vec::with_capacity(64);
            self.position().legal_moves(&mut legal);
            legal
        })
    }

    /// Plays a legal move of the current position.
    pub fn play_move(&mut self, mv: P::Move) {
        let mut next = self.position().clone();
        next.play(mv);
        self.history.push(next);
        self.moves.push(mv);
        self.outcome = OnceLock::new();
        if let Some(legal) = self.legal.take() {
            self.spare = legal;
        }
    }

    /// The positions before and after the last move: the game must have one.
    fn last_two_positions(&self) -> [&P; 2] {
        match self.history.as_slice() {
            [.., before, after] => [before, after],
            _ => unreachable!("a move was played, so two positions are known"),
        }
    }

    /// Makes room for `plies` more moves.
    fn reserve_plies(&mut self, plies: usize) {
        self.history.reserve(plies);
        self.moves.reserve(plies);
    }

    /// Reads a move in either notation and plays it; an error leaves the game unchanged.
    /// A game over refuses every move ([`MoveError::GameOver`]). Where the variant can tell
    /// the end from a legal move ([`Position::outcome_with_a_move`]), the text is read first
    /// and the end decided in full only when no legal move fits it.
    pub fn play_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        let mv = self.read_move(text)?;
        self.play_move(mv);
        Ok(mv)
    }

    /// The legal move `text` means in the current position, or why it cannot be played.
    fn read_move(&mut self, text: &str) -> Result<P::Move, MoveError> {
        if self.outcome.get().is_none()
            && let Some(ends) = self.position().outcome_with_a_move()
        {
            return match self.position().parse_move(text) {
                Ok(mv) => match ends.or_else(|| P::history_outcome(self.relevant_history())) {
                    Some(outcome) => Err(game_over(&outcome)),
                    None => Ok(mv),
                },
                Err(error) => match self.settle() {
                    Some(outcome) => Err(game_over(outcome)),
                    None => Err(error),
                },
            };
        }
        if let Some(outcome) = self.settle() {
            return Err(game_over(outcome));
        }
        let position = self.position();
        match self.legal.get() {
            Some(legal) => position.parse_move_among(text, legal),
            None => position.parse_move(text),
        }
    }

    /// The legal moves now, empty when the game is over.
    pub fn legal_moves(&self) -> &[P::Move] {
        if self.settled().is_none() {
            self.all_legal()
        } else {
            &[]
        }
    }

    /// The picture of the current position with the last move's spots marked; nobody is
    /// to move once the game is over.
    pub fn diagram(&self) -> Diagram {
        let mut diagram = self.position().diagram();
        diagram.to_move = AnyGame::to_move(self);
        if let (Some(&last), [.., before, _]) = (self.moves.last(), self.history.as_slice()) {
            diagram.last_move = before.move_spots(last);
        }
        diagram
    }

    /// The history a repetition can reach: positions since the last irreversible move.
    fn relevant_history(&self) -> &[P] {
        &self.history[self.window_start()..]
    }

    /// The index in `history` where the window starts: the first position a history rule
    /// can reach, or the one before the last move if that is earlier.
    fn window_start(&self) -> usize {
        let reach = self.position().reversible_plies().saturating_add(1);
        self.history.len().saturating_sub(reach)
    }

    /// The window that takes this game up again (see [`Window`]).
    pub fn window(&self) -> Window {
        let last = self.history.len() - 1;
        let from = self.window_start().min(last.saturating_sub(1));
        let moves = self.history[from..last]
            .iter()
            .zip(&self.moves[from..])
            .map(|(position, mv)| position.write_move(*mv, Notation::Long))
            .collect();
        Window {
            ply: self.first_ply + from,
            position: self.history[from].to_text(),
            moves,
        }
    }
}

/// A game of any variant, behind one object-safe interface that speaks text: what the
/// command line, the archive and the game service use when all they know is a variant id.
pub trait AnyGame: Debug + Send + Sync {
    /// The variant id.
    fn variant(&self) -> &'static str;
    /// The options in canonical text (empty when all are at their defaults).
    fn options(&self) -> String;
    /// Seat names in turn order.
    fn seat_names(&self) -> &'static [&'static str];
    /// The start position's text (for a game resumed from a window, the window's start).
    fn start_text(&self) -> String;
    /// The current position's text.
    fn position_text(&self) -> String;
    /// How many moves have been played (before a window's start too).
    fn ply(&self) -> usize;
    /// The window that takes this game up again without its earlier moves (see
    /// [`Window`]).
    fn window(&self) -> Window;
    /// The seat to move, `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// The legal moves in `notation`, sorted; empty once the game is over.
    fn legal_moves(&self, notation: Notation) -> Vec<String>;
    /// The legal moves in both notations with their ends on [`AnyGame::diagram`], sorted
    /// by long notation; empty once the game is over.
    fn legal_ends(&self) -> Vec<LegalMove>;
    /// Reads a move in either notation and plays it; an error leaves the game unchanged.
    fn play(&mut self, text: &str) -> Result<PlayedMove, MoveError>;
    /// Like [`AnyGame::play`], but gives only the long notation: what replaying a record
    /// needs, without the cost of writing the short form.
    fn play_long(&mut self, text: &str) -> Result<String, MoveError>;
    /// Like [`AnyGame::play`], but gives nothing back: what replaying a record needs when
    /// the moves' texts are written later ([`AnyGame::push_played`]), if ever.
    fn replay(&mut self, text: &str) -> Result<(), MoveError>;
    /// Appends the move of `index` among those played (from 0, since the window's start for
    /// a game resumed from one) in `notation` to `out`; nothing when there is no such move.
    fn push_played(&self, index: usize, notation: Notation, out: &mut String);
    /// Makes room for `plies` more moves: a caller that knows how many will follow (a
    /// record being replayed) saves the growing of the history on the way.
    fn reserve(&mut self, plies: usize);
    /// Every move played so far, in both notations (since the window's start, for a game
    /// resumed from one).
    fn played(&self) -> Vec<PlayedMove>;
    /// The end the rules decided, if any.
    fn outcome(&self) -> Option<Outcome>;
    /// The draws the player to move may claim now.
    fn claimable(&self) -> Vec<Claim>;
    /// Upholds `claim` (the game's end) or says why it does not hold.
    fn claim(&self, claim: Claim) -> Result<Outcome, ClaimError>;
    /// True while `seat` still takes part in the game (see [`Position::is_playing`]): the
    /// departure of a seat that is no longer playing ends nothing.
    fn is_playing(&self, seat: Seat) -> bool;
    /// The result of a draw decided now by `rule` (an agreement, an upheld claim).
    fn draw(&self, rule: EndRule) -> Outcome;
    /// The result when `seat` runs out of time now.
    fn timeout(&self, seat: Seat) -> Outcome;
    /// The result when `seat` resigns now.
    fn resign(&self, seat: Seat) -> Outcome;
    /// Perft of the current position; with `divide`, the count below each root move
    /// (long notation) as well.
    fn perft(&self, depth: u32) -> u64;
    /// The count below each legal root move, in long notation, sorted by move.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The picture of the current position with the last move marked (see
    /// [`Game::diagram`]).
    fn diagram(&self) -> Diagram;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<P: Position> AnyGame for Game<P> {
    fn variant(&self) -> &'static str {
        P::ID
    }

    fn options(&self) -> String {
        self.options.to_string()
    }

    fn seat_names(&self) -> &'static [&'static str] {
        P::SEATS
    }

    fn start_text(&self) -> String {
        self.history[0].to_text()
    }

    fn position_text(&self) -> String {
        self.position().to_text()
    }

    fn ply(&self) -> usize {
        self.first_ply + self.moves.len()
    }

    fn window(&self) -> Window {
        Game::window(self)
    }

    fn to_move(&self) -> Option<Seat> {
        self.settled().is_none().then(|| self.position().to_move())
    }

    fn legal_moves(&self, notation: Notation) -> Vec<String> {
        let position = self.position();
        let mut texts: Vec<String> = Game::legal_moves(self)
            .iter()
            .map(|mv| position.write_move(*mv, notation))
            .collect();
        texts.sort();
        texts
    }

    fn legal_ends(&self) -> Vec<LegalMove> {
        let position = self.position();
        let mut moves: Vec<LegalMove> = Game::legal_moves(self)
            .iter()
            .map(|&mv| LegalMove {
                long: position.write_move(mv, Notation::Long),
                short: position.write_move(mv, Notation::Short),
                ends: position.move_ends(mv),
            })
            .collect();
        moves.sort_by(|a, b| a.long.cmp(&b.long));
        moves
    }

    fn play(&mut self, text: &str) -> Result<PlayedMove, MoveError> {
        let mv = self.play_text(text)?;
        let [before, after] = self.last_two_positions();
        Ok(played_move(before, mv, after))
    }

    fn play_long(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.play_text(text)?;
        let [before, _] = self.last_two_positions();
        Ok(before.write_move(mv, Notation::Long))
    }

    fn replay(&mut self, text: &str) -> Result<(), MoveError> {
        self.play_text(text).map(|_| ())
    }

    fn push_played(&self, index: usize, notation: Notation, out: &mut String) {
        if let (Some(position), Some(mv)) = (self.history.get(index), self.moves.get(index)) {
            position.push_move(*mv, notation, out);
        }
    }

    fn reserve(&mut self, plies: usize) {
        self.reserve_plies(plies);
    }

    fn played(&self) -> Vec<PlayedMove> {
        self.history
            .windows(2)
            .zip(&self.moves)
            .map(|(positions, mv)| played_move(&positions[0], *mv, &positions[1]))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn claimable(&self) -> Vec<Claim> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        P::claimable(self.relevant_history())
    }

    fn claim(&self, claim: Claim) -> Result<Outcome, ClaimError> {
        let refuse = |reason: &str| ClaimError {
            claim: claim.rule().as_str(),
            reason: reason.to_string(),
        };
        if let Some(outcome) = self.outcome() {
            return Err(refuse(&format!(
                "the game is already over ({})",
                outcome.rule
            )));
        }
        if !self.claimable().contains(&claim) {
            return Err(refuse(match claim {
                Claim::ThreefoldRepetition => "the position has not occurred three times",
                Claim::FiftyMoves => "a capture or pawn move was made in the last 50 moves",
            }));
        }
        Ok(self.position().draw(claim.rule()))
    }

    fn is_playing(&self, seat: Seat) -> bool {
        self.position().is_playing(seat)
    }

    fn draw(&self, rule: EndRule) -> Outcome {
        self.position().draw(rule)
    }

    fn timeout(&self, seat: Seat) -> Outcome {
        self.position().timeout(seat)
    }

    fn resign(&self, seat: Seat) -> Outcome {
        self.position().resign(seat)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self.position(), depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let position = self.position();
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let mut rows: Vec<(String, u64)> = moves
            .into_iter()
            .map(|mv| {
                let mut child = position.clone();
                child.play(mv);
                let below = perft(&child, depth.saturating_sub(1));
                (position.write_move(mv, Notation::Long), below)
            })
            .collect();
        rows.sort();
        rows
    }

    fn diagram(&self) -> Diagram {
        Game::diagram(self)
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

/// The refusal of a move once the game ended by `outcome`.
fn game_over(outcome: &Outcome) -> MoveError {
    MoveError::GameOver {
        rule: outcome.rule.to_string(),
    }
}

/// `mv`, played from `before` to `after`, in both notations.
fn played_move<P: Position>(before: &P, mv: P::Move, after: &P) -> PlayedMove {
    PlayedMove {
        seat: before.to_move(),
        long: before.write_move(mv, Notation::Long),
        short: before.write_short_leading_to(mv, after),
    }
}
