//! One test per rule of xiangqi, each on a position chosen to show it; the decisions are
//! recorded in docs/rules/xiangqi.md under these tests' names.

use missive_rules::xiangqi::{Move, START_FEN, Xiangqi, repetition_outcome};
use missive_rules::{EndRule, Game, MoveError, Notation, Options, Position, Seat, variant};

fn position(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(fen: &str) -> Vec<String> {
    let position = position(fen);
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.iter().map(|m| position.coordinates(*m)).collect()
}

/// Checks, for each (FEN, move, legal?) row, whether the move is among the legal moves.
fn assert_legality(rows: &[(&str, &str, bool)]) {
    for (fen, mv, expected) in rows {
        let moves = legal(fen);
        assert_eq!(
            moves.iter().any(|m| m == mv),
            *expected,
            "{mv} in {fen}; legal: {moves:?}"
        );
    }
}

#[test]
fn generals_never_face_each_other_on_an_open_file() {
    assert_legality(&[
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1d1", false),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1e2", true),
        ("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1", "e5d5", false),
        ("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1", "e5e6", true),
    ]);
}

#[test]
fn generals_stay_in_their_palace() {
    let fen = "3k5/9/9/9/9/9/9/5K3/9/9 w - - 0 1";
    assert_legality(&[
        (fen, "f3f4", false),
        (fen, "f3g3", false),
        (fen, "f3e3", true),
        (fen, "f3f2", true),
    ]);
}

#[test]
fn advisors_step_diagonally_inside_their_palace() {
    let centre = "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    let corner = "3k5/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1";
    assert_legality(&[
        (centre, "e2d1", true),
        (centre, "e2f3", true),
        (centre, "e2e3", false),
        (corner, "d3e2", true),
        (corner, "d3c4", false),
    ]);
}

#[test]
fn elephants_are_blocked_on_the_eye() {
    let fen = "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1";
    assert_legality(&[(fen, "c1e3", false), (fen, "c1a3", true)]);
}

#[test]
fn elephants_never_cross_the_river() {
    let fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";
    assert_legality(&[
        (fen, "c5a7", false),
        (fen, "c5e7", false),
        (fen, "c5a3", true),
        (fen, "c5e3", true),
    ]);
}

#[test]
fn horses_are_blocked_on_the_leg() {
    let fen = "3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1";
    assert_legality(&[
        (fen, "b1a3", false),
        (fen, "b1c3", false),
        (fen, "b1d2", true),
    ]);
}

#[test]
fn cannons_capture_over_exactly_one_screen() {
    let unscreened = "3k5/9/9/9/9/9/1p7/9/9/1C2K4 w - - 0 1";
    let screened = "3k5/9/9/9/9/1p7/9/1N7/9/1C2K4 w - - 0 1";
    assert_legality(&[
        (unscreened, "b1b4", false),
        (unscreened, "b1b3", true),
        (screened, "b1b2", true),
        (screened, "b1b4", false),
        (screened, "b1b5", true),
        (screened, "b1b6", false),
    ]);
}

#[test]
fn soldiers_move_sideways_only_across_the_river() {
    let home = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";
    let across = "3k5/9/9/9/2P6/9/9/9/9/4K4 w - - 0 1";
    let black = "3k5/9/9/9/9/9/2p6/9/9/4K4 b - - 0 1";
    assert_legality(&[
        (home, "c4c5", true),
        (home, "c4b4", false),
        (home, "c4d4", false),
        (home, "c4c3", false),
        (across, "c6c7", true),
        (across, "c6b6", true),
        (across, "c6d6", true),
        (across, "c6c5", false),
        (black, "c4c3", true),
        (black, "c4d4", true),
        (black, "c4c5", false),
    ]);
}

