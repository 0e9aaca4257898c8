//! The Federation Standard rules (`trid-fs`, seed 000) against Charles Roth's own move
//! referee for these rules (`wchasroth/StarTrek3dChess`, 2012-09-22): complete legal-move
//! lists and perft recorded from the engine (`data/README.md` says how), where a failure
//! names the position and the moves one side has and the other lacks; and the replay of
//! games stored under the first readings. `trid_fs.rs` has one test per rule.

#[allow(
    dead_code,
    reason = "the Tri-D tests share these helpers; this file needs one"
)]
mod trid_common;

use missive_rules::chess::Color;
use missive_rules::trid::FederationStandard;
use missive_rules::{Options, Position, perft, registry::variant};
use std::collections::BTreeSet;
use trid_common::legal;

// Roth's engine: legal moves and perft recorded from it.

/// 46 positions of seeded random games: moves from the start, side to move, legal moves,
/// perft 2.
const POSITIONS: &str = include_str!("data/trid_fs_roth.tsv");
/// Perft from the start, depths 1-5.
const START_PERFT: &str = include_str!("data/trid_fs_roth_perft.tsv");
/// Longer seeded random games with the engine's count, perft 2 and list digest at every ply.
const GAMES: &str = include_str!("data/trid_fs_roth_games.tsv");

/// The rows of a recorded table, header skipped, split at tabs.
fn rows(table: &str) -> impl Iterator<Item = Vec<&str>> {
    table
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').collect())
}

/// The position after `moves` (long notation, space separated) from the start, or the
/// first move the rules refuse.
fn replay(moves: &str) -> Result<FederationStandard, String> {
    let mut position = FederationStandard::start(&Options::default());
    for (ply, text) in moves.split_whitespace().enumerate() {
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("ply {}: {e}", ply + 1))?;
        position.play(mv);
    }
    Ok(position)
}

/// What is wrong with `position`'s legal moves against the engine's `expected` list (space
/// separated), if anything.
fn list_difference(position: &FederationStandard, expected: &str) -> Option<String> {
    let ours: BTreeSet<String> = legal(position).into_iter().collect();
    let theirs: BTreeSet<String> = expected.split_whitespace().map(String::from).collect();
    let missing: Vec<_> = theirs.difference(&ours).collect();
    let extra: Vec<_> = ours.difference(&theirs).collect();
    (!missing.is_empty() || !extra.is_empty())
        .then(|| format!("missing {missing:?}, extra {extra:?}"))
}

