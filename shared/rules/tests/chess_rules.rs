//! One test per rule of seed 001, each on a position that shows it.

use missive_rules::chess::Chess;
use missive_rules::{AnyGame, Claim, EndRule, MoveError, Notation, Seat, SeatResult, registry};

fn game(fen: Option<&str>, moves: &str) -> Box<dyn AnyGame> {
    let mut game = registry::variant("chess")
        .unwrap()
        .new_game("", fen)
        .unwrap();
    for mv in moves.split_whitespace() {
        game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

fn legal(fen: &str) -> Vec<String> {
    game(Some(fen), "").legal_moves(Notation::Long)
}

fn rule(game: &dyn AnyGame) -> Option<EndRule> {
    game.outcome().map(|o| o.rule)
}

const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn castling_both_ways() {
    let moves = legal(CASTLING);
    assert!(moves.contains(&"e1g1".into()) && moves.contains(&"e1c1".into()));
    let after = game(Some(CASTLING), "O-O");
    assert_eq!(after.position_text(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    let after = game(Some(CASTLING), "e1c1");
    assert_eq!(after.position_text(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

#[test]
fn no_castling_out_of_through_or_into_check() {
    // out of check: a rook on e8 gives check
    assert!(
        !legal("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
            .iter()
            .any(|m| m == "e1g1" || m == "e1c1")
    );
    // through check: f1 and d1 attacked
    let through = legal("3r1rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!through.contains(&"e1g1".into()) && !through.contains(&"e1c1".into()));
    // into check: g1 and c1 attacked
    let into = legal("2r3r1/1k6/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!into.contains(&"e1g1".into()) && !into.contains(&"e1c1".into()));
    // b1 attacked does not stop queen-side castling; b1 occupied does
    assert!(legal("1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").contains(&"e1c1".into()));
    assert!(!legal("6k1/8/8/8/8/8/8/RN2K2R w KQ - 0 1").contains(&"e1c1".into()));
}

#[test]
fn castling_rights_end_when_king_or_rook_moves_or_the_rook_is_taken() {
    assert_eq!(
        game(Some(CASTLING), "Kf1 Kf8 Ke1 Ke8").position_text(),
        "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3"
    );
    assert_eq!(
        game(Some(CASTLING), "Rb1 Rb8").position_text(),
        "1r2k2r/8/8/8/8/8/8/1R2K2R w Kk - 2 2"
    );
    assert_eq!(
        game(Some(CASTLING), "Rxa8+").position_text(),
        "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"
    );
}

#[test]
fn en_passant_as_in_the_seed_example() {
    // Seed 001: Black just played f7-f5 beside the white pawn on e5; White takes on f6.
    let after = game(Some("4k3/5p2/8/4P3/8/8/8/4K3 b - - 0 1"), "f5 exf6");
    assert_eq!(after.position_text(), "4k3/8/5P2/8/8/8/8/4K3 b - - 0 2");
    // only on the very next move
    let late = game(Some("4k3/5p2/8/4P3/8/8/8/4K3 b - - 0 1"), "f5 Kd1 Kd8");
    assert!(!late.legal_moves(Notation::Long).contains(&"e5f6".into()));
}

#[test]
fn en_passant_never_exposes_the_king() {
    // taking would empty the fifth rank between the rook and the king
    let moves = legal("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!moves.contains(&"e5d6".into()));
}

#[test]
fn promotion_to_knight_bishop_rook_or_queen() {
    let moves = legal("8/4P3/8/8/8/8/8/k6K w - - 0 1");
    for promo in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
        assert!(moves.contains(&promo.to_string()), "{promo}");
    }
    assert!(!moves.contains(&"e7e8".into()));
    assert_eq!(
        game(Some("8/4P3/8/8/8/8/8/k6K w - - 0 1"), "e8=N").position_text(),
        "4N3/8/8/8/8/8/8/k6K b - - 0 1"
    );
}

#[test]
fn checkmate_as_in_the_seed_example() {
    let mated = game(Some("7k/6Q1/5K2/8/8/8/8/8 b - - 0 1"), "");
    let outcome = mated.outcome().unwrap();
    assert_eq!(outcome.rule, EndRule::Checkmate);
    assert_eq!(outcome.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(mated.legal_moves(Notation::Long).is_empty());
    assert_eq!(mated.to_move(), None);
}

#[test]
fn stalemate_as_in_the_seed_example() {
    let stalemated = game(Some("8/8/8/8/8/3k4/3p4/3K4 w - - 0 1"), "");
    assert_eq!(rule(stalemated.as_ref()), Some(EndRule::Stalemate));
    assert!(stalemated.outcome().unwrap().is_draw());
}

#[test]
fn insufficient_material_draws() {
    for fen in [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",     // K v K
        "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",    // K+B v K
        "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",    // K+N v K
        "8/8/8/4k3/2b5/8/8/4KB1B w - - 0 1", // bishops all on one colour
    ] {
        assert_eq!(
            rule(game(Some(fen), "").as_ref()),
            Some(EndRule::InsufficientMaterial),
            "{fen}"
        );
    }
    for fen in [
        "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", // two knights can mate a helpless king
        "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", // bishops on both colours
        "8/8/8/4kn2/8/8/8/4KN2 w - - 0 1", // knight against knight
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", // a pawn
    ] {
        assert_eq!(rule(game(Some(fen), "").as_ref()), None, "{fen}");
    }
}

const KNIGHT_DANCE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn threefold_repetition_is_claimable_and_fivefold_is_automatic() {
    let twice = game(None, KNIGHT_DANCE);
    assert!(twice.claimable().is_empty());
    let thrice = game(None, &[KNIGHT_DANCE; 2].join(" "));
    assert_eq!(thrice.claimable(), vec![Claim::ThreefoldRepetition]);
    assert_eq!(
        thrice.claim(Claim::ThreefoldRepetition).unwrap().rule,
        EndRule::ThreefoldRepetition
    );
    assert!(thrice.claim(Claim::FiftyMoves).is_err());
    assert_eq!(rule(thrice.as_ref()), None);
    let four = game(None, &[KNIGHT_DANCE; 3].join(" "));
    assert_eq!(rule(four.as_ref()), None);
    let five = game(None, &[KNIGHT_DANCE; 4].join(" "));
    assert_eq!(rule(five.as_ref()), Some(EndRule::FivefoldRepetition));
    assert!(five.legal_moves(Notation::Long).is_empty());
}

#[test]
fn repetition_needs_the_same_rights() {
    // The king's trip loses castling rights: the start position does not come back.
    let trip = game(None, "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
    assert!(trip.claimable().is_empty());
}

#[test]
fn fifty_moves_claimable_and_seventy_five_automatic() {
    let fifty = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), "Ra2");
    assert_eq!(fifty.claimable(), vec![Claim::FiftyMoves]);
    assert_eq!(rule(fifty.as_ref()), None);
    let seventy_five = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 149 80"), "Ra2");
    assert_eq!(rule(seventy_five.as_ref()), Some(EndRule::SeventyFiveMoves));
    // a mate on the 75th move still wins
    let mate = game(Some("k7/8/1K6/8/8/8/8/7R w - - 149 80"), "Rh8#");
    assert_eq!(rule(mate.as_ref()), Some(EndRule::Checkmate));
    // a pawn move resets the count
    let reset = game(Some("4k3/8/8/8/8/8/4P3/R3K3 w - - 149 80"), "e3");
    assert_eq!(rule(reset.as_ref()), None);
}

#[test]
fn timeout_loses_unless_the_opponent_cannot_mate() {
    let bare = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "");
    assert_eq!(
        bare.timeout(Seat(0)).rule,
        EndRule::TimeoutVsInsufficientMaterial
    );
    assert!(bare.timeout(Seat(0)).is_draw());
    assert_eq!(bare.timeout(Seat(1)).winner(), Some(Seat(0)));
    assert_eq!(bare.timeout(Seat(1)).rule, EndRule::Timeout);
    // a lone knight could only mate with help from a queen-less opponent: still a loss
    let knight = game(Some("4k3/8/8/8/8/8/8/R3K1n1 w - - 0 1"), "");
    assert_eq!(knight.timeout(Seat(0)).winner(), Some(Seat(1)));
}

#[test]
fn resignation_gives_the_opponent_the_win() {
    let outcome = game(None, "e4").resign(Seat(1));
    assert_eq!(
        (outcome.rule, outcome.winner()),
        (EndRule::Resignation, Some(Seat(0)))
    );
}

#[test]
fn fen_errors_name_the_field() {
    let cases = [
        ("8/8/8/8/8/8/8 w - - 0 1", "piece placement"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "piece placement"),
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", "piece placement"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling rights"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant square"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number"),
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "piece placement"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "side to move"),
        ("4k3 w", "fields"),
    ];
    for (fen, field) in cases {
        let error = Chess::from_fen(fen).unwrap_err();
        assert_eq!(error.field, field, "{fen}: {error}");
    }
}

#[test]
fn four_field_fens_get_default_counters() {
    assert_eq!(
        Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - -")
            .unwrap()
            .to_fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn san_disambiguates_by_file_then_rank_then_both() {
    let position = "k7/8/8/8/8/1N3N2/8/1N5K w - - 0 1";
    let g = game(Some(position), "");
    let san = g.legal_moves(Notation::Short);
    // d4: knights on b3 and f3 differ by file; d2: three knights, b1 by rank, b3 needs both
    for expected in ["Nbd4", "Nfd4", "N1d2", "Nb3d2", "Nfd2"] {
        assert!(san.contains(&expected.to_string()), "{expected} in {san:?}");
    }
    let rooks = game(Some("1k6/8/8/R7/8/8/8/R6K w - - 0 1"), "");
    assert!(rooks.legal_moves(Notation::Short).contains(&"R1a3".into()));
}

#[test]
fn san_marks_check_and_mate() {
    let g = game(Some("k7/8/1K6/8/8/8/8/7R w - - 0 1"), "");
    let san = g.legal_moves(Notation::Short);
    assert!(san.contains(&"Rh8#".into()) && san.contains(&"Rh7".into()));
    let check = game(Some("k7/8/8/8/8/8/8/K6R w - - 0 1"), "");
    assert!(check.legal_moves(Notation::Short).contains(&"Rh8+".into()));
}

#[test]
fn san_input_is_tolerant() {
    let promo = "8/4P3/8/8/8/8/8/k6K w - - 0 1";
    for text in ["e8Q", "e8=Q", "e8=Q+", "e8q", "e7e8q", "Pe8=Q"] {
        assert_eq!(
            game(Some(promo), text).position_text(),
            "4Q3/8/8/8/8/8/8/k6K b - - 0 1",
            "{text}"
        );
    }
    for text in ["0-0", "O-O", "O-O+", "e1g1"] {
        assert_eq!(
            game(Some(CASTLING), text).played()[0].short,
            "O-O",
            "{text}"
        );
    }
    for text in ["Nf3", "Ng1f3", "Nxf3", "Ng1-f3", "Nf3!?", "g1f3"] {
        assert_eq!(game(None, text).played()[0].long, "g1f3", "{text}");
    }
    assert_eq!(
        game(None, "Nc3 d5 Nf3 d4 Nb5 e5 Nbd4").played()[6].short,
        "Nbxd4"
    );
}

#[test]
fn ambiguous_and_illegal_moves_are_refused_without_guessing() {
    let mut g = game(None, "Nc3 a6 Nf3 a5 Nd4 a4");
    let before = g.position_text();
    match g.play("Nb5") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, vec!["c3b5", "d4b5"])
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(g.play("e8=Q"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.play("Zz9"), Err(MoveError::Unreadable { .. })));
    assert!(matches!(g.play(""), Err(MoveError::Unreadable { .. })));
    assert_eq!(g.position_text(), before, "a refused move changes nothing");
    let mut promo = game(Some("8/4P3/8/8/8/8/8/k6K w - - 0 1"), "");
    let Err(MoveError::Illegal { reason, .. }) = promo.play("e8") else {
        panic!()
    };
    assert!(reason.contains("promotion"), "{reason}");
}

#[test]
fn moves_after_the_end_are_refused() {
    let mut mated = game(None, "f3 e5 g4 Qh4#");
    assert!(matches!(mated.play("a3"), Err(MoveError::GameOver { .. })));
}

/// Reading a move without the list of legal moves (what replaying a game does) finds the same
/// move, or fails with the same error, as reading it among the full list.
#[test]
fn moves_read_without_the_legal_list_match_those_read_among_it() {
    use missive_rules::Position;
    let positions = [
        CASTLING,
        "4k3/P6P/8/3pP3/8/8/1p4p1/R3K2R w KQ d6 0 1",
        "3k4/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1",
        "8/8/8/q2pP2K/8/8/8/4k3 w - d6 0 1",
        "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
        "r1bqkbnr/pppp1Qpp/2n5/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
    ];
    for fen in positions {
        let position = Chess::from_fen(fen).unwrap();
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let texts = legal
            .iter()
            .flat_map(|mv| [Notation::Long, Notation::Short].map(|n| position.write_move(*mv, n)))
            .chain(
                [
                    "Nd3", "N3d3", "Nbd3", "a8", "b1", "O-O", "0-0-0", "Kd1", "exd6", "e8", "zz",
                    "",
                ]
                .map(String::from),
            );
        for text in texts {
            assert_eq!(
                position.parse_move(&text),
                position.parse_move_among(&text, &legal),
                "{fen}: {text}"
            );
        }
    }
}