#[test]
fn a_side_with_no_legal_move_loses_even_out_of_check() {
    let stalemated = position("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!stalemated.is_check());
    let outcome = stalemated.outcome().expect("the game is over");
    assert_eq!(outcome.rule, EndRule::NoLegalMove);
    assert_eq!(outcome.winner(), Some(Seat(0)));

    let mated = position("3k5/R8/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    let outcome = mated.outcome().expect("the game is over");
    assert_eq!(outcome.rule, EndRule::Checkmate);
    assert_eq!(outcome.winner(), Some(Seat(0)));
}

fn play_all(game: &mut Game<Xiangqi>, moves: &[&str]) {
    for mv in moves {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

#[test]
fn the_third_repetition_without_perpetual_check_is_a_draw() {
    let mut game = Game::new(Xiangqi::start(), Options::default());
    let cycle = ["h1g3", "h10g8", "g3h1", "g8h10"];
    play_all(&mut game, &cycle);
    play_all(&mut game, &cycle[..3]);
    assert_eq!(game.outcome(), None, "twice is not enough");
    play_all(&mut game, &cycle[3..]);
    let outcome = game.outcome().expect("third occurrence");
    assert_eq!(outcome.rule, EndRule::ThreefoldRepetition);
    assert!(outcome.is_draw());
    assert!(matches!(
        game.play_text("h1g3"),
        Err(MoveError::GameOver { .. })
    ));
}

#[test]
fn perpetual_check_loses_on_the_third_repetition() {
    let start = position("3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1");
    let mut game = Game::new(start, Options::default());
    let cycle = ["a9a10", "d10d9", "a10a9", "d9d10"];
    play_all(&mut game, &cycle);
    play_all(&mut game, &cycle);
    let outcome = game.outcome().expect("third occurrence");
    assert_eq!(outcome.rule, EndRule::PerpetualCheck);
    assert_eq!(outcome.winner(), Some(Seat(1)), "Black wins");
}

/// Builds a history from FENs: the repetition rule only compares positions and asks
/// whether the side to move is in check.
fn history(fens: &[&str]) -> Vec<Xiangqi> {
    fens.iter().map(|f| position(f)).collect()
}

#[test]
fn checks_by_both_sides_throughout_the_cycle_draw() {
    let red_checked = "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1";
    let black_checked = "R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let red_checked_again = "3k5/9/9/9/9/4r4/9/9/9/4K4 w - - 0 1";
    let black_checked_again = "3k5/9/9/9/9/3R5/9/9/9/4K4 b - - 0 1";
    let black_quiet = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1";
    let cycle = |black_to_move: &'static str| {
        let mut fens = Vec::new();
        for _ in 0..2 {
            fens.extend([
                red_checked,
                black_to_move,
                red_checked_again,
                black_checked_again,
            ]);
        }
        fens.push(red_checked);
        history(&fens)
    };
    let outcome = repetition_outcome(&cycle(black_checked)).expect("third occurrence");
    assert_eq!(outcome.rule, EndRule::ThreefoldRepetition);
    assert!(outcome.is_draw());
    let outcome = repetition_outcome(&cycle(black_quiet)).expect("third occurrence");
    assert_eq!(outcome.rule, EndRule::PerpetualCheck);
    assert_eq!(
        outcome.winner(),
        Some(Seat(0)),
        "only Black checked throughout"
    );
}

#[test]
fn perpetual_check_counts_from_the_first_occurrence() {
    let red_quiet = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let red_quiet_again = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
    let black_quiet = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1";
    let black_checked = "R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let black_checked_again = "3k5/9/9/9/9/3R5/9/9/9/4K4 b - - 0 1";
    let fens = [
        red_quiet,
        black_quiet,
        red_quiet_again,
        black_checked,
        red_quiet,
        black_checked,
        red_quiet_again,
        black_checked_again,
        red_quiet,
    ];
    let outcome = repetition_outcome(&history(&fens)).expect("third occurrence");
    assert_eq!(
        outcome.rule,
        EndRule::ThreefoldRepetition,
        "Red checked only in the second cycle"
    );
    assert_eq!(repetition_outcome(&history(&fens[4..])), None);
}

#[test]
fn sixty_moves_each_without_a_capture_draw() {
    let quiet = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80";
    assert_eq!(position(quiet).outcome(), None);
    let mut game = Game::new(position(quiet), Options::default());
    play_all(&mut game, &["a1a2"]);
    let outcome = game.outcome().expect("move limit");
    assert_eq!(outcome.rule, EndRule::MoveLimit);
    assert!(outcome.is_draw());
    let capture = position("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 119 80");
    let mut game = Game::new(capture, Options::default());
    play_all(&mut game, &["a1a2"]);
    assert_eq!(game.outcome(), None, "a capture resets the count");
    let stalemated = position("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 130 80");
    assert_eq!(
        stalemated.outcome().map(|o| o.rule),
        Some(EndRule::NoLegalMove),
        "no legal move comes first"
    );
}

#[test]
fn fen_reads_fairy_stockfish_text_and_writes_it_back() {
    let start = Xiangqi::start();
    assert_eq!(start.to_fen(), START_FEN);
    let short = position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    assert_eq!(short.to_fen(), START_FEN);
    let letters =
        position("rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 3 7");
    assert_eq!(
        letters.to_fen(),
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7"
    );
}

#[test]
fn fen_errors_name_the_field() {
    let rows = [
        ("", "fields"),
        ("rnbakabnr/9/1c5c1 w - - 0 1", "piece placement"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "piece placement",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "piece placement",
        ),
        ("3k5/9/9/9/9/9/9/9/9/3KK4 w", "piece placement"),
        ("3k5/9/9/9/9/9/9/9/9/9 w", "piece placement"),
        ("3k5/9/9/9/9/9/4K4/9/9/9 w", "piece placement"),
        ("3k5/9/9/9/9/9/9/9/9/3K5 w", "side to move"),
        ("3k5/9/9/9/9/9/9/9/3A5/4K4 w", "piece placement"),
        ("3k5/9/9/9/2B6/9/9/9/9/4K4 w", "piece placement"),
        ("3k5/9/9/9/9/9/9/2P6/9/4K4 w", "piece placement"),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "piece placement"),
        ("3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w", "piece placement"),
        ("4k4/9/9/9/9/9/9/9/9/R3K4 w", "side to move"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 x", "side to move"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w KQ - 0 1", "castling rights"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - e3 0 1", "en passant square"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", "halfmove clock"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 0", "fullmove number"),
    ];
    for (fen, field) in rows {
        let error = Xiangqi::from_fen(fen).expect_err(fen);
        assert_eq!(error.field, field, "{fen}: {error}");
    }
}

/// (FEN, coordinates, WXF) rows, checked both ways.
const NOTATION: &[(&str, &str, &str)] = &[
    (START_FEN, "h3e3", "C2.5"),
    (START_FEN, "b1c3", "H8+7"),
    (START_FEN, "h1i3", "H2+1"),
    (START_FEN, "a1a2", "R9+1"),
    (START_FEN, "c1e3", "E7+5"),
    (START_FEN, "f1e2", "A4+5"),
    (START_FEN, "e1e2", "K5+1"),
    (START_FEN, "a4a5", "P9+1"),
    (START_FEN, "b3b10", "C8+7"),
    (BLACK, "h8e8", "C8.5"),
    (BLACK, "b10c8", "H2+3"),
    (BLACK, "b8b1", "C2+7"),
    (BLACK, "a7a6", "P1+1"),
    (BLACK, "d10e9", "A4+5"),
    (CHARIOTS, "e4d4", "R+.6"),
    (CHARIOTS, "e2d2", "R-.6"),
    (CHARIOTS, "e2e1", "R--1"),
    (CHARIOTS, "e4e5", "R++1"),
    (HORSES, "c4b2", "H++2"),
    (HORSES, "c6d8", "H--4"),
    (ADVISORS, "f3e2", "A4-5"),
    (ADVISORS, "f1e2", "A4+5"),
    (ELEPHANTS, "c5e3", "E7-5"),
    (ELEPHANTS, "c1e3", "E7+5"),
    (BLACK_SOLDIERS, "c4b4", "P+.2"),
    (BLACK_SOLDIERS, "c5b5", "P-.2"),
    (THREE, "g8f8", "P+.4"),
    (THREE, "g7f7", "P3.4"),
    (THREE, "g6f6", "P-.4"),
    (THREE, "g8g9", "P++1"),
    (FOUR, "g9f9", "++.4"),
    (FOUR, "g8f8", "P+.4"),
    (FOUR, "g7f7", "P-.4"),
    (FOUR, "g6f6", "--.4"),
    (FIVE, "g10f10", "++.4"),
    (FIVE, "g9f9", "P+.4"),
    (FIVE, "g8f8", "P3.4"),
    (FIVE, "g7f7", "P-.4"),
    (FIVE, "g6f6", "--.4"),
    (TWO_FILES, "g8f8", "3+.4"),
    (TWO_FILES, "g7f7", "33.4"),
    (TWO_FILES, "g6f6", "3-.4"),
    (TWO_FILES, "c7d7", "7+.6"),
    (TWO_FILES, "c6d6", "7-.6"),
];
const BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
const CHARIOTS: &str = "5k3/9/9/9/9/9/4R4/9/4R4/3K5 w - - 0 1";
const HORSES: &str = "3k5/9/9/9/2n6/9/2n6/9/9/4K4 b - - 0 1";
const ADVISORS: &str = "3k5/9/9/9/9/9/9/5A3/9/4KA3 w - - 0 1";
const ELEPHANTS: &str = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1";
const BLACK_SOLDIERS: &str = "3k5/9/9/9/9/2p6/2p6/9/9/4K4 b - - 0 1";
const THREE: &str = "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1";
const FOUR: &str = "3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1";
const FIVE: &str = "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1";
const TWO_FILES: &str = "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";

fn find(position: &Xiangqi, coordinates: &str) -> Move {
    position
        .parse_move(coordinates)
        .unwrap_or_else(|e| panic!("{coordinates}: {e}"))
}

#[test]
fn wxf_names_pieces_by_file_and_tandem_place() {
    for (fen, coordinates, wxf) in NOTATION {
        let position = position(fen);
        let mv = find(&position, coordinates);
        assert_eq!(position.write_move(mv, Notation::Long), *coordinates);
        assert_eq!(
            position.write_move(mv, Notation::Short),
            *wxf,
            "{fen}: {coordinates}"
        );
        assert_eq!(position.parse_move(wxf), Ok(mv), "{fen}: {wxf}");
    }
}

#[test]
fn moves_are_read_tolerantly() {
    let start = Xiangqi::start();
    let cannon = find(&start, "h3e3");
    for text in ["C2=5", "c2.5", " C2.5 ", "h3-e3", "H3E3"] {
        assert_eq!(start.parse_move(text), Ok(cannon), "{text}");
    }
    let advisors = position(ADVISORS);
    assert_eq!(advisors.parse_move("A+-5"), Ok(find(&advisors, "f3e2")));
}

#[test]
fn moves_are_never_guessed() {
    let two_fronts = position("3k5/9/9/9/4P1P2/4P1P2/9/9/9/4K4 w - - 0 1");
    assert!(matches!(
        two_fronts.parse_move("P+.4"),
        Err(MoveError::Ambiguous { candidates, .. }) if candidates.len() == 2
    ));
    let start = Xiangqi::start();
    let rows = [
        ("", "unreadable"),
        ("Z2.5", "unreadable"),
        ("C2*5", "unreadable"),
        ("C2.0", "unreadable"),
        ("R5+1", "illegal"),
        ("C2+9", "illegal"),
        ("e1e3", "illegal"),
        ("a10a9", "illegal"),
    ];
    for (text, kind) in rows {
        let error = start.parse_move(text).expect_err(text);
        let found = match error {
            MoveError::Unreadable { .. } => "unreadable",
            MoveError::Illegal { .. } => "illegal",
            _ => "other",
        };
        assert_eq!(found, kind, "{text}: {error}");
    }
    let chariots = position(CHARIOTS);
    assert!(
        chariots.parse_move("R5.4").is_err(),
        "tandem chariots need + or -"
    );
}

#[test]
fn the_registry_plays_xiangqi_by_text() {
    let xiangqi = variant("xiangqi").expect("registered");
    assert_eq!(xiangqi.seat_names(), ["red", "black"]);
    let mut game = xiangqi.new_game("", None).expect("start");
    assert_eq!(game.position_text(), START_FEN);
    assert_eq!(game.legal_moves(Notation::Long).len(), 44);
    let played = game.play("C2.5").expect("legal");
    assert_eq!(
        (played.long.as_str(), played.short.as_str()),
        ("h3e3", "C2.5")
    );
    let played = game.play("h8e8").expect("legal");
    assert_eq!(played.short, "C8.5");
    assert_eq!(game.to_move(), Some(Seat(0)));
    assert!(xiangqi.new_game("flags=off", None).is_err());
    for (seat, winner) in [(Seat(0), Seat(1)), (Seat(1), Seat(0))] {
        assert_eq!(game.timeout(seat).winner(), Some(winner));
        assert_eq!(game.resign(seat).winner(), Some(winner));
    }
    let lone = xiangqi
        .new_game("", Some("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"))
        .expect("valid");
    assert_eq!(lone.timeout(Seat(0)).rule, EndRule::Timeout);
    assert_eq!(
        lone.timeout(Seat(0)).winner(),
        Some(Seat(1)),
        "even a lone general wins on time"
    );
}
