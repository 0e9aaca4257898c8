//! The Three Kingdoms board's picture: the three half boards round a hexagonal river,
//! turned 120° apart, Shu at the bottom, Wu at the upper right, Wei at the upper left
//! (the turn order goes counter-clockwise). The hexagon's long sides are the three banks;
//! its short sides are the river mouths, each the link between the outermost facing bank
//! points (`shu:i5`-`wu:a5`), where an arm of the river flows out between two half boards.
//! Every other link across an arm (`shu:f5`-`wu:d5`, ...) runs parallel to its mouth, and
//! the three e5 points form the central triangle.

use super::board::Sanguo;
use super::types::{Nation, POINTS, Point, Role, point_at, point_name};
use crate::xiangqi::diagram::half_board;
use crate::{
    Diagram, DiagramPiece, DiagramSeat, Ink, LabelKind, PieceStyle, Position, Seat, Shade, Stroke,
    Xy,
};

/// The length of a river mouth, in units (the distance between two neighbouring points).
const MOUTH: f64 = 1.0;
/// Files on a half board, less one: the width of its bank.
const WIDTH: f64 = 8.0;
/// The bank's rank (0-based).
const BANK: f64 = 4.0;
/// How far outside a half board its coordinate labels and its name sit.
const LABEL_OFFSET: f64 = 0.85;
const NAME_OFFSET: f64 = 1.75;

/// The role names, in [`Role`] order.
const ROLE_NAMES: [&str; 8] = [
    "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier", "flag",
];
/// The characters of the roles every nation writes alike, in [`Role`] order (the general
/// and the flag differ by nation).
const COMMON_GLYPHS: [&str; 8] = ["", "士", "相", "馬", "車", "炮", "兵", ""];
/// Each nation's general: its name.
const GENERAL_GLYPHS: [&str; 3] = ["蜀", "吳", "魏"];
/// Each nation's flag, as the seed names them: fire, wind, banner.
const FLAG_GLYPHS: [&str; 3] = ["火", "風", "旗"];
/// Each nation's name in full, for the label beside its half board.
const NATION_LABELS: [&str; 3] = ["Shu 蜀", "Wu 吳", "Wei 魏"];
const INKS: [Ink; 3] = [Ink::Red, Ink::Green, Ink::Blue];

/// The turn, in degrees clockwise, that carries Shu's half board (at the bottom) to
/// `nation`'s.
fn turn_of(nation: Nation) -> f64 {
    [0.0, -120.0, 120.0][nation.index()]
}

/// The distance from the centre to each bank: the inradius of the triangle the three
/// banks' lines make, whose sides are a bank and two mouths long.
fn bank_distance() -> f64 {
    (WIDTH + 2.0 * MOUTH) / (2.0 * 3f64.sqrt())
}

/// The place in the diagram of the point at (`file`, `rank`) of `nation`'s half board,
/// both 0-based and possibly fractional, read from that nation's side.
fn place(nation: Nation, file: f64, rank: f64) -> Xy {
    Xy::new(file - WIDTH / 2.0, bank_distance() + BANK - rank).turned(turn_of(nation))
}

fn glyph(role: Role, origin: Nation) -> &'static str {
    match role {
        Role::General => GENERAL_GLYPHS[origin.index()],
        Role::Flag => FLAG_GLYPHS[origin.index()],
        _ => COMMON_GLYPHS[role as usize],
    }
}

impl Sanguo {
    /// The picture of the position (see the module's description), points named as the
    /// long notation names them (`wu:c5`).
    pub fn board_diagram(&self) -> Diagram {
        let seats = Nation::ALL
            .map(|n| DiagramSeat {
                name: n.name(),
                ink: INKS[n.index()],
                view: -turn_of(n),
            })
            .to_vec();
        let mut diagram = Diagram::new(Self::ID, seats, PieceStyle::Disc);
        let surface = [(-0.5, -0.5), (-0.5, BANK), (8.5, BANK), (8.5, -0.5)];
        for nation in Nation::ALL {
            let corners = surface.map(|(f, r)| place(nation, f, r)).to_vec();
            diagram.cell(corners, Shade::Board);
        }
        let river = Nation::ALL
            .into_iter()
            .flat_map(|n| surface.map(|(f, r)| place(n, f, r)))
            .collect();
        diagram.cell(river, Shade::Water);
        for nation in Nation::ALL {
            half_board(
                &mut diagram,
                |file, rank| place(nation, file, rank),
                |file, rank| point_name(point_at(nation, file, rank)),
            );
            add_links(&mut diagram, nation);
            add_labels(&mut diagram, nation);
        }
        for point in 0..POINTS as Point {
            if let Some(piece) = self.piece_at(point) {
                diagram.pieces.push(DiagramPiece {
                    spot: point_name(point),
                    seat: Seat(piece.controller.index() as u8),
                    origin: Seat(piece.origin.index() as u8),
                    glyph: glyph(piece.role, piece.origin).to_string(),
                    letter: piece.role.letter(),
                    name: ROLE_NAMES[piece.role as usize],
                });
            }
        }
        diagram.to_move = Some(Seat(self.turn().index() as u8));
        diagram
    }
}

