//! The fixed frame of Tri-Dimensional chess: cells seen from above, levels, squares, the
//! three main boards, and the pins the four attack boards stand on.
//!
//! Seen from above the board is a grid of six files (a-f) and ten ranks (0-9); a *cell* is
//! one point of that grid. Levels 1-7 stack over it: main boards at 2, 4 and 6, attack
//! boards at the odd levels between and around them. A *square* is a cell at a level, written
//! `b1(2)`. Which squares exist depends on where the attack boards stand.

use std::fmt;

/// Number of files (a-f).
pub const FILES: u8 = 6;
/// Number of ranks (0-9).
pub const RANKS: u8 = 10;
/// Number of levels (1-7).
pub const LEVELS: u8 = 7;
/// Number of cells seen from above.
pub const CELLS: usize = (FILES as usize) * (RANKS as usize);
/// Number of squares in the whole frame (most exist only while a board stands there).
pub const SQUARES: usize = CELLS * LEVELS as usize;
/// The main-board levels as a level set (bit `l` for level `l`).
pub const MAIN_LEVELS: LevelSet = (1 << 2) | (1 << 4) | (1 << 6);

/// A set of levels of one cell: bit `l` set for level `l` (1-7).
pub type LevelSet = u8;

/// A point of the grid seen from above: file 0-5 (a-f), rank 0-9.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file` (0 = a) and `rank`, or `None` off the grid.
    pub fn new(file: i8, rank: i8) -> Option<Cell> {
        ((0..FILES as i8).contains(&file) && (0..RANKS as i8).contains(&rank))
            .then(|| Cell(rank as u8 * FILES + file as u8))
    }

    /// The file, 0 = a.
    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The rank, 0-9.
    pub fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The index into per-cell arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The cell `(df, dr)` away, or `None` off the grid.
    pub fn offset(self, df: i8, dr: i8) -> Option<Cell> {
        Cell::new(self.file() as i8 + df, self.rank() as i8 + dr)
    }

    /// The square of this cell at `level`.
    pub fn at(self, level: u8) -> Square {
        Square(self.0 as u16 * LEVELS as u16 + (level - 1) as u16)
    }

    /// Every cell, by index.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// The cells strictly between this cell and `to` on a line (rank, file or diagonal),
    /// or `None` when they are not on one line.
    pub fn between(self, to: Cell) -> Option<LineCells> {
        let df = to.file() as i8 - self.file() as i8;
        let dr = to.rank() as i8 - self.rank() as i8;
        let steps = df.abs().max(dr.abs());
        if steps == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let mut cells = LineCells::default();
        for k in 1..steps {
            cells.push(self.offset(k * df.signum(), k * dr.signum())?);
        }
        Some(cells)
    }

    /// The file letter.
    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }
}

/// The cells strictly between two ends of a line (at most eight on this grid).
#[derive(Clone, Copy, Debug, Default)]
pub struct LineCells {
    cells: [Cell; 8],
    len: usize,
}

impl LineCells {
    /// Appends a cell.
    fn push(&mut self, cell: Cell) {
        self.cells[self.len] = cell;
        self.len += 1;
    }

    /// The cells in order, from the start.
    pub fn as_slice(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// A square: a cell at a level. Exists only while a board covers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square at `file` (0-5), `rank` (0-9) and `level` (1-7); the caller keeps to
    /// those ranges (used for tables of fixed squares).
    pub const fn new(file: u8, rank: u8, level: u8) -> Square {
        Square((rank as u16 * FILES as u16 + file as u16) * LEVELS as u16 + (level - 1) as u16)
    }

    /// The cell seen from above.
    pub fn cell(self) -> Cell {
        Cell((self.0 / LEVELS as u16) as u8)
    }

    /// The level, 1-7.
    pub fn level(self) -> u8 {
        (self.0 % LEVELS as u16) as u8 + 1
    }

    /// The file, 0 = a.
    pub fn file(self) -> u8 {
        self.cell().file()
    }

    /// The rank, 0-9.
    pub fn rank(self) -> u8 {
        self.cell().rank()
    }

    /// The index into per-square arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The square of an index below [`SQUARES`].
    pub fn from_index(index: usize) -> Square {
        Square(index as u16)
    }

    /// Reads `b1(2)`: a file a-f, a rank 0-9 and a level 1-7 in parentheses.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [
                f @ b'a'..=b'f',
                r @ b'0'..=b'9',
                b'(',
                l @ b'1'..=b'7',
                b')',
            ] => Some(Cell::new((f - b'a') as i8, (r - b'0') as i8)?.at(l - b'0')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}({})",
            self.cell().file_char(),
            self.rank(),
            self.level()
        )
    }
}

