//! The Tri-D board's picture. The three main boards are drawn as 4x4 blocks stacked up
//! the picture from the lowest level (W at the bottom, then N, then B), each square at
//! its file and, within the block, its rank. Each attack board is a 2x2 block beside the
//! main board whose pin it stands on, its rows level with the ranks it covers: on the
//! left for the queen-side flank and the right for the king side, next to the main board
//! when it stands above it (`up`), one place further out when below (`dn`), so the two
//! boards of one flank never cover each other. Every block has its own file letters and
//! rank numbers, its name and its level; every square is a spot named as the long
//! notation names it (`b1(2)`).

use super::geometry::{BoardId, Flank, MainBoard, Square};
use super::position::{Move, TriD};
use super::rules::RuleSet;
use crate::chess::diagram::figure;
use crate::diagram::{checkered, facing_seats, square_around};
use crate::{Diagram, Ink, LabelKind, MoveEnds, PieceStyle, Position, Seat, Spot, Xy};

/// The vertical distance between the first rows of two neighbouring main boards, room
/// for the attack boards that reach out of each and for their labels.
const PITCH: f64 = 8.0;
/// How far an attack board is moved sideways from its files, away from the main boards:
/// standing above its main board, and below it.
const BESIDE_UP: f64 = 2.0;
const BESIDE_DOWN: f64 = 5.8;
/// How far outside a block's outermost squares its coordinates, its name and its level sit.
const COORDINATE_OFFSET: f64 = 0.85;
const NAME_OFFSET: f64 = 1.5;
const LEVEL_OFFSET: f64 = 2.0;

/// A rectangle of squares drawn together: a main board or an attack board where it stands.
struct Block {
    /// The name written by it: `W`, `QL1 @ W-S-up`.
    name: String,
    /// The level of its squares.
    level: u8,
    /// Its lowest file and rank (0-based), and its size in files and ranks.
    low_file: u8,
    low_rank: u8,
    size: u8,
    /// The main board its rows line up with: its own, or the one its pin belongs to.
    main: MainBoard,
    /// How far its squares are moved sideways from their files.
    shift: f64,
}

impl Block {
    fn main(main: MainBoard) -> Block {
        Block {
            name: main.letter().to_string(),
            level: main.level(),
            low_file: 1,
            low_rank: main.low_rank(),
            size: 4,
            main,
            shift: 0.0,
        }
    }

    fn attack<R: RuleSet>(position: &TriD<R>, id: BoardId) -> Block {
        let pin = position.layout().board(id).pin;
        let flank = id.flank();
        let beside = if pin.is_up() { BESIDE_UP } else { BESIDE_DOWN };
        let outward = if flank.low_file() == 0 { -1.0 } else { 1.0 };
        Block {
            name: format!("{id} @ {pin}"),
            level: pin.level(),
            low_file: flank.low_file(),
            low_rank: pin.low_rank(),
            size: 2,
            main: pin.main(),
            shift: outward * beside,
        }
    }

    /// The centre of the square on `file` and `rank` (either may lie one beyond the block,
    /// for its labels).
    fn at(&self, file: f64, rank: f64) -> Xy {
        let row = rank - f64::from(self.main.low_rank());
        Xy::new(self.shift + file, -PITCH * f64::from(self.main as u8) - row)
    }

    fn places(&self) -> impl Iterator<Item = (u8, u8)> + use<> {
        let (files, ranks) = (self.low_file, self.low_rank);
        let size = self.size;
        (ranks..ranks + size).flat_map(move |r| (files..files + size).map(move |f| (f, r)))
    }

    /// Draws its squares as cells and adds them as spots.
    fn add_squares(&self, diagram: &mut Diagram) {
        for (file, rank) in self.places() {
            let at = self.at(f64::from(file), f64::from(rank));
            let cell = diagram.cell(square_around(at), checkered(file, rank));
            diagram.spots.push(Spot {
                name: Square::new(file, rank, self.level).to_string(),
                at,
                cell: Some(cell),
            });
        }
    }

    /// Adds the file letters, rank numbers, name and level: below and left of the block
    /// for the first seat, above and right of it (the second seat's near and left edges)
    /// for the second.
    fn add_labels(&self, diagram: &mut Diagram) {
        let (low_file, low_rank) = (f64::from(self.low_file), f64::from(self.low_rank));
        let last = f64::from(self.size - 1);
        let middle = low_file + last / 2.0;
        for (seat, near_rank, side_file, outward) in [
            (Seat(0), low_rank, low_file, 1.0),
            (Seat(1), low_rank + last, low_file + last, -1.0),
        ] {
            let view = Some(seat);
            let near = self.at(middle, near_rank).y;
            for file in self.low_file..self.low_file + self.size {
                let at = Xy::new(
                    self.at(f64::from(file), 0.0).x,
                    near + outward * COORDINATE_OFFSET,
                );
                let letter = char::from(b'a' + file).to_string();
                diagram.label(letter, at, LabelKind::Coordinate, view);
            }
            for rank in self.low_rank..self.low_rank + self.size {
                let at = self
                    .at(side_file, f64::from(rank))
                    .shifted(-outward * COORDINATE_OFFSET, 0.0);
                diagram.label(rank.to_string(), at, LabelKind::Coordinate, view);
            }
            let below = |offset: f64| Xy::new(self.at(middle, 0.0).x, near + outward * offset);
            diagram.label(&self.name, below(NAME_OFFSET), LabelKind::Region, view);
            let level = format!("level {}", self.level);
            diagram.label(level, below(LEVEL_OFFSET), LabelKind::Coordinate, view);
        }
    }
}

