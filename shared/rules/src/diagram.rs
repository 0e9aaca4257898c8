//! Pictures of positions as plain data: what to draw, where, in abstract coordinates.
//!
//! A [`Diagram`] says which cells to shade, which lines to draw, where the named spots
//! are (a square, a point), which piece stands on which spot, and which labels go where.
//! It knows nothing of SVG or pixels: a renderer (the `missive-board` crate) turns any
//! diagram into a picture without knowing the variant, and a client can map a move's
//! long notation onto spots, since spots carry exactly the names that notation uses.

use crate::Seat;

/// A place in the diagram's plane, as seen from the first seat: `x` grows to the right
/// and `y` downward; one unit is the distance between two neighbouring squares' centres
/// or two neighbouring points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Xy {
    /// Rightward.
    pub x: f64,
    /// Downward.
    pub y: f64,
}

impl Xy {
    /// The place at `x`, `y`.
    pub const fn new(x: f64, y: f64) -> Xy {
        Xy { x, y }
    }

    /// This place turned `degrees` about the origin, clockwise on a screen (where `y`
    /// grows downward).
    pub fn turned(self, degrees: f64) -> Xy {
        let (sin, cos) = degrees.to_radians().sin_cos();
        Xy::new(self.x * cos - self.y * sin, self.x * sin + self.y * cos)
    }

    /// This place moved by `dx`, `dy`.
    pub fn shifted(self, dx: f64, dy: f64) -> Xy {
        Xy::new(self.x + dx, self.y + dy)
    }
}

/// The ink a seat's pieces are drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ink {
    /// Chess's white.
    White,
    /// Chess's and xiangqi's black.
    Black,
    /// Xiangqi's red, Shu's red.
    Red,
    /// Wu's green.
    Green,
    /// Wei's blue.
    Blue,
}

impl Ink {
    /// The ink's name in lower case, e.g. `red`.
    pub fn as_str(self) -> &'static str {
        match self {
            Ink::White => "white",
            Ink::Black => "black",
            Ink::Red => "red",
            Ink::Green => "green",
            Ink::Blue => "blue",
        }
    }
}

/// How a seat appears in a diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramSeat {
    /// The seat's name, as the variant names it (`white`, `shu`).
    pub name: &'static str,
    /// The ink of the pieces it moves.
    pub ink: Ink,
    /// The turn, in degrees clockwise, that brings this seat to the bottom of the picture:
    /// 0 for the first seat, 180 for the second of two facing seats.
    pub view: f64,
}

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// As figures standing in cells (chess): the glyph itself in the seat's ink.
    Figure,
    /// As round tokens on points (xiangqi): the glyph written on a disc.
    Disc,
}

/// The fill of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shade {
    /// A light square.
    Light,
    /// A dark square.
    Dark,
    /// The plain surface of a board whose pieces stand on points.
    Board,
    /// A river.
    Water,
}

/// A filled polygon: a square, a board's surface, a river.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The corners in order round the polygon.
    pub corners: Vec<Xy>,
    /// The fill.
    pub shade: Shade,
}

/// How a line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stroke {
    /// A line pieces move along (a file, a rank, a palace diagonal).
    Grid,
    /// A board's outline.
    Border,
    /// A line joining boards (across a river, between the points of a triangle).
    Link,
}

/// A straight line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// One end.
    pub from: Xy,
    /// The other end.
    pub to: Xy,
    /// How it is drawn.
    pub stroke: Stroke,
}

/// A named place where a piece can stand: a square or a point.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    /// The name the variant's long notation gives it (`e4`, `wu:c5`, `b1(2)`).
    pub name: String,
    /// Its centre.
    pub at: Xy,
    /// The index in [`Diagram::cells`] of the square it fills, if it is a square.
    pub cell: Option<usize>,
}

