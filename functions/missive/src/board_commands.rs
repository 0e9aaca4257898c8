//! `missive board`: the picture of a position as an SVG document on stdout.

use clap::Args;
use missive_board::{Glyphs, Options, render};

use crate::rules_commands::{GameArgs, start};

/// Arguments of `missive board`.
#[derive(Args)]
pub struct BoardArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play first, separated by spaces (short or long notation); the last one is
    /// highlighted.
    #[arg(long, default_value = "")]
    moves: String,
    /// The seat to view the board from, by name (e.g. `black`, `wu`); the first seat if
    /// left out.
    #[arg(long)]
    seat: Option<String>,
    /// Write pieces as letters instead of figurines and characters.
    #[arg(long)]
    letters: bool,
}

/// `missive board`: renders the position reached as SVG.
pub fn board(args: &BoardArgs) -> Result<(), String> {
    let game = start(&args.game, args.moves.split_whitespace())?;
    let diagram = game.diagram();
    let seat = match &args.seat {
        None => None,
        Some(name) => Some(diagram.seat_named(name).ok_or_else(|| {
            format!(
                "unknown seat `{name}`: the seats are {}",
                game.seat_names().join(", ")
            )
        })?),
    };
    let glyphs = if args.letters {
        Glyphs::Letters
    } else {
        Glyphs::Symbols
    };
    let options = Options {
        seat,
        glyphs,
        title: None,
    };
    print!("{}", render(&diagram, &options));
    Ok(())
}
