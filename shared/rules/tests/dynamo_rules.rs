//! One test per rule of seed 004 (and per decision in docs/rules/dynamo.md), each with a
//! position. Moves are written in the long notation of the seed.

use missive_rules::dynamo::Dynamo;
use missive_rules::{EndRule, MoveError, Notation, Options, Position, Seat, SeatResult};

fn options(text: &str) -> Options {
    Options::parse(text, Dynamo::option_specs()).expect("valid options")
}

fn position_with(fen: &str, opts: &str) -> Dynamo {
    Dynamo::from_text(fen, &options(opts)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn position(fen: &str) -> Dynamo {
    position_with(fen, "")
}

fn legal_long(p: &Dynamo) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves
        .into_iter()
        .map(|m| p.write_move(m, Notation::Long))
        .collect();
    texts.sort();
    texts
}

fn is_legal(p: &Dynamo, long: &str) -> bool {
    legal_long(p).iter().any(|m| m == long)
}

fn after(p: &Dynamo, text: &str) -> Dynamo {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_text()));
    let mut next = p.clone();
    next.play(mv);
    next
}

fn placement(p: &Dynamo) -> String {
    p.to_text().split(' ').next().unwrap().to_string()
}

/// (test name, position, moves that must be legal, moves that must not be)
type Case = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const CASES: &[Case] = &[
    (
        "seed: a rook moving a1-a3 pushes a bishop from a3 to a5, the same distance",
        "8/4k3/8/8/8/b7/6K1/R7 w - - 0 1",
        &["Ra1a3/Ba3a5", "Ra1/Ba3a5"],
        &["Ra1a3/Ba3a4", "Ra1a3/Ba3a6", "Ra1a2/Ba3a5"],
    ),
    (
        "seed: a rook on a1 pushes a bishop on a5 off the board (Ra1a5/Ba5E)",
        "8/4k3/8/b7/8/8/6K1/R7 w - - 0 1",
        &["Ra1a5/Ba5E", "Ra1/Ba5E"],
        &[],
    ),
    (
        "a pushed piece must find every square it crosses empty",
        "8/p3k3/8/b7/8/R7/6K1/8 w - - 0 1",
        &["Ra3a1/Ba5a3"],
        &["Ra3a5/Ba5a7", "Ra3/Ba5a7"],
    ),
    (
        "seed: a rook on h3 pulls a queen on h6 and leaves the board with it, or stays",
        "8/4k3/7q/8/8/7R/1K6/8 w - - 0 1",
        &["Rh3E/Qh6E", "Rh3/Qh6E"],
        &["Rh3h1/Qh6h3"],
    ),
    (
        "a pull that stays on the board: the pulled piece lands on the puller's square",
        "8/4k3/8/7q/8/7R/1K6/8 w - - 0 1",
        &["Rh3h1/Qh5h3"],
        &["Rh3/Qh5h3", "Rh3/Qh5E", "Rh3E/Qh5E"],
    ),
    (
        "a puller needs every square it crosses empty",
        "8/4k3/8/7q/8/7R/1K5N/8 w - - 0 1",
        &[],
        &["Rh3h1/Qh5h3"],
    ),
    (
        "seed: a station move pushes without moving the primary piece (Nb1/Bc3d5)",
        "8/4k3/8/8/8/2b5/7K/1N6 w - - 0 1",
        &["Nb1/Bc3d5", "Nb1c3/Bc3d5"],
        &[],
    ),
    (
        "knights and kings push and pull one jump or step long",
        "4k3/8/8/3p4/8/2NB4/4K3/8 w - - 0 1",
        &[
            "Nc3/Pd5e7",
            "Nc3d5/Pd5e7",
            "Ke2f1/Bd3e2",
            "Ke2/Bd3c4",
            "Nc3/Ke2g1",
        ],
        &[],
    ),
    (
        "kings never leave the board in a pull; they may stay and pull a piece off",
        "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1",
        &["Ke1/Ne2E"],
        &["Ke1E/Ne2E"],
    ),
    (
        "a pawn pushes the piece of its own side in front one square, or two from its start rank",
        "4k3/8/8/8/4N3/8/4P3/4K3 w - - 0 1",
        &["Pe2e4/Ne4e6", "Pe2/Ne4e6", "Pe2e3"],
        &["Pe2e3/Ne4e5"],
    ),
    (
        "a pawn does not push an enemy piece straight forward, two squares or one",
        "4k3/8/8/8/4n3/3b4/3PP3/4K3 w - - 0 1",
        &["Pe2e3"],
        &["Pe2e4/Ne4e6", "Pe2/Ne4e6", "Pd2d3/Bd3d4", "Pd2/Bd3d4"],
    ),
    (
        "pawns never pull",
        "4k3/8/8/8/4P3/4n3/8/K7 w - - 0 1",
        &["Pe4e5"],
        &["Pe4e5/Ne3e4", "Pe4/Ne3E"],
    ),
    (
        "a pawn pushed behind its start rank advances one square at a time",
        "4k3/8/8/8/8/8/8/K3P3 w - - 0 1",
        &["Pe1e2"],
        &["Pe1e3"],
    ),
    (
        "a pawn back on its start rank may advance two squares again",
        "4k3/8/8/8/8/8/4P3/K7 w - - 0 1",
        &["Pe2e4"],
        &[],
    ),
    (
        "a pawn pushes diagonally, by one square, an enemy piece it could capture",
        "4k3/8/8/3n4/4P3/8/8/K7 w - - 0 1",
        &["Pe4d5/Nd5c6", "Pe4/Nd5c6"],
        &[],
    ),
    (
        "a pawn does not push its own pieces diagonally",
        "4k3/8/8/3N4/4P3/8/8/K7 w - - 0 1",
        &[],
        &["Pe4d5/Nd5c6", "Pe4/Nd5c6"],
    ),
    (
        "a pawn pushed to its last rank promotes to a piece chosen by the mover",
        "4k3/8/8/3R4/8/3p4/7K/8 w - - 0 1",
        &["Rd5d3/Pd3d1=N", "Rd5d3/Pd3d1=Q", "Rd5/Pd3d1=R"],
        &["Rd5d3/Pd3d1"],
    ),
    (
        "a pawn pushed onto its last rank by its own side promotes",
        "8/4P3/4P1k1/8/8/8/8/K7 w - - 0 1",
        &["Pe6e7/Pe7e8=Q", "Pe6/Pe7e8=N"],
        &[],
    ),
    (
        "en passant pushes exist only under the option",
        "4k3/8/8/pP6/8/8/8/4K3 w - - 0 2",
        &[],
        &["Pb5a6/Pa5E", "Pb5/Pa5E"],
    ),
    (
        "castling as in orthodox chess, on both sides",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &["O-O", "O-O-O"],
        &[],
    ),
    (
        "castling is not possible through a square where the king would be in check",
        "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        &["O-O-O"],
        &["O-O"],
    ),
    (
        "a king in check may not answer with a dynamo move, only with a plain one",
        "4k3/8/8/R3r3/8/8/8/4K3 w - - 0 1",
        &["Ke1d1", "Ke1f2"],
        &["Ra5e5/Re5E", "Ra5/Re5E"],
    ),
    (
        "no move may leave the mover in check",
        "4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1",
        &["Re2e4"],
        &["Re2d2", "Re2/Re5E"],
    ),
    (
        "a king pushed or pulled by its own side may not pass through check",
        "3r3k/8/8/8/R1K5/8/8/8 w - - 0 1",
        &["Kc4b4"],
        &["Ra4c4/Kc4e4", "Ra4/Kc4e4"],
    ),
    (
        "... but may be pushed two squares across squares that are safe",
        "7k/8/8/8/R1K5/8/8/8 w - - 0 1",
        &["Ra4c4/Kc4e4", "Ra4/Kc4e4"],
        &[],
    ),
    (
        "the previous move cannot be undone by a dynamo move (black played Ng8f6)",
        "4k3/8/5n2/8/4N3/8/8/4K3 w - - 1 2 g8f6",
        &["Ne4f6/Nf6g8"],
        &["Ne4/Nf6g8"],
    ),
    (
        "the same station push is legal when it does not undo the last move",
        "4k3/8/5n2/8/4N3/8/8/4K3 w - - 1 2",
        &["Ne4/Nf6g8"],
        &[],
    ),
    (
        "a plain move may put back a piece the last move pushed",
        "7k/8/8/8/8/r3R3/8/4K3 w - - 1 2 a3a3/c3e3",
        &["Re3c3"],
        &[],
    ),
];

