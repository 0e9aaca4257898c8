//! The board as a graph: three 9x5 half boards joined across the river and at the central
//! triangle, with every step and line the pieces use, computed once.
//!
//! Directions are read in the frame of the half board a point lies on: north toward the
//! river, east toward file i. A straight step north from a bank point crosses to the
//! facing point of a neighbour and arrives heading south in that neighbour's frame; a step
//! north from an e5 point forks to both neighbours' e5 points.

use std::sync::LazyLock;

use super::types::{Nation, POINTS, Point, file_of, half_of, in_palace, point_at, rank_of};

/// A straight direction in a half board's frame.
pub type Dir = usize;
/// Toward the river.
pub const NORTH: Dir = 0;
/// Toward the back rank.
pub const SOUTH: Dir = 1;
/// Toward file i.
pub const EAST: Dir = 2;
/// Toward file a.
pub const WEST: Dir = 3;

/// A diagonal direction in a half board's frame.
type Diag = usize;
const NORTH_EAST: Diag = 0;
const NORTH_WEST: Diag = 1;
const SOUTH_EAST: Diag = 2;
const SOUTH_WEST: Diag = 3;

/// The two diagonals that continue a straight step "outward" (horse and flag bends),
/// indexed by the straight direction the piece arrived with.
const OUTWARD: [[Diag; 2]; 4] = [
    [NORTH_EAST, NORTH_WEST],
    [SOUTH_EAST, SOUTH_WEST],
    [NORTH_EAST, SOUTH_EAST],
    [NORTH_WEST, SOUTH_WEST],
];

/// The file of the e-file, whose bank point belongs to the central triangle.
const E_FILE: u8 = 4;
/// The bank rank (rank 5), 0-based.
const BANK: u8 = 4;

/// The straight steps from a point in one direction: none at an edge, one almost
/// everywhere, two from an e5 point heading north (the fork of the triangle). Each step
/// names the point reached and the direction a straight line keeps from there.
pub type Steps = Vec<(Point, Dir)>;

/// A straight line from a point: the points in order, and where it forks (at the
/// triangle) the continuations, each starting with the point after the fork.
#[derive(Clone, Debug, Default)]
pub struct Ray {
    /// The points of the line before any fork, nearest first.
    pub line: Vec<Point>,
    /// The continuations after the last point of `line` (or after the start when `line` is
    /// empty); empty when the line just ends.
    pub forks: Vec<Ray>,
}

/// Every table move generation and attack detection read.
#[derive(Debug)]
pub struct Graph {
    /// Straight steps, per point and direction.
    pub orth: Vec<[Steps; 4]>,
    /// Diagonal steps, per point and diagonal.
    diag: Vec<[Option<Point>; 4]>,
    /// Straight lines, per point and direction.
    pub rays: Vec<[Ray; 4]>,
    /// Horse moves: (leg, destination) per point.
    pub horse: Vec<Vec<(Point, Point)>>,
    /// Horse moves reaching a point: (source, leg) per destination.
    pub horse_into: Vec<Vec<(Point, Point)>>,
    /// Flag moves: (the two straight points, destination) per point.
    pub flag: Vec<Vec<([Point; 2], Point)>>,
    /// Flag moves reaching a point: (source, the two straight points) per destination.
    pub flag_into: Vec<Vec<(Point, [Point; 2])>>,
    /// Soldier moves per original nation, per point.
    pub soldier: [Vec<Vec<Point>>; 3],
    /// General steps (straight, inside the palace) per point.
    pub general: Vec<Vec<Point>>,
    /// Advisor steps (diagonal, inside the palace) per point.
    pub advisor: Vec<Vec<Point>>,
    /// Elephant moves: (eye, destination), both on the same half board, per point.
    pub elephant: Vec<Vec<(Point, Point)>>,
}

/// The graph, built on first use.
pub static GRAPH: LazyLock<Graph> = LazyLock::new(Graph::build);

/// The neighbour whose bank faces `file` of a bank: files a-d face the left neighbour,
/// f-i the right one.
fn facing_side(half: Nation, file: u8) -> Nation {
    if file < E_FILE {
        half.left()
    } else {
        half.right()
    }
}

