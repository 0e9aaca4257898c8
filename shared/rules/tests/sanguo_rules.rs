//! One test per rule of Three Kingdoms Xiangqi (`docs/rules/sanguo.md` names them), each on
//! a position built for it, and the end-to-end elimination scenarios played through the
//! registry's `AnyGame`, the code `missive play` runs.

use missive_rules::sanguo::{Nation, START_TEXT, Sanguo};
use missive_rules::{
    AnyGame, EndRule, MoveError, Notation, Options, Position, Seat, SeatResult, variant,
};

/// The three generals on their d1 points: no two of them face each other.
const GENERALS: [(&str, &str); 3] = [("shu:d1", "Kr"), ("wu:d1", "Kg"), ("wei:d1", "Kb")];

/// Position text from (point, piece) pairs, the nation to move and the clock.
fn text(pieces: &[(&str, &str)], to_move: &str, clock: u32) -> String {
    let halves: Vec<String> = Nation::ALL
        .iter()
        .map(|half| {
            let ranks: Vec<String> = (1..=5)
                .rev()
                .map(|rank| {
                    let mut line = String::new();
                    let mut empty = 0;
                    for file in 'a'..='i' {
                        let name = format!("{}:{file}{rank}", half.name());
                        match pieces.iter().find(|(p, _)| *p == name) {
                            Some((_, piece)) => {
                                if empty > 0 {
                                    line += &empty.to_string();
                                }
                                empty = 0;
                                line += piece;
                            }
                            None => empty += 1,
                        }
                    }
                    if empty > 0 {
                        line += &empty.to_string();
                    }
                    line
                })
                .collect();
            ranks.join("/")
        })
        .collect();
    let out: Vec<&str> = ["Kr", "Kg", "Kb"]
        .iter()
        .zip(["shu", "wu", "wei"])
        .filter(|(k, _)| !pieces.iter().any(|(_, p)| p == *k))
        .map(|(_, n)| n)
        .collect();
    let out = if out.is_empty() {
        "-".to_string()
    } else {
        out.join(",")
    };
    format!("{} {to_move} {out} {clock} 0", halves.join("|"))
}

