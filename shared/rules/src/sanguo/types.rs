//! Small value types of the Three Kingdoms board: nations, roles, pieces, points, moves.

/// One of the three nations, in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nation {
    /// Red, moves first.
    Shu,
    /// Green, moves second; Shu's right-hand neighbour.
    Wu,
    /// Blue, moves third; Shu's left-hand neighbour.
    Wei,
}

impl Nation {
    /// Every nation in turn order.
    pub const ALL: [Nation; 3] = [Nation::Shu, Nation::Wu, Nation::Wei];

    /// 0 for Shu, 1 for Wu, 2 for Wei: the seat index.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The nation with seat index `index` (taken modulo 3).
    pub fn from_index(index: usize) -> Nation {
        Nation::ALL[index % 3]
    }

    /// The next nation in turn order, which is also the right-hand neighbour.
    pub fn right(self) -> Nation {
        Nation::from_index(self.index() + 1)
    }

    /// The previous nation in turn order, which is also the left-hand neighbour.
    pub fn left(self) -> Nation {
        Nation::from_index(self.index() + 2)
    }

    /// The lower-case name used in texts: `shu`, `wu`, `wei`.
    pub fn name(self) -> &'static str {
        ["shu", "wu", "wei"][self.index()]
    }

    /// The nation of a name, case-insensitive.
    pub fn from_name(name: &str) -> Option<Nation> {
        Nation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(name))
    }

    /// The colour letter used in position text: `r` (Shu), `g` (Wu), `b` (Wei).
    pub fn colour(self) -> char {
        ['r', 'g', 'b'][self.index()]
    }

    /// The nation of a colour letter.
    pub fn from_colour(letter: char) -> Option<Nation> {
        Nation::ALL.into_iter().find(|n| n.colour() == letter)
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// General (king), stays in its palace.
    General,
    /// Advisor, diagonal steps in its palace.
    Advisor,
    /// Elephant, two diagonal steps on its own half board.
    Elephant,
    /// Horse, one straight step then one diagonal step outward.
    Horse,
    /// Chariot, any distance along a line.
    Chariot,
    /// Cannon, moves like a chariot, captures over exactly one screen.
    Cannon,
    /// Soldier, one step forward; sideways too once on another nation's half board.
    Soldier,
    /// Flag, two straight steps then one diagonal step outward.
    Flag,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 8] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
        Role::Flag,
    ];

    /// The upper-case letter of the role: `K A E H R C P F`.
    pub fn letter(self) -> char {
        ['K', 'A', 'E', 'H', 'R', 'C', 'P', 'F'][self as usize]
    }

    /// The role of a letter in either case.
    pub fn from_letter(letter: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.letter() == letter.to_ascii_uppercase())
    }

    /// How many pieces of this role a nation starts with (flags on).
    pub fn start_count(self) -> usize {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }
}

/// A piece: what it is, the nation it started with (which fixes its geometry: soldiers'
/// forward direction, the elephants' half board, the advisors' palace) and the nation
/// that moves it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind of piece.
    pub role: Role,
    /// The nation whose army it started in.
    pub origin: Nation,
    /// The nation that moves it now (differs from `origin` after an army passed over).
    pub controller: Nation,
}

/// One of the 135 points: `nation * 45 + rank * 9 + file`, with file 0 = a (on the
/// half board owner's left) and rank 0 = rank 1 (the owner's back rank).
pub type Point = u8;

/// Number of points on the board.
pub const POINTS: usize = 135;

/// The half board a point lies on.
pub fn half_of(point: Point) -> Nation {
    Nation::from_index(usize::from(point / 45))
}

/// The file of a point on its half board, 0 = a.
pub fn file_of(point: Point) -> u8 {
    point % 45 % 9
}

/// The rank of a point on its half board, 0 = rank 1.
pub fn rank_of(point: Point) -> u8 {
    point % 45 / 9
}

/// The point on `half` at `file` and `rank` (both 0-based, file < 9, rank < 5).
pub fn point_at(half: Nation, file: u8, rank: u8) -> Point {
    half.index() as u8 * 45 + rank * 9 + file
}

/// True when the point is in its half board's palace (files d-f, ranks 1-3).
pub fn in_palace(point: Point) -> bool {
    (3..=5).contains(&file_of(point)) && rank_of(point) <= 2
}

/// The point's name on its own half board, e.g. `h3`.
pub fn local_name(point: Point) -> String {
    format!("{}{}", (b'a' + file_of(point)) as char, rank_of(point) + 1)
}

/// The point's full name, half board first, e.g. `wu:c5`.
pub fn point_name(point: Point) -> String {
    format!("{}:{}", half_of(point).name(), local_name(point))
}

/// Reads a local point name such as `h3` on `half`.
pub fn parse_local(text: &str, half: Nation) -> Option<Point> {
    match text.as_bytes() {
        [f @ b'a'..=b'i', r @ b'1'..=b'5'] => Some(point_at(half, f - b'a', r - b'1')),
        _ => None,
    }
}

/// Reads a point name: `wu:c5` (half board named, any case), or a bare `c5` meaning the
/// point on `home`'s half board.
pub fn parse_point(text: &str, home: Nation) -> Option<Point> {
    match text.split_once(':') {
        Some((half, local)) => parse_local(&local.to_ascii_lowercase(), Nation::from_name(half)?),
        None => parse_local(&text.to_ascii_lowercase(), home),
    }
}

/// A move from one point to another. Every Three Kingdoms move is a single piece moving
/// (and capturing whatever stands on `to`), so the two points say it all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Point,
    /// Where it goes.
    pub to: Point,
}