impl<R: RuleSet> TriD<R> {
    /// The picture of the position (see the module's description).
    pub fn board_diagram(&self) -> Diagram {
        let mut diagram = Diagram::new(
            Self::ID,
            facing_seats(Self::SEATS, [Ink::White, Ink::Black]),
            PieceStyle::Figure,
        );
        let mains = MainBoard::ALL.map(Block::main);
        let attacks = BoardId::ALL.map(|id| Block::attack(self, id));
        for block in mains.iter().chain(&attacks) {
            block.add_squares(&mut diagram);
            block.add_labels(&mut diagram);
        }
        for (square, piece) in self.layout().occupied() {
            diagram
                .pieces
                .push(figure(square.to_string(), piece.color, piece.role));
        }
        diagram.to_move = Some(self.to_move());
        diagram
    }

    /// The squares `mv` moves pieces from and to, named as the diagram's spots: from and
    /// to, then the pawn taken en passant or the castling rook's two squares; for an
    /// attack-board move, each of the board's squares and where it lands, those carrying
    /// a piece first.
    pub fn marked_spots(&self, mv: Move) -> Vec<String> {
        let squares = match mv {
            Move::Piece {
                from,
                to,
                en_passant,
                ..
            } => {
                let taken = self.en_passant().filter(|_| en_passant).map(|ep| ep.pawn);
                [from, to].into_iter().chain(taken).collect()
            }
            Move::Castle { king_side } => {
                let c = self.castling(king_side);
                vec![c.king_from, c.king_to, c.rook_from, c.rook_to]
            }
            Move::Board {
                id, pin, inverted, ..
            } => {
                let mut squares = self.layout().board_squares(id);
                squares.sort_by_key(|s| self.layout().piece(*s).is_none());
                squares
                    .into_iter()
                    .flat_map(|s| [s, self.layout().landing(id, s, pin, inverted)])
                    .collect()
            }
        };
        squares.iter().map(Square::to_string).collect()
    }

    /// Where `mv` is picked up and put down (see [`MoveEnds`]): a piece's squares (the
    /// king's, castling); an attack board's four squares, and the corner square of the
    /// main board under or over the pin it goes to, on the board's flank.
    pub fn ends(&self, mv: Move) -> MoveEnds {
        let (from, to) = match mv {
            Move::Piece { from, to, .. } => (vec![from], to),
            Move::Castle { king_side } => {
                let c = self.castling(king_side);
                (vec![c.king_from], c.king_to)
            }
            Move::Board { id, pin, .. } => {
                let file = match id.flank() {
                    Flank::Queen => 1,
                    Flank::King => 4,
                };
                let main = pin.main();
                let rank = main.low_rank() + if pin.is_north() { 3 } else { 0 };
                let corner = Square::new(file, rank, main.level());
                (self.layout().board_squares(id).to_vec(), corner)
            }
        };
        MoveEnds {
            from: from.iter().map(Square::to_string).collect(),
            to: to.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trid::{FederationStandard, Pin};
    use crate::{Options, Position};
    use std::collections::BTreeSet;

    fn spot_names(position: &FederationStandard) -> BTreeSet<String> {
        let diagram = position.board_diagram();
        diagram.spots.iter().map(|s| s.name.clone()).collect()
    }

    fn existing_squares(position: &FederationStandard) -> BTreeSet<String> {
        (0..crate::trid::geometry::SQUARES)
            .map(Square::from_index)
            .filter(|s| position.layout().exists(*s))
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn the_spots_are_the_squares_that_exist() {
        let mut position = FederationStandard::start(&Options::defaults(&[]));
        assert_eq!(spot_names(&position), existing_squares(&position));
        let text = "QL1@W-N-up:w,KL1@W-N-dn:w,QL3@N-S-up:b,KL3@N-S-dn:b \
                    Kc1(2),Pa4(3),kd8(6) w - 0 1";
        position = FederationStandard::from_text(text, &Options::defaults(&[])).unwrap();
        assert_eq!(spot_names(&position), existing_squares(&position));
    }

    /// Two squares drawn less than a square apart, if any, on the diagram of the
    /// position whose queen-side boards stand on `first` and `second`, and the king-side
    /// boards likewise.
    fn overlap(first: Pin, second: Pin) -> Option<(String, String)> {
        let text = format!(
            "QL1@{first}:w,KL1@{first}:w,QL3@{second}:b,KL3@{second}:b Kc1(2),kd8(6) w - 0 1"
        );
        let position = FederationStandard::from_text(&text, &Options::defaults(&[]))
            .expect("boards of one flank on two pins");
        let spots = position.board_diagram().spots;
        spots.iter().enumerate().find_map(|(i, a)| {
            spots[i + 1..].iter().find_map(|b| {
                let apart = (a.at.x - b.at.x).abs().max((a.at.y - b.at.y).abs());
                (apart < 1.0).then(|| (a.name.clone(), b.name.clone()))
            })
        })
    }

    #[test]
    fn no_two_squares_are_drawn_on_each_other_wherever_the_boards_stand() {
        for first in Pin::all() {
            for second in Pin::all().filter(|p| *p != first) {
                assert_eq!(overlap(first, second), None, "{first} and {second}");
            }
        }
    }
}