/// The side to move as the tables write it.
fn side(position: &FederationStandard) -> &'static str {
    match position.turn() {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// Panics listing `failures`, if there are any, out of `total` checks.
fn assert_none(failures: &[String], total: usize) {
    assert!(
        failures.is_empty(),
        "{} of {total} recorded positions differ from the engine:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_recorded_position_has_exactly_the_engines_legal_moves() {
    let mut failures = Vec::new();
    let mut total = 0;
    for row in rows(POSITIONS) {
        let [id, moves, turn, expected, perft2] = row[..] else {
            panic!("a row has five fields: {row:?}");
        };
        total += 1;
        let position = match replay(moves) {
            Ok(position) => position,
            Err(e) => {
                failures.push(format!("{id}: the game does not replay: {e}"));
                continue;
            }
        };
        if side(&position) != turn {
            failures.push(format!(
                "{id}: {} to move, the engine says {turn}",
                side(&position)
            ));
        }
        if let Some(difference) = list_difference(&position, expected) {
            failures.push(format!("{id} after `{moves}`: {difference}"));
        }
        let nodes = perft(&position, 2);
        if nodes.to_string() != perft2 {
            failures.push(format!("{id}: perft 2 is {nodes}, the engine's {perft2}"));
        }
    }
    assert_eq!(total, 46);
    assert_none(&failures, total);
}

#[test]
fn start_perft_matches_the_engine_to_depth_5() {
    let start = FederationStandard::start(&Options::default());
    let mut depths = 0;
    for row in rows(START_PERFT) {
        let (depth, nodes): (u32, u64) = (row[0].parse().unwrap(), row[1].parse().unwrap());
        assert_eq!(perft(&start, depth), nodes, "depth {depth}");
        depths += 1;
    }
    assert_eq!(depths, 5);
}

/// FNV-1a (64 bits) of the sorted legal moves joined by single spaces, as the games table
/// records it.
fn digest(moves: &[String]) -> String {
    let hash = moves
        .join(" ")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{hash:016x}")
}

/// At every ply of every recorded game: the number of legal moves, perft 2 and the digest of
/// the sorted list, as the engine gave them.
#[test]
fn recorded_games_match_the_engine_at_every_ply() {
    let mut failures = Vec::new();
    let mut total = 0;
    for row in rows(GAMES) {
        let [id, moves, checks] = row[..] else {
            panic!("a row has three fields: {row:?}");
        };
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let checks: Vec<&str> = checks.split_whitespace().collect();
        assert_eq!(
            checks.len(),
            moves.len() + 1,
            "{id}: one check per position"
        );
        let mut position = FederationStandard::start(&Options::default());
        for (ply, check) in checks.iter().enumerate() {
            total += 1;
            let legal = legal(&position);
            let ours = format!("{}:{}:{}", legal.len(), perft(&position, 2), digest(&legal));
            if ours != *check {
                failures.push(format!(
                    "{id} ply {ply} after `{}`: count:perft2:digest {ours}, the engine's {check}; our moves: {}",
                    moves[..ply].join(" "),
                    legal.join(" ")
                ));
                break;
            }
            let Some(text) = moves.get(ply) else { break };
            match position.parse_move(text) {
                Ok(mv) => position.play(mv),
                Err(e) => {
                    failures.push(format!("{id} ply {}: {e}", ply + 1));
                    break;
                }
            }
        }
    }
    assert!(total > 5_000, "only {total} positions recorded");
    assert_none(&failures, total);
}

// Games stored under the first readings.

/// The options that restore the readings `trid-fs` games were played under before Roth's
/// engine became the reference: Path A on the main boards, half turns, a board taken with its
/// owner's last piece on it.
const FIRST_READINGS: &str = "paths=main-first,half-turns=on,board-capture=owners-last";
/// Games recorded before the engine's readings became the default, each ending in a move only
/// a first reading allows, with the option it needs.
const FIRST_READINGS_GAMES: &str = include_str!("data/trid_fs_first_readings.tsv");

/// The ply (1-based) at which a `trid-fs` game under `opts` refuses `moves`, if any.
fn first_refused(moves: &str, opts: &str) -> Option<usize> {
    let mut game = variant("trid-fs").unwrap().new_game(opts, None).unwrap();
    moves
        .split_whitespace()
        .position(|text| game.play(text).is_err())
        .map(|ply| ply + 1)
}

/// Each game replays with [`FIRST_READINGS`]; under the defaults it stops, and without the
/// option it needs it stops exactly at its last move: a path crossing b1(2) beneath the pawn
/// on b1(3), a board move that opens Path B to the king over the board itself, a half turn,
/// and a board move that only owners-last board capture makes White's.
#[test]
fn games_played_under_the_first_readings_replay_with_their_options() {
    let mut games = 0;
    for row in rows(FIRST_READINGS_GAMES) {
        let [id, option, moves] = row[..] else {
            panic!("a row has three fields: {row:?}");
        };
        games += 1;
        let plies = moves.split_whitespace().count();
        assert_eq!(first_refused(moves, FIRST_READINGS), None, "{id}");
        assert!(
            first_refused(moves, "").is_some(),
            "{id} under the defaults"
        );
        let without: Vec<&str> = FIRST_READINGS.split(',').filter(|o| *o != option).collect();
        let without = without.join(",");
        assert_eq!(
            first_refused(moves, &without),
            Some(plies),
            "{id} with `{without}`"
        );
    }
    assert_eq!(games, 4);
}
