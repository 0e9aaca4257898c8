//! The xiangqi board's picture: two half boards of 9x5 points facing across the river,
//! each with its palace, and the pieces as discs with their characters. The half board
//! is shared with Three Kingdoms Xiangqi, which joins three of them.

use super::board::Xiangqi;
use super::types::{FILES, RANKS, Side, square_at, square_name};
use crate::diagram::{Grid, facing_seats};
use crate::{
    Diagram, DiagramPiece, Ink, LabelKind, PieceStyle, Position, Seat, Shade, Spot, Stroke, Xy,
};

/// Ranks on a half board.
const HALF_RANKS: u8 = 5;
/// The last file and the bank rank of a half board, 0-based, as coordinates.
const LAST_FILE: f64 = 8.0;
const BANK: f64 = 4.0;

/// Red's characters, in [`Role`] order.
const RED_GLYPHS: [&str; 7] = ["帥", "仕", "相", "傌", "俥", "炮", "兵"];
/// Black's characters, in [`Role`] order.
const BLACK_GLYPHS: [&str; 7] = ["將", "士", "象", "馬", "車", "砲", "卒"];
/// The roles' names, in [`Role`] order.
const ROLE_NAMES: [&str; 7] = [
    "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
];

const GRID: Grid = Grid {
    files: FILES,
    ranks: RANKS,
};

/// Draws a half board of 9x5 points with its palace and adds its spots. `place` maps a
/// point of the half board, given as (file, rank) from its owner's side (file a on the
/// left, rank 1 at the back, both 0-based and possibly fractional), into the diagram's
/// plane; `name` names the point on `file` and `rank`. The back rank and the edge files
/// are borders; the bank is an ordinary line, since the river lies beyond it.
pub(crate) fn half_board(
    diagram: &mut Diagram,
    place: impl Fn(f64, f64) -> Xy,
    name: impl Fn(u8, u8) -> String,
) {
    let segment = |diagram: &mut Diagram, from: (f64, f64), to: (f64, f64), stroke| {
        diagram.line(place(from.0, from.1), place(to.0, to.1), stroke);
    };
    for rank in 1..HALF_RANKS {
        let y = f64::from(rank);
        segment(diagram, (0.0, y), (LAST_FILE, y), Stroke::Grid);
    }
    for file in 1..FILES - 1 {
        let x = f64::from(file);
        segment(diagram, (x, 0.0), (x, BANK), Stroke::Grid);
    }
    for (from, to) in [((3.0, 0.0), (5.0, 2.0)), ((5.0, 0.0), (3.0, 2.0))] {
        segment(diagram, from, to, Stroke::Grid);
    }
    segment(diagram, (0.0, BANK), (0.0, 0.0), Stroke::Border);
    segment(diagram, (0.0, 0.0), (LAST_FILE, 0.0), Stroke::Border);
    segment(diagram, (LAST_FILE, 0.0), (LAST_FILE, BANK), Stroke::Border);
    for rank in 0..HALF_RANKS {
        for file in 0..FILES {
            diagram.spots.push(Spot {
                name: name(file, rank),
                at: place(f64::from(file), f64::from(rank)),
                cell: None,
            });
        }
    }
}

impl Xiangqi {
    /// The picture of the position: Red at the bottom, the river between ranks 5 and 6,
    /// points named as the coordinates notation names them (`e1`, `a10`).
    pub fn board_diagram(&self) -> Diagram {
        let mut diagram = Diagram::new(
            Self::ID,
            facing_seats(Self::SEATS, [Ink::Red, Ink::Black]),
            PieceStyle::Disc,
        );
        let surface = [(-0.5, -0.5), (8.5, -0.5), (8.5, 9.5), (-0.5, 9.5)];
        diagram.cell(surface.map(|(x, y)| Xy::new(x, y)).to_vec(), Shade::Board);
        let river = [(0.0, 4.0), (8.0, 4.0), (8.0, 5.0), (0.0, 5.0)];
        diagram.cell(river.map(|(x, y)| Xy::new(x, y)).to_vec(), Shade::Water);
        let top = f64::from(RANKS - 1);
        half_board(
            &mut diagram,
            |file, rank| Xy::new(file, top - rank),
            |file, rank| square_name(square_at(file, rank)),
        );
        half_board(
            &mut diagram,
            |file, rank| Xy::new(LAST_FILE - file, rank),
            |file, rank| square_name(square_at(FILES - 1 - file, RANKS - 1 - rank)),
        );
        for x in [0.0, LAST_FILE] {
            diagram.line(Xy::new(x, 4.0), Xy::new(x, 5.0), Stroke::Border);
        }
        for (text, x) in [("楚 河", 2.0), ("漢 界", 6.0)] {
            diagram.label(text, Xy::new(x, 4.5), LabelKind::Region, None);
        }
        GRID.add_labels(&mut diagram);
        for square in 0..FILES * RANKS {
            if let Some(piece) = self.piece_at(square) {
                let seat = Seat(piece.side.index() as u8);
                let glyphs = match piece.side {
                    Side::Red => RED_GLYPHS,
                    Side::Black => BLACK_GLYPHS,
                };
                let role = piece.role as usize;
                diagram.pieces.push(DiagramPiece {
                    spot: square_name(square),
                    seat,
                    origin: seat,
                    glyph: glyphs[role].to_string(),
                    letter: piece.role.wxf_letter(),
                    name: ROLE_NAMES[role],
                });
            }
        }
        diagram.to_move = Some(Seat(self.turn().index() as u8));
        diagram
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::Role;

    #[test]
    fn every_point_is_a_spot_once_at_its_grid_place() {
        let diagram = Xiangqi::start().board_diagram();
        assert_eq!(diagram.spots.len(), 90);
        for square in 0..FILES * RANKS {
            let name = square_name(square);
            let spots: Vec<&Spot> = diagram.spots.iter().filter(|s| s.name == name).collect();
            assert_eq!(spots.len(), 1, "{name}");
            let expected = GRID.at(square % FILES, square / FILES);
            assert!((spots[0].at.x - expected.x).abs() < 1e-9, "{name}");
            assert!((spots[0].at.y - expected.y).abs() < 1e-9, "{name}");
        }
        assert_eq!(Role::ALL.len(), ROLE_NAMES.len());
    }
}