#[test]
fn each_rule_with_its_position() {
    for (name, fen, legal, illegal) in CASES {
        let p = position(fen.trim());
        let moves = legal_long(&p);
        for mv in *legal {
            assert!(
                moves.iter().any(|m| m == mv),
                "{name}: {mv} should be legal in {fen}; legal: {moves:?}"
            );
        }
        for mv in *illegal {
            assert!(
                !moves.iter().any(|m| m == mv),
                "{name}: {mv} should be illegal in {fen}"
            );
        }
    }
}

#[test]
fn seed_examples_change_the_board_as_described() {
    let pushed = after(&position("8/4k3/8/8/8/b7/6K1/R7 w - - 0 1"), "Ra1a3/Ba3a5");
    assert_eq!(placement(&pushed), "8/4k3/8/b7/8/R7/6K1/8");
    let off = after(&position("8/4k3/8/b7/8/8/6K1/R7 w - - 0 1"), "Ra1a5/Ba5E");
    assert_eq!(placement(&off), "8/4k3/8/R7/8/8/6K1/8");
    let both_gone = after(&position("8/4k3/7q/8/8/7R/1K6/8 w - - 0 1"), "Rh3E/Qh6E");
    assert_eq!(placement(&both_gone), "8/4k3/8/8/8/8/1K6/8");
    let station = after(&position("8/4k3/8/8/8/2b5/7K/1N6 w - - 0 1"), "Nb1/Bc3d5");
    assert_eq!(placement(&station), "8/4k3/8/3b4/8/8/7K/1N6");
}

