//! The rules tools: `variants`, `moves`, `perft` and `play`, the same for every variant.

use std::fmt::Write as _;

use clap::{Args, ValueEnum};
use missive_rules::{AnyGame, Notation, Outcome, registry};

/// Where a command starts: the variant, its options, a start position and moves to play.
#[derive(Args)]
pub struct GameArgs {
    /// Variant id (see `missive variants`).
    #[arg(long)]
    variant: String,
    /// Start position in the variant's position text (FEN for chess); the standard start if
    /// left out.
    #[arg(long)]
    position: Option<String>,
    /// Game options as `key=value,...` (e.g. `rook-pawn=on`).
    #[arg(long, default_value = "")]
    options: String,
}

/// Arguments of `missive moves`.
#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play first, separated by spaces (short or long notation).
    #[arg(long, default_value = "")]
    moves: String,
    /// Which notation to print.
    #[arg(long, value_enum, default_value_t = NotationArg::Long)]
    notation: NotationArg,
}

/// Arguments of `missive perft`.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play first, separated by spaces (short or long notation).
    #[arg(long, default_value = "")]
    moves: String,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// First print `move count` for each root move.
    #[arg(long)]
    divide: bool,
}

/// Arguments of `missive play`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The moves, in order (short or long notation).
    moves: Vec<String>,
}

/// The notation flag's values.
#[derive(Clone, Copy, ValueEnum)]
pub enum NotationArg {
    /// The canonical form tools exchange (UCI for chess).
    Long,
    /// The friendly form people write (SAN for chess).
    Short,
}

impl From<NotationArg> for Notation {
    fn from(arg: NotationArg) -> Notation {
        match arg {
            NotationArg::Long => Notation::Long,
            NotationArg::Short => Notation::Short,
        }
    }
}

/// `missive variants`: every id with its description.
pub fn variants() -> Result<(), String> {
    for variant in registry::variants() {
        println!("{:<12} {}", variant.id(), variant.description());
    }
    Ok(())
}

/// `missive moves`: the legal moves of the position reached, sorted; nothing when over.
pub fn moves(args: &MovesArgs) -> Result<(), String> {
    let game = start(&args.game, args.moves.split_whitespace())?;
    for mv in game.legal_moves(args.notation.into()) {
        println!("{mv}");
    }
    Ok(())
}

/// `missive perft`: the node count on the last line, after the divide rows if asked.
pub fn perft(args: &PerftArgs) -> Result<(), String> {
    let game = start(&args.game, args.moves.split_whitespace())?;
    if args.divide {
        let rows = game.divide(args.depth);
        for (mv, count) in &rows {
            println!("{mv} {count}");
        }
        let total: u64 = rows.iter().map(|(_, count)| count).sum();
        println!("{}", if args.depth == 0 { 1 } else { total });
    } else {
        println!("{}", game.perft(args.depth));
    }
    Ok(())
}

/// `missive play`: the position, the side to move and the outcome after the moves.
pub fn play(args: &PlayArgs) -> Result<(), String> {
    let game = start(&args.game, args.moves.iter().map(String::as_str))?;
    print!("{}", describe(game.as_ref()));
    Ok(())
}

/// Sets up the game and plays `moves`, naming the first move that fails (1-based).
pub(crate) fn start<'a>(
    args: &GameArgs,
    moves: impl Iterator<Item = &'a str>,
) -> Result<Box<dyn AnyGame>, String> {
    let variant = registry::variant(&args.variant).map_err(|e| e.to_string())?;
    let mut game = variant
        .new_game(&args.options, args.position.as_deref())
        .map_err(|e| e.to_string())?;
    for (index, text) in moves.enumerate() {
        game.play(text)
            .map_err(|e| format!("move {} `{text}`: {e}", index + 1))?;
    }
    Ok(game)
}

/// The text `missive play` prints: position, side to move, and the outcome if any.
fn describe(game: &dyn AnyGame) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "position: {}", game.position_text());
    match (game.to_move(), game.outcome()) {
        (Some(seat), _) => {
            let _ = writeln!(text, "to move: {}", game.seat_names()[seat.index()]);
        }
        (None, Some(outcome)) => {
            let _ = writeln!(text, "outcome: {}", outcome_text(game, &outcome));
        }
        (None, None) => {}
    }
    text
}

/// `checkmate: white wins (1-0)`, `stalemate: draw (1/2-1/2)`.
fn outcome_text(game: &dyn AnyGame, outcome: &Outcome) -> String {
    let names = game.seat_names();
    let verdict = match outcome.winner() {
        Some(seat) => format!("{} wins", names[seat.index()]),
        None if outcome.is_draw() => "draw".to_string(),
        None => outcome
            .results
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{} {}", names[i], r.as_str()))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!("{}: {verdict} ({})", outcome.rule, outcome.score_text())
}