/// A piece on a spot.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramPiece {
    /// The name of the spot it stands on.
    pub spot: String,
    /// The seat that moves it: its ink.
    pub seat: Seat,
    /// The seat whose army it started in; differs from `seat` once an army has passed to
    /// another seat (Three Kingdoms Xiangqi).
    pub origin: Seat,
    /// The text drawn for it: a chess figurine or a xiangqi character.
    pub glyph: String,
    /// The letter standing for it when glyphs are not wanted (`N`, `H`).
    pub letter: char,
    /// What it is, in words (`knight`, `chariot`).
    pub name: &'static str,
}

/// What a label names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    /// A file or rank name at a board's edge.
    Coordinate,
    /// The name of a board, a half board or a river.
    Region,
}

/// A text placed in the diagram, always written upright.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The text.
    pub text: String,
    /// Its centre.
    pub at: Xy,
    /// What it names.
    pub kind: LabelKind,
    /// Shown only when the diagram is seen from this seat (coordinates belong on the
    /// viewer's near and left edges); always shown when `None`.
    pub view: Option<Seat>,
}

/// A picture of a position: every board element in abstract coordinates, the pieces on
/// their spots, and the spots the last move touched.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    /// The variant id.
    pub variant: &'static str,
    /// Every seat in turn order, with its ink and view.
    pub seats: Vec<DiagramSeat>,
    /// How pieces are drawn.
    pub style: PieceStyle,
    /// Filled polygons, drawn first, in order.
    pub cells: Vec<Cell>,
    /// Lines, drawn over the cells.
    pub lines: Vec<Line>,
    /// Every place a piece can stand.
    pub spots: Vec<Spot>,
    /// The pieces, each on a spot of [`Diagram::spots`].
    pub pieces: Vec<DiagramPiece>,
    /// Coordinates and names.
    pub labels: Vec<Label>,
    /// The seat to move, `None` once the game is over.
    pub to_move: Option<Seat>,
    /// The spots the last move went from and to (and any other piece it displaced).
    pub last_move: Vec<String>,
}

impl Diagram {
    /// An empty diagram of `variant` for `seats`, nobody to move yet.
    pub fn new(variant: &'static str, seats: Vec<DiagramSeat>, style: PieceStyle) -> Diagram {
        Diagram {
            variant,
            seats,
            style,
            cells: Vec::new(),
            lines: Vec::new(),
            spots: Vec::new(),
            pieces: Vec::new(),
            labels: Vec::new(),
            to_move: None,
            last_move: Vec::new(),
        }
    }

    /// A picture with no board, for a game with nothing to draw (a text-only game, a test
    /// double): its seats, inked in turn order from `inks` and all seen from the same side,
    /// and the seat to move.
    pub fn without_board(
        variant: &'static str,
        names: &[&'static str],
        inks: &[Ink],
        to_move: Option<Seat>,
    ) -> Diagram {
        let seats = names
            .iter()
            .zip(inks)
            .map(|(&name, &ink)| DiagramSeat {
                name,
                ink,
                view: 0.0,
            })
            .collect();
        let mut diagram = Diagram::new(variant, seats, PieceStyle::Disc);
        diagram.to_move = to_move;
        diagram
    }

    /// The spot named `name`.
    pub fn spot(&self, name: &str) -> Option<&Spot> {
        self.spots.iter().find(|s| s.name == name)
    }

    /// The seat named `name`, if the diagram has it.
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
            .map(|i| Seat(i as u8))
    }

    /// Adds a line.
    pub(crate) fn line(&mut self, from: Xy, to: Xy, stroke: Stroke) {
        self.lines.push(Line { from, to, stroke });
    }

    /// Adds a cell and returns its index.
    pub(crate) fn cell(&mut self, corners: Vec<Xy>, shade: Shade) -> usize {
        self.cells.push(Cell { corners, shade });
        self.cells.len() - 1
    }

    /// Adds a label.
    pub(crate) fn label(
        &mut self,
        text: impl Into<String>,
        at: Xy,
        kind: LabelKind,
        view: Option<Seat>,
    ) {
        self.labels.push(Label {
            text: text.into(),
            at,
            kind,
            view,
        });
    }
}