#[test]
fn pushes_go_the_same_distance_as_the_pusher_not_any_distance() {
    let p = position("8/4k3/8/8/8/b7/6K1/R7 w - - 0 1");
    let pushes: Vec<String> = legal_long(&p)
        .into_iter()
        .filter(|m| m.contains("/Ba3"))
        .collect();
    // The two pushes, and the pulls of a rook on the edge moving away off the board.
    assert_eq!(
        pushes,
        ["Ra1/Ba3E", "Ra1/Ba3a5", "Ra1E/Ba3E", "Ra1a3/Ba3a5"]
    );
}

#[test]
fn station_push_off_and_station_pull_off_with_the_same_effect_are_one_move() {
    // Rook a4, knight a8: pushing it off (a4-a8, four more squares) and pulling it off
    // (moving away down four squares) both leave the rook on a4 and remove the knight.
    let p = position("n6k/8/8/8/R7/8/8/4K3 w - - 0 1");
    let count = legal_long(&p).iter().filter(|m| *m == "Ra4/Na8E").count();
    assert_eq!(count, 1);
    assert!(is_legal(&p, "Ra4E/Na8E"));
    assert!(is_legal(&p, "Ra4a8/Na8E"));
}

#[test]
fn owner_chooses_the_promotion_under_owner_promotes() {
    let p = position_with("4k3/8/8/3R4/8/3p4/7K/8 w - - 0 1", "owner-promotes=on");
    assert!(is_legal(&p, "Rd5d3/Pd3d1"));
    assert!(!is_legal(&p, "Rd5d3/Pd3d1=N"));
    let waiting = after(&p, "Rd5d3/Pd3d1");
    assert_eq!(waiting.to_text(), "4k3/8/8/8/8/3R4/7K/3p4 b - - 0 1");
    assert_eq!(legal_long(&waiting), ["d1=B", "d1=N", "d1=Q", "d1=R"]);
    let chosen = after(&waiting, "d1=Q");
    assert_eq!(chosen.to_move(), Seat(1), "the owner then makes their move");
    assert_eq!(placement(&chosen), "4k3/8/8/8/8/3R4/7K/3q4");
    // The player's own pawn is still promoted at once, by the player.
    let own = position_with("8/4P3/4P1k1/8/8/8/8/K7 w - - 0 1", "owner-promotes=on");
    assert!(is_legal(&own, "Pe6e7/Pe7e8=Q"));
}