/// The links across the river arm between `nation` and its right-hand neighbour: its f5-i5
/// to the neighbour's d5-a5, and the side of the central triangle from e5 to e5.
fn add_links(diagram: &mut Diagram, nation: Nation) {
    let right = nation.right();
    for file in 4..=8u8 {
        let own = place(nation, f64::from(file), BANK);
        let facing = place(right, WIDTH - f64::from(file), BANK);
        diagram.line(own, facing, Stroke::Link);
    }
}

/// The file letters below the back rank, the rank numbers left of file a, and the
/// nation's name, all as its owner reads them.
fn add_labels(diagram: &mut Diagram, nation: Nation) {
    for file in 0..9u8 {
        let at = place(nation, f64::from(file), -LABEL_OFFSET);
        let letter = char::from(b'a' + file).to_string();
        diagram.label(letter, at, LabelKind::Coordinate, None);
    }
    for rank in 0..5u8 {
        let at = place(nation, -LABEL_OFFSET, f64::from(rank));
        diagram.label((rank + 1).to_string(), at, LabelKind::Coordinate, None);
    }
    let at = place(nation, WIDTH / 2.0, -NAME_OFFSET);
    diagram.label(NATION_LABELS[nation.index()], at, LabelKind::Region, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanguo::graph::{GRAPH, NORTH};
    use crate::sanguo::types::rank_of;
    use std::collections::BTreeSet;

    fn diagram() -> Diagram {
        Sanguo::start_position(true).board_diagram()
    }

    fn spot_at(diagram: &Diagram, at: Xy) -> Option<String> {
        let near = |s: &&crate::Spot| (s.at.x - at.x).abs() < 1e-9 && (s.at.y - at.y).abs() < 1e-9;
        diagram.spots.iter().find(near).map(|s| s.name.clone())
    }

    #[test]
    fn every_point_is_a_spot_named_as_the_long_notation_names_it() {
        let diagram = diagram();
        let names: BTreeSet<String> = diagram.spots.iter().map(|s| s.name.clone()).collect();
        let points: BTreeSet<String> = (0..POINTS as Point).map(point_name).collect();
        assert_eq!(diagram.spots.len(), 135);
        assert_eq!(names, points);
        assert_eq!(diagram.pieces.len(), 54);
    }

    #[test]
    fn the_links_drawn_are_exactly_the_straight_steps_across_the_river() {
        let diagram = diagram();
        let mut drawn = BTreeSet::new();
        for line in diagram.lines.iter().filter(|l| l.stroke == Stroke::Link) {
            let ends = [line.from, line.to].map(|at| spot_at(&diagram, at).expect("a point"));
            drawn.insert(BTreeSet::from(ends));
        }
        let mut steps = BTreeSet::new();
        for point in (0..POINTS as Point).filter(|&p| rank_of(p) == 4) {
            for &(to, _) in &GRAPH.orth[usize::from(point)][NORTH] {
                steps.insert(BTreeSet::from([point_name(point), point_name(to)]));
            }
        }
        assert_eq!(drawn.len(), 15);
        assert_eq!(drawn, steps);
    }

    #[test]
    fn the_central_triangle_is_equilateral_and_the_mouths_one_step_wide() {
        let diagram = diagram();
        let at = |name: &str| diagram.spot(name).expect("a spot").at;
        let distance = |a: Xy, b: Xy| (a.x - b.x).hypot(a.y - b.y);
        for (a, b) in [("shu", "wu"), ("wu", "wei"), ("wei", "shu")] {
            let side = distance(at(&format!("{a}:e5")), at(&format!("{b}:e5")));
            assert!(
                (side - (WIDTH / 2.0 + MOUTH)).abs() < 1e-9,
                "{a}-{b}: {side}"
            );
            let mouth = distance(at(&format!("{a}:i5")), at(&format!("{b}:a5")));
            assert!((mouth - MOUTH).abs() < 1e-9, "{a}-{b}: {mouth}");
        }
    }
}