fn straight_steps(point: Point, dir: Dir) -> Steps {
    let (half, file, rank) = (half_of(point), file_of(point), rank_of(point));
    match dir {
        NORTH if rank < BANK => vec![(point_at(half, file, rank + 1), NORTH)],
        NORTH if file == E_FILE => [half.left(), half.right()]
            .into_iter()
            .map(|n| (point_at(n, E_FILE, BANK), SOUTH))
            .collect(),
        NORTH => vec![(point_at(facing_side(half, file), 8 - file, BANK), SOUTH)],
        SOUTH if rank > 0 => vec![(point_at(half, file, rank - 1), SOUTH)],
        EAST if file < 8 => vec![(point_at(half, file + 1, rank), EAST)],
        WEST if file > 0 => vec![(point_at(half, file - 1, rank), WEST)],
        _ => Vec::new(),
    }
}

/// The diagonal step; northward from the bank it crosses the river by the cells the
/// river links make: toward file `t` it lands on the neighbour point facing `t`, on the
/// side of whichever of the two files is not e.
fn diagonal_step(point: Point, diag: Diag) -> Option<Point> {
    let (half, file, rank) = (half_of(point), file_of(point), rank_of(point));
    let east = matches!(diag, NORTH_EAST | SOUTH_EAST);
    let target = if east {
        (file < 8).then_some(file + 1)?
    } else {
        file.checked_sub(1)?
    };
    let north = matches!(diag, NORTH_EAST | NORTH_WEST);
    match (north, rank) {
        (true, BANK) => {
            let off_triangle = if file == E_FILE { target } else { file };
            Some(point_at(facing_side(half, off_triangle), 8 - target, BANK))
        }
        (true, _) => Some(point_at(half, target, rank + 1)),
        (false, 0) => None,
        (false, _) => Some(point_at(half, target, rank - 1)),
    }
}

fn ray(orth: &[[Steps; 4]], point: Point, dir: Dir) -> Ray {
    let mut line = Vec::new();
    let (mut at, mut heading) = (point, dir);
    loop {
        match orth[usize::from(at)][heading].as_slice() {
            [] => {
                return Ray {
                    line,
                    forks: Vec::new(),
                };
            }
            [(next, next_heading)] => {
                line.push(*next);
                (at, heading) = (*next, *next_heading);
            }
            forks => {
                let forks = forks
                    .iter()
                    .map(|&(next, next_heading)| {
                        let mut fork = ray(orth, next, next_heading);
                        fork.line.insert(0, next);
                        fork
                    })
                    .collect();
                return Ray { line, forks };
            }
        }
    }
}

impl Graph {
    fn build() -> Graph {
        let points = || 0..POINTS as Point;
        let orth: Vec<[Steps; 4]> = points()
            .map(|p| [NORTH, SOUTH, EAST, WEST].map(|d| straight_steps(p, d)))
            .collect();
        let diag: Vec<[Option<Point>; 4]> = points()
            .map(|p| [NORTH_EAST, NORTH_WEST, SOUTH_EAST, SOUTH_WEST].map(|d| diagonal_step(p, d)))
            .collect();
        let rays = points()
            .map(|p| [NORTH, SOUTH, EAST, WEST].map(|d| ray(&orth, p, d)))
            .collect();
        let mut graph = Graph {
            orth,
            diag,
            rays,
            horse: Vec::new(),
            horse_into: vec![Vec::new(); POINTS],
            flag: Vec::new(),
            flag_into: vec![Vec::new(); POINTS],
            soldier: [Vec::new(), Vec::new(), Vec::new()],
            general: Vec::new(),
            advisor: Vec::new(),
            elephant: Vec::new(),
        };
        graph.horse = points().map(|p| graph.horse_moves(p)).collect();
        graph.flag = points().map(|p| graph.flag_moves(p)).collect();
        for p in points() {
            for &(leg, to) in &graph.horse[usize::from(p)] {
                graph.horse_into[usize::from(to)].push((p, leg));
            }
            for &(path, to) in &graph.flag[usize::from(p)] {
                graph.flag_into[usize::from(to)].push((p, path));
            }
        }
        graph.soldier = Nation::ALL.map(|n| points().map(|p| graph.soldier_moves(n, p)).collect());
        graph.general = points().map(|p| graph.palace_steps(p, true)).collect();
        graph.advisor = points().map(|p| graph.palace_steps(p, false)).collect();
        graph.elephant = points().map(|p| graph.elephant_moves(p)).collect();
        graph
    }