#[test]
fn promotion_without_a_piece_is_refused_with_a_reason() {
    let p = position("4k3/8/8/3R4/8/3p4/7K/8 w - - 0 1");
    let Err(MoveError::Illegal { reason, .. }) = p.parse_move("Rd5d3/Pd3d1") else {
        panic!("expected an illegal move");
    };
    assert!(reason.contains("=Q"), "{reason}");
}

#[test]
fn en_passant_option_pushes_an_edge_pawn_off_the_board() {
    let black = position_with("4k3/p7/8/1P6/8/8/8/4K3 b - - 0 1", "en-passant=on");
    let white = after(&black, "Pa7a5");
    assert_eq!(white.to_text(), "4k3/8/8/pP6/8/8/8/4K3 w - a6 0 2 a7a5");
    assert!(is_legal(&white, "Pb5a6/Pa5E"));
    assert!(is_legal(&white, "Pb5/Pa5E"));
    assert_eq!(
        placement(&after(&white, "Pb5a6/Pa5E")),
        "4k3/8/P7/8/8/8/8/4K3"
    );
    // One move later the chance is gone.
    let later = after(&after(&white, "Ke1d1"), "Ke8d8");
    assert!(!is_legal(&later, "Pb5a6/Pa5E"));
    // Not on other files.
    let centre = position_with("4k3/2p5/8/1P6/8/8/8/4K3 b - - 0 1", "en-passant=on");
    let centre = after(&centre, "Pc7c5");
    assert!(!legal_long(&centre).iter().any(|m| m.ends_with("/Pc5E")));
}

#[test]
fn pawn_push_any_lets_a_pawn_push_an_enemy_piece_forward() {
    let fen = "4k3/8/8/8/4n3/3b4/3PP3/4K3 w - - 0 1";
    let any = position_with(fen, "pawn-push=any");
    for mv in ["Pe2e4/Ne4e6", "Pe2/Ne4e6", "Pd2d3/Bd3d4", "Pd2/Bd3d4"] {
        assert!(is_legal(&any, mv), "{mv}");
    }
    // The threat of such a push is check only under that option.
    let pawn_ahead = "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1";
    assert!(!position(pawn_ahead).is_check());
    assert!(position_with(pawn_ahead, "pawn-push=any").is_check());
}

#[test]
fn games_recorded_when_pawns_pushed_any_piece_replay_under_pawn_push_any() {
    let games = include_str!("data/dynamo_games_pawn_push_any.tsv");
    let rows: Vec<&str> = games.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let [refused, moves, position] = row.split('\t').collect::<Vec<_>>()[..] else {
            panic!("three fields in {row}");
        };
        let moves: Vec<&str> = moves.split(' ').collect();
        let dynamo = missive_rules::variant("dynamo").unwrap();
        let mut old = dynamo.new_game("pawn-push=any", None).unwrap();
        for mv in &moves {
            old.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
        assert_eq!(old.position_text(), position);
        let mut new = dynamo.new_game("", None).unwrap();
        let stopped = moves.iter().position(|mv| new.play(mv).is_err());
        assert_eq!(stopped, Some(refused.parse().unwrap()), "{row}");
    }
}

#[test]
fn queen_side_castling_judges_c1_on_the_board_before_the_rook_moves() {
    // The rook on f1 could pull a king on c1 off the board (three squares away, it moves
    // three more and leaves) while d1 is empty; once the rook has castled to d1 it stands
    // between them. The king crosses d1 safely and would be safe on c1 after the move.
    let white = position("4k3/8/8/8/8/8/8/R3Kr2 w Q - 0 1");
    assert!(!is_legal(&white, "O-O-O"));
    assert!(position("4k3/8/8/8/8/8/8/R1K2r2 w - - 0 1").is_check());
    assert!(!position("4k3/8/8/8/8/8/8/2KR1r2 w - - 0 1").is_check());
    assert!(!position("4k3/8/8/8/8/8/8/R2K1r2 w - - 0 1").is_check());
    let black = position("r3kR2/8/8/8/8/8/8/4K3 b q - 0 1");
    assert!(!is_legal(&black, "O-O-O"));
    assert!(position("r1k2R2/8/8/8/8/8/8/4K3 b - - 0 1").is_check());
    assert!(!position("2kr1R2/8/8/8/8/8/8/4K3 b - - 0 1").is_check());
    // With the rook on f2 instead nothing threatens c1 on either board: castling is legal.
    assert!(is_legal(
        &position("4k3/8/8/8/8/8/5r2/R3K3 w Q - 0 1"),
        "O-O-O"
    ));
}