fn position(pieces: &[(&str, &str)], to_move: &str) -> Sanguo {
    let text = text(pieces, to_move, 0);
    Sanguo::from_text(&text, &Options::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn with_generals(pieces: &[(&str, &str)]) -> Sanguo {
    let mut all = GENERALS.to_vec();
    all.extend_from_slice(pieces);
    position(&all, "shu")
}

fn moves(position: &Sanguo) -> Vec<String> {
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    let mut texts: Vec<String> = legal
        .into_iter()
        .map(|m| position.write_move(m, Notation::Long))
        .collect();
    texts.sort();
    texts
}

/// The destinations of the piece on `from`.
fn destinations(position: &Sanguo, from: &str) -> Vec<String> {
    moves(position)
        .into_iter()
        .filter_map(|m| m.strip_prefix(&format!("{from}-")).map(str::to_string))
        .collect()
}

/// The destinations of the piece on `from` that lie on another half board.
fn crossings(position: &Sanguo, from: &str) -> Vec<String> {
    let half = from.split(':').next().unwrap();
    destinations(position, from)
        .into_iter()
        .filter(|d| !d.starts_with(&format!("{half}:")))
        .collect()
}

fn game(position_text: &str) -> Box<dyn AnyGame> {
    variant("sanguo")
        .unwrap()
        .new_game("", Some(position_text))
        .unwrap()
}

fn play(game: &mut dyn AnyGame, moves: &[&str]) {
    for mv in moves {
        game.play(mv)
            .unwrap_or_else(|e| panic!("{mv} in {}: {e}", game.position_text()));
    }
}

#[test]
fn start_position_gives_each_nation_forty_moves() {
    for (nation, flags, expected) in [
        ("shu", "", 40),
        ("wu", "", 40),
        ("wei", "", 40),
        ("shu", "flags=off", 44),
        ("wu", "flags=off", 44),
        ("wei", "flags=off", 44),
    ] {
        let options = Options::parse(flags, Sanguo::option_specs()).unwrap();
        let start = Sanguo::start(&options)
            .to_text()
            .replace(" shu ", &format!(" {nation} "));
        let position = Sanguo::from_text(&start, &options).unwrap();
        assert_eq!(moves(&position).len(), expected, "{nation} {flags}");
    }
    assert_eq!(Sanguo::start(&Options::default()).to_text(), START_TEXT);
}

#[test]
fn chariot_crosses_to_each_neighbour() {
    let line = |half: &str, file: char| -> Vec<String> {
        (1..=5).rev().map(|r| format!("{half}:{file}{r}")).collect()
    };
    let cases = [
        ("shu:h3", line("wu", 'b')),
        ("shu:b3", line("wei", 'h')),
        ("shu:a5", line("wei", 'i')),
        ("shu:e3", [line("wei", 'e'), line("wu", 'e')].concat()),
        ("shu:e5", [line("wei", 'e'), line("wu", 'e')].concat()),
        ("wu:b3", line("shu", 'h')),
    ];
    for (from, mut expected) in cases {
        expected.sort();
        let position = with_generals(&[(from, "Rr")]);
        assert_eq!(crossings(&position, from), expected, "chariot on {from}");
    }
}

#[test]
fn lines_along_a_rank_stay_on_their_half_board() {
    let position = with_generals(&[("shu:a5", "Rr")]);
    let along: Vec<String> = destinations(&position, "shu:a5")
        .into_iter()
        .filter(|d| d.starts_with("shu:") && d.ends_with('5'))
        .collect();
    let expected: Vec<String> = ('b'..='i').map(|f| format!("shu:{f}5")).collect();
    assert_eq!(along, expected);
}

#[test]
fn cannon_screens_across_the_river() {
    let position = with_generals(&[("shu:h3", "Cr"), ("wu:b4", "Pg"), ("wu:b2", "Hg")]);
    assert_eq!(crossings(&position, "shu:h3"), ["wu:b2", "wu:b5"]);
    let at_the_fork = with_generals(&[
        ("shu:e3", "Cr"),
        ("shu:e5", "Pr"),
        ("wu:e4", "Pg"),
        ("wei:e2", "Hb"),
    ]);
    assert_eq!(crossings(&at_the_fork, "shu:e3"), ["wei:e2", "wu:e4"]);
}

#[test]
fn horse_leg_on_the_bank_blocks_the_crossing() {
    let free = with_generals(&[("shu:d4", "Hr")]);
    assert_eq!(crossings(&free, "shu:d4"), ["wei:e5", "wei:g5"]);
    let blocked = with_generals(&[("shu:d4", "Hr"), ("shu:d5", "Pr")]);
    assert!(crossings(&blocked, "shu:d4").is_empty());
    let bank = with_generals(&[("shu:c5", "Hr")]);
    assert_eq!(
        crossings(&bank, "shu:c5"),
        ["wei:e5", "wei:f4", "wei:h4", "wei:i5"]
    );
    let leg_across = with_generals(&[("shu:c5", "Hr"), ("wei:g5", "Pr")]);
    assert_eq!(crossings(&leg_across, "shu:c5"), ["wei:e5", "wei:i5"]);
}

#[test]
fn horse_bends_at_the_triangle() {
    let below = with_generals(&[("shu:e4", "Hr")]);
    assert_eq!(crossings(&below, "shu:e4"), ["wei:f5", "wu:d5"]);
    let on = with_generals(&[("shu:e5", "Hr")]);
    assert_eq!(
        crossings(&on, "shu:e5"),
        ["wei:d4", "wei:f4", "wei:g5", "wu:c5", "wu:d4", "wu:f4"]
    );
    // shu:e5 to wu:f4 cannot be walked back: from wu:f4 the horse reaches wei:e5.
    let back = with_generals(&[("wu:f4", "Hr")]);
    assert!(destinations(&back, "wu:f4").contains(&"wei:e5".to_string()));
    assert!(!destinations(&back, "wu:f4").contains(&"shu:e5".to_string()));
}

#[test]
fn flag_moves_across_the_river() {
    let start = Sanguo::start(&Options::default());
    assert_eq!(destinations(&start, "shu:d3"), ["wei:e5", "wei:g5"]);
    assert_eq!(destinations(&start, "shu:f3"), ["wu:c5", "wu:e5"]);
    for blocker in ["shu:d4", "shu:d5"] {
        let blocked = with_generals(&[("shu:d3", "Fr"), (blocker, "Pr")]);
        assert!(crossings(&blocked, "shu:d3").is_empty(), "{blocker}");
    }
    let straight_across = with_generals(&[("shu:d4", "Fr")]);
    assert_eq!(crossings(&straight_across, "shu:d4"), ["wei:e4", "wei:g4"]);
    let through = with_generals(&[("shu:e4", "Fr")]);
    assert_eq!(
        crossings(&through, "shu:e4"),
        ["wei:d4", "wei:f4", "wu:d4", "wu:f4"]
    );
    let half_blocked = with_generals(&[("shu:e4", "Fr"), ("wu:e5", "Pg")]);
    assert_eq!(crossings(&half_blocked, "shu:e4"), ["wei:d4", "wei:f4"]);
}

#[test]
fn generals_may_not_face_through_the_triangle() {
    let position = position(
        &[
            ("shu:e1", "Kr"),
            ("wu:e1", "Kg"),
            ("wei:d1", "Kb"),
            ("shu:e3", "Rr"),
        ],
        "shu",
    );
    assert_eq!(
        destinations(&position, "shu:e3"),
        [
            "shu:e2", "shu:e4", "shu:e5", "wu:e1", "wu:e2", "wu:e3", "wu:e4", "wu:e5"
        ]
    );
}

#[test]
fn general_may_not_step_onto_a_file_facing_a_neighbours_general() {
    let position = position(
        &[("shu:e1", "Kr"), ("wu:d1", "Kg"), ("wei:f1", "Kb")],
        "shu",
    );
    assert_eq!(destinations(&position, "shu:e1"), ["shu:e2"]);
}

#[test]
fn check_from_either_opponent_through_the_triangle_must_be_answered() {
    for checker in [("wei:e4", "Rb"), ("wu:e4", "Rg")] {
        let position = position(
            &[
                ("shu:e1", "Kr"),
                ("wu:d1", "Kg"),
                ("wei:f1", "Kb"),
                checker,
                ("shu:a3", "Rr"),
                ("shu:a4", "Pr"),
            ],
            "shu",
        );
        assert!(position.is_in_check(Nation::Shu));
        assert_eq!(moves(&position), ["shu:a3-shu:e3"], "checker {checker:?}");
    }
}

#[test]
fn elephants_never_cross_and_palace_pieces_stay_home() {
    let cases = [
        ("shu:c5", "Er", vec!["shu:a3", "shu:e3"]),
        ("shu:d2", "Kr", vec!["shu:d1", "shu:d3", "shu:e2"]),
        ("shu:e2", "Ar", vec!["shu:d3", "shu:f1", "shu:f3"]),
    ];
    for (from, piece, expected) in cases {
        let mut pieces = vec![(from, piece), ("wu:d1", "Kg"), ("wei:d1", "Kb")];
        if piece != "Kr" {
            pieces.push(("shu:d1", "Kr"));
        }
        assert_eq!(
            destinations(&position(&pieces, "shu"), from),
            expected,
            "{piece}"
        );
    }
}

#[test]
fn soldiers_turn_at_the_triangle_and_move_sideways_only_abroad() {
    let cases = [
        ("shu:e5", vec!["wei:e5", "wu:e5"]),
        ("shu:c5", vec!["wei:g5"]),
        ("wei:g5", vec!["wei:f5", "wei:g4", "wei:h5"]),
        ("wei:g1", vec!["wei:f1", "wei:h1"]),
        ("wu:e5", vec!["wu:d5", "wu:e4", "wu:f5"]),
    ];
    for (from, expected) in cases {
        let position = with_generals(&[(from, "Pr")]);
        assert_eq!(destinations(&position, from), expected, "soldier on {from}");
    }
}

#[test]
fn captured_armies_keep_their_original_geometry() {
    let position = position(
        &[
            ("shu:d1", "Kr"),
            ("wei:d1", "Kb"),
            ("wu:c5", "Egr"),
            ("wu:e2", "Agr"),
            ("wu:e4", "Pgr"),
            ("shu:c4", "Pgr"),
        ],
        "shu",
    );
    let cases = [
        ("wu:c5", vec!["wu:a3", "wu:e3"]),
        ("wu:e2", vec!["wu:d1", "wu:d3", "wu:f1", "wu:f3"]),
        ("wu:e4", vec!["wu:e5"]),
        ("shu:c4", vec!["shu:b4", "shu:c3", "shu:d4"]),
    ];
    for (from, expected) in cases {
        assert_eq!(destinations(&position, from), expected, "{from}");
    }
}

#[test]
fn an_exposed_general_is_captured_by_the_next_opponent() {
    let start = text(
        &[
            ("shu:d1", "Kr"),
            ("shu:a4", "Pr"),
            ("wu:d1", "Kg"),
            ("shu:d3", "Hg"),
            ("wei:d1", "Kb"),
            ("wei:f4", "Rb"),
        ],
        "wu",
        7,
    );
    let mut game = game(&start);
    play(&mut *game, &["shu:d3-shu:c5"]);
    assert_eq!(game.to_move(), Some(Seat(2)));
    let capture = game.play("Rxshu:d1").unwrap();
    assert_eq!(capture.long, "wei:f4-shu:d1");
    assert_eq!(
        game.position_text(),
        text(
            &[
                ("shu:d1", "Rb"),
                ("shu:a4", "Prb"),
                ("wu:d1", "Kg"),
                ("shu:c5", "Hg"),
                ("wei:d1", "Kb"),
            ],
            "wu",
            0,
        )
        .replace(" 0 0", " 0 2")
    );
    assert_eq!(game.to_move(), Some(Seat(1)));
    assert!(game.outcome().is_none());
    assert!(!game.is_playing(Seat(0)));
}

/// Shu to move; `Rwu:e3` leaves Wu without a legal move (in check). With `wei` set to
/// `Some(stuck)`, Wei is in the game and has no legal move either when `stuck`; with
/// `None`, Wei is already out.
fn stalemating_position(wei: Option<bool>) -> String {
    let mut pieces = vec![
        ("shu:f1", "Kr"),
        ("wu:f4", "Rr"),
        ("wu:d2", "Pr"),
        ("wu:a3", "Rr"),
        ("wu:e1", "Kg"),
        ("wu:a4", "Pg"),
    ];
    match wei {
        Some(stuck) => {
            pieces.push(("wei:f1", "Kb"));
            if stuck {
                pieces.push(("wei:f3", "Pr"));
            }
        }
        None => pieces.push(("wei:a1", "Rbr")),
    }
    text(&pieces, "shu", 0)
}

#[test]
fn a_nation_without_a_legal_move_is_out_and_its_army_passes_to_the_last_mover() {
    let mut game = game(&stalemating_position(Some(false)));
    play(&mut *game, &["Rwu:e3"]);
    assert!(!game.is_playing(Seat(1)));
    assert_eq!(game.to_move(), Some(Seat(2)));
    assert!(
        game.position_text().contains("|9/Pgr"),
        "{}",
        game.position_text()
    );
    assert!(game.position_text().ends_with(" wei wu 0 1"));
    play(&mut *game, &["Kf2"]);
    assert!(
        game.legal_moves(Notation::Short)
            .contains(&"Pwu:a5".to_string())
    );
    assert!(game.play("wu:a4-wu:a3").is_err());
    play(&mut *game, &["Pwu:a5"]);
}

#[test]
fn two_nations_out_in_one_turn_leave_the_last_general_standing() {
    let mut game = game(&stalemating_position(Some(true)));
    play(&mut *game, &["wu:a3-wu:e3"]);
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.rule, EndRule::LastGeneralStanding);
    assert_eq!(
        outcome.results,
        [SeatResult::Win, SeatResult::Loss, SeatResult::Loss]
    );
    assert_eq!(outcome.score_text(), "1-0-0");
    assert_eq!(game.to_move(), None);
    assert!(game.position_text().contains("wu,wei"));
    assert!(matches!(game.play("Kf2"), Err(MoveError::GameOver { .. })));
}

#[test]
fn leaving_the_last_opponent_without_a_move_wins() {
    let mut game = game(&stalemating_position(None));
    play(&mut *game, &["Rwu:e3"]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.rule, EndRule::LastGeneralStanding);
    assert_eq!(outcome.winner(), Some(Seat(0)));
    assert!(game.position_text().contains("Rbr"));
}

#[test]
fn third_repetition_is_a_draw() {
    let mut game = variant("sanguo").unwrap().new_game("", None).unwrap();
    let round = ["Ra2", "Ra2", "Ra2", "Ra1", "Ra1", "Ra1"];
    play(&mut *game, &round);
    assert!(game.outcome().is_none());
    play(&mut *game, &round[..5]);
    assert!(game.outcome().is_none());
    play(&mut *game, &round[5..]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.rule, EndRule::ThreefoldRepetition);
    assert_eq!(outcome.score_text(), "1/3-1/3-1/3");
}

#[test]
fn one_hundred_eighty_plies_without_capture_or_elimination_draw() {
    let at = |clock: &str| START_TEXT.replace(" 0 0", &format!(" {clock} 400"));
    let mut quiet = game(&at("179"));
    play(&mut *quiet, &["Ra2"]);
    let outcome = quiet.outcome().unwrap();
    assert_eq!(outcome.rule, EndRule::NoCaptureLimit);
    assert!(outcome.is_draw());
    let mut capture = game(&at("179"));
    play(&mut *capture, &["Cxwu:b1"]);
    assert!(capture.outcome().is_none());
    assert!(capture.position_text().ends_with(" 0 401"));
    let one_out = text(
        &[
            ("shu:d1", "Kr"),
            ("wei:d1", "Kb"),
            ("shu:a1", "Rr"),
            ("wei:a1", "Rb"),
        ],
        "shu",
        179,
    );
    let mut two_left = game(&one_out);
    play(&mut *two_left, &["Ra2"]);
    let outcome = two_left.outcome().unwrap();
    assert_eq!(outcome.score_text(), "1/2-0-1/2");
}

#[test]
fn leaving_ends_the_game_only_for_a_nation_still_in_it() {
    let three = Sanguo::start(&Options::default());
    let wu_out =
        Sanguo::from_text(&stalemating_position(Some(false)), &Options::default()).unwrap();
    let mut after = wu_out.clone();
    let mv = after.parse_move("Rwu:e3").unwrap();
    after.play(mv);
    let shared = [
        SeatResult::Loss,
        SeatResult::SharedWin,
        SeatResult::SharedWin,
    ];
    let alone = [SeatResult::Loss, SeatResult::Loss, SeatResult::Win];
    assert_eq!(three.resign(Seat(0)).results, shared);
    assert_eq!(three.timeout(Seat(0)).rule, EndRule::Timeout);
    assert_eq!(after.resign(Seat(0)).results, alone);
    assert_eq!(after.resign(Seat(0)).rule, EndRule::Resignation);
    assert!(after.is_playing(Seat(0)));
    assert!(!after.is_playing(Seat(1)));
    assert_eq!(after.departure(Seat(1), EndRule::Abandonment), None);
    assert_eq!(
        after
            .departure(Seat(2), EndRule::Abandonment)
            .unwrap()
            .results,
        [SeatResult::Win, SeatResult::Loss, SeatResult::Loss]
    );
}

#[test]
fn flags_off_removes_the_flags() {
    let options = Options::parse("flags=off", Sanguo::option_specs()).unwrap();
    let start = Sanguo::start(&options);
    assert!(!start.to_text().contains('F'));
    let error = Sanguo::from_text(START_TEXT, &options).unwrap_err();
    assert!(error.reason.contains("without flags"), "{error}");
    let game = variant("sanguo")
        .unwrap()
        .new_game("flags=off", None)
        .unwrap();
    assert_eq!(game.options(), "flags=off");
    assert_eq!(game.legal_moves(Notation::Long).len(), 44);
}

#[test]
fn position_text_round_trips_and_names_the_field_at_fault() {
    let start = Sanguo::from_text(START_TEXT, &Options::default()).unwrap();
    assert_eq!(start.to_text(), START_TEXT);
    let replace = |from: &str, to: &str| START_TEXT.replacen(from, to, 1);
    let cases = [
        ("", "fields"),
        (&START_TEXT.replace('|', "/"), "piece placement"),
        (&replace("9/Pr", "8/Pr"), "piece placement"),
        (&replace("RrHr", "RxHr"), "piece placement"),
        (&replace("RrHr", "Rr"), "piece placement"),
        (&replace("ErAr", "ArAr"), "piece placement"),
        (&replace("9/Pr1", "Er8/Pr1"), "piece placement"),
        (&replace("1Cr1Fr", "Pr1Cr1Fr"), "piece placement"),
        (&replace("RrHrErArKr", "KrHrErAr1"), "piece placement"),
        (&replace("9/Pg1", "Pg8/Pg1"), "piece placement"),
        (&replace("RrHr", "RgrHr"), "piece placement"),
        (&replace("KrAr", "KgAr"), "piece placement"),
        (&replace("shu -", "han -"), "nation to move"),
        (&replace("shu -", "shu wu"), "nations out"),
        (&replace("shu - 0", "shu - x"), "clock"),
        (&replace("- 0 0", "- 0 -1"), "ply"),
    ];
    for (text, field) in cases {
        let error = Sanguo::from_text(text, &Options::default())
            .map(|p| p.to_text())
            .unwrap_err();
        assert_eq!(error.field, field, "{text}: {error}");
    }
}

#[test]
fn moves_read_in_both_notations_and_never_guess() {
    let start = Sanguo::start(&Options::default());
    let cases = [
        ("shu:b3-wei:h1", Ok("shu:b3-wei:h1")),
        ("b3xwei:h1", Ok("shu:b3-wei:h1")),
        ("Cxwei:h1", Ok("shu:b3-wei:h1")),
        ("Cwei:h1", Ok("shu:b3-wei:h1")),
        ("SHU:B3-WEI:H1", Ok("shu:b3-wei:h1")),
        ("Hc3", Ok("shu:b1-shu:c3")),
        ("Ec1-e3", Ok("shu:c1-shu:e3")),
        ("Fwu:e5", Ok("shu:f3-wu:e5")),
        ("Ee3", Err("ambiguous")),
        ("Ra4", Err("illegal")),
        ("wu:a1-wu:a2", Err("illegal")),
        ("", Err("cannot read")),
        ("Rz9", Err("cannot read")),
        ("a1", Err("cannot read")),
    ];
    for (text, expected) in cases {
        let result = start
            .parse_move(text)
            .map(|m| start.write_move(m, Notation::Long))
            .map_err(|e| e.to_string());
        match (result, expected) {
            (Ok(long), Ok(want)) => assert_eq!(long, want, "{text}"),
            (Err(error), Err(want)) => assert!(error.contains(want), "{text}: {error}"),
            (result, _) => panic!("{text}: {result:?}"),
        }
    }
}

#[test]
fn start_perft_is_pinned() {
    for (options, expected) in [
        ("", [40, 1_588, 62_560]),
        ("flags=off", [44, 1_928, 84_128]),
    ] {
        let game = variant("sanguo").unwrap().new_game(options, None).unwrap();
        for (depth, nodes) in (1..).zip(expected) {
            assert_eq!(game.perft(depth), nodes, "{options} depth {depth}");
        }
    }
}

#[test]
fn capturing_a_general_answers_the_checks_of_its_army() {
    let position = position(
        &[
            ("shu:d1", "Kr"),
            ("wu:e4", "Rr"),
            ("wu:e1", "Kg"),
            ("wei:f2", "Rg"),
            ("wei:d1", "Kb"),
        ],
        "shu",
    );
    assert!(position.is_in_check(Nation::Shu));
    assert_eq!(moves(&position), ["shu:d1-shu:e1", "wu:e4-wu:e1"]);
}