    /// The points one straight step away in any direction.
    fn neighbours(&self, point: Point) -> impl Iterator<Item = (Point, Dir)> + '_ {
        self.orth[usize::from(point)].iter().flatten().copied()
    }

    /// The outward diagonal ends after arriving at `at` heading `dir`.
    fn bends(&self, at: Point, dir: Dir) -> impl Iterator<Item = Point> + '_ {
        OUTWARD[dir]
            .iter()
            .filter_map(move |&d| self.diag[usize::from(at)][d])
    }

    fn horse_moves(&self, point: Point) -> Vec<(Point, Point)> {
        self.neighbours(point)
            .flat_map(|(leg, dir)| self.bends(leg, dir).map(move |to| (leg, to)))
            .collect()
    }

    fn flag_moves(&self, point: Point) -> Vec<([Point; 2], Point)> {
        let mut moves = Vec::new();
        for (first, dir) in self.neighbours(point) {
            for &(second, heading) in &self.orth[usize::from(first)][dir] {
                moves.extend(self.bends(second, heading).map(|to| ([first, second], to)));
            }
        }
        moves
    }

    fn soldier_moves(&self, origin: Nation, point: Point) -> Vec<Point> {
        let abroad = half_of(point) != origin;
        let forward = if abroad { SOUTH } else { NORTH };
        let mut dirs = vec![forward];
        if abroad {
            dirs.extend([EAST, WEST]);
        }
        dirs.into_iter()
            .flat_map(|d| self.orth[usize::from(point)][d].iter().map(|&(p, _)| p))
            .collect()
    }

    fn palace_steps(&self, point: Point, straight: bool) -> Vec<Point> {
        let stays = |to: &Point| in_palace(*to) && half_of(*to) == half_of(point);
        if !in_palace(point) {
            return Vec::new();
        }
        if straight {
            self.neighbours(point)
                .map(|(p, _)| p)
                .filter(stays)
                .collect()
        } else {
            self.diag[usize::from(point)]
                .iter()
                .flatten()
                .copied()
                .filter(stays)
                .collect()
        }
    }

    fn elephant_moves(&self, point: Point) -> Vec<(Point, Point)> {
        let home = |p: &Point| half_of(*p) == half_of(point);
        (0..4)
            .filter_map(|d| {
                let eye = self.diag[usize::from(point)][d].filter(home)?;
                let to = self.diag[usize::from(eye)][d].filter(home)?;
                Some((eye, to))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanguo::types::{parse_point, point_name};

    fn at(name: &str) -> Point {
        parse_point(name, Nation::Shu).expect("a point name")
    }

    fn names(points: impl IntoIterator<Item = Point>) -> Vec<String> {
        let mut names: Vec<String> = points.into_iter().map(point_name).collect();
        names.sort();
        names
    }

    #[test]
    fn bank_files_face_the_neighbours_files_in_reverse() {
        let cases = [
            ("shu:f5", vec!["wu:d5"]),
            ("shu:i5", vec!["wu:a5"]),
            ("shu:a5", vec!["wei:i5"]),
            ("shu:d5", vec!["wei:f5"]),
            ("wu:h5", vec!["wei:b5"]),
            ("wei:b5", vec!["wu:h5"]),
            ("shu:e5", vec!["wei:e5", "wu:e5"]),
        ];
        for (from, expected) in cases {
            let reached = GRAPH.orth[usize::from(at(from))][NORTH].iter().map(|s| s.0);
            assert_eq!(names(reached), expected, "north of {from}");
        }
    }

    #[test]
    fn diagonal_steps_across_the_river_follow_the_cells() {
        let cases = [
            ("shu:c5", NORTH_EAST, "wei:f5"),
            ("shu:d5", NORTH_WEST, "wei:g5"),
            ("shu:d5", NORTH_EAST, "wei:e5"),
            ("shu:f5", NORTH_WEST, "wu:e5"),
            ("shu:e5", NORTH_WEST, "wei:f5"),
            ("shu:e5", NORTH_EAST, "wu:d5"),
            ("shu:g5", NORTH_WEST, "wu:d5"),
            ("shu:f5", NORTH_EAST, "wu:c5"),
        ];
        for (from, diag, to) in cases {
            assert_eq!(diagonal_step(at(from), diag), Some(at(to)), "{from}");
        }
        assert_eq!(diagonal_step(at("shu:a5"), NORTH_WEST), None);
    }

    #[test]
    fn every_diagonal_across_the_river_can_be_walked_back() {
        for p in 0..POINTS as Point {
            for d in [NORTH_EAST, NORTH_WEST] {
                if let (Some(to), BANK) = (diagonal_step(p, d), rank_of(p)) {
                    let back = [NORTH_EAST, NORTH_WEST].map(|b| diagonal_step(to, b));
                    assert!(
                        back.contains(&Some(p)),
                        "{} to {}",
                        point_name(p),
                        point_name(to)
                    );
                }
            }
        }
    }

    #[test]
    fn a_line_through_the_triangle_passes_two_e5_points_only() {
        let ray = &GRAPH.rays[usize::from(at("shu:e3"))][NORTH];
        assert_eq!(names(ray.line.iter().copied()), ["shu:e4", "shu:e5"]);
        let forks: Vec<Vec<String>> = ray
            .forks
            .iter()
            .map(|f| f.line.iter().map(|p| point_name(*p)).collect())
            .collect();
        assert_eq!(
            forks,
            [
                ["wei:e5", "wei:e4", "wei:e3", "wei:e2", "wei:e1"],
                ["wu:e5", "wu:e4", "wu:e3", "wu:e2", "wu:e1"]
            ]
        );
    }

    /// The moves of a table whose reverse is not a move of the same table, from Shu's
    /// half board (the other two are the same turned), as `from to` names.
    fn one_way(moves: &[Vec<Point>]) -> Vec<String> {
        let mut found = Vec::new();
        for (from, targets) in moves.iter().enumerate().take(45) {
            for &to in targets {
                if !moves[usize::from(to)].contains(&(from as Point)) {
                    found.push(format!("{} {}", point_name(from as Point), point_name(to)));
                }
            }
        }
        found.sort();
        found
    }

    fn destinations<T>(table: &[Vec<(T, Point)>]) -> Vec<Vec<Point>> {
        table
            .iter()
            .map(|moves| moves.iter().map(|m| m.1).collect())
            .collect()
    }

    #[test]
    fn horse_and_flag_moves_that_cannot_be_reversed() {
        assert_eq!(
            one_way(&destinations(&GRAPH.horse)),
            [
                "shu:d5 wu:d5",
                "shu:e5 wei:d4",
                "shu:e5 wu:f4",
                "shu:f5 wei:f5"
            ]
        );
        assert_eq!(
            one_way(&destinations(&GRAPH.flag)),
            [
                "shu:c5 wu:d5",
                "shu:d5 wu:c5",
                "shu:e4 wei:d4",
                "shu:e4 wu:f4",
                "shu:e5 wei:d3",
                "shu:e5 wu:f3",
                "shu:f5 wei:g5",
                "shu:g5 wei:f5"
            ]
        );
    }

    #[test]
    fn no_two_paths_of_a_piece_reach_the_same_point() {
        let tables = [destinations(&GRAPH.horse), destinations(&GRAPH.flag)];
        for table in tables.iter().chain(&GRAPH.soldier) {
            for targets in table {
                let mut unique = targets.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(unique.len(), targets.len());
            }
        }
    }
}