#[test]
fn castling_rights_follow_a_rook_pushed_away_and_back() {
    let p = position("4k3/8/8/7r/8/7R/8/4K3 b K@h3 - 0 1");
    assert_eq!(p.to_text(), "4k3/8/8/7r/8/7R/8/4K3 b K@h3 - 0 1");
    let back = after(&p, "Rh5/Rh3h1");
    assert!(back.to_text().contains(" w K "), "{}", back.to_text());
    assert!(is_legal(&back, "O-O"));
    let away = after(&p, "Rh5h7/Rh3h5");
    assert!(away.to_text().contains(" w K@h5 "), "{}", away.to_text());
    assert!(!is_legal(&away, "O-O"));
}

#[test]
fn castling_rights_end_when_king_or_rook_is_the_primary_piece() {
    let p = position("r3k2r/8/8/8/8/8/7P/R3K2R w KQkq - 0 1");
    assert!(after(&p, "Rh1g1").to_text().contains(" Qkq "));
    // A station move makes the rook the primary piece too.
    assert!(after(&p, "Rh1/Ph2h3").to_text().contains(" Qkq "));
    assert!(after(&p, "Ke1d1").to_text().contains(" kq "));
}

#[test]
fn check_by_the_threat_of_a_push_or_a_pull_off_the_board() {
    // Push: the rook on e5 drives the king four squares down, off the board.
    assert!(position("4k3/8/8/4r3/8/8/8/4K3 w - - 0 1").is_check());
    // Pull: the rook on e2 moves away two squares and leaves the board, pulling the king.
    assert!(position("4k3/8/8/8/4K3/8/4r3/8 w - - 0 1").is_check());
    // A king in the middle, two squares from the rook and four from the edge: safe.
    assert!(!position("4k3/8/8/4r3/8/4K3/8/8 w - - 0 1").is_check());
}

#[test]
fn checkmate_wins_and_stalemate_draws() {
    let mate = position("k7/8/8/8/8/8/8/RR5K b - - 0 1").outcome().unwrap();
    assert_eq!(mate.rule, EndRule::Checkmate);
    assert_eq!(mate.winner(), Some(Seat(0)));
    let stalemate = position("k7/8/8/2B5/8/8/8/1R5K b - - 0 1")
        .outcome()
        .unwrap();
    assert_eq!(stalemate.rule, EndRule::Stalemate);
    assert!(stalemate.is_draw());
}

#[test]
fn bare_kings_are_a_dead_position_and_a_bare_king_never_wins_on_time() {
    let bare = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(bare.outcome().unwrap().rule, EndRule::InsufficientMaterial);
    let rook = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(rook.outcome(), None);
    let white_flags = rook.timeout(Seat(0));
    assert_eq!(white_flags.rule, EndRule::TimeoutVsInsufficientMaterial);
    let black_flags = rook.timeout(Seat(1));
    assert_eq!(black_flags.results, [SeatResult::Win, SeatResult::Loss]);
}

#[test]
fn removals_pawn_moves_and_promotions_reset_the_move_counter() {
    let p = position("4k3/8/8/b7/8/8/4P1K1/R7 w - - 7 20");
    assert_eq!(after(&p, "Ra1a2").halfmoves(), 8);
    assert_eq!(after(&p, "Ra1a5/Ba5E").halfmoves(), 0);
    assert_eq!(after(&p, "Pe2e3").halfmoves(), 0);
    let fifty = position("4k3/8/8/b7/8/8/4P1K1/R7 w - - 150 90");
    assert_eq!(fifty.outcome().unwrap().rule, EndRule::SeventyFiveMoves);
}