/// One of the three fixed 4x4 boards, on files b-e.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MainBoard {
    /// White's board: level 2, ranks 1-4.
    W,
    /// The neutral board: level 4, ranks 3-6.
    N,
    /// Black's board: level 6, ranks 5-8.
    B,
}

impl MainBoard {
    /// The three main boards from the bottom up.
    pub const ALL: [MainBoard; 3] = [MainBoard::W, MainBoard::N, MainBoard::B];

    /// Its level: 2, 4 or 6.
    pub fn level(self) -> u8 {
        2 + 2 * self as u8
    }

    /// Its lowest rank: 1, 3 or 5 (it spans four ranks).
    pub fn low_rank(self) -> u8 {
        1 + 2 * self as u8
    }

    /// Its letter in pin names.
    pub fn letter(self) -> char {
        ['W', 'N', 'B'][self as usize]
    }

    /// True when `cell` lies under this board (files b-e, its four ranks).
    pub fn covers(self, cell: Cell) -> bool {
        (1..=4).contains(&cell.file())
            && (self.low_rank()..self.low_rank() + 4).contains(&cell.rank())
    }
}

/// The levels of `cell` that a main board covers.
pub fn main_levels(cell: Cell) -> LevelSet {
    MainBoard::ALL
        .into_iter()
        .filter(|m| m.covers(cell))
        .fold(0, |set, m| set | 1 << m.level())
}

/// A side of the board seen from White: the queen side (files a-b) or the king side (e-f),
/// where attack boards stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flank {
    /// Files a and b.
    Queen,
    /// Files e and f.
    King,
}

impl Flank {
    /// The lower of its two files (a = 0 or e = 4).
    pub fn low_file(self) -> u8 {
        match self {
            Flank::Queen => 0,
            Flank::King => 4,
        }
    }

    /// The flank whose two files contain `file`, if any.
    pub fn of_file(file: u8) -> Option<Flank> {
        match file {
            0 | 1 => Some(Flank::Queen),
            4 | 5 => Some(Flank::King),
            _ => None,
        }
    }
}

/// A place an attack board can stand: a corner (south or north) of a main board, above
/// (`up`) or below (`dn`) it. Written `W-S-up`; twelve pins per flank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pin(u8);

impl Pin {
    /// The twelve pins in the order of seed 000 §7-3 (W-S-dn, W-S-up, W-N-dn, ... B-N-up).
    pub fn all() -> impl Iterator<Item = Pin> {
        (0..12).map(Pin)
    }

    /// The pin at `main`, on the north corner when `north`, above it when `up`.
    pub fn new(main: MainBoard, north: bool, up: bool) -> Pin {
        Pin(main as u8 * 4 + u8::from(north) * 2 + u8::from(up))
    }

    /// The main board whose corner holds the pin.
    pub fn main(self) -> MainBoard {
        MainBoard::ALL[usize::from(self.0 / 4)]
    }

    /// True on the main board's north corner (its higher ranks).
    pub fn is_north(self) -> bool {
        self.0 & 2 != 0
    }

    /// True above the main board, false below it.
    pub fn is_up(self) -> bool {
        self.0 & 1 != 0
    }

    /// The level of a board on this pin: one above or below its main board.
    pub fn level(self) -> u8 {
        if self.is_up() {
            self.main().level() + 1
        } else {
            self.main().level() - 1
        }
    }

    /// The lower of the two ranks a board on this pin covers (W-S: 0, N-S: 2, W-N and B-S: 4,
    /// N-N: 6, B-N: 8).
    pub fn low_rank(self) -> u8 {
        if self.is_north() {
            self.main().low_rank() + 3
        } else {
            self.main().low_rank() - 1
        }
    }

    /// The distance in ranks between the two pins' corners (0 for the same corner or for
    /// corners at the same ranks).
    pub fn rank_distance(self, other: Pin) -> u8 {
        self.low_rank().abs_diff(other.low_rank())
    }

    /// The pin at the same corner, at the other elevation.
    pub fn toggled(self) -> Pin {
        Pin(self.0 ^ 1)
    }