/// Two seats facing each other across a rectangular board: the first at the bottom.
pub(crate) fn facing_seats(names: &[&'static str], inks: [Ink; 2]) -> Vec<DiagramSeat> {
    names
        .iter()
        .zip(inks)
        .zip([0.0, 180.0])
        .map(|((&name, ink), view)| DiagramSeat { name, ink, view })
        .collect()
}

/// A rectangular board of `files` x `ranks` spots, named by file letter and rank number
/// (`a1` bottom left as the first seat sees it), one unit apart; spot (0, 0) sits at the
/// origin's lower left: file `f`, rank `r` (both 0-based) is at (`f`, `ranks - 1 - r`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    pub files: u8,
    pub ranks: u8,
}

/// How far outside the outermost spots coordinate labels sit.
const LABEL_OFFSET: f64 = 0.85;

impl Grid {
    /// The centre of the spot on `file` and `rank` (0-based).
    pub fn at(self, file: u8, rank: u8) -> Xy {
        Xy::new(f64::from(file), f64::from(self.ranks - 1 - rank))
    }

    /// Every (file, rank) pair, rank 1 first.
    pub fn places(self) -> impl Iterator<Item = (u8, u8)> {
        (0..self.ranks).flat_map(move |rank| (0..self.files).map(move |file| (file, rank)))
    }

    /// The name `a1`, `i10` of a place.
    pub fn name(file: u8, rank: u8) -> String {
        format!("{}{}", char::from(b'a' + file), rank + 1)
    }

    /// Adds the file letters and rank numbers: along the bottom and left edges for the
    /// first seat, along the top and right edges (the second seat's near and left ones)
    /// for the second.
    pub fn add_labels(self, diagram: &mut Diagram) {
        let (last_x, last_y) = (f64::from(self.files - 1), f64::from(self.ranks - 1));
        for (seat, near, side) in [
            (Seat(0), last_y + LABEL_OFFSET, -LABEL_OFFSET),
            (Seat(1), -LABEL_OFFSET, last_x + LABEL_OFFSET),
        ] {
            for file in 0..self.files {
                let at = Xy::new(f64::from(file), near);
                let letter = char::from(b'a' + file).to_string();
                diagram.label(letter, at, LabelKind::Coordinate, Some(seat));
            }
            for rank in 0..self.ranks {
                let at = Xy::new(side, self.at(0, rank).y);
                diagram.label(
                    (rank + 1).to_string(),
                    at,
                    LabelKind::Coordinate,
                    Some(seat),
                );
            }
        }
    }

    /// Adds one square cell per spot, a1 dark, each spot naming its cell.
    pub fn add_squares(self, diagram: &mut Diagram) {
        for (file, rank) in self.places() {
            let at = self.at(file, rank);
            let cell = diagram.cell(square_around(at), checkered(file, rank));
            diagram.spots.push(Spot {
                name: Grid::name(file, rank),
                at,
                cell: Some(cell),
            });
        }
    }
}

/// The shade of the square on `file` and `rank` (0-based) of a checkered board: dark when
/// their sum is even, as a1 is.
pub(crate) fn checkered(file: u8, rank: u8) -> Shade {
    if (file + rank).is_multiple_of(2) {
        Shade::Dark
    } else {
        Shade::Light
    }
}

/// The corners of the unit square centred on `at`.
pub(crate) fn square_around(at: Xy) -> Vec<Xy> {
    [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
        .into_iter()
        .map(|(dx, dy)| at.shifted(dx, dy))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_is_clockwise_on_screen() {
        let below = Xy::new(0.0, 1.0);
        let left = below.turned(90.0);
        assert!((left.x + 1.0).abs() < 1e-9 && left.y.abs() < 1e-9);
    }

    #[test]
    fn grid_places_rank_one_at_the_bottom() {
        let grid = Grid { files: 8, ranks: 8 };
        assert_eq!(grid.at(0, 0), Xy::new(0.0, 7.0));
        assert_eq!(grid.at(7, 7), Xy::new(7.0, 0.0));
        assert_eq!(Grid::name(8, 9), "i10");
    }
}
