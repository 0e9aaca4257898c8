//! The 8x8 board's picture, shared by chess and its relatives (dynamo): squares a1 dark,
//! figurines in white and black, file letters and rank numbers at the edges.

use super::types::{Color, Role, Square, square_name};
use crate::diagram::{Grid, facing_seats};
use crate::{Diagram, DiagramPiece, Ink, PieceStyle, Seat};

/// The figurine of each role, in [`Role::index`] order: the filled shapes, drawn in either
/// side's ink. The pawn asks for text presentation, since it is also an emoji.
const FIGURINES: [&str; 6] = ["\u{265F}\u{FE0E}", "♞", "♝", "♜", "♛", "♚"];
/// The name of each role, in [`Role::index`] order.
const NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

const GRID: Grid = Grid { files: 8, ranks: 8 };

/// The diagram of an 8x8 position of variant `variant` whose seats are `seats` (White
/// first), with `piece_at` telling what stands on each square and `turn` the side to move.
pub(crate) fn board_diagram(
    variant: &'static str,
    seats: &[&'static str],
    piece_at: impl Fn(Square) -> Option<(Color, Role)>,
    turn: Color,
) -> Diagram {
    let mut diagram = Diagram::new(
        variant,
        facing_seats(seats, [Ink::White, Ink::Black]),
        PieceStyle::Figure,
    );
    GRID.add_squares(&mut diagram);
    GRID.add_labels(&mut diagram);
    for square in 0..64 {
        if let Some((color, role)) = piece_at(square) {
            diagram
                .pieces
                .push(figure(square_name(square), color, role));
        }
    }
    diagram.to_move = Some(Seat(turn.index() as u8));
    diagram
}

/// A chess piece of `color` and `role` standing on the spot named `spot`, drawn as its
/// figurine in its side's ink.
pub(crate) fn figure(spot: String, color: Color, role: Role) -> DiagramPiece {
    let seat = Seat(color.index() as u8);
    DiagramPiece {
        spot,
        seat,
        origin: seat,
        glyph: FIGURINES[role.index()].to_string(),
        letter: role.letter(),
        name: NAMES[role.index()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_are_named_as_squares_are() {
        let diagram = board_diagram("chess", &["white", "black"], |_| None, Color::White);
        let names: Vec<String> = diagram.spots.iter().map(|s| s.name.clone()).collect();
        let squares: Vec<String> = (0..64).map(square_name).collect();
        assert_eq!(names, squares);
    }
}