    /// The four cells a board on this pin covers on `flank`, low file and low rank first,
    /// then low file high rank, high file low rank, high file high rank.
    pub fn cells(self, flank: Flank) -> [Cell; 4] {
        let (f, r) = (flank.low_file() as i8, self.low_rank() as i8);
        [(0, 0), (0, 1), (1, 0), (1, 1)]
            .map(|(df, dr)| Cell::new(f + df, r + dr).expect("pin cells are on the grid"))
    }

    /// Reads `W-S-up` (case of `up`/`dn` as written here; `S`/`N` and the board letter may
    /// be lower case).
    pub fn parse(text: &str) -> Option<Pin> {
        let mut parts = text.split('-');
        let main = match parts.next()?.to_ascii_uppercase().as_str() {
            "W" => MainBoard::W,
            "N" => MainBoard::N,
            "B" => MainBoard::B,
            _ => return None,
        };
        let north = match parts.next()?.to_ascii_uppercase().as_str() {
            "S" => false,
            "N" => true,
            _ => return None,
        };
        let up = match parts.next()?.to_ascii_lowercase().as_str() {
            "up" => true,
            "dn" | "down" => false,
            _ => return None,
        };
        parts.next().is_none().then(|| Pin::new(main, north, up))
    }
}

impl fmt::Display for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}",
            self.main().letter(),
            if self.is_north() { 'N' } else { 'S' },
            if self.is_up() { "up" } else { "dn" }
        )
    }
}

/// One of the four attack boards, named after where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoardId {
    /// White's queen-side board.
    QL1,
    /// White's king-side board.
    KL1,
    /// Black's queen-side board.
    QL3,
    /// Black's king-side board.
    KL3,
}

impl BoardId {
    /// The four boards in text order.
    pub const ALL: [BoardId; 4] = [BoardId::QL1, BoardId::KL1, BoardId::QL3, BoardId::KL3];

    /// The flank it stands on, for the whole game.
    pub fn flank(self) -> Flank {
        match self {
            BoardId::QL1 | BoardId::QL3 => Flank::Queen,
            BoardId::KL1 | BoardId::KL3 => Flank::King,
        }
    }

    /// The index into per-board arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name, e.g. `QL1`.
    pub fn name(self) -> &'static str {
        ["QL1", "KL1", "QL3", "KL3"][self as usize]
    }

    /// Reads a board name in either case.
    pub fn parse(text: &str) -> Option<BoardId> {
        BoardId::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(text))
    }

    /// The board sharing its flank.
    pub fn neighbour(self) -> BoardId {
        BoardId::ALL[self.index() ^ 2]
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_follow_the_table_of_seed_000() {
        let table = [
            ("W-S-dn", 1, 0),
            ("W-S-up", 3, 0),
            ("W-N-dn", 1, 4),
            ("W-N-up", 3, 4),
            ("N-S-dn", 3, 2),
            ("N-S-up", 5, 2),
            ("N-N-dn", 3, 6),
            ("N-N-up", 5, 6),
            ("B-S-dn", 5, 4),
            ("B-S-up", 7, 4),
            ("B-N-dn", 5, 8),
            ("B-N-up", 7, 8),
        ];
        let pins: Vec<Pin> = Pin::all().collect();
        for (pin, (name, level, low_rank)) in pins.iter().zip(table) {
            assert_eq!(pin.to_string(), name);
            assert_eq!(Pin::parse(name), Some(*pin));
            assert_eq!((pin.level(), pin.low_rank()), (level, low_rank), "{name}");
        }
    }

    #[test]
    fn squares_print_and_parse() {
        let square = Square::parse("b1(2)").unwrap();
        assert_eq!((square.file(), square.rank(), square.level()), (1, 1, 2));
        assert_eq!(square.to_string(), "b1(2)");
        for bad in ["g1(2)", "b1(8)", "b1(0)", "b12", "b1(2"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn main_boards_cover_their_ranks() {
        let cell = |f, r| Cell::new(f, r).unwrap();
        assert_eq!(main_levels(cell(1, 1)), 1 << 2);
        assert_eq!(main_levels(cell(2, 3)), 1 << 2 | 1 << 4);
        assert_eq!(main_levels(cell(4, 6)), 1 << 4 | 1 << 6);
        assert_eq!(main_levels(cell(0, 4)), 0);
        assert_eq!(main_levels(cell(1, 0)), 0);
    }
}