#[test]
fn notation_long_and_short_forms() {
    let start = <Dynamo as Position>::start(&Options::default());
    let cases = [
        ("Ng1f3", "Nf3"),
        ("Pe2e4", "e4"),
        ("Nb1/Pd2f3", "Nb1/Pf3"),
        ("Nb1d2/Pd2f3", "Nd2/Pf3"),
        ("Ra1E/Pa2E", "Ra1E/PE"),
        ("Ke1/Pe2E", "Ke1/Pe2E"),
    ];
    for (long, short) in cases {
        let mv = start.parse_move(long).unwrap();
        assert_eq!(start.write_move(mv, Notation::Long), long);
        assert_eq!(start.write_move(mv, Notation::Short), short, "{long}");
        assert_eq!(start.parse_move(short), Ok(mv));
    }
    assert!(matches!(
        start.parse_move("Qd1/PE"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert!(matches!(
        start.parse_move("Ra1/Pa2/Pb2"),
        Err(MoveError::Unreadable { .. })
    ));
    assert!(matches!(
        start.parse_move("Ra1a5"),
        Err(MoveError::Illegal { .. })
    ));
    let tolerant = start.parse_move("Ra1-a2/Pa2-a3").unwrap();
    assert_eq!(start.write_move(tolerant, Notation::Long), "Ra1a2/Pa2a3");
    let castle = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(castle.parse_move("0-0").is_ok());
    let mate = position("k7/8/8/8/8/8/8/1R5K w - - 0 1");
    let mv = mate.parse_move("Kh1g2").unwrap();
    assert_eq!(mate.write_move(mv, Notation::Short), "Kg2");
}

#[test]
fn a_promotion_by_push_reads_after_the_pawns_part_or_at_the_end() {
    let p = position("4k3/8/8/8/8/8/5p2/K5P1 b - - 0 1");
    let mv = p.parse_move("Pf2g1/Pg1E=Q").unwrap();
    assert_eq!(p.write_move(mv, Notation::Long), "Pf2g1/Pg1E=Q");
    for text in ["Pf2g1=Q/Pg1E", "Pf2g1Q/Pg1E", "fg1=Q/PE", "fxg1=Q/Pg1E"] {
        assert_eq!(p.parse_move(text), Ok(mv), "{text}");
    }
    let short = p.write_move(mv, Notation::Short);
    assert_eq!(short, "g1/PE=Q+");
    assert_eq!(p.parse_move("g1=Q/PE+"), Ok(mv));
    assert!(matches!(
        p.parse_move("Pf2g1=Q/Pg1E=Q"),
        Err(MoveError::Unreadable { .. })
    ));
    // After the primary's part the letter names the primary pawn's promotion: when the
    // pushed pawn is the one promoting, it goes after that pawn's part, which is the end.
    let pushed = position("4k3/8/8/3R4/8/3p4/7K/8 w - - 0 1");
    assert!(pushed.parse_move("Rd5d3/Pd3d1=N").is_ok());
    let Err(MoveError::Illegal { reason, .. }) = pushed.parse_move("Rd5d3=N/Pd3d1") else {
        panic!("expected an illegal move");
    };
    assert!(reason.contains("after its part"), "{reason}");
}

#[test]
fn position_text_errors_name_the_field() {
    let cases = [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "piece placement"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling rights"),
        ("4k3/8/8/8/8/8/8/4K2R w K@g3 - 0 1", "castling rights"),
        ("4k3/8/8/pP6/8/8/8/4K3 w - a6 0 1", "en passant square"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e2e4", "last move"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 zz", "last move"),
        ("4k3/8/8/4r3/8/8/8/4K3 b - - 0 1", "side to move"),
        ("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "piece placement"),
    ];
    for (fen, field) in cases {
        let error = Dynamo::from_text(fen, &Options::default()).unwrap_err();
        assert_eq!(error.field, field, "{fen}: {error}");
    }
}

#[test]
fn threefold_repetition_can_be_claimed() {
    let game = missive_rules::variant("dynamo").unwrap();
    let mut game = game.new_game("", None).unwrap();
    for mv in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        game.play(mv).unwrap();
    }
    assert!(
        game.claimable()
            .contains(&missive_rules::Claim::ThreefoldRepetition)
    );
}
